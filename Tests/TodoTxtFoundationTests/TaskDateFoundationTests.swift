import Foundation
import Testing
import TodoTxt
import TodoTxtFoundation

/// Days and instants: a day is its first instant in the calendar's zone, and an instant the
/// day it falls on there, whichever zone is asked.
@Suite struct TaskDateFoundationTests {
  func calendar(_ zone: String) -> Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: zone)!
    return calendar
  }

  @Test(arguments: ["UTC", "Pacific/Kiritimati", "America/Adak", "Europe/Berlin"])
  func aDayIsItsFirstInstantAndComesBack(_ zone: String) throws {
    let calendar = calendar(zone)
    for text in ["2026-12-03", "2024-02-29", "2026-03-29", "0001-01-01", "9999-12-31"] {
      let day = try #require(TaskDate(text))
      let instant = day.date(in: calendar)
      #expect(TaskDate(instant, in: calendar) == day, "\(text) in \(zone)")
      #expect(calendar.component(.hour, from: instant) == 0, "\(text) in \(zone)")
      // The instant a second before is the day before.
      if text != "0001-01-01" {
        #expect(TaskDate(instant.addingTimeInterval(-1), in: calendar) == day.adding(days: -1), "\(text) in \(zone)")
      }
    }
  }

  /// 2026-12-03 23:30 in Berlin is already the 4th in Kiritimati (UTC+14) and still the 3rd
  /// in UTC: the day is the calendar's.
  @Test func anInstantIsTheDayOfTheCalendarAsked() throws {
    let instant = Date(timeIntervalSince1970: 1_796_337_000)  // 2026-12-03T22:30:00Z
    #expect(TaskDate(instant, in: calendar("UTC")) == TaskDate("2026-12-03"))
    #expect(TaskDate(instant, in: calendar("Pacific/Kiritimati")) == TaskDate("2026-12-04"))
    #expect(TaskDate(instant, in: calendar("America/Adak")) == TaskDate("2026-12-03"))
  }

  @Test func aTaskSetsAndReadsItsDatesAsInstants() throws {
    let berlin = calendar("Europe/Berlin")
    var task = Task(parsing: "x 2026-12-02 2026-11-30 file taxes due:2026-12-01 +home")
    #expect(task.due(in: berlin) == TaskDate("2026-12-01")?.date(in: berlin))
    #expect(task.created(in: berlin) == TaskDate("2026-11-30")?.date(in: berlin))
    #expect(task.completed(in: berlin) == TaskDate("2026-12-02")?.date(in: berlin))
    try task.setDue(TaskDate("2026-12-24")?.date(in: berlin).addingTimeInterval(20 * 3600), in: berlin)
    try task.setThreshold(TaskDate("2026-12-20")?.date(in: berlin), in: berlin)
    #expect(task.line == "x 2026-12-02 2026-11-30 file taxes due:2026-12-24 +home t:2026-12-20")
    try task.setDue(nil, in: berlin)
    #expect(task.line == "x 2026-12-02 2026-11-30 file taxes +home t:2026-12-20")
  }
}
