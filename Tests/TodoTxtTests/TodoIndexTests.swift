import Testing
import TodoTxt

@Suite("TodoIndex")
struct TodoIndexTests {
  static let file = """
    (A) call +Mom @phone due:2026-01-10
    x 2026-01-02 pay +bills due:2026-01-05 due:2026-02-01 t:2026-01-01

    +Mom +Mom visit @car t:2026-01-08 due:notadate k:v k:w
    2026-01-03 plain words 12:30

    """

  @Test("projects and contexts list each line once, in file order")
  func names() {
    let index = TodoIndex(TodoList(parsing: Self.file))
    #expect(index.projects == ["Mom": [1, 4], "bills": [2]])
    #expect(index.contexts == ["phone": [1], "car": [4]])
  }

  @Test("tag keys count lines, not occurrences")
  func tagKeys() {
    let index = TodoIndex(TodoList(parsing: Self.file))
    #expect(index.tagKeys == ["due": 3, "t": 2, "k": 1, "12": 1])
  }

  @Test("only the first due: and t: of a line count, and only when they are real dates")
  func dates() {
    let index = TodoIndex(TodoList(parsing: Self.file))
    #expect(index.dueDates.map(\.number) == [1, 2])
    #expect(index.dueDates.map(\.date) == [day("2026-01-10"), day("2026-01-05")])
    #expect(index.thresholdDates.map(\.number) == [2, 4])
    #expect(index.thresholdDates.map(\.date) == [day("2026-01-01"), day("2026-01-08")])
  }

  @Test("counts skip blank lines")
  func counts() {
    let index = TodoIndex(TodoList(parsing: Self.file))
    #expect(index.taskCount == 4)
    #expect(index.completedCount == 1)
    #expect(index.prioritizedCount == 1)
  }

  @Test("the index agrees with reading each task on its own")
  func agreesWithTasks() {
    let list = TodoList(parsing: Self.file + "\u{FEFF}not a mark here +x\r\n+p\t@c\rk:v\n")
    let index = TodoIndex(list)
    var projects: [String: [Int]] = [:]
    var contexts: [String: [Int]] = [:]
    for (offset, task) in list.enumerated() {
      for name in task.projects { projects[name, default: []].append(offset + 1) }
      for name in task.contexts { contexts[name, default: []].append(offset + 1) }
    }
    #expect(index.projects == projects)
    #expect(index.contexts == contexts)
  }
}
