import Testing

/// `stats`: counts of open, done, overdue and due tasks, and tasks added and done per week.
@Suite struct StatsCommandTests {
  /// Friday 2009-02-13: the week runs from Monday 2009-02-09. Open: Plan, Pay rent, Call mom,
  /// Buy (Secret is h:1); done: one in each file; overdue: Pay rent; due today: Call mom; due
  /// in the next seven days from tomorrow: Buy. Created in the week of 02-02: Done (02-03);
  /// of 02-09: Plan (02-10). Completed in the week of 02-02: Old (02-04); of 02-09: Done (02-12).
  static let todo =
    "(A) 2009-02-10 Plan\nPay rent due:2009-02-10\nCall mom due:2009-02-13\nBuy due:2009-02-15\nx 2009-02-12 2009-02-03 Done\nSecret h:1\n"

  @Test func jsonCounts() throws {
    let list = try CommandFixture(todo: StatsCommandTests.todo, done: "x 2009-02-04 Old\n")
    let run = list.todo("stats", "--format", "json", "--weeks", "2")
    #expect(run.status == 0)
    #expect(
      run.stdout
        == #"{"today":"2009-02-13","open":4,"done":2,"overdue":1,"due_today":1,"due_soon":1,"with_priority":1,"without_priority":3,"weeks":[{"week":"2009-02-02","added":1,"done":1},{"week":"2009-02-09","added":1,"done":1}]}"#
        + "\n")
  }

  @Test func textCounts() throws {
    let list = try CommandFixture(todo: StatsCommandTests.todo, done: "x 2009-02-04 Old\n")
    let run = list.todo("stats", "--weeks", "2")
    #expect(run.status == 0)
    let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map {
      $0.split(separator: " ").joined(separator: " ")
    }
    #expect(
      Array(lines.prefix(7)) == [
        "open 4", "done 2", "overdue 1", "due today 1", "due in the next 7 days 1", "with priority 1",
        "without priority 3",
      ])
    #expect(lines.contains("2009-02-02 1 # 1 #"))
    #expect(lines.contains("2009-02-09 1 # 1 #"))
  }

  @Test func refusesBadWeeksAndTodoShHasNone() throws {
    let list = try CommandFixture(todo: StatsCommandTests.todo)
    list.todo("stats", "--weeks", "0").expectOneLineError(containing: "option '--weeks' does not take '0'")
    list.todo("stats", "--format", "xml").expectOneLineError(containing: "--format")
    #expect(list.sh("stats").status == 1)
  }
}
