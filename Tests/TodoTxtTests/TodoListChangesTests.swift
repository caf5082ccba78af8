import Testing
import TodoTestSupport
import TodoTxt

@Suite("TodoList changes")
struct TodoListChangesTests {
  /// Rebuilds the new version from the old one and a change set: every kept line must be the
  /// same bytes, every replaced or inserted line is read from the new version, every line of
  /// both versions is named exactly once.
  private func check(_ changes: [LineChange], old: TodoList, new: TodoList) {
    var currents: [Int] = []
    var originals: [Int] = []
    var lastKept = -1
    for change in changes {
      switch change {
      case .keep(let original, let current):
        #expect(old.lineBytes(at: original) == new.lineBytes(at: current))
        #expect(original > lastKept, "kept lines stay in order")
        lastKept = original
        originals.append(original)
        currents.append(current)
      case .replace(let original, let current):
        originals.append(original)
        currents.append(current)
      case .insert(let current): currents.append(current)
      case .delete(let original): originals.append(original)
      }
    }
    #expect(currents == Array(0..<new.count), "each new line once, in order")
    #expect(originals.sorted() == Array(0..<old.count), "each old line once")
  }

  /// A random line: tasks, blank lines, CR and control bytes inside, invalid UTF-8.
  private func line(_ random: inout SplitMix64) -> [UInt8] {
    let pool: [[UInt8]] = [
      Array("(A) call mum +family".utf8), Array("x 2026-01-02 paid rent".utf8), [],
      Array("buy milk @shop due:2026-12-24".utf8), [0xFF, 0xFE, 0x41], Array("tab\there".utf8),
      Array("a\rb".utf8), [0x1B, 0x5B, 0x41], Array("same".utf8), Array("same".utf8),
    ]
    var bytes = pool[random.below(pool.count)]
    if random.below(3) == 0 { bytes += Array(" \(random.below(50))".utf8) }
    return bytes
  }

  private func list(_ lines: [[UInt8]], crlf: [Bool], finalNewline: Bool, bom: Bool) -> TodoList {
    var bytes: [UInt8] = bom ? TodoList.byteOrderMark : []
    for (index, line) in lines.enumerated() {
      bytes += line
      if index < lines.count - 1 || finalNewline { bytes += crlf[index] ? [0x0D, 0x0A] : [0x0A] }
    }
    return TodoList(bytes: bytes)
  }

  @Test("a change set names every line once and rebuilds the new version", arguments: 0..<40)
  func changeSetsAreTrue(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var lines = (0..<random.below(30)).map { _ in line(&random) }
    let old = list(lines, crlf: lines.map { _ in random.below(4) == 0 }, finalNewline: random.below(2) == 0, bom: false)
    for _ in 0..<random.below(8) {
      switch random.below(4) {
      case 0: lines.insert(line(&random), at: random.below(lines.count + 1))
      case 1 where !lines.isEmpty: lines.remove(at: random.below(lines.count))
      case 2 where !lines.isEmpty: lines[random.below(lines.count)] = line(&random)
      case 3 where lines.count > 1: lines.swapAt(random.below(lines.count), random.below(lines.count))
      default: break
      }
    }
    let new = list(
      lines, crlf: lines.map { _ in random.below(4) == 0 }, finalNewline: random.below(2) == 0,
      bom: random.below(5) == 0)
    check(new.changes(from: old), old: old, new: new)

    var replaced = old
    replaced.replaceContents(with: new)
    #expect(replaced.serialized() == new.serialized(), "seed \(seed)")
  }

  @Test("one edited task in a long list is one replaced line; the rest is kept")
  func oneEdit() {
    let text = (1...500).map { "task \($0)\n" }.joined()
    let old = TodoList(parsing: text)
    var new = old
    new.replace(at: 249, with: Task(parsing: "task 250 +edited"))
    let changes = TodoList(parsing: new.text).changes(from: old)
    #expect(changes.filter { if case .keep = $0 { false } else { true } } == [.replace(original: 249, current: 249)])
  }

  @Test("a task moved to the top is one deletion and one insertion, not a shift of every line")
  func moveToTop() {
    let old = TodoList(parsing: (1...300).map { "task \($0)\n" }.joined())
    var new = old
    new.move(from: 299, to: 0)
    let changes = TodoList(parsing: new.text).changes(from: old)
    let notKept = changes.filter { if case .keep = $0 { false } else { true } }
    #expect(notKept == [.insert(current: 0), .delete(original: 299)])
  }

  @Test("replaceContents touches only the lines that differ: the others stay as read")
  func replaceKeepsTheRest() {
    let old = TodoList(parsing: "a\nb\nc\nd\n")
    var list = old
    list.replaceContents(with: TodoList(parsing: "a\nB\nc\nd\ne\n"))
    #expect(list.text == "a\nB\nc\nd\ne\n")
    #expect(
      list.changes() == [
        .keep(original: 0, current: 0), .replace(original: 1, current: 1), .keep(original: 2, current: 2),
        .keep(original: 3, current: 3), .insert(current: 4),
      ])
  }

  @Test("line endings, a missing final newline and the byte order mark follow the new version")
  func endingsFollow() {
    var list = TodoList(parsing: "a\r\nb\r\nc")
    let target = TodoList(bytes: TodoList.byteOrderMark + Array("a\nb\r\nc\nd".utf8))
    list.replaceContents(with: target)
    #expect(list.serialized() == target.serialized())
    var back = target
    back.replaceContents(with: TodoList(parsing: "a\r\nb\r\nc"))
    #expect(back.text == "a\r\nb\r\nc")
    var emptied = target
    emptied.replaceContents(with: TodoList())
    #expect(emptied.serialized() == [])
  }

  @Test("versions too far apart for the exact search still get a true change set")
  func farApart() {
    var random = SplitMix64(seed: 7)
    let old = TodoList(parsing: (0..<3000).map { "old \($0) \(random.below(5))\n" }.joined())
    let newText = (0..<3000).map { index in
      index % 3 == 0 ? "old \(index) \(index % 5)\n" : "new \(index)\n"
    }.joined()
    let new = TodoList(parsing: newText)
    check(new.changes(from: old), old: old, new: new)
    var replaced = old
    replaced.replaceContents(with: new)
    #expect(replaced.serialized() == new.serialized())
  }

  @Test("one edited line of a 200,000-line list: one replaced line, one added, the rest kept")
  func largeListOneEdit() {
    var bytes: [UInt8] = []
    for index in 0..<200_000 {
      bytes += Array("2025-06-30 Task number \(index) of a long list +Project\(index % 50) @home due:2025-07-01\n".utf8)
    }
    let old = TodoList(bytes: bytes)
    var new = old
    new.replace(at: 100_000, with: Task(parsing: "(A) edited"))
    new.append(Task(parsing: "added"))
    // The common start and end are found a memcmp a line (its speed is measured in
    // BENCHMARKS.md, not here).
    let changes = new.changes(from: old)
    var replaced = old
    replaced.replaceContents(with: new)
    #expect(changes.count == 200_001)
    #expect(changes.contains(.replace(original: 100_000, current: 100_000)))
    #expect(changes.contains(.insert(current: 200_000)))
    #expect(replaced.serialized() == new.serialized())
  }
}
