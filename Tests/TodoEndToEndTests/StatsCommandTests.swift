import Foundation
import Testing

/// `todo stats`: the counts of todo.txt and done.txt and the weekly bars, on the fixed clock
/// (2009-02-13, a Friday: this week began on Monday 2009-02-09, and the eight weeks shown on
/// Monday 2008-12-22).
@Suite struct StatsCommandTests {
  static let todo = """
    (A) 2009-02-09 pay rent due:2009-02-10
    2009-02-13 call bank due:2009-02-13
    (B) 2009-02-02 plan trip due:2009-02-20
    2009-01-27 buy milk due:2009-02-21
    water plants
    x 2009-02-12 2009-02-01 file taxes
    2009-02-10 placeholder h:1 due:2009-02-01

    2008-12-01 ancient task
    2009-02-14 dated tomorrow

    """

  static let done = """
    x 2009-02-10 2009-02-03 archived one
    x 2009-01-28 2009-01-20 archived two
    x 2008-12-22 archived three
    x 2008-12-21 2008-12-01 too old
    x 2009-02-13 2009-02-11 done today

    """

  static func sandbox() throws -> Sandbox {
    let box = try Sandbox()
    try box.write("todo.txt", todo)
    try box.write("done.txt", done)
    return box
  }

  /// A week's row as documented: the Monday, two spaces, the added count right-aligned in
  /// five columns, a space, its bar in twenty, two spaces, the done count in four, a space,
  /// its bar; no trailing spaces.
  static func row(_ week: String, _ added: Int, _ addedBar: String, _ done: Int, _ doneBar: String) -> String {
    func right(_ value: Int, _ width: Int) -> String {
      String(repeating: " ", count: width - String(value).count) + String(value)
    }
    let line =
      week + "  " + right(added, 5) + " " + addedBar + String(repeating: " ", count: 20 - addedBar.count) + "  "
      + right(done, 4) + " " + doneBar
    return String(line.reversed().drop { $0 == " " }.reversed())
  }

  /// Worked out line by line:
  /// - open: the seven open lines of todo.txt (not the h:1 one, not the blank one);
  /// - done: one in todo.txt, five in done.txt;
  /// - overdue: pay rent (the h:1 task does not count); due today: call bank;
  /// - next 7 days (2009-02-14 to 2009-02-20): plan trip, not buy milk (the 21st);
  /// - with priority: pay rent, plan trip.
  /// Added by creation date: 01-20 (week of 01-19); 01-27, 02-01 (01-26); 02-02, 02-03
  /// (02-02); 02-09, 02-13, 02-11 (02-09); 2008-12-01 is before the first week and 02-14 is
  /// after today. Done by completion date: 12-22 (the first Monday itself); 01-28 (01-26);
  /// 02-12, 02-10, 02-13 (02-09); 12-21 is the Sunday before.
  @Test func countsAndWeeklyBarsOfBothFiles() throws {
    let box = try StatsCommandTests.sandbox()
    let run = try box.todo("stats")
    #expect(run.status == 0)
    #expect(run.stderr == "")
    let row = StatsCommandTests.row
    let expected = [
      "open                    7",
      "done                    6",
      "overdue                 1",
      "due today               1",
      "due in the next 7 days  1",
      "with priority           2",
      "without priority        5",
      "",
      "week of     added" + String(repeating: " ", count: 23) + "done",
      row("2008-12-22", 0, "", 1, "#"),
      row("2008-12-29", 0, "", 0, ""),
      row("2009-01-05", 0, "", 0, ""),
      row("2009-01-12", 0, "", 0, ""),
      row("2009-01-19", 1, "#", 0, ""),
      row("2009-01-26", 2, "##", 1, "#"),
      row("2009-02-02", 2, "##", 0, ""),
      row("2009-02-09", 3, "###", 3, "###"),
      "",
    ].joined(separator: "\n")
    #expect(run.stdout == expected)
    #expect(box.read("todo.txt") == StatsCommandTests.todo)
    #expect(box.read("done.txt") == StatsCommandTests.done)
  }

