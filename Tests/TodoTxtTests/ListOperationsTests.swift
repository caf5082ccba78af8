import Testing
import TodoTxt

/// The list operations an app uses: order, groups, agenda.
@Suite("List operations")
struct ListOperationsTests {
  let today = TaskDate(year: 2026, month: 12, day: 3)!
  let list = TodoList(
    parsing: """
      (B) pay rent due:2026-12-01 +home
      water plants +home @garden
      (A) call Émile due:2026-12-05 @phone
      x 2026-12-02 done thing due:2026-12-02
      elephant due:2026-12-05
      (A) secret h:1 due:2026-12-04

      éclair +food due:2027-01-10

      """)

  @Test("by due date, missing dates last in either direction; ties in file order")
  func byDue() throws {
    #expect(try TaskOrder("due").sorted(list, today: today) == [0, 3, 5, 2, 4, 7, 1, 6])
    #expect(try TaskOrder("-due").sorted(list, today: today) == [7, 2, 4, 5, 3, 0, 1, 6])
  }

  @Test("by priority then text: A first, no priority last, accents and case do not count")
  func byPriorityThenText() throws {
    let order = try TaskOrder("priority,text")
    #expect(order.sorted(list, today: today, where: { !$0.isBlank }) == [2, 5, 0, 3, 7, 4, 1])
    #expect(order == TaskOrder([.init(.priority), .init(.text)]))
  }

  @Test("a word that names no key is an error naming it")
  func badKey() {
    #expect(throws: TaskOrder.ParseError.self) { try TaskOrder("due,soon") }
    do {
      _ = try TaskOrder("due,soon")
    } catch {
      #expect(error.word == "soon")
    }
    #expect(throws: TaskOrder.ParseError.self) { try TaskOrder("") }
  }

  @Test("groups by project: a task under each of its projects, the ungrouped last")
  func groupsByProject() {
    let indices = list.indices.filter { !list[$0].isBlank }
    let groups = TaskGrouping.project.groups(indices, in: list, today: today)
    #expect(groups.map(\.heading) == ["+food", "+home", "(no project)"])
    #expect(groups[1].indices == [0, 1])
    #expect(groups[2].indices == [2, 3, 4, 5])
  }

  @Test("groups by due date say overdue and done")
  func groupsByDue() {
    let groups = TaskGrouping.due.groups([0, 3, 4, 1], in: list, today: today)
    #expect(groups.map(\.heading) == ["due 2026-12-01 (overdue)", "due 2026-12-02 (done)", "due 2026-12-05", "(no due date)"])
  }

  @Test("the agenda: open, visible tasks due within the days, overdue first, then by priority")
  func agenda() {
    let agenda = Agenda(list, today: today, days: 7)
    #expect(agenda.entries.map(\.index) == [0, 2, 4])
    #expect(agenda.overdue.map(\.index) == [0])
    #expect(agenda.last == TaskDate(year: 2026, month: 12, day: 10)!)
    #expect(Agenda(list, today: today, days: 60).entries.map(\.index) == [0, 2, 4, 7])
  }
}
