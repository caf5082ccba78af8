import Testing

/// `add`: a new line at the end of todo.txt, under both names.
@Suite struct AddCommandTests {
  @Test func nativeAddDatesTheTaskAndSaysItsNumber() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    let run = list.todo("add", "Buy", "milk", "+shop", "@store")
    #expect(run.status == 0)
    #expect(run.stdout == "2 2009-02-13 Buy milk +shop @store\nTODO: 2 added.\n")
    #expect(run.stderr == "")
    #expect(list.read("todo.txt") == "Call mom\n2009-02-13 Buy milk +shop @store\n")
  }

  @Test func todoShAddStoresTheTextAsGiven() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    let run = list.sh("add", "Pay rent due:tomorrow")
    #expect(run.status == 0)
    #expect(run.stdout == "2 Pay rent due:tomorrow\nTODO: 2 added.\n")
    #expect(list.read("todo.txt") == "Call mom\nPay rent due:tomorrow\n")
  }

  @Test func aFileWithoutAFinalNewlineGetsOneBeforeTheNewTask() throws {
    let list = try CommandFixture(todo: "Call mom")
    #expect(list.sh("add", "Buy milk").status == 0)
    #expect(list.read("todo.txt") == "Call mom\nBuy milk\n")
  }

  @Test func dateOptionPutsTheDateAfterThePriority() throws {
    let list = try CommandFixture()
    #expect(list.sh("-t", "add", "(B) Water plants").stdout == "1 (B) 2009-02-13 Water plants\nTODO: 1 added.\n")
    #expect(list.read("todo.txt") == "(B) 2009-02-13 Water plants\n")
  }

  @Test func nativeTypedPriorityAndDueDate() throws {
    let list = try CommandFixture()
    #expect(list.todo("add", "--priority", "high", "Call", "mom").status == 0)
    #expect(list.todo("add", "--due", "in 3 days", "Pay", "rent").status == 0)
    #expect(list.todo("add", "Renew", "passport", "due:tomorrow").status == 0)
    #expect(list.todo("add", "--verbatim", "Keep", "due:tomorrow").status == 0)
    #expect(
      list.read("todo.txt")
        == "(A) 2009-02-13 Call mom\n2009-02-13 Pay rent due:2009-02-16\n2009-02-13 Renew passport due:2009-02-14\n"
        + "2009-02-13 Keep due:tomorrow\n")
  }

  @Test func priorityOnAddFromTheSettings() throws {
    let list = try CommandFixture()
    #expect(list.sh("add", "Plain", environment: ["TODOTXT_PRIORITY_ON_ADD": "C"]).status == 0)
    #expect(list.sh("add", "(A) Own", environment: ["TODOTXT_PRIORITY_ON_ADD": "C"]).status == 0)
    #expect(list.read("todo.txt") == "(C) Plain\n(A) Own\n")
  }

  @Test func todoShReadsTheTextFromStandardInputWhenNoneIsGiven() throws {
    let list = try CommandFixture()
    let run = list.sh("add", input: "Read from input\n")
    #expect(run.status == 0)
    #expect(list.read("todo.txt") == "Read from input\n")
  }

  @Test func todoShJoinsLinesOfOneArgument() throws {
    let list = try CommandFixture()
    #expect(list.sh("add", "first\nsecond\rthird").status == 0)
    #expect(list.read("todo.txt") == "first second third\n")
  }

  // MARK: Refused input: one line on standard error, status 1, nothing written.

  @Test(arguments: ["a\u{1B}[2Jb", "bell\u{07}", "del\u{7F}", "c1\u{9B}31m"])
  func nativeRefusesControlCharacters(text: String) throws {
    let list = try CommandFixture(todo: "Call mom\n")
    let run = list.todo("add", text)
    run.expectOneLineError(containing: "control character")
    #expect(run.stderr.hasPrefix("todo: argument 1 holds the control character U+"))
    #expect(list.read("todo.txt") == "Call mom\n")
  }

  @Test func nativeRefusesALineBreak() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    let run = list.todo("add", "first\nsecond")
    run.expectOneLineError(containing: "todo: add: the task text has a line break")
    #expect(list.read("todo.txt") == "Call mom\n")
  }

  @Test func nativeRefusesBlankText() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    list.todo("add", "  ", "\t").expectOneLineError(containing: "todo: add: the task text is empty")
    #expect(list.read("todo.txt") == "Call mom\n")
  }

  @Test func nativeRefusesABadPriorityAndATwiceGivenDueDate() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    list.todo("add", "--priority", "Q2", "x").expectOneLineError(containing: "option '--priority' does not take 'Q2'")
    list.todo("add", "--due", "tomorrow", "x", "due:2009-03-01").expectOneLineError(
      containing: "the due date is given twice")
    list.todo("add", "x", "due:someday-maybe").expectOneLineError(containing: "is not a date")
    #expect(list.read("todo.txt") == "Call mom\n")
  }

  @Test func nativeWithoutTextAndNobodyToAskIsAUsageError() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    let run = list.todo("add")
    #expect(run.status == 1)
    #expect(run.stderr.contains("add"))
    #expect(list.read("todo.txt") == "Call mom\n")
  }
}
