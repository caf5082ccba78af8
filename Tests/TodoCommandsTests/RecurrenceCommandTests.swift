import Testing

/// `rec`: a task's recurrence shown, set or previewed.
@Suite struct RecurrenceCommandTests {
  @Test func showsTheRuleAndTheNextDate() throws {
    let list = try CommandFixture(todo: "Water plants due:2009-02-13 rec:+1w\n")
    let run = list.todo("rec", "1")
    #expect(run.status == 0)
    #expect(run.stdout == "1 Water plants due:2009-02-13 rec:+1w\n  rec:+1w: every week after the due date\n  due:2009-02-20 (Fri)\n")
  }

  @Test func previewsTheNextDates() throws {
    let list = try CommandFixture(todo: "Water plants due:2009-02-13 rec:+1w\nPay rent due:2009-02-13 rec:1m\n")
    #expect(
      list.todo("rec", "1", "--preview", "3").stdout
        == "1 Water plants due:2009-02-13 rec:+1w\n  rec:+1w: every week after the due date\n"
        + "  due:2009-02-20 (Fri)\n  due:2009-02-27 (Fri)\n  due:2009-03-06 (Fri)\n")
    #expect(
      list.todo("rec", "2", "--preview", "2").stdout
        == "2 Pay rent due:2009-02-13 rec:1m\n  rec:1m: every month after it is done\n"
        + "  due:2009-03-13 (Fri)\n  due:2009-04-13 (Mon)\n")
  }

  @Test func setsARule() throws {
    let list = try CommandFixture(todo: "Pay rent due:2009-02-10\nWater plants rec:1w\n")
    #expect(list.todo("rec", "1", "+1m").stdout == "1 Pay rent due:2009-02-10 rec:+1m\n")
    #expect(list.todo("rec", "2", "3b").status == 0)
    #expect(list.read("todo.txt") == "Pay rent due:2009-02-10 rec:+1m\nWater plants rec:3b\n")
  }

  @Test func doneAfterTheRuleChangeComesBackByIt() throws {
    let list = try CommandFixture(todo: "Pay rent due:2009-02-10\n")
    #expect(list.todo("rec", "1", "+1m").status == 0)
    #expect(list.todo("do", "1").status == 0)
    let lines = list.read("todo.txt").split(separator: "\n")
    #expect(lines.first == "x 2009-02-13 Pay rent due:2009-02-10 rec:+1m")
    #expect(lines.count == 2 && lines[1].hasSuffix("Pay rent due:2009-03-10 rec:+1m"))
  }

  @Test func refusesBadRulesMissingTasksAndTasksWithoutRule() throws {
    let list = try CommandFixture(todo: "Pay rent\n")
    #expect(list.todo("rec", "1", "weekly").status == 1)
    #expect(list.todo("rec", "1", "0x").status == 1)
    list.todo("rec", "1").expectOneLineError(containing: "TODO: 1 has no rec: tag.")
    list.todo("rec", "5", "1w").expectOneLineError(containing: "TODO: No task 5.")
    list.todo("rec", "1", "--preview", "0").expectOneLineError(containing: "--preview")
    list.todo("rec", "1", "1w\u{1B}").expectOneLineError(containing: "control character U+001B")
    #expect(list.read("todo.txt") == "Pay rent\n")
  }
}
