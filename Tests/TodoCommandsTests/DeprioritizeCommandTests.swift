import Testing

/// `depri`: a task's priority removed.
@Suite struct DeprioritizeCommandTests {
  @Test(arguments: ["todo", "todo.sh"])
  func removesThePriority(name: String) throws {
    let list = try CommandFixture(todo: "(A) Call mom\n(B) 2009-02-01 Buy milk\n")
    let run = list.run(name, ["depri", "2", "1"])
    #expect(run.status == 0)
    #expect(run.stdout == "2 2009-02-01 Buy milk\nTODO: 2 deprioritized.\n1 Call mom\nTODO: 1 deprioritized.\n")
    #expect(list.read("todo.txt") == "Call mom\n2009-02-01 Buy milk\n")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func aTaskWithoutPriorityIsSaidAndFails(name: String) throws {
    let list = try CommandFixture(todo: "Call mom\n")
    let run = list.run(name, ["depri", "1"])
    #expect(run.status == 1)
    #expect(run.stderr == "TODO: 1 is not prioritized.\n")
    #expect(list.read("todo.txt") == "Call mom\n")
  }

  @Test func nativeRefusesToTurnATaskIntoADoneOne() throws {
    let list = try CommandFixture(todo: "(A) x marks the spot\n")
    list.todo("depri", "1").expectOneLineError(containing: "without the priority it would read as done")
    #expect(list.read("todo.txt") == "(A) x marks the spot\n")
  }

  @Test func nativeRemovesADoneTasksKeptPriority() throws {
    let list = try CommandFixture(todo: "x 2009-02-10 Call mom pri:A\n")
    #expect(list.todo("depri", "1").status == 0)
    #expect(list.read("todo.txt") == "x 2009-02-10 Call mom\n")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func aMissingTaskIsRefused(name: String) throws {
    let list = try CommandFixture(todo: "(A) Call mom\n")
    let run = list.run(name, ["depri", "3"])
    #expect(run.status == 1)
    #expect(run.combined == "TODO: No task 3.\n")
    #expect(list.read("todo.txt") == "(A) Call mom\n")
  }

  @Test func nativeChangesNothingWhenOneNumberIsBad() throws {
    let list = try CommandFixture(todo: "(A) Call mom\n")
    #expect(list.todo("depri", "1", "x").status == 1)
    #expect(list.todo("depri", "1", "2").status == 1)
    #expect(list.read("todo.txt") == "(A) Call mom\n")
  }
}
