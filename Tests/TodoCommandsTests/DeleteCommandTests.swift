import Testing

/// `del`: tasks deleted (their lines emptied), or words taken out of one.
@Suite struct DeleteCommandTests {
  @Test(arguments: ["todo", "todo.sh"])
  func forcedDeleteEmptiesTheLineSoNumbersStay(name: String) throws {
    let list = try CommandFixture(todo: "Call mom\nBuy milk\nPay rent\n")
    let run = list.run(name, ["-f", "del", "2"])
    #expect(run.status == 0)
    #expect(run.stdout == "2 Buy milk\nTODO: 2 deleted.\n")
    #expect(list.read("todo.txt") == "Call mom\n\nPay rent\n")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func theAnswerYesDeletesAndAnythingElseKeeps(name: String) throws {
    let list = try CommandFixture(todo: "Call mom\nBuy milk\n")
    let yes = list.run(name, ["del", "1"], input: "y")
    #expect(yes.status == 0)
    #expect(yes.stdout == "\n1 Call mom\nTODO: 1 deleted.\n")
    let no = list.run(name, ["del", "2"], input: "n")
    #expect(no.status == 1)
    #expect(no.combined.hasSuffix("TODO: No tasks were deleted.\n"))
    #expect(list.read("todo.txt") == "\nBuy milk\n")
  }

  @Test func withoutPreservedLineNumbersTheLineGoes() throws {
    let list = try CommandFixture(todo: "Call mom\nBuy milk\nPay rent\n")
    #expect(list.sh("-f", "-n", "del", "2").status == 0)
    #expect(list.read("todo.txt") == "Call mom\nPay rent\n")
  }

  @Test func nativeDeletesSeveralTasksAtOnce() throws {
    let list = try CommandFixture(todo: "Call mom\nBuy milk\nPay rent\n")
    let run = list.todo("del", "-f", "3", "1")
    #expect(run.status == 0)
    #expect(run.stdout == "3 Pay rent\nTODO: 3 deleted.\n1 Call mom\nTODO: 1 deleted.\n")
    #expect(list.read("todo.txt") == "\nBuy milk\n\n")
  }

  @Test func todoShRemovesATermFromATask() throws {
    let list = try CommandFixture(todo: "Buy milk now\n")
    let run = list.sh("del", "1", "milk")
    #expect(run.status == 0)
    #expect(run.stdout == "1 Buy milk now\nTODO: Removed 'milk' from task.\n1 Buy now\n")
    #expect(list.read("todo.txt") == "Buy now\n")
    let missing = list.sh("del", "1", "bread")
    #expect(missing.status == 1)
    #expect(missing.combined == "1 Buy now\nTODO: 'bread' not found; no removal done.\n")
    #expect(list.read("todo.txt") == "Buy now\n")
  }

  @Test func nativeRemovesWholeWordsOnly() throws {
    let list = try CommandFixture(todo: "Buy milk and milkshake +shop\n")
    let run = list.todo("del", "1", "--words", "milk +shop")
    #expect(run.status == 0)
    #expect(list.read("todo.txt") == "Buy and milkshake\n")
    list.todo("del", "1", "--words", "bread").expectOneLineError(containing: "TODO: 'bread' not found")
    #expect(list.read("todo.txt") == "Buy and milkshake\n")
  }

  @Test func nativeRefusesATermInPlaceOfANumber() throws {
    let list = try CommandFixture(todo: "Buy milk\n")
    let run = list.todo("del", "1", "milk")
    run.expectOneLineError(containing: "usage: todo del NR [NR ...]")
    #expect(list.read("todo.txt") == "Buy milk\n")
  }

  @Test func nativeChecksEveryNumberFirst() throws {
    let list = try CommandFixture(todo: "Call mom\nBuy milk\n")
    list.todo("del", "-f", "1", "5").expectOneLineError(containing: "TODO: No task 5.")
    list.todo("del", "-f", "2", "2").expectOneLineError(containing: "named more than once")
    #expect(list.read("todo.txt") == "Call mom\nBuy milk\n")
  }

  @Test func todoShRefusesAMissingTask() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    let run = list.sh("-f", "del", "4")
    #expect(run.status == 1)
    #expect(run.combined == "TODO: No task 4.\n")
    #expect(list.read("todo.txt") == "Call mom\n")
  }
}
