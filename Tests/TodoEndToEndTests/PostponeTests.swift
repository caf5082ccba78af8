import Foundation
import Testing

/// `postpone` by a duration (from today when the task is overdue) or to a date, with the
/// clock at 2009-02-13, a Friday.
@Suite struct PostponeTests {
  @Test func aDurationMovesAnOverdueTaskFromToday() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "a due:2009-02-01 t:2009-01-30\nb due:2009-02-20\nc due:2009-02-13\nd due:2009-02-01\n")
    // 1 is overdue: three days from the 13th, and t: moves by the same 15 days.
    let run = try box.todo("postpone", "1", "2", "3", "3d")
    #expect(run.status == 0)
    #expect(run.stdout.contains("TODO: 1 postponed to 2009-02-16.\n"))
    #expect(
      box.read("todo.txt") == "a due:2009-02-16 t:2009-02-14\nb due:2009-02-23\nc due:2009-02-16\nd due:2009-02-01\n")
    // Going back counts from the due date.
    try box.todo("postpone", "4", "-1d")
    #expect(box.read("todo.txt").hasSuffix("d due:2009-01-31\n"))
  }

  @Test func aDateBecomesTheDueDate() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "a due:2009-02-01 t:2009-01-25\nb due:2009-02-20\nc\nd t:2009-02-01\ne due:2009-02-10\n")
    let tomorrow = try box.todo("postpone", "1", "tomorrow")
    #expect(tomorrow.status == 0)
    #expect(tomorrow.stdout.contains("TODO: 1 postponed to 2009-02-14.\n"))
    try box.todo("postpone", "2", "fri")
    try box.todo("postpone", "3", "+2w")
    try box.todo("postpone", "4", "tomorrow")
    try box.todo("postpone", "5", "2009-03-01")
    #expect(
      box.read("todo.txt")
        == "a due:2009-02-14 t:2009-02-07\nb due:2009-02-20\nc due:2009-02-27\nd t:2009-02-14\ne due:2009-03-01\n")
    let bad = try box.todo("postpone", "1", "soon")
    #expect(bad.status == 1)
    #expect(
      bad.stderr
        == "todo: 'soon' is neither a duration (3d, 2w, 5b, 3 days, 2 weeks) nor a date "
        + "(2026-05-01, tomorrow, fri, next fri, in 3 days, dec 10, next week, weekend, +2w, eom)\n")
  }

  @Test func anInvalidDateIsNotOverwritten() throws {
    let box = try Sandbox()
    let file = "a due:2009-02-20\nb due:2026-02-30\nc t:2009-13-01\n"
    try box.write("todo.txt", file)
    let due = try box.todo("postpone", "1", "2", "3d")
    #expect(due.status == 1)
    #expect(due.stderr == "TODO: 2 has due:2026-02-30, which is not a date; fix it before postponing.\n")
    #expect(due.stdout == "")
    let threshold = try box.todo("postpone", "3", "tomorrow")
    #expect(threshold.status == 1)
    #expect(threshold.stderr == "TODO: 3 has t:2009-13-01, which is not a date; fix it before postponing.\n")
    #expect(box.read("todo.txt") == file)
  }
}
