import Foundation
import Testing

/// `todo cal`: the month grid, its markers and counts, the month words, and the listing under
/// it, on the fixed clock (2009-02-13, a Friday; February 2009 starts on a Sunday).
@Suite struct CalendarCommandTests {
  /// Open tasks due in February 2009 on the 1st, 10th (both past), 13th (twice, today), 20th,
  /// 27th and 28th (twice); besides them a done one, a hidden one, and tasks of March and
  /// January.
  static let list = """
    (A) call mom due:2009-02-10
    pay rent due:2009-02-13
    buy milk due:2009-02-13 +home
    x 2009-02-12 done thing due:2009-02-16
    secret due:2009-02-20 h:1
    plan trip due:2009-02-20
    (B) file taxes due:2009-03-02
    old thing due:2009-01-30
    first of the month due:2009-02-01
    end b due:2009-02-28
    end a due:2009-02-28
    wait for it due:2009-02-27 t:2009-02-25

    """

  /// A line with each piece starting at its column (0-based), spaces between: the grid's
  /// day cells start every 11 columns, the number in the cell's second and third column.
  static func line(_ pieces: (Int, String)...) -> String {
    var line = ""
    for (column, text) in pieces {
      line += String(repeating: " ", count: column - line.count) + text
    }
    return line
  }

  static let header = line(
    (0, " Mon"), (11, " Tue"), (22, " Wed"), (33, " Thu"), (44, " Fri"), (55, " Sat"), (66, " Sun"))

  static func sandbox() throws -> Sandbox {
    let box = try Sandbox()
    try box.write("todo.txt", list)
    return box
  }

  @Test func februaryGridCountsOpenTasksPerDayAndMarksTodayAndOverdue() throws {
    let box = try CalendarCommandTests.sandbox()
    let run = try box.todo("cal")
    #expect(run.status == 0)
    // Piped, the listing's summary is on standard error.
    #expect(run.stderr == "--\nTODO: 8 of 12 tasks shown\n")
    let line = CalendarCommandTests.line
    // "February 2009" is 13 wide; the grid 7 × 11 - 1 = 76: (76 - 13) / 2 = 31 spaces before it.
    let expected = [
      String(repeating: " ", count: 31) + "February 2009",
      CalendarCommandTests.header,
      // The 1st is a Sunday: the seventh column. One task due, in the past.
      line((66, " !1 (1)")),
      line((0, "  2"), (11, "  3"), (22, "  4"), (33, "  5"), (44, "  6"), (55, "  7"), (66, "  8")),
      line((0, "  9"), (11, "!10 (1)"), (22, " 11"), (33, " 12"), (44, "[13](2)"), (55, " 14"), (66, " 15")),
      // The 16th has only a done task, the 20th one open task and one with h:1.
      line((0, " 16"), (11, " 17"), (22, " 18"), (33, " 19"), (44, " 20 (1)"), (55, " 21"), (66, " 22")),
      line((0, " 23"), (11, " 24"), (22, " 25"), (33, " 26"), (44, " 27 (1)"), (55, " 28 (2)")),
      "",
      "[13] today   !9 overdue   (2) open tasks due",
      "",
      // As ls --all --sort due: by due date, then by line; padded to two digits (12 lines).
      "09 first of the month due:2009-02-01",
      "01 (A) call mom due:2009-02-10",
      "02 pay rent due:2009-02-13",
      "03 buy milk due:2009-02-13 +home",
      "06 plan trip due:2009-02-20",
      "12 wait for it due:2009-02-27 t:2009-02-25",
      "10 end b due:2009-02-28",
      "11 end a due:2009-02-28",
      "",
    ].joined(separator: "\n")
    #expect(run.stdout == expected)
    #expect(box.read("todo.txt") == CalendarCommandTests.list)
    #expect(!box.exists("done.txt"))
  }

  /// The list under the grid is, byte for byte, what `ls` prints for the month's query.
  @Test(arguments: [("2009-02", "2009-02-28"), ("2009-03", "2009-03-31"), ("2009-01", "2009-01-31")])
  func theListUnderTheGridIsTheListingOfTheMonthsQuery(month: String, last: String) throws {
    let box = try CalendarCommandTests.sandbox()
    let calendar = try box.todo("cal", month).stdout
    let query = "open -h:1 due:>=\(month)-01 due:<=\(last)"
    let listing = try box.todo("ls", "--all", "--sort", "due", "-q", query).stdout
    #expect(listing.hasPrefix("0"))
    #expect(calendar.hasSuffix("open tasks due\n\n" + listing))
  }

