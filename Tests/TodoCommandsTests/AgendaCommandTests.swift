import Testing

/// `agenda`: open tasks overdue, due today and in the next days, under a heading per day.
@Suite struct AgendaCommandTests {
  static let todo = """
    Water plants due:2009-02-13
    Pay rent due:2009-02-10
    Call mom due:2009-02-14
    Buy milk due:2009-02-25
    Hidden due:2009-02-11 h:1
    x 2009-02-12 Done due:2009-02-13
    No date

    """

  @Test func groupsTheNextWeekByDayOverdueFirst() throws {
    let list = try CommandFixture(todo: AgendaCommandTests.todo)
    let run = list.todo("agenda")
    #expect(run.status == 0)
    #expect(
      run.stdout
        == "Overdue\n  2 Pay rent due:2009-02-10\nToday, Fri 2009-02-13\n  1 Water plants due:2009-02-13\n"
        + "Tomorrow, Sat 2009-02-14\n  3 Call mom due:2009-02-14\n")
    #expect(run.combined.hasSuffix("--\nTODO: 3 tasks due by 2009-02-20, 1 overdue\n"))
  }

  @Test func moreDaysReachFurther() throws {
    let list = try CommandFixture(todo: AgendaCommandTests.todo)
    let run = list.todo("agenda", "--days", "14")
    #expect(run.stdout.hasSuffix("Wed 2009-02-25\n  4 Buy milk due:2009-02-25\n"))
    #expect(run.combined.hasSuffix("TODO: 4 tasks due by 2009-02-27, 1 overdue\n"))
    #expect(list.todo("agenda", "14").stdout == run.stdout)
  }

  @Test func quietTellsByItsStatus() throws {
    let overdue = try CommandFixture(todo: AgendaCommandTests.todo)
    let run = overdue.todo("agenda", "-q")
    #expect(run.status == 1)
    #expect(run.combined == "")
    let fine = try CommandFixture(todo: "Call mom due:2009-02-14\n")
    #expect(fine.todo("agenda", "--quiet").status == 0)
  }

  @Test func refusesBadDayCounts() throws {
    let list = try CommandFixture(todo: AgendaCommandTests.todo)
    list.todo("agenda", "--days", "99999").expectOneLineError(containing: "option '--days' does not take '99999'")
    #expect(list.todo("agenda", "soon").status == 1)
    #expect(list.todo("agenda", "-1").status == 1)
    #expect(list.read("todo.txt") == AgendaCommandTests.todo)
  }
}
