import Testing
import TodoTxt

/// Today is Wednesday 2026-01-07 in every case unless stated.
@Suite("RelativeDate")
struct RelativeDateTests {
  static let today = day("2026-01-07")

  @Test(
    "every accepted form resolves against today",
    arguments: [
      ("today", "2026-01-07"), ("tod", "2026-01-07"), ("TODAY", "2026-01-07"),
      ("tomorrow", "2026-01-08"), ("tom", "2026-01-08"), ("yesterday", "2026-01-06"),
      // Weekdays: the next one after today, a week ahead for today's own name.
      ("mon", "2026-01-12"), ("monday", "2026-01-12"), ("tu", "2026-01-13"), ("tues", "2026-01-13"),
      ("wed", "2026-01-14"), ("thu", "2026-01-08"), ("fr", "2026-01-09"), ("sa", "2026-01-10"),
      ("Sun", "2026-01-11"),
      // Offsets.
      ("3d", "2026-01-10"), ("+3d", "2026-01-10"), ("-3d", "2026-01-04"), ("3D", "2026-01-10"),
      ("0d", "2026-01-07"), ("2w", "2026-01-21"), ("1m", "2026-02-07"), ("-1m", "2025-12-07"),
      ("1y", "2027-01-07"), ("5b", "2026-01-14"), ("+1b", "2026-01-08"), ("-3b", "2026-01-02"),
      // Ends of periods.
      ("eow", "2026-01-11"), ("eom", "2026-01-31"), ("eoy", "2026-12-31"),
      // An absolute date stands for itself.
      ("2026-03-04", "2026-03-04"),
    ])
  func forms(_ text: String, _ expected: String) {
    #expect(RelativeDate.resolve(text, today: Self.today) == day(expected))
  }

  @Test(
    "anything else is not a date",
    arguments: ["", "d", "3", "3x", "m", "s", "t", "2026-02-30", "1234567d", "+-3d", "3.5d", "mondays"])
  func rejected(_ text: String) {
    #expect(RelativeDate.resolve(text, today: Self.today) == nil)
  }

  @Test("period ends and months depend on today")
  func dependingOnToday() {
    #expect(RelativeDate.resolve("eow", today: day("2026-01-11")) == day("2026-01-11"))
    #expect(RelativeDate.resolve("eow", today: day("2026-01-12")) == day("2026-01-18"))
    #expect(RelativeDate.resolve("eom", today: day("2024-02-10")) == day("2024-02-29"))
    #expect(RelativeDate.resolve("1m", today: day("2026-01-31")) == day("2026-02-28"))
    #expect(RelativeDate.resolve("1y", today: day("2024-02-29")) == day("2025-02-28"))
    #expect(RelativeDate.resolve("1b", today: day("2026-01-10")) == day("2026-01-12"))
  }
}