  @Test func theAliasAndAnExplicitMonthGiveTheSameGrid() throws {
    let box = try CalendarCommandTests.sandbox()
    let plain = try box.todo("cal").stdout
    #expect(try box.todo("calendar").stdout == plain)
    #expect(try box.todo("cal", "2009-02").stdout == plain)
    #expect(try box.todo("cal", "feb").stdout == plain)
    #expect(try box.todo("cal", "2").stdout == plain)
    #expect(try box.todo("cal", "02").stdout == plain)
  }

  /// March: a month number, names in any case, `next`; no day is today or overdue.
  @Test(arguments: ["2009-03", "3", "03", "mar", "March", "MAR", "next"])
  func marchForms(word: String) throws {
    let box = try CalendarCommandTests.sandbox()
    let run = try box.todo("cal", word)
    #expect(run.status == 0, "\(word): \(run.stderr)")
    let lines = run.stdout.components(separatedBy: "\n")
    // "March 2009" is 10 wide: 33 spaces before it.
    #expect(lines.first == String(repeating: " ", count: 33) + "March 2009")
    // 2009-03-01 is a Sunday too, so the 2nd, with the one task, opens the second row.
    #expect(lines[2] == CalendarCommandTests.line((66, "  1")))
    #expect(lines[3].hasPrefix(CalendarCommandTests.line((0, "  2 (1)"), (11, "  3"))))
    let grid = lines.prefix(8).joined(separator: "\n")
    #expect(!grid.contains("[") && !grid.contains("!"))
    #expect(run.stdout.hasSuffix("\n07 (B) file taxes due:2009-03-02\n"))
    #expect(run.stderr == "--\nTODO: 1 of 12 tasks shown\n")
  }

  @Test func prevIsJanuaryWithItsPastTask() throws {
    let box = try CalendarCommandTests.sandbox()
    let run = try box.todo("cal", "prev")
    let lines = run.stdout.components(separatedBy: "\n")
    #expect(lines.first == String(repeating: " ", count: 32) + "January 2009")
    // 2009-01-01 is a Thursday (fourth column); the 30th is the Friday of the fifth row.
    #expect(lines[2] == CalendarCommandTests.line((33, "  1"), (44, "  2"), (55, "  3"), (66, "  4")))
    let fifth = CalendarCommandTests.line(
      (0, " 26"), (11, " 27"), (22, " 28"), (33, " 29"), (44, "!30 (1)"), (55, " 31"))
    #expect(lines[6] == fifth)
    #expect(run.stdout.hasSuffix("\n08 old thing due:2009-01-30\n"))
  }

  @Test func namesAndNumbersAreOfThisYearAndAYearMayBeGiven() throws {
    let box = try CalendarCommandTests.sandbox()
    #expect(try box.todo("cal", "december").stdout.hasPrefix(String(repeating: " ", count: 31) + "December 2009\n"))
    #expect(try box.todo("cal", "dec").stdout.hasPrefix(String(repeating: " ", count: 31) + "December 2009\n"))
    #expect(try box.todo("cal", "12").stdout.hasPrefix(String(repeating: " ", count: 31) + "December 2009\n"))
    let leap = try box.todo("cal", "2008-02").stdout
    #expect(leap.hasPrefix(String(repeating: " ", count: 31) + "February 2008\n"))
    // 2008-02-01 is a Friday; a leap year ends on the 29th, a Friday.
    #expect(leap.contains("\n" + CalendarCommandTests.line((44, "  1"), (55, "  2"), (66, "  3")) + "\n"))
    let last = CalendarCommandTests.line((0, " 25"), (11, " 26"), (22, " 27"), (33, " 28"), (44, " 29"))
    #expect(leap.contains("\n" + last + "\n"))
  }

