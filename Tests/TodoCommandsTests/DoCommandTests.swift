import Testing

/// `do`: tasks marked done; todo.sh's name archives them at once, `todo`'s leaves them.
@Suite struct DoCommandTests {
  @Test func nativeLeavesTheDoneTaskInPlaceAndKeepsItsPriorityAsATag() throws {
    let list = try CommandFixture(todo: "(A) 2009-02-01 Call mom\nBuy milk\n")
    let run = list.todo("do", "1")
    #expect(run.status == 0)
    #expect(run.stdout == "1 x 2009-02-13 2009-02-01 Call mom pri:A\nTODO: 1 marked as done.\n")
    #expect(list.read("todo.txt") == "x 2009-02-13 2009-02-01 Call mom pri:A\nBuy milk\n")
    #expect(!list.exists("done.txt"))
  }

  @Test func todoShDropsThePriorityAndArchives() throws {
    let list = try CommandFixture(todo: "(A) Call mom\nBuy milk\n")
    let run = list.sh("do", "1")
    #expect(run.status == 0)
    #expect(
      run.stdout
        == "1 x 2009-02-13 Call mom\nTODO: 1 marked as done.\nx 2009-02-13 Call mom\nTODO: \(list.path("todo.txt")) archived.\n")
    #expect(list.read("todo.txt") == "Buy milk\n")
    #expect(list.read("done.txt") == "x 2009-02-13 Call mom\n")
  }

  @Test func todoShWithoutAutoArchiveLeavesTheTask() throws {
    let list = try CommandFixture(todo: "Call mom\nBuy milk\n")
    #expect(list.sh("-a", "do", "2", "1").status == 0)
    #expect(list.read("todo.txt") == "x 2009-02-13 Call mom\nx 2009-02-13 Buy milk\n")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func aTaskAlreadyDoneIsSaidAndFails(name: String) throws {
    let list = try CommandFixture(todo: "x 2009-02-10 Call mom\n")
    let run = list.run(name, ["-a", "do", "1"])
    #expect(run.status == 1)
    #expect(run.stderr == "TODO: 1 is already marked done.\n")
    #expect(list.read("todo.txt") == "x 2009-02-10 Call mom\n")
  }

  @Test func nativeChecksEveryNumberBeforeChangingAny() throws {
    let list = try CommandFixture(todo: "Call mom\nBuy milk\n")
    list.todo("do", "1", "9").expectOneLineError(containing: "TODO: No task 9.")
    list.todo("do", "2", "2").expectOneLineError(containing: "task 2 is named more than once")
    #expect(list.read("todo.txt") == "Call mom\nBuy milk\n")
  }

  @Test func todoShStopsAtTheBadNumberKeepingEarlierChanges() throws {
    let list = try CommandFixture(todo: "Call mom\nBuy milk\n")
    let run = list.sh("-a", "do", "1", "9")
    #expect(run.status == 1)
    #expect(run.combined.hasSuffix("TODO: No task 9.\n"))
    #expect(list.read("todo.txt") == "x 2009-02-13 Call mom\nBuy milk\n")
  }

  @Test func nativeRefusesAMalformedNumberAndNoNumber() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    #expect(list.todo("do", "first").status == 1)
    #expect(list.todo("do").status == 1)
    #expect(list.todo("do", "1\u{1B}").status == 1)
    #expect(list.read("todo.txt") == "Call mom\n")
  }

  @Test func nativeBringsBackARecurringTask() throws {
    let list = try CommandFixture(todo: "Water plants due:2009-02-13 rec:+1w\n")
    let run = list.todo("do", "1")
    #expect(run.status == 0)
    let lines = list.read("todo.txt").split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.first == "x 2009-02-13 Water plants due:2009-02-13 rec:+1w")
    // Strict recurrence: a week after the old due date.
    #expect(lines.last?.contains("Water plants due:2009-02-20 rec:+1w") == true)
    #expect(run.stdout.contains("TODO: 2 added.\n"))
  }
}
