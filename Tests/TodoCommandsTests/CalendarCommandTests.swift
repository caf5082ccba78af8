import Testing

/// `cal`: a month as a calendar of due dates, weeks from Monday, then the tasks due in it.
@Suite struct CalendarCommandTests {
  static let todo = "Pay rent due:2009-02-10\nCall mom due:2009-02-13\nParty due:2009-03-02\nx 2009-02-12 Done due:2009-02-11\nHidden due:2009-02-12 h:1\n"

  /// The output's lines with runs of spaces made one, for the facts rather than the layout.
  static func words(_ text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).map {
      $0.split(separator: " ").joined(separator: " ")
    }
  }

  @Test func thisMonthMarksTodayOverdueDaysAndCounts() throws {
    let list = try CommandFixture(todo: CalendarCommandTests.todo)
    let run = list.todo("cal")
    #expect(run.status == 0)
    let lines = CalendarCommandTests.words(run.stdout)
    #expect(lines.first == "February 2009")
    #expect(lines.dropFirst().first == "Mon Tue Wed Thu Fri Sat Sun")
    // 1 February 2009 was a Sunday; the done task and the h:1 task are not counted.
    #expect(lines.contains("1"))
    #expect(lines.contains("9 !10 (1) 11 12 [13](1) 14 15"))
    #expect(lines.contains("23 24 25 26 27 28"))
    #expect(run.stdout.hasSuffix("1 Pay rent due:2009-02-10\n2 Call mom due:2009-02-13\n"))
  }

  @Test func anotherMonthByName() throws {
    let list = try CommandFixture(todo: CalendarCommandTests.todo)
    for month in ["2009-03", "3", "mar", "march", "next"] {
      let run = list.todo("cal", month)
      #expect(run.status == 0, "\(month)")
      let lines = CalendarCommandTests.words(run.stdout)
      #expect(lines.first == "March 2009", "\(month)")
      #expect(lines.contains("2 (1) 3 4 5 6 7 8"), "\(month)")
      #expect(run.stdout.hasSuffix("3 Party due:2009-03-02\n"), "\(month)")
    }
  }

  @Test func refusesWhatIsNoMonth() throws {
    let list = try CommandFixture(todo: CalendarCommandTests.todo)
    list.todo("cal", "13").expectOneLineError(containing: "'13' is not a month")
    list.todo("cal", "smarch").expectOneLineError(containing: "is not a month")
    #expect(list.sh("cal").status == 1)
  }
}
