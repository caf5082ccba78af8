import Testing
import TodoTxt

@testable import TodoCommands

/// `edit`'s line alignment: applied to the original it gives the edited text, and it keeps
/// every line the edit did not touch (so a small edit of a large file stays a small patch).
@Suite struct LineAlignmentTests {
  func lines(_ list: TodoList) -> [String] { list.map { String(decoding: $0.bytes, as: UTF8.self) } }

  /// Edits `count` distinct lines at random: each deleted, replaced, or followed by a new one.
  func check(count: Int, edits: Int, seed: UInt64) {
    var random = KeySortTests.Generator(state: seed)
    let original = (0..<count).map { "task \($0) +p\($0 % 7)" }
    var edited: [String] = []
    var touched = 0
    var deleted = 0
    var inserted = 0
    var replaced = 0
    for line in original {
      guard touched < edits, random.below(count / edits) == 0 else {
        edited.append(line)
        continue
      }
      touched += 1
      switch random.below(3) {
      case 0: deleted += 1
      case 1:
        edited.append(line + " changed")
        replaced += 1
      default:
        edited += [line, "new \(inserted)"]
        inserted += 1
      }
    }
    var list = TodoList(parsing: original.joined(separator: "\n") + "\n")
    let target = LineSet(bytes: Array((edited.joined(separator: "\n") + "\n").utf8))
    let alignment = LineAlignment(LineSet(list), target)
    let (changed, added, removed) = alignment.apply(to: &list) { target.line($0) }
    #expect(lines(list) == edited)
    // Every untouched line was kept: the changes are no more than the edits made.
    #expect(changed + added + removed <= replaced + inserted + deleted + replaced)
    #expect(added - removed == inserted - deleted)
  }

  @Test func smallFileLineByLine() { check(count: 300, edits: 40, seed: 1) }

  @Test func largeFileByUniqueLines() {
    // 30,000 lines on each side is past the line-by-line limit: unique lines anchor.
    check(count: 30_000, edits: 300, seed: 2)
  }

  @Test func duplicatesAndEmptyFiles() {
    var list = TodoList(parsing: "a\na\nb\na\n")
    let target = LineSet(bytes: Array("a\nb\nb\na\n".utf8))
    _ = LineAlignment(LineSet(list), target).apply(to: &list) { target.line($0) }
    #expect(lines(list) == ["a", "b", "b", "a"])
    var empty = TodoList(parsing: "")
    let some = LineSet(bytes: Array("x\ny\n".utf8))
    #expect(LineAlignment(LineSet(empty), some).apply(to: &empty) { some.line($0) } == (0, 2, 0))
    var full = TodoList(parsing: "x\ny\n")
    let none = LineSet(bytes: [])
    #expect(LineAlignment(LineSet(full), none).apply(to: &full) { none.line($0) } == (0, 0, 2))
    #expect(full.serialized().isEmpty)
  }
}
