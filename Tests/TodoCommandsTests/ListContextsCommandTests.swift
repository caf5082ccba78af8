import Testing

/// `listcon`: the @contexts of todo.txt, each once, sorted; an e-mail address is none.
@Suite struct ListContextsCommandTests {
  static let todo = "Call mom @phone +family\n(B) Buy milk @store +shop @phone\nEmail a@b.com\n"

  @Test(arguments: ["todo", "todo.sh"])
  func listsEachContextOnce(name: String) throws {
    let list = try CommandFixture(todo: ListContextsCommandTests.todo)
    let run = list.run(name, ["listcon"])
    #expect(run.status == 0)
    #expect(run.stdout == "@phone\n@store\n")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func ofTheTasksMatchingTheTerms(name: String) throws {
    let list = try CommandFixture(todo: ListContextsCommandTests.todo)
    #expect(list.run(name, ["lsc", "mom"]).stdout == "@phone\n")
  }

  @Test func nativeRefusesAControlCharacter() throws {
    let list = try CommandFixture(todo: ListContextsCommandTests.todo)
    list.todo("listcon", "x\u{85}").expectOneLineError(containing: "control character U+0085")
  }
}
