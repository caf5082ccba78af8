import Testing

/// `-q EXPR` on the editing commands: the tasks a query selects instead of task numbers,
/// shown and confirmed unless forced.
@Suite struct QuerySelectionTests {
  static let todo = "Call mom +family\nPay rent +home\nBuy milk +home\n"

  @Test func forcedActsOnEveryMatch() throws {
    let list = try CommandFixture(todo: QuerySelectionTests.todo)
    let run = list.todo("do", "-f", "-q", "+home")
    #expect(run.status == 0)
    #expect(run.stdout == "2 x 2009-02-13 Pay rent +home\nTODO: 2 marked as done.\n3 x 2009-02-13 Buy milk +home\nTODO: 3 marked as done.\n")
    #expect(list.read("todo.txt") == "Call mom +family\nx 2009-02-13 Pay rent +home\nx 2009-02-13 Buy milk +home\n")
  }

  @Test func theMatchesAreShownAndOnlyYesChangesThem() throws {
    let list = try CommandFixture(todo: QuerySelectionTests.todo)
    let no = list.todo("do", "-q", "+home", input: "n")
    #expect(no.status == 1)
    #expect(no.stdout.hasPrefix("2 Pay rent +home\n3 Buy milk +home\n"))
    #expect(no.stderr == "todo: nothing changed\n")
    #expect(list.read("todo.txt") == QuerySelectionTests.todo)
    let yes = list.todo("pri", "-q", "+home", "B", input: "y")
    #expect(yes.status == 0)
    #expect(list.read("todo.txt") == "Call mom +family\n(B) Pay rent +home\n(B) Buy milk +home\n")
  }

  @Test func noMatchAndBadQueriesChangeNothing() throws {
    let list = try CommandFixture(todo: QuerySelectionTests.todo)
    list.todo("del", "-f", "-q", "+garden").expectOneLineError(containing: "todo: no task matches '+garden'; nothing changed")
    #expect(list.todo("do", "-f", "-q", "(").status == 1)
    list.todo("do", "-f", "-q", "+home\u{1B}").expectOneLineError(containing: "control character U+001B")
    #expect(list.read("todo.txt") == QuerySelectionTests.todo)
  }

  /// A query of nothing would select every task: `del -f -q "$UNSET"` emptied the list.
  /// It is refused by the parser, for the editing commands and the listings alike.
  @Test(arguments: [
    ["del", "-f", "-q", ""], ["do", "-f", "-q", "  "], ["pri", "-f", "-q", "", "A"], ["tag", "-f", "--query=", "due:today"],
    ["ls", "--query", ""], ["lsa", "-q", "\t"],
  ])
  func anEmptyQueryIsRefusedAndChangesNothing(words: [String]) throws {
    let list = try CommandFixture(todo: QuerySelectionTests.todo, done: "x 2009-02-01 old\n")
    list.run("todo", words).expectOneLineError(containing: "is empty; it would select every task")
    #expect(list.files == [QuerySelectionTests.todo, "x 2009-02-01 old\n"])
    // Every task, asked for in words, is every task.
    #expect(list.todo("ls", "-q", "open or done").stdout.split(separator: "\n").count == 3)
  }
}
