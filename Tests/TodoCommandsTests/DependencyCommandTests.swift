import Testing

/// `dep add|rm|ls`: tasks that wait for others, by `id:` and `p:` tags.
@Suite struct DependencyCommandTests {
  @Test func addLinksTasksAndHidesTheWaitingOneFromLs() throws {
    let list = try CommandFixture(todo: "Ship release\nWrite docs\nFix bug\n")
    let run = list.todo("dep", "add", "1", "2", "3")
    #expect(run.status == 0)
    #expect(run.stdout == "TODO: 1 waits for 2.\nTODO: 1 waits for 3.\n")
    #expect(list.read("todo.txt") == "Ship release id:1\nWrite docs p:1\nFix bug p:1\n")
    #expect(list.todo("ls").stdout == "3 Fix bug p:1\n2 Write docs p:1\n")
  }

  @Test func lsShowsWhatOneTaskWaitsForAndWhatWaitsForIt() throws {
    let list = try CommandFixture(todo: "Ship release id:1\nWrite docs p:1\nFix bug p:1\n")
    #expect(
      list.todo("dep", "ls", "1").stdout
        == "1 Ship release id:1\n  waits for 2 Write docs p:1\n  waits for 3 Fix bug p:1\n")
    #expect(list.todo("dep", "ls", "2").stdout == "2 Write docs p:1\n  needed by 1 Ship release id:1\n")
  }

  @Test func lsWithoutANumberShowsEveryWaitingTask() throws {
    let list = try CommandFixture(todo: "Ship release id:1\nWrite docs p:1\nFix bug\nDeploy id:2\nTest p:2\n")
    let run = list.todo("dep", "ls")
    #expect(run.status == 0)
    #expect(run.stdout == "1 Ship release id:1\n  waits for 2 Write docs p:1\n4 Deploy id:2\n  waits for 5 Test p:2\n")
  }

  @Test func rmUndoesOneLinkAndTheLastLinkTakesTheId() throws {
    let list = try CommandFixture(todo: "Ship release id:1\nWrite docs p:1\nFix bug p:1\n")
    #expect(list.todo("dep", "rm", "1", "2").stdout == "TODO: 1 no longer waits for 2.\n")
    #expect(list.read("todo.txt") == "Ship release id:1\nWrite docs\nFix bug p:1\n")
    #expect(list.todo("dep", "rm", "1", "3").status == 0)
    #expect(list.read("todo.txt") == "Ship release\nWrite docs\nFix bug\n")
  }

  @Test func doingTheLastBlockerSaysTheTaskIsFree() throws {
    let list = try CommandFixture(todo: "Ship release id:1\nFix bug p:1\n")
    let run = list.todo("do", "2")
    #expect(run.stdout.hasSuffix("TODO: 1 no longer waits for anything:\n1 Ship release id:1\n"))
  }

  @Test func refusesCyclesSelfLinksAndMissingLinks() throws {
    let todo = "Ship release id:1\nWrite docs p:1\nFix bug\n"
    let list = try CommandFixture(todo: todo)
    list.todo("dep", "add", "2", "1").expectOneLineError(containing: "TODO: 1 already waits for 2; 2 cannot wait for 1 too.")
    list.todo("dep", "add", "1", "1").expectOneLineError(containing: "TODO: 1 cannot wait for itself.")
    list.todo("dep", "add", "1", "9").expectOneLineError(containing: "TODO: No task 9.")
    list.todo("dep", "rm", "1", "3").expectOneLineError(containing: "TODO: 1 does not wait for 3.")
    list.todo("dep", "rm", "3", "1").expectOneLineError(containing: "TODO: 3 does not wait for any task.")
    list.todo("dep", "frob").expectOneLineError(containing: "'dep' has no subcommand 'frob'")
    #expect(list.todo("dep", "add", "1").status == 1)
    #expect(list.read("todo.txt") == todo)
  }
}
