import Testing

/// `edit [NR]`: one task or the whole list in the editor (here a `sed` script as `EDITOR`),
/// written back as one change.
@Suite struct EditCommandTests {
  static func editor(_ script: String) -> [String: String] { ["EDITOR": "sed -i '\(script)'", "VISUAL": ""] }

  @Test func oneTask() throws {
    let list = try CommandFixture(todo: "Call mom\nBuy milk\n")
    let run = list.todo("edit", "2", environment: EditCommandTests.editor("s/milk/bread/"))
    #expect(run.status == 0)
    #expect(run.stdout == "TODO: 2 Buy bread\n")
    #expect(list.read("todo.txt") == "Call mom\nBuy bread\n")
  }

  @Test func theWholeListAndADateWord() throws {
    let list = try CommandFixture(todo: "Call mom\nBuy milk\n")
    let run = list.todo("edit", environment: EditCommandTests.editor("1s/$/ due:tomorrow/"))
    #expect(run.status == 0)
    #expect(run.stdout == "TODO: 1 changed, 0 added, 0 removed.\n")
    #expect(list.read("todo.txt") == "Call mom due:2009-02-14\nBuy milk\n")
    #expect(list.todo("undo").status == 0)
    #expect(list.read("todo.txt") == "Call mom\nBuy milk\n")
  }

  @Test func aFailingEditorChangesNothing() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    list.todo("edit", "1", environment: ["EDITOR": "false", "VISUAL": ""]).expectOneLineError(
      containing: "todo: edit: the editor 'false' exited with status 1; nothing changed")
    #expect(list.read("todo.txt") == "Call mom\n")
  }

  @Test func anEmptiedTaskIsAskedAboutAndNoKeepsIt() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    list.todo("edit", "1", input: "n", environment: EditCommandTests.editor("d")).expectOneLineError(
      containing: "todo: edit: nothing changed")
    #expect(list.read("todo.txt") == "Call mom\n")
  }

  @Test func refusesMissingTasksAndTodoShHasNoEdit() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    list.todo("edit", "7", environment: EditCommandTests.editor("s/a/b/")).expectOneLineError(containing: "TODO: No task 7.")
    #expect(list.sh("edit", environment: EditCommandTests.editor("s/a/b/")).status == 1)
    #expect(list.read("todo.txt") == "Call mom\n")
  }
}
