import Testing

/// `pri`: a task's priority set or changed.
@Suite struct PriorityCommandTests {
  @Test(arguments: ["todo", "todo.sh"])
  func setsAndChangesThePriority(name: String) throws {
    let list = try CommandFixture(todo: "Call mom\n(C) Buy milk\n")
    let set = list.run(name, ["pri", "1", "b"])
    #expect(set.status == 0)
    #expect(set.stdout == "1 (B) Call mom\nTODO: 1 prioritized (B).\n")
    let changed = list.run(name, ["pri", "2", "A"])
    #expect(changed.stdout == "2 (A) Buy milk\nTODO: 2 re-prioritized from (C) to (A).\n")
    #expect(list.read("todo.txt") == "(B) Call mom\n(A) Buy milk\n")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func theSamePriorityAgainIsSaidAndFails(name: String) throws {
    let list = try CommandFixture(todo: "(A) Call mom\n")
    let run = list.run(name, ["pri", "1", "A"])
    #expect(run.status == 1)
    #expect(run.stdout == "1 (A) Call mom\n")
    #expect(run.stderr == "TODO: 1 already prioritized (A).\n")
    #expect(list.read("todo.txt") == "(A) Call mom\n")
  }

  @Test func nativeTakesPriorityWordsAndSeveralPairs() throws {
    let list = try CommandFixture(todo: "Call mom\nBuy milk\nPay rent\n")
    #expect(list.todo("pri", "1", "high", "2", "medium", "3", "l").status == 0)
    #expect(list.read("todo.txt") == "(A) Call mom\n(B) Buy milk\n(C) Pay rent\n")
  }

  @Test func nativeKeepsADoneTaskDone() throws {
    let list = try CommandFixture(todo: "x 2009-02-10 Call mom pri:C\n")
    #expect(list.todo("pri", "1", "A").status == 0)
    #expect(list.read("todo.txt") == "x 2009-02-10 Call mom pri:A\n")
  }

  @Test func nativeRefusesBadInputBeforeAnyChange() throws {
    let list = try CommandFixture(todo: "Call mom\nBuy milk\n")
    list.todo("pri", "1", "A", "2", "AB").expectOneLineError(containing: "'AB' is not a priority")
    list.todo("pri", "1", "A", "7", "B").expectOneLineError(containing: "TODO: No task 7.")
    list.todo("pri", "1", "\u{1B}").expectOneLineError(containing: "control character U+001B")
    #expect(list.todo("pri", "1").status == 1)
    #expect(list.read("todo.txt") == "Call mom\nBuy milk\n")
  }

  @Test func todoShRefusesANonLetterWithItsUsage() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    let run = list.sh("pri", "1", "high")
    #expect(run.status == 1)
    #expect(run.combined.contains("PRIORITY must be anywhere from A to Z."))
    #expect(list.read("todo.txt") == "Call mom\n")
  }
}
