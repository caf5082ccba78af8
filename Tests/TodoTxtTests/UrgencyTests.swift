import Testing
import TodoTxt

/// The urgency formula term by term, each expected value worked out by hand from the table
/// in ``Urgency``'s documentation (today is 2009-02-13 throughout).
@Suite("Urgency")
struct UrgencyTests {
  static let today = TaskDate(year: 2009, month: 2, day: 13)!

  static func score(_ line: String, waiting: Int = 0) -> Urgency {
    Urgency(Task(parsing: line), today: today, waiting: waiting)
  }

  @Test(
    "due: overdue grows per day up to 20 days, today next, soon above later, none adds nothing",
    arguments: [
      // 10.0 + 0.5 × 1
      ("task due:2009-02-12", 105, "1d overdue"),
      // 10.0 + 0.5 × 2
      ("task due:2009-02-11", 110, "2d overdue"),
      // 43 days late, capped at 20: 10.0 + 0.5 × 20
      ("task due:2009-01-01", 200, "43d overdue"),
      ("task due:2009-02-13", 90, "today"),
      // 8.0 − 0.5 × 1
      ("task due:2009-02-14", 75, "in 1d"),
      // 8.0 − 0.5 × 14 (2009-02-27 is 14 days on)
      ("task due:2009-02-27", 10, "in 14d"),
      ("task due:2009-02-28", 5, "in 15d"),
      ("task", 0, "none"),
      // Not a date: no due date.
      ("task due:2009-02-30", 0, "none"),
    ])
  func dueTerm(_ line: String, _ tenths: Int, _ reason: String) {
    let urgency = UrgencyTests.score(line)
    #expect(urgency.due.tenths == tenths)
    #expect(urgency.due.reason == reason)
    #expect(urgency.tenths == tenths)
  }

  @Test(
    "priority: A 6.0, B 4.0, C 2.0, D to Z 1.0, none 0",
    arguments: [("(A) x", 60), ("(B) x", 40), ("(C) x", 20), ("(D) x", 10), ("(Z) x", 10), ("task", 0)])
  func priorityTerm(_ line: String, _ tenths: Int) {
    #expect(UrgencyTests.score(line).priority.tenths == tenths)
  }

  @Test(
    "age: a tenth per full 20 days since creation, at most 2.0",
    arguments: [
      ("2009-02-13 x", 0, "0d"),
      // 19 days
      ("2009-01-25 x", 0, "19d"),
      // 20 days
      ("2009-01-24 x", 1, "20d"),
      // 43 days: 2 full 20s
      ("2009-01-01 x", 2, "43d"),
      // 2008-01-01 to 2009-02-13: 366 + 43 = 409 days, 20 full 20s
      ("2008-01-01 x", 20, "409d"),
      // 2000-01-01: far beyond the cap
      ("2000-01-01 x", 20, nil),
      // Created in the future: no age.
      ("2009-03-01 x", 0, "0d"),
      ("task", 0, "no date"),
    ] as [(String, Int, String?)])
  func ageTerm(_ line: String, _ tenths: Int, _ reason: String?) {
    let urgency = UrgencyTests.score(line)
    #expect(urgency.age.tenths == tenths)
    if let reason { #expect(urgency.age.reason == reason) }
  }

  @Test("blocks: 2.0 per waiting open task, at most 6.0", arguments: [(0, 0), (1, 20), (2, 40), (3, 60), (7, 60)])
  func blocksTerm(_ waiting: Int, _ tenths: Int) {
    #expect(UrgencyTests.score("task", waiting: waiting).blocks.tenths == tenths)
  }

  @Test func theTotalIsTheSumAndTheExplanationShowsEachTerm() {
    // due 2 days late 11.0, B 4.0, 100 days old 0.5, one waiting 2.0: 17.5
    let urgency = UrgencyTests.score("(B) 2008-11-05 pay due:2009-02-11", waiting: 1)
    #expect(urgency.tenths == 175)
    #expect(
      urgency.explanation == "17.5 = due 11.0 (2d overdue) + pri 4.0 (B) + age 0.5 (100d) + blocks 2.0 (1 waiting)")
  }

  @Test func theSameInputGivesTheSameScore() {
    let line = "(A) 2009-01-01 call due:2009-02-13"
    #expect(UrgencyTests.score(line) == UrgencyTests.score(line))
    // 9.0 + 6.0 + 0.2
    #expect(UrgencyTests.score(line).tenths == 152)
  }

  @Test func waitingCountsOnlyOpenTasksCarryingTheID() {
    let tasks = [
      "call p:1 p:2", "plan id:1", "x 2009-02-01 done id:2", "pack id:2", "other id:1", "free p:3",
    ].map { Task(parsing: $0) }
    let counts = Urgency.waitingCounts(in: tasks)
    #expect(counts == ["1": 2, "2": 1])
    // Task 1 is waited for by "plan", "other" (id:1) and "pack" (id:2); the done one does not count.
    #expect(Urgency.waiting(for: tasks[0], counts: counts) == 3)
    #expect(Urgency.waiting(for: tasks[5], counts: counts) == 0)
    #expect(Urgency.waiting(for: Task(parsing: "twice p:1 p:1"), counts: counts) == 2)
  }

  @Test func formatShowsOneDecimal() {
    #expect(Urgency.format(tenths: 0) == "0.0")
    #expect(Urgency.format(tenths: 5) == "0.5")
    #expect(Urgency.format(tenths: 175) == "17.5")
  }
}
