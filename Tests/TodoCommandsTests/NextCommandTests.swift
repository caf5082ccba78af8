import Testing

/// `next`: the open tasks to do next, most urgent first.
@Suite struct NextCommandTests {
  static let todo = "(A) Plan\nPay rent due:2009-02-10\nCall mom due:2009-02-13\n(C) Read\nLater t:2009-03-01\nShip id:1\nFix p:1\nx 2009-02-12 Done due:2009-02-01\n"

  @Test func overdueThenDueTodayThenPriorityAndWaitingOnesLeftOut() throws {
    let list = try CommandFixture(todo: NextCommandTests.todo)
    let run = list.todo("next")
    #expect(run.status == 0)
    let numbers = run.stdout.split(separator: "\n").map { $0.prefix { $0 != " " } }
    #expect(numbers.prefix(3) == ["2", "3", "1"])
    #expect(Set(numbers) == ["1", "2", "3", "4", "7"])
    #expect(run.stderr == "--\nTODO: 5 of 8 tasks shown\n")
  }

  @Test func aLimitAndTerms() throws {
    let list = try CommandFixture(todo: NextCommandTests.todo)
    #expect(list.todo("next", "-n", "2").stdout == "2 Pay rent due:2009-02-10\n3 Call mom due:2009-02-13\n")
    #expect(list.todo("next", "rent").stdout == "2 Pay rent due:2009-02-10\n")
  }

  @Test func refusesBadLimitsAndTodoShHasNone() throws {
    let list = try CommandFixture(todo: NextCommandTests.todo)
    list.todo("next", "--limit", "0").expectOneLineError(containing: "option '--limit' does not take '0'")
    list.todo("next", "--limit", "many").expectOneLineError(containing: "--limit")
    list.todo("next", "\u{1B}").expectOneLineError(containing: "control character U+001B")
    #expect(list.sh("next").status == 1)
  }
}