  @Test func onANarrowTerminalTheBarsAreShortenedSoThatNoRowWraps() throws {
    let box = try Sandbox()
    // Thirty tasks made in the week of 2009-02-02, one done in it.
    let made = (1...30).map { "2009-02-0\(2 + $0 % 5) task \($0)\n" }.joined()
    try box.write("todo.txt", made + "x 2009-02-03 2009-02-02 done one\n")
    let output = try box.onTerminal(["stats", "--weeks", "2"], environment: ["NO_COLOR": "1", "COLUMNS": "40"])
      .replacingOccurrences(of: "\r\n", with: "\n")
    // Fixed columns: 10 + 2 + 5 + 1 + 2 + 4 + 1 = 25; (40 - 25) / 2 = 7 marks a bar at most,
    // and the busiest week's 31 tasks fill it: 31 * 7 / 31 = 7, the done week 1 * 7 / 31 ~ 1.
    #expect(output.contains("\n2009-02-02     31 #######     1 #\n"), "\(output)")
    for line in output.split(separator: "\n") { #expect(line.count <= 40, "\(line)") }
    // Piped, the bars keep their twenty marks.
    #expect(try box.todo("stats", "--weeks", "2").stdout.contains("\n2009-02-02     31 " + String(repeating: "#", count: 20)))
  }

  @Test func weeksChoosesHowManyWeeksEndingWithThisOne() throws {
    let box = try StatsCommandTests.sandbox()
    let lines = try box.todo("stats", "--weeks", "3").stdout.components(separatedBy: "\n")
    let row = StatsCommandTests.row
    let three = [
      row("2009-01-26", 2, "##", 1, "#"), row("2009-02-02", 2, "##", 0, ""), row("2009-02-09", 3, "###", 3, "###"), "",
    ]
    #expect(Array(lines.suffix(4)) == three)
    #expect(lines[lines.count - 5].hasPrefix("week of"))
    let one = try box.todo("stats", "--weeks=1").stdout.components(separatedBy: "\n")
    let header = "week of     added" + String(repeating: " ", count: 23) + "done"
    #expect(Array(one.suffix(3)) == [header, row("2009-02-09", 3, "###", 3, "###"), ""])
  }

  @Test(arguments: [
    (["--weeks", "0"], "todo: option '--weeks' does not take '0'; it takes 1…520"),
    (["--weeks", "521"], "todo: option '--weeks' does not take '521'; it takes 1…520"),
    (["--weeks", "x"], "todo: option '--weeks' does not take 'x'; it takes 1…520"),
    (["--weeks"], "todo: option '--weeks' needs a value"),
    (["--format", "xml"], "todo: option '--format' does not take 'xml'; it takes text, json"),
    (["extra"], "usage: todo stats"),
  ])
  func badOptionsAreOneLineErrors(arguments: [String], message: String) throws {
    let box = try StatsCommandTests.sandbox()
    let run = try box.run("todo", ["stats"] + arguments)
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr == message + "\n")
    #expect(box.read("todo.txt") == StatsCommandTests.todo)
    #expect(box.read("done.txt") == StatsCommandTests.done)
  }

  @Test func jsonHoldsTheSameNumbers() throws {
    let box = try StatsCommandTests.sandbox()
    let run = try box.todo("stats", "--format", "json", "--weeks", "2")
    #expect(run.status == 0)
    let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
    let stats = try #require(object)
    #expect(stats["today"] as? String == "2009-02-13")
    let expected = [
      "open": 7, "done": 6, "overdue": 1, "due_today": 1, "due_soon": 1, "with_priority": 2, "without_priority": 5,
    ]
    for (key, value) in expected { #expect(stats[key] as? Int == value, "\(key)") }
    let weeks = try #require(stats["weeks"] as? [[String: Any]])
    #expect(weeks.count == 2)
    #expect(weeks.map { $0["week"] as? String } == ["2009-02-02", "2009-02-09"])
    #expect(weeks.map { $0["added"] as? Int } == [2, 3])
    #expect(weeks.map { $0["done"] as? Int } == [0, 3])
    #expect(run.stdout.hasSuffix("}\n") && !run.stdout.contains("#"))
  }

  /// More than twenty in a week scales every bar to the busiest week: 40 added is 20 marks,
  /// 10 done is 10 × 20 / 40 = 5; in a UTF-8 locale the marks are full blocks.
  @Test func barsScaleDownAndUseBlocksUnderUTF8() throws {
    let box = try Sandbox()
    try box.write("todo.txt", (1...40).map { "2009-02-10 task \($0)\n" }.joined())
    try box.write("done.txt", (1...10).map { "x 2009-02-11 done \($0)\n" }.joined())
    let run = try box.todo("stats", "--weeks", "1")
    let row = StatsCommandTests.row
    #expect(run.stdout.hasSuffix("\n" + row("2009-02-09", 40, String(repeating: "#", count: 20), 10, "#####") + "\n"))
    let utf8 = try box.todo("stats", "--weeks", "1", environment: ["LC_ALL": "", "LANG": "C.UTF-8"])
    let block = "\u{2588}"
    let blocks = row("2009-02-09", 40, String(repeating: block, count: 20), 10, String(repeating: block, count: 5))
    #expect(utf8.stdout.hasSuffix("\n" + blocks + "\n"))
    // The first set variable decides: LC_ALL=C wins over a UTF-8 LANG.
    let c = try box.todo("stats", "--weeks", "1", environment: ["LC_ALL": "C", "LANG": "C.UTF-8"])
    #expect(c.stdout.contains("#####"))
  }

  @Test func withoutFilesEverythingIsZeroAndNoFileIsMade() throws {
    let box = try Sandbox()
    let run = try box.todo("stats", "--weeks", "1", "--format", "json")
    #expect(run.status == 0)
    #expect(
      run.stdout
        == "{\"today\":\"2009-02-13\",\"open\":0,\"done\":0,\"overdue\":0,\"due_today\":0,\"due_soon\":0,"
        + "\"with_priority\":0,\"without_priority\":0,\"weeks\":[{\"week\":\"2009-02-09\",\"added\":0,\"done\":0}]}\n")
    #expect(!box.exists("todo.txt") && !box.exists("done.txt"))
  }

  @Test func helpAndCompletionKnowTheOptions() throws {
    let box = try CompletionTests.sandbox()
    #expect(try box.todo("help", "stats").stdout.contains("--weeks N"))
    #expect(try CompletionTests.bash(box, "todo stats --w") == ["--weeks"])
    #expect(try CompletionTests.bash(box, "todo stats --format ") == ["text", "json"])
  }
}
