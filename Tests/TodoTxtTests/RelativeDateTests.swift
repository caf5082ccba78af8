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
    arguments: ["", "d", "3", "3x", "m", "s", "t", "next week", "2026-02-30", "1234567d", "+-3d", "3.5d", "mondays"])
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