/// Dates said in English words, as an argument (`next monday`) or glued into one word for a
/// tag (`next-monday`): each case gives the words, the day they are said on, and the date
/// they mean, worked out by hand from a calendar.
@Suite("RelativeDate phrases")
struct RelativeDatePhraseTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var text: String
    var today: String
    var expected: String
    init(_ text: String, on today: String = "2009-02-13", _ expected: String) {
      self.text = text
      self.today = today
      self.expected = expected
    }
    var testDescription: String { "\(text) on \(today)" }
  }

  // 2009-02-13 is a Friday; February 2009 has 28 days.
  static let cases: [Case] = [
    // A weekday after next or this.
    Case("next monday", "2009-02-16"), Case("next-monday", "2009-02-16"), Case("nextmonday", "2009-02-16"),
    Case("next-mon", "2009-02-16"), Case("NEXT Monday", "2009-02-16"), Case("next friday", "2009-02-20"),
    Case("next fri", "2009-02-20"), Case("this friday", "2009-02-13"), Case("this-fri", "2009-02-13"),
    Case("thismonday", "2009-02-16"), Case("on friday", "2009-02-20"),
    Case("next monday", on: "2009-02-16", "2009-02-23"), Case("this monday", on: "2009-02-16", "2009-02-16"),
    Case("next sunday", on: "2009-02-15", "2009-02-22"), Case("this sunday", on: "2009-02-15", "2009-02-15"),
    // A day of a month, either way round, with or without a year.
    Case("dec 10", "2009-12-10"), Case("dec10", "2009-12-10"), Case("10dec", "2009-12-10"),
    Case("10 dec", "2009-12-10"), Case("dec-10", "2009-12-10"), Case("december 10th", "2009-12-10"),
    Case("10th of december", "2009-12-10"), Case("the 10th of dec", "2009-12-10"),
    Case("Dec 10, 2010", "2010-12-10"), Case("10-dec-2010", "2010-12-10"), Case("sept 5", "2009-09-05"),
    Case("5 sep", "2009-09-05"), Case("may 5", "2009-05-05"), Case("feb 13", "2009-02-13"),
    Case("feb 12", "2010-02-12"), Case("feb 29", "2012-02-29"), Case("feb29", "2012-02-29"),
    Case("dec 10", on: "2009-12-31", "2010-12-10"), Case("jan 1", on: "2009-12-31", "2010-01-01"),
    // Weeks, weekends, months and years.
    Case("next week", "2009-02-16"), Case("next-week", "2009-02-16"), Case("nextweek", "2009-02-16"),
    Case("next week", on: "2009-02-16", "2009-02-23"), Case("next week", on: "2009-02-15", "2009-02-16"),
    Case("weekend", "2009-02-14"), Case("this weekend", "2009-02-14"), Case("next weekend", "2009-02-21"),
    Case("next-weekend", "2009-02-21"), Case("weekend", on: "2009-02-14", "2009-02-14"),
    Case("weekend", on: "2009-02-15", "2009-02-15"), Case("next weekend", on: "2009-02-14", "2009-02-21"),
    Case("next weekend", on: "2009-02-15", "2009-02-21"), Case("next month", "2009-03-01"),
    Case("next month", on: "2009-12-31", "2010-01-01"), Case("next year", "2010-01-01"),
    Case("end of month", "2009-02-28"), Case("end-of-week", "2009-02-15"), Case("end of year", "2009-12-31"),
    // Counts of days, weeks, months, years and business days.
    Case("in 3 days", "2009-02-16"), Case("in-3-days", "2009-02-16"), Case("in3days", "2009-02-16"),
    Case("3 days", "2009-02-16"), Case("3days", "2009-02-16"), Case("in a week", "2009-02-20"),
    Case("in two weeks", "2009-02-27"), Case("in 1 month", "2009-03-13"), Case("in 1 year", "2010-02-13"),
    Case("in 2 business days", "2009-02-17"), Case("5 workdays", "2009-02-20"),
    Case("in 1 working day", "2009-02-16"),
    // The day after tomorrow.
    Case("day after tomorrow", "2009-02-15"), Case("the day after tomorrow", "2009-02-15"),
    // The one-word forms still are what they were.
    Case("fri", "2009-02-20"), Case("+2w", "2009-02-27"), Case("eom", "2009-02-28"),
    Case("2009-03-01", "2009-03-01"),
  ]

  @Test(arguments: cases)
  func phraseMeansTheDate(_ example: Case) {
    #expect(RelativeDate.resolve(example.text, today: day(example.today)) == day(example.expected))
  }

  @Test(arguments: [
    "next mondy", "next", "in days", "dec", "dec 32", "feb 30", "feb 29 2009", "10 dec 26", "mon dec",
    "in 3 fortnights", "12/10", "next monday please", "dec\u{07}10", "déc 10", "in 9999999 days", "next-next-monday",
    "the", "of", "10", "in 3", "3 5 d", String(repeating: "next ", count: 10_000) + "monday",
    String(repeating: "9", count: 100_000) + " days",
  ])
  func notAPhrase(_ text: String) {
    #expect(RelativeDate.resolve(text, today: day("2009-02-13")) == nil)
  }

  struct Numeric: CustomTestStringConvertible, Sendable {
    var text: String
    var readings: [String]?
    var testDescription: String { text }
  }

  /// Numeric dates that read differently by country are not guessed: the readings are named.
  @Test(arguments: [
    Numeric(text: "12/10", readings: ["2009-12-10", "2009-10-12"]),
    Numeric(text: "10.12.", readings: ["2009-10-12", "2009-12-10"]),
    Numeric(text: "12/10/2026", readings: ["2026-12-10", "2026-10-12"]),
    Numeric(text: "12-10-26", readings: ["2026-12-10", "2026-10-12"]),
    Numeric(text: "25/12", readings: ["2009-12-25"]),
    Numeric(text: "2/1", readings: ["2010-02-01", "2010-01-02"]),
    Numeric(text: "5/5", readings: ["2009-05-05"]),
    Numeric(text: "2026/12/10", readings: ["2026-12-10"]),
    Numeric(text: "2026-5-1", readings: ["2026-05-01"]),
    Numeric(text: "2026-02-30", readings: []),
    Numeric(text: "40/40", readings: []),
    Numeric(text: "2009-02-13", readings: nil),
    Numeric(text: "fri", readings: nil),
    Numeric(text: "1/2/3", readings: nil),
    Numeric(text: "12/10/2026/1", readings: nil),
  ])
  func numericDatesNameTheirReadings(_ example: Numeric) {
    #expect(RelativeDate.numericReadings(example.text, today: day("2009-02-13")) == example.readings?.map(day))
    if example.readings != nil { #expect(RelativeDate.resolve(example.text, today: day("2009-02-13")) == nil) }
  }

  /// The library's typed setters take the phrases too.
  @Test func setDueDateTakesPhrases() throws {
    var task = Task(parsing: "call mom")
    try task.setDueDate("next monday", today: day("2009-02-13"))
    #expect(task.line == "call mom due:2009-02-16")
    try task.setThresholdDate("dec10", today: day("2009-02-13"))
    #expect(task.line == "call mom due:2009-02-16 t:2009-12-10")
    #expect(throws: Task.ModelError.notAValue(key: "due", value: "12/10")) {
      try task.setDueDate("12/10", today: day("2009-02-13"))
    }
  }
}
