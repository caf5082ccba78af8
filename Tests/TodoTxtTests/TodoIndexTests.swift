import Testing

@testable import TodoTxt

#if canImport(Glibc)
  import Glibc
#endif

/// The index read in chunks (as on several cores) must equal the index read in one pass.
@Suite struct TodoIndexTests {
  /// Every field of two indexes, compared one by one so that a failure names the field.
  func expectSame(_ a: TodoIndex, _ b: TodoIndex, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(a.taskCount == b.taskCount, sourceLocation: sourceLocation)
    #expect(a.completedCount == b.completedCount, sourceLocation: sourceLocation)
    #expect(a.prioritizedCount == b.prioritizedCount, sourceLocation: sourceLocation)
    #expect(a.projects == b.projects, sourceLocation: sourceLocation)
    #expect(a.contexts == b.contexts, sourceLocation: sourceLocation)
    #expect(a.tagKeys == b.tagKeys, sourceLocation: sourceLocation)
    #expect(a.dueDates.map(\.number) == b.dueDates.map(\.number), sourceLocation: sourceLocation)
    #expect(a.dueDates.map(\.date) == b.dueDates.map(\.date), sourceLocation: sourceLocation)
    #expect(a.thresholdDates.map(\.number) == b.thresholdDates.map(\.number), sourceLocation: sourceLocation)
    #expect(a.thresholdDates.map(\.date) == b.thresholdDates.map(\.date), sourceLocation: sourceLocation)
  }

  static let awkward: [UInt8] =
    TodoList.byteOrderMark
    + utf8(
      """
      (A) 2026-01-02 Call +Family @phone due:2026-01-09 t:2026-01-05\r
      x 2026-01-05 2026-01-02 Done +Family +Family @phone due:2026-02-30 pri:B\r

      \t 
      x (B) 2026-01-05 2026-01-02 a:b:c http://host:8080/x :x x: + @ +: @:x due:2026-01-10 due:2026-01-11
      +a1234567 +a12345678 +a1234567890123456 @ctx\tt:2026-03-01 t:2026-03-02 rec:+1w
      """) + [0x0A, 0xFF, 0x20, 0x2B, 0xC3, 0x0A, 0x2B, 0xEF, 0xBF, 0xBD, 0x0A, 0x2B, 0x61]

  @Test func namesAndDatesOfAnAwkwardFile() {
    let index = TodoIndex(TodoList(bytes: TodoIndexTests.awkward))
    #expect(index.taskCount == 7)
    #expect(index.completedCount == 2)
    #expect(index.prioritizedCount == 2)
    #expect(index.projects["Family"] == [1, 2])
    #expect(index.projects["a12345678"] == [6])
    #expect(index.projects[":"] == [5])
    // `+\u{C3}` (invalid) and `+\u{FFFD}` decode to the same text: the first one seen counts.
    #expect(index.projects["\u{FFFD}"] == [7])
    #expect(index.contexts["phone"] == [1, 2])
    #expect(index.contexts[":x"] == [5])
    #expect(index.tagKeys == ["due": 3, "t": 2, "pri": 1, "rec": 1])
    #expect(index.dueDates.map(\.number) == [1, 5])
    #expect(index.thresholdDates.map(\.number) == [1, 6])
    #expect(index.thresholdDates.last?.date == TaskDate(year: 2026, month: 3, day: 1))
  }

  @Test(arguments: [2, 3, 5, 64])
  func chunksGiveTheSameIndex(chunks: Int) {
    let list = TodoList(bytes: TodoIndexTests.awkward)
    expectSame(TodoIndex(list, chunkCount: chunks), TodoIndex(list, chunkCount: 1))
  }

  @Test func chunksGiveTheSameIndexOnABiggerFile() {
    var bytes: [UInt8] = []
    for n in 0..<5000 {
      bytes += utf8("(\(["A", "B", "C"][n % 3])) task \(n) +p\(n % 37) @c\(n % 11) due:2026-0\(n % 9 + 1)-1\(n % 10)")
      bytes += n % 7 == 0 ? utf8(" t:2026-13-01 k\(n % 5):v\r\n") : [0x0A]
    }
    let list = TodoList(bytes: bytes)
    let one = TodoIndex(list, chunkCount: 1)
    #expect(one.taskCount == 5000)
    for chunks in [2, 3, 8] { expectSame(TodoIndex(list, chunkCount: chunks), one) }
    expectSame(TodoIndex(list), one)
  }

  /// The generated benchmark files, when `bench/parse` has made them. The million-line file
  /// takes a while in a debug build, so it is read only with `TODO_INDEX_FULL_CHECK=1`.
  @Test func chunksGiveTheSameIndexOnBenchmarkFiles() throws {
    let root = #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/")
    var names = ["todo-1k.txt", "todo-10k.txt"]
    if let full = getenv("TODO_INDEX_FULL_CHECK"), String(cString: full) == "1" { names += ["todo-100k.txt", "todo-1m.txt"] }
    for name in names {
      guard let bytes = readFile(root + "/bench/data/" + name) else { continue }
      let list = TodoList(bytes: bytes)
      expectSame(TodoIndex(list, chunkCount: 2), TodoIndex(list, chunkCount: 1))
    }
  }

  @Test func slotsAreSixteenBytesAndKeepEveryField() {
    #expect(MemoryLayout<TodoList.Slot>.stride == 16)
    var slot = TodoList.Slot(start: (1 << 46) - 1, end: 12, ending: .crlf, origin: -1)
    #expect(slot.start == (1 << 46) - 1 && slot.end == 12 && slot.ending == .crlf && slot.origin == -1)
    #expect(!slot.edited)
    slot.origin = Int32.max
    slot.edited = true
    slot.ending = .none
    slot.start = 7
    slot.end = (1 << 46) - 1
    #expect(slot.start == 7 && slot.end == (1 << 46) - 1 && slot.ending == LineEnding.none)
    #expect(slot.origin == Int32.max && slot.edited)
    slot.origin = Int32.min
    slot.edited = false
    #expect(slot.origin == Int32.min && !slot.edited && slot.end == (1 << 46) - 1 && slot.start == 7)
  }
}

/// The bytes of a file, or `nil` when it cannot be read.
private func readFile(_ path: String) -> [UInt8]? {
  guard let file = fopen(path, "rb") else { return nil }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let n = fread(&chunk, 1, chunk.count, file)
    if n <= 0 { break }
    bytes += chunk[0..<n]
  }
  return bytes
}
