import Testing

@testable import TodoTxt

/// ``ListCheck``'s copies of a line: the first line of each text (without its creation date)
/// is what a later one repeats.
@Suite struct ListCheckTests {
  static func list(_ text: String) -> TodoList { TodoList(bytes: Array(text.utf8)) }

  @Test func aCopyNamesTheFirstLineOfItsTextAndAnExactCopyItsFirstExactLine() {
    let list = Self.list("2026-01-01 Buy milk\nBuy milk\n2026-02-02 Buy milk\nCall mom\nBuy milk\nCall mom\n")
    let problems = ListCheck.problems(in: list, knownIDs: [])
    #expect(
      problems == [
        ListProblem(line: 2, kind: .duplicate(of: 1)), ListProblem(line: 3, kind: .duplicate(of: 1)),
        ListProblem(line: 5, kind: .exactDuplicate(of: 2)), ListProblem(line: 6, kind: .exactDuplicate(of: 4)),
      ])
  }

  /// The table of first lines answers for the text, whichever line of it is asked about.
  @Test func theFirstLinesTableKeepsTheFirstNumberOfEachText() {
    let list = Self.list("2026-01-01 a\nb\na\n2026-03-03 b\n")
    var table = ListCheck.FirstLines(capacity: 4)
    let keys = list.indices.map { ListCheck.withoutCreationDate(list[$0]) }
    func key(_ number: Int) -> ListCheck.LineKey { keys[number - 1] }
    #expect(table.first(keys[0], number: 1, keyOfLine: key) == nil)
    #expect(table.first(keys[1], number: 2, keyOfLine: key) == nil)
    #expect(table.first(keys[2], number: 3, keyOfLine: key) == 1)
    #expect(table.first(keys[3], number: 4, keyOfLine: key) == 2)
  }

  /// Exact copies: the same bytes, an empty line after an empty line; a line that differs
  /// only in its creation date is no exact copy.
  @Test func exactCopiesAreTheSameBytes() {
    let list = Self.list("a\n\nb\na\n\n2026-01-01 b\nb\nA\n")
    #expect(ListCheck.exactCopies(in: list) == [false, false, false, true, true, false, true, false])
  }
}
