import Foundation
import Testing

/// Dates as people say them, under the name todo: one word inside a `due:` or `t:` tag, a
/// phrase where the date is its own argument. The clock stands at Friday 2009-02-13; each
/// expected date is worked out by hand from a calendar.
@Suite struct DateWordsTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var typed: String
    var expected: String
    var testDescription: String { typed }
  }

  /// One-word spellings in the text of a task, which the shell and the command line both
  /// pass as a word.
  @Test(arguments: [
    Case(typed: "due:next-monday", expected: "due:2009-02-16"), Case(typed: "due:nextmonday", expected: "due:2009-02-16"),
    Case(typed: "due:dec10", expected: "due:2009-12-10"), Case(typed: "due:10dec", expected: "due:2009-12-10"),
    Case(typed: "due:next-week", expected: "due:2009-02-16"), Case(typed: "t:weekend", expected: "t:2009-02-14"),
    Case(typed: "due:in-3-days", expected: "due:2009-02-16"), Case(typed: "due:next-month", expected: "due:2009-03-01"),
    Case(typed: "due:this-fri", expected: "due:2009-02-13"), Case(typed: "due:feb29", expected: "due:2012-02-29"),
  ])
  func oneWordInATag(_ example: Case) throws {
    let box = try Sandbox()
    let run = try box.todo("add", "call mom", example.typed)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(box.read("todo.txt") == "2009-02-13 call mom \(example.expected)\n")
  }

  /// Phrases where the date is an argument of its own: no quotes needed.
  @Test func phrasesAsArguments() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "a\nb\nc\nd\ne due:2009-02-20\n")
    #expect(try box.todo("tag", "1", "due", "next", "monday").status == 0)
    #expect(try box.todo("tag", "2", "t", "dec", "10").status == 0)
    #expect(try box.todo("postpone", "3", "in", "3", "days").status == 0)
    #expect(try box.todo("postpone", "4", "10th", "of", "december", "2010").status == 0)
    // A number before a duration word belongs to it, not to the task numbers.
    #expect(try box.todo("postpone", "5", "2", "weeks").status == 0)
    let added = try box.todo("add", "--due", "next", "week", "plan", "the", "trip")
    #expect(added.status == 0, "\(added.stderr)")
    #expect(
      box.read("todo.txt")
        == "a due:2009-02-16\nb t:2009-12-10\nc due:2009-02-16\nd due:2010-12-10\ne due:2009-03-06\n"
        + "2009-02-13 plan the trip due:2009-02-16\n")
  }

  /// A refusal names the whole phrase and says what is accepted; nothing is written.
  @Test func aRefusalNamesTheWholePhrase() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "a\n")
    let accepted =
      "dates are written 2026-05-01, today, tomorrow, fri, next fri, this fri, in 3 days, +3d, 2w, dec 10, "
      + "10 dec 2026, next week, next month, weekend, eom, eow, eoy (in a due: or t: tag, one word: next-fri, "
      + "in-3-days, dec10, 10dec)"
    let tag = try box.todo("tag", "1", "due", "next", "mondy")
    #expect(tag.status == 1)
    #expect(tag.stderr == "todo: 'next mondy' is not a date; \(accepted)\n")
    let add = try box.todo("add", "x", "due:next-mondy")
    #expect(add.stderr == "todo: 'next-mondy' is not a date; \(accepted)\n")
    let postpone = try box.todo("postpone", "1", "a", "fortnight")
    #expect(
      postpone.stderr
        == "todo: 'a fortnight' is neither a duration (3d, 2w, 5b, 3 days, 2 weeks) nor a date "
        + "(2026-05-01, tomorrow, fri, next fri, in 3 days, dec 10, next week, weekend, +2w, eom)\n")
    // The longest run that reads as a date is --due's value; the rest is the text.
    let due = try box.todo("add", "--due", "nxt", "monday", "call")
    #expect(due.stderr == "todo: 'nxt' is not a date; \(accepted)\n")
    let long = String(repeating: "a", count: 100_000)
    let longRun = try box.todo("tag", "1", "due", "in", long, "days")
    #expect(longRun.status == 1)
    #expect(longRun.stderr == "todo: 'in \(long) days' is not a date; \(accepted)\n")
    #expect(box.read("todo.txt") == "a\n")
  }

  /// A numeric date whose order differs by country is not guessed: the message names the
  /// days it could be, as the form that reads the same everywhere.
  @Test func numericDatesAreRefusedWithTheISOForm() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "a\n")
    let both = "write the date as 2009-12-10 (10 December) or 2009-10-12 (12 October)"
    #expect(try box.todo("tag", "1", "due", "12/10").stderr == "todo: '12/10' is not read the same way in every country; \(both)\n")
    #expect(try box.todo("add", "x due:12/10").stderr == "todo: '12/10' is not read the same way in every country; \(both)\n")
    #expect(try box.todo("postpone", "1", "12/10").stderr == "todo: '12/10' is not read the same way in every country; \(both)\n")
    #expect(
      try box.todo("add", "--due", "25.12.", "x").stderr
        == "todo: '25.12.' is not read the same way in every country; write the date as 2009-12-25 (25 December)\n")
    #expect(box.read("todo.txt") == "a\n")
  }

  /// Control characters in a date phrase are refused before anything is read as a date.
  @Test func controlCharactersInAPhraseAreRefused() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "a\n")
    let run = try box.todo("tag", "1", "due", "next\u{1B}[2Jmonday")
    #expect(run.status == 1)
    #expect(!run.stderr.contains("\u{1B}"), "\(run.stderr)")
    #expect(box.read("todo.txt") == "a\n")
  }

  /// Under the name todo.sh the text is stored as typed, as todo.sh stores it.
  @Test func todoShStoresTheWordsAsTyped() throws {
    let box = try Sandbox()
    try box.sh("add", "call mom due:next-monday t:12/10")
    #expect(box.read("todo.txt") == "call mom due:next-monday t:12/10\n")
  }
}
