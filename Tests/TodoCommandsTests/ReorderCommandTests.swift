import Testing

/// `reorder FROM TO`: a task's line moved; the lines between shift by one.
@Suite struct ReorderCommandTests {
  @Test func movesUpAndSaysWhatShifted() throws {
    let list = try CommandFixture(todo: "a\nb\nc\nd\n")
    let run = list.todo("reorder", "4", "2")
    #expect(run.status == 0)
    #expect(run.stdout == "2 d\nTODO: 4 moved to 2; 2-3 now 3-4.\n")
    #expect(list.read("todo.txt") == "a\nd\nb\nc\n")
  }

  @Test func movesDown() throws {
    let list = try CommandFixture(todo: "a\nb\nc\n")
    let run = list.todo("reorder", "1", "2")
    #expect(run.stdout == "2 a\nTODO: 1 moved to 2; 2 now 1.\n")
    #expect(list.read("todo.txt") == "b\na\nc\n")
    #expect(list.todo("reorder", "3", "3").stdout == "3 c\nTODO: 3 stays at 3.\n")
    #expect(list.read("todo.txt") == "b\na\nc\n")
  }

  @Test func refusesMissingTasksAndPlaces() throws {
    let list = try CommandFixture(todo: "a\nb\n")
    list.todo("reorder", "5", "1").expectOneLineError(containing: "TODO: No task 5.")
    list.todo("reorder", "1", "5").expectOneLineError(containing: "TODO: There is no line 5 to move to.")
    #expect(list.todo("reorder", "1").status == 1)
    #expect(list.todo("reorder", "one", "2").status == 1)
    #expect(list.read("todo.txt") == "a\nb\n")
  }

  @Test func todoShHasNoReorderAction() throws {
    let list = try CommandFixture(todo: "a\nb\n")
    #expect(list.sh("reorder", "2", "1").status == 1)
    #expect(list.read("todo.txt") == "a\nb\n")
  }
}
