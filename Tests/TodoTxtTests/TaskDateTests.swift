import Testing
import TodoTxt

@Suite("TaskDate")
struct TaskDateTests {
  @Test(
    "only real days in the form YYYY-MM-DD parse",
    arguments: [
      ("2024-02-29", true), ("2000-02-29", true), ("2023-02-29", false), ("1900-02-29", false),
      ("2024-04-30", true), ("2024-04-31", false), ("2024-12-31", true), ("2024-13-01", false),
      ("2024-00-10", false), ("2024-01-00", false), ("0001-01-01", true), ("0000-01-01", false),
      ("9999-12-31", true), ("2024-1-01", false), ("20240101", false), ("2024-01-01 ", false),
      ("2024/01/01", false), ("２０２４-01-01", false), ("2024-01-0a", false), ("", false),
    ])
  func validation(_ text: String, _ valid: Bool) {
    #expect((TaskDate(text) != nil) == valid)
    if valid { #expect(TaskDate(text)?.description == text) }
  }

  @Test(
    "leap years follow the Gregorian rule",
    arguments: [(2000, true), (1900, false), (2024, true), (2023, false), (2100, false), (2400, true), (4, true)])
  func leapYears(_ year: Int, _ leap: Bool) {
    #expect(TaskDate.isLeapYear(year) == leap)
    #expect(TaskDate.daysIn(month: 2, year: year) == (leap ? 29 : 28))
  }

  @Test(
    "day counts from 1970-01-01 at known points",
    arguments: [
      ("1970-01-01", 0), ("1969-12-31", -1), ("2000-01-01", 10_957), ("2000-03-01", 11_017),
      ("0001-01-01", -719_162), ("9999-12-31", 2_932_896),
    ])
  func knownDayCounts(_ text: String, _ days: Int) {
    #expect(day(text).daysSinceEpoch == days)
    #expect(TaskDate(daysSinceEpoch: days) == day(text))
  }

  @Test("day counts step by one across four centuries and round-trip over the whole range")
  func dayCountRoundTrip() {
    // Walk the calendar by hand from 1600-01-01 to 2400-12-31: each next day must be one more.
    var (y, m, d) = (1600, 1, 1)
    var expected = day("1600-01-01").daysSinceEpoch
    var failures = 0
    while y <= 2400 {
      let date = TaskDate(year: y, month: m, day: d)
      if date?.daysSinceEpoch != expected || date.flatMap({ TaskDate(daysSinceEpoch: $0.daysSinceEpoch) }) != date {
        failures += 1
      }
      d += 1
      if d > TaskDate.daysIn(month: m, year: y) { (m, d) = (m + 1, 1) }
      if m > 12 { (y, m) = (y + 1, 1) }
      expected += 1
    }
    #expect(failures == 0)
    // Every 997th day of years 1 to 9999.
    for days in stride(from: -719_162, through: 2_932_896, by: 997) {
      #expect(TaskDate(daysSinceEpoch: days)?.daysSinceEpoch == days)
    }
    #expect(TaskDate(daysSinceEpoch: -719_163) == nil)
    #expect(TaskDate(daysSinceEpoch: 2_932_897) == nil)
  }

  @Test("seconds since the epoch become a local date")
  func seconds() {
    #expect(TaskDate(secondsSinceEpoch: 0) == day("1970-01-01"))
    #expect(TaskDate(secondsSinceEpoch: 86_399) == day("1970-01-01"))
    #expect(TaskDate(secondsSinceEpoch: -1) == day("1969-12-31"))
    #expect(TaskDate(secondsSinceEpoch: 86_000, utcOffset: 3_600) == day("1970-01-02"))
    #expect(TaskDate(secondsSinceEpoch: 1_000, utcOffset: -3_600) == day("1969-12-31"))
  }

  @Test(
    "adding months clamps to the end of a shorter month",
    arguments: [
      ("2024-01-31", 1, "2024-02-29"), ("2023-01-31", 1, "2023-02-28"), ("2024-03-31", -1, "2024-02-29"),
      ("2024-05-31", 1, "2024-06-30"), ("2024-12-15", 1, "2025-01-15"), ("2024-01-15", -1, "2023-12-15"),
      ("2024-01-31", 13, "2025-02-28"), ("2024-03-10", -25, "2022-02-10"), ("2024-02-29", 0, "2024-02-29"),
      ("2024-02-29", 12, "2025-02-28"),
    ])
  func months(_ start: String, _ count: Int, _ expected: String) {
    #expect(day(start).adding(months: count) == day(expected))
  }

  @Test(
    "adding years turns February 29 into February 28 in common years",
    arguments: [
      ("2024-02-29", 1, "2025-02-28"), ("2024-02-29", 4, "2028-02-29"), ("2024-02-29", -4, "2020-02-29"),
      ("2024-02-29", 100, "2124-02-29"), ("2000-02-29", 100, "2100-02-28"), ("2023-02-28", 1, "2024-02-28"),
    ])
  func years(_ start: String, _ count: Int, _ expected: String) {
    #expect(day(start).adding(years: count) == day(expected))
  }

  @Test("arithmetic stops at the ends of the representable range")
  func clamping() {
    #expect(TaskDate.latest.adding(days: 1) == .latest)
    #expect(TaskDate.earliest.adding(days: -1) == .earliest)
    #expect(day("9999-12-01").adding(months: 1) == .latest)
    #expect(day("0001-01-15").adding(months: -1) == .earliest)
    #expect(day("2026-01-01").adding(weeks: 2) == day("2026-01-15"))
    #expect(day("2026-01-01").days(until: day("2026-03-01")) == 59)
  }

  // 2026-01-05 is a Monday; 2026-01-10 and 11 are a weekend.
  @Test(
    "business days skip weekends, forward and backward",
    arguments: [
      ("2026-01-05", 1, "2026-01-06"), ("2026-01-09", 1, "2026-01-12"), ("2026-01-10", 1, "2026-01-12"),
      ("2026-01-11", 1, "2026-01-12"), ("2026-01-05", 5, "2026-01-12"), ("2026-01-05", 6, "2026-01-13"),
      ("2026-01-10", 5, "2026-01-16"), ("2026-01-10", 6, "2026-01-19"), ("2026-01-10", 10, "2026-01-23"),
      ("2026-01-11", 11, "2026-01-26"), ("2026-01-05", 0, "2026-01-05"), ("2026-01-10", 0, "2026-01-10"),
      ("2026-01-12", -1, "2026-01-09"), ("2026-01-11", -1, "2026-01-09"), ("2026-01-10", -1, "2026-01-09"),
      ("2026-01-11", -5, "2026-01-05"), ("2026-01-11", -6, "2026-01-02"), ("2026-01-10", -6, "2026-01-02"),
      ("2026-01-07", -7, "2025-12-29"),
    ])
  func businessDays(_ start: String, _ count: Int, _ expected: String) {
    #expect(day(start).adding(businessDays: count) == day(expected))
  }

  @Test("business days agree with counting one weekday at a time")
  func businessDaysByCounting() {
    func stepping(_ date: TaskDate, _ count: Int) -> TaskDate {
      var date = date
      var left = abs(count)
      while left > 0 {
        date = date.adding(days: count < 0 ? -1 : 1)
        if !date.weekday.isWeekend { left -= 1 }
      }
      return date
    }
    for offset in 0..<14 {
      let start = day("2026-01-05").adding(days: offset)
      for count in -40...40 {
        #expect(start.adding(businessDays: count) == stepping(start, count), "\(start) \(count)b")
      }
    }
  }

  @Test(
    "weekdays",
    arguments: [
      ("1970-01-01", Weekday.thursday), ("2000-01-01", .saturday), ("2026-01-05", .monday),
      ("2024-02-29", .thursday), ("0001-01-01", .monday), ("9999-12-31", .friday), ("1969-12-28", .sunday),
    ])
  func weekdays(_ text: String, _ weekday: Weekday) {
    #expect(day(text).weekday == weekday)
  }

  @Test("dates order by time and print with four-digit years")
  func orderAndText() {
    #expect(day("2025-12-31") < day("2026-01-01"))
    #expect(day("2026-01-31") < day("2026-02-01"))
    #expect(TaskDate(year: 42, month: 3, day: 4)?.description == "0042-03-04")
    #expect(day("2026-07-09").utf8 == utf8("2026-07-09"))
  }
}
