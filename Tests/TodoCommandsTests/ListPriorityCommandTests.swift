import Testing

/// `lsp`: the tasks with a priority, or with the priorities asked for.
@Suite struct ListPriorityCommandTests {
  static let todo = "Call mom\n(B) Buy milk\n(A) Pay rent\n(C) Walk dog\n"

  @Test func todoShListsEveryPrioritizedTask() throws {
    let list = try CommandFixture(todo: ListPriorityCommandTests.todo)
    let run = list.sh("-p", "lsp")
    #expect(run.status == 0)
    #expect(run.stdout == "3 (A) Pay rent\n2 (B) Buy milk\n4 (C) Walk dog\n--\nTODO: 3 of 4 tasks shown\n")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func oneLetterOrARange(name: String) throws {
    let list = try CommandFixture(todo: ListPriorityCommandTests.todo)
    #expect(list.run(name, ["-p", "lsp", "b"]).stdout.hasPrefix("2 (B) Buy milk\n"))
    let range = list.run(name, ["-p", "lsp", "A-B"])
    #expect(range.stdout.hasPrefix("3 (A) Pay rent\n2 (B) Buy milk\n"))
    #expect(range.combined.hasSuffix("TODO: 2 of 4 tasks shown\n"))
  }

  @Test func aPriorityAndATerm() throws {
    let list = try CommandFixture(todo: ListPriorityCommandTests.todo)
    #expect(list.sh("-p", "lsp", "C", "dog").stdout == "4 (C) Walk dog\n--\nTODO: 1 of 4 tasks shown\n")
    #expect(list.sh("-p", "lsp", "A", "dog").stdout == "--\nTODO: 0 of 4 tasks shown\n")
  }

  @Test func nativeTakesPriorityWords() throws {
    let list = try CommandFixture(todo: ListPriorityCommandTests.todo)
    #expect(list.todo("lsp", "high").stdout == "3 (A) Pay rent\n")
    #expect(list.todo("lsp", "high-medium").stdout == "3 (A) Pay rent\n2 (B) Buy milk\n")
  }

  @Test func nativeRefusesAControlCharacter() throws {
    let list = try CommandFixture(todo: ListPriorityCommandTests.todo)
    list.todo("lsp", "A", "\u{07}").expectOneLineError(containing: "control character U+0007")
  }
}
