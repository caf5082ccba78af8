import Testing

/// `listproj`: the +projects of todo.txt, each once, sorted.
@Suite struct ListProjectsCommandTests {
  static let todo = "Call mom @phone +family\n(B) Buy milk +shop @store +family\nx 2009-02-01 Old +done\nlost+found a+b\n"

  @Test(arguments: ["todo", "todo.sh"])
  func listsEachProjectOnce(name: String) throws {
    let list = try CommandFixture(todo: ListProjectsCommandTests.todo)
    let run = list.run(name, ["listproj"])
    #expect(run.status == 0)
    #expect(run.stdout == "+done\n+family\n+shop\n")
    #expect(run.stderr == "")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func ofTheTasksMatchingTheTerms(name: String) throws {
    let list = try CommandFixture(todo: ListProjectsCommandTests.todo)
    #expect(list.run(name, ["lsprj", "milk"]).stdout == "+family\n+shop\n")
    #expect(list.run(name, ["listproj", "nothing-matches"]).stdout == "")
  }

  @Test func nativeRefusesAControlCharacter() throws {
    let list = try CommandFixture(todo: ListProjectsCommandTests.todo)
    list.todo("listproj", "\u{1B}").expectOneLineError(containing: "control character U+001B")
  }
}