  @Test(arguments: ["13", "0", "2009-13", "2009-00", "2009-1-", "09-02", "decem", "fooo", "", "next-month", "-1"])
  func aWordThatIsNoMonthIsAnErrorAndChangesNothing(word: String) throws {
    let box = try CalendarCommandTests.sandbox()
    let run = try box.todo("cal", "--", word)
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr == "todo: '\(word)' is not a month (2026-12, 12, dec, december, next or prev)\n")
    #expect(box.read("todo.txt") == CalendarCommandTests.list)
    #expect(!box.exists("done.txt"))
  }

  @Test func twoMonthsAreAUsageError() throws {
    let box = try CalendarCommandTests.sandbox()
    let run = try box.todo("cal", "1", "2")
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr == "usage: todo cal [MONTH]\n")
  }

  @Test func withoutATodoFileTheGridIsEmptyAndNoFileIsMade() throws {
    let box = try Sandbox()
    let run = try box.todo("cal")
    #expect(run.status == 0)
    let week = CalendarCommandTests.line(
      (0, "  9"), (11, " 10"), (22, " 11"), (33, " 12"), (44, "[13]"), (55, " 14"), (66, " 15"))
    #expect(run.stdout.contains("\n" + week + "\n"))
    #expect(run.stderr == "--\nTODO: 0 of 0 tasks shown\n")
    #expect(!box.exists("todo.txt"))
  }

  @Test func completionOffersMonthNamesAndTheRelativeWords() throws {
    let box = try CompletionTests.sandbox()
    #expect(try CompletionTests.bash(box, "todo cal de") == ["december"])
    #expect(try CompletionTests.bash(box, "todo cal n") == ["november", "next"])
    #expect(try CompletionTests.bash(box, "todo cale") == ["calendar"])
  }

  @Test func helpDescribesTheMonthWords() throws {
    let box = try Sandbox()
    let help = try box.todo("help", "cal")
    #expect(help.status == 0)
    #expect(help.stdout.contains("cal [MONTH]"))
    #expect(help.stdout.contains("next or prev"))
    #expect(try box.todo("cal", "--help").stdout.hasPrefix("Usage: todo cal [MONTH]"))
  }

  // MARK: On a terminal

  /// Runs `todo ARGS` with a pseudo-terminal as its standard streams and returns what it
  /// wrote (see ``Sandbox/onTerminal(_:environment:)``).
  static func onTerminal(_ box: Sandbox, _ arguments: [String], environment: [String: String] = [:]) throws -> String {
    try box.onTerminal(arguments, environment: environment)
  }

  @Test func onATerminalTodayIsReversedAndOverdueDaysAreRed() throws {
    let box = try CalendarCommandTests.sandbox()
    let output = try CalendarCommandTests.onTerminal(box, ["cal"])
    let escape = "\u{1B}["
    // Today: the number reversed, its count in the due-today colour (magenta).
    #expect(output.contains(" \(escape)7m13\(escape)0m \(escape)1;35m(2)\(escape)0m"))
    // Past days with open tasks: number and count in the overdue colour (bold red).
    #expect(output.contains(" \(escape)1;31m10 (1)\(escape)0m"))
    #expect(output.contains(" \(escape)1;31m 1 (1)\(escape)0m"))
    // The plain markers are not used.
    #expect(!output.contains("[13]") && !output.contains("!10"))
    // A day without tasks is not coloured.
    #expect(output.contains(CalendarCommandTests.line((0, "  2"), (11, "  3"), (22, "  4"))))
  }

  @Test func aNarrowTerminalGetsTheNarrowGridAndNoRowWraps() throws {
    let box = try CalendarCommandTests.sandbox()
    let output = try CalendarCommandTests.onTerminal(box, ["cal"], environment: ["NO_COLOR": "1", "COLUMNS": "40"])
      .replacingOccurrences(of: "\r\n", with: "\n")
    // Four columns a day and a space: 34 columns; "February 2009" after (34 - 13) / 2 = 10.
    #expect(
      output.hasPrefix(
        """
                  February 2009
         Mo   Tu   We   Th   Fr   Sa   Su
                                       !1*
          2    3    4    5    6    7    8
          9  !10*  11   12  [13*  14   15
         16   17   18   19   20*  21   22
         23   24   25   26   27*  28*

        [13 today  !9 overdue  20* tasks due

        """), "\(output)")
    // The wide grid from 76 columns on.
    let wide = try CalendarCommandTests.onTerminal(box, ["cal"], environment: ["NO_COLOR": "1", "COLUMNS": "76"])
    #expect(wide.contains("[13](2)"))
  }

  @Test func onATerminalWithNoColorTheMarkersArePlain() throws {
    let box = try CalendarCommandTests.sandbox()
    let output = try CalendarCommandTests.onTerminal(box, ["cal"], environment: ["NO_COLOR": "1"])
    #expect(!output.contains("\u{1B}["))
    #expect(output.contains("[13](2)"))
    #expect(output.contains("!10 (1)"))
    let plain = try CalendarCommandTests.onTerminal(box, ["--plain", "cal"])
    #expect(!plain.contains("\u{1B}["))
    #expect(plain.contains("[13](2)"))
  }
}
