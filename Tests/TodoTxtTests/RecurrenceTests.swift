import Testing
import TodoTxt

@Suite("Recurrence")
struct RecurrenceTests {
  @Test(
    "rec: values parse as [+][N]unit",
    arguments: [
      ("1d", 1, Recurrence.Unit.day, false), ("+2w", 2, .week, true), ("w", 1, .week, false),
      ("+m", 1, .month, true), ("10b", 10, .businessDay, false), ("999999y", 999_999, .year, false),
    ])
  func parse(_ text: String, _ count: Int, _ unit: Recurrence.Unit, _ strict: Bool) {
    #expect(Recurrence(text) == Recurrence(count: count, unit: unit, strict: strict))
  }

  @Test(
    "other values are not recurrences",
    arguments: ["", "+", "0d", "1x", "-1d", "1000000d", "1.5d", "d1", "１d", "1 d", "++1d"])
  func rejected(_ text: String) {
    #expect(Recurrence(text) == nil)
  }

  @Test("a recurrence prints as it is written")
  func description() {
    #expect(Recurrence(count: 2, unit: .week, strict: true).description == "+2w")
    #expect(Recurrence("3m")?.description == "3m")
  }

  /// The next task after completing `line` on `today`.
  private func next(_ line: String, on today: String, catchUp: Bool = false) -> String? {
    Task(parsing: line).nextOccurrence(completedOn: day(today), catchUp: catchUp)?.line
  }

  @Test("normal: the new due date counts from the completion day")
  func normal() {
    #expect(
      next("x 2026-01-20 2026-01-01 water plants due:2026-01-10 rec:1w pri:A", on: "2026-01-20")
        == "(A) 2026-01-20 water plants due:2026-01-27 rec:1w")
    #expect(next("water due:2024-02-01 rec:1w", on: "2026-11-30") == "water due:2026-12-07 rec:1w")
  }

  @Test("strict: the new due date counts from the old one, even in the past")
  func strict() {
    #expect(next("pay rent due:2024-02-01 rec:+1m", on: "2026-11-30") == "pay rent due:2024-03-01 rec:+1m")
    #expect(next("pay rent due:2024-02-01 rec:+1m", on: "2026-11-30", catchUp: true) == "pay rent due:2026-12-01 rec:+1m")
    // Catching up stops at today itself.
    #expect(next("pay due:2026-10-30 rec:+1m", on: "2026-11-30", catchUp: true) == "pay due:2026-11-30 rec:+1m")
    // catchUp does nothing to a normal recurrence.
    #expect(next("pay due:2024-02-01 rec:1m", on: "2026-11-30", catchUp: true) == "pay due:2026-12-30 rec:1m")
  }

  @Test("business days skip the weekend")
  func businessDays() {
    // 2026-01-09 is a Friday.
    #expect(next("report due:2026-01-09 rec:1b", on: "2026-01-09") == "report due:2026-01-12 rec:1b")
    #expect(next("report due:2026-01-09 rec:+2b", on: "2026-01-20") == "report due:2026-01-13 rec:+2b")
  }

  @Test("a threshold keeps its distance to the due date")
  func thresholdGap() {
    #expect(
      next("plan t:2026-01-05 due:2026-01-10 rec:1w", on: "2026-01-08")
        == "plan t:2026-01-10 due:2026-01-15 rec:1w")
    #expect(
      next("plan t:2026-01-05 due:2026-01-10 rec:+1m", on: "2026-01-08")
        == "plan t:2026-02-05 due:2026-02-10 rec:+1m")
  }

  @Test("a task with only a threshold moves it and gets no due date")
  func thresholdOnly() {
    #expect(next("review t:2026-01-05 rec:+2w", on: "2026-01-08") == "review t:2026-01-19 rec:+2w")
    #expect(next("review t:2026-01-05 rec:2w", on: "2026-01-08") == "review t:2026-01-22 rec:2w")
  }

  @Test("a task with neither date gets a due date")
  func neither() {
    #expect(next("stretch rec:1d", on: "2026-01-08") == "stretch rec:1d due:2026-01-09")
    #expect(next("stretch rec:+1d", on: "2026-01-08") == "stretch rec:+1d due:2026-01-09")
    // An unreadable due: is replaced where it stands.
    #expect(next("stretch due:someday rec:1w", on: "2026-01-08") == "stretch due:2026-01-15 rec:1w")
  }

  @Test("the new task is open, keeps its priority, and is created today if it had a creation date")
  func headOfNewTask() {
    #expect(
      next("x (B) 2026-01-20 2026-01-01 a rec:1d due:2026-01-20", on: "2026-01-20")
        == "(B) 2026-01-20 a rec:1d due:2026-01-21")
    #expect(next("x 2026-01-20 a due:2026-01-20 rec:1d", on: "2026-01-20") == "a due:2026-01-21 rec:1d")
    #expect(next("(C) open a due:2026-01-20 rec:1d", on: "2026-01-20") == "(C) open a due:2026-01-21 rec:1d")
  }

  @Test("tasks without a readable rec: do not recur", arguments: ["a", "a rec:often", "a REC:1d"])
  func noRecurrence(_ line: String) {
    #expect(Task(parsing: line).nextOccurrence(completedOn: day("2026-01-08")) == nil)
  }
}
