import Testing
import TodoTestSupport
import TodoTxt

extension LineBuffer {
  /// A buffer of a copy of `bytes` (as a file read into memory), counting how often it is
  /// told that its bytes may leave memory.
  static func copying(_ bytes: [UInt8], forgotten: Counter? = nil) -> LineBuffer? {
    let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 16)
    copy.copyBytes(from: bytes)
    return LineBuffer(
      bytes: UnsafeRawBufferPointer(copy),
      forget: forgotten.map { counter in { _ in counter.count += 1 } },
      release: { $0.deallocate() })
  }

  /// Counts calls of `forget`.
  final class Counter { var count = 0 }
}

/// A file's versions outside arrays (``LineBuffer``) split and merge exactly as the same bytes
/// read into lists.
@Suite("Line buffer")
struct LineBufferTests {
  /// Files with every kind of line end and start.
  static let files: [String] = [
    "", "a", "a\n", "a\r\n", "\r\n", "\n", "\n\n", "a\nb", "a\r\nb\r\n", "a\rb\n", "a\r", "\r",
    "\u{FEFF}", "\u{FEFF}x\r\ny", "\u{FEFF}\n", "x\n\r\n\n y \t\n", "(A) one\nx 2026-01-02 two\n",
  ]

  @Test(arguments: files)
  func splitsAsAList(_ text: String) throws {
    let bytes = utf8(text)
    let lines = try #require(LineBuffer.copying(bytes))
    let list = TodoList(bytes: bytes)
    #expect(lines.count == list.count)
    for index in 0..<Swift.min(lines.count, list.count) {
      #expect(Array(lines.list()[index].bytes) == Array(list[index].bytes))
    }
    #expect(lines.list().serialized() == bytes)
    #expect(lines.list().count == list.count)
  }

  /// Random three versions of a file made of a few texts (so that lines repeat, move and
  /// resemble each other), in random line endings.
  static func versions(_ random: inout SplitMix64) -> (
    base: [UInt8], ours: [UInt8], theirs: [UInt8]
  ) {
    let texts = [
      "call mom", "(A) call mom", "x 2026-01-02 call mom", "buy milk +shop",
      "buy milk +shop due:2026-02-01",
      "water plants @home", "(B) water the plants @home", "", "  ", "pay rent", "x pay rent",
      "pay the rent today",
    ]
    func version(from lines: [String]) -> [String] {
      var lines = lines
      for _ in 0..<random.below(4) {
        switch random.below(3) {
        case 0 where !lines.isEmpty: lines.remove(at: random.below(lines.count))
        case 1 where !lines.isEmpty:
          lines[random.below(lines.count)] = texts[random.below(texts.count)]
        default: lines.insert(texts[random.below(texts.count)], at: random.below(lines.count + 1))
        }
      }
      return lines
    }
    func file(_ lines: [String]) -> [UInt8] {
      var bytes: [UInt8] = random.below(4) == 0 ? TodoList.byteOrderMark : []
      for (index, line) in lines.enumerated() {
        bytes += utf8(line)
        if index < lines.count - 1 || random.below(3) > 0 {
          bytes += random.below(3) == 0 ? [0x0D, 0x0A] : [0x0A]
        }
      }
      return bytes
    }
    let start = (0..<random.below(8)).map { _ in texts[random.below(texts.count)] }
    return (file(start), file(version(from: start)), file(version(from: start)))
  }

  /// Both ways of holding the versions merge alike.
  @Test(arguments: Array(1...40) as [UInt64])
  func mergesAsLists(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let (base, ours, theirs) = Self.versions(&random)
    let twoWay = random.below(5) == 0
    let expected = TodoMerge.merge(
      base: twoWay ? nil : TodoList(bytes: base), ours: TodoList(bytes: ours),
      theirs: TodoList(bytes: theirs))
    let baseLines = try #require(LineBuffer.copying(base))
    let result = TodoMerge.merge(
      base: twoWay ? nil : baseLines, ours: try #require(LineBuffer.copying(ours)),
      theirs: try #require(LineBuffer.copying(theirs)))
    #expect(result.list.serialized() == expected.list.serialized())
    #expect(result.conflicts == expected.conflicts)
    #expect(result.list.changes() == expected.list.changes())
  }

  /// The same for one file of a todo.txt and done.txt pair, the other file's versions made
  /// the same way (so that tasks look archived, or moved back, on either side).
  @Test(arguments: Array(1...40) as [UInt64])
  func mergesAsListsBesideTheOtherFile(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let (base, ours, theirs) = Self.versions(&random)
    let other = Self.versions(&random)
    let otherVersions = MergeVersions(
      base: TodoList(bytes: other.base), ours: TodoList(bytes: other.ours),
      theirs: TodoList(bytes: other.theirs))
    let kind: TodoMerge.ListFile = random.below(2) == 0 ? .todo : .done
    let expected = TodoMerge.merge(
      MergeVersions(
        base: TodoList(bytes: base), ours: TodoList(bytes: ours), theirs: TodoList(bytes: theirs)),
      as: kind, other: otherVersions)
    let baseLines = try #require(LineBuffer.copying(base))
    let result = TodoMerge.merge(
      base: baseLines, ours: try #require(LineBuffer.copying(ours)),
      theirs: try #require(LineBuffer.copying(theirs)), as: kind, other: otherVersions)
    #expect(result.list.serialized() == expected.list.serialized())
    #expect(result.conflicts == expected.conflicts)
  }

  /// A merge of large versions hands their bytes back as it goes, and still merges them as
  /// lists.
  @Test func largeVersionsAreLetGoWhileMerged() throws {
    let tasks = (0..<40_000).map { "task number \($0) +project\($0 % 7)" }
    var ours = tasks
    ours[100] = "x 2026-01-02 " + ours[100]
    var theirs = tasks
    theirs[30_000] = "(A) " + theirs[30_000]
    theirs.insert("new task +bench", at: 20_000)
    func file(_ lines: [String]) -> [UInt8] { utf8(lines.map { $0 + "\n" }.joined()) }
    let counters = (LineBuffer.Counter(), LineBuffer.Counter(), LineBuffer.Counter())
    let baseLines = try #require(LineBuffer.copying(file(tasks), forgotten: counters.0))
    let result = TodoMerge.merge(
      base: baseLines,
      ours: try #require(LineBuffer.copying(file(ours), forgotten: counters.1)),
      theirs: try #require(LineBuffer.copying(file(theirs), forgotten: counters.2)))
    var merged = ours
    merged[30_000] = "(A) " + merged[30_000]
    merged.insert("new task +bench", at: 20_000)
    #expect(result.isClean)
    #expect(result.list.serialized() == file(merged))
    // Each version is 1.4 MB, read more than once: more than a megabyte of each is let go.
    #expect(counters.0.count > 1)
    #expect(counters.1.count > 1)
    #expect(counters.2.count > 1)
  }
}
