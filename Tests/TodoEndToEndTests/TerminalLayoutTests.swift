import Foundation
import Testing

/// The readable listing of `todo ls` on a terminal, with the clock at Friday 2009-02-13, and
/// the raw lines it keeps for pipes.
@Suite struct TerminalLayoutTests {
  static let file = """
    (A) 2009-02-01 Call Mom +family @phone due:2009-02-13
    2009-02-10 Pay rent due:2009-02-11 +home note:rent.txt
    x 2009-02-12 2009-02-01 Buy milk @store
    (B) Write the quarterly report for the board with every figure of the last three months +work due:2009-02-16 id:4 att:a.pdf
    Plan trip due:2009-03-30

    """

  func box(_ config: String = "") throws -> Sandbox {
    let box = try Sandbox(config: "export TODO_DIR=\"$HOME\"\n" + config)
    try box.write("todo.txt", TerminalLayoutTests.file)
    return box
  }

  /// What stands between a due date and its distance: a plain space (the layout keeps the two
  /// on one line when it wraps, but writes no U+00A0 that would travel with copied text).
  static let glue = " "

  @Test func pipesKeepTheRawLines() throws {
    let box = try box()
    let run = try box.todo("ls", merged: true)
    #expect(
      run.stdout == """
        1 (A) 2009-02-01 Call Mom +family @phone due:2009-02-13
        4 (B) Write the quarterly report for the board with every figure of the last three months +work due:2009-02-16 id:4 att:a.pdf
        2 2009-02-10 Pay rent due:2009-02-11 +home note:rent.txt
        5 Plan trip due:2009-03-30
        --
        TODO: 4 of 5 tasks shown

        """)
  }

  @Test func readableLayoutWithoutColour() throws {
    let box = try box()
    // Forced into a pipe, so that no terminal is needed to read it; no width, no wrapping.
    let run = try box.todo("ls", environment: ["TODO_LAYOUT": "readable"], merged: true)
    let g = TerminalLayoutTests.glue
    #expect(
      run.stdout == """
        1 (A) 2009-02-01 Call Mom +family @phone due:2009-02-13\(g)(today)
        4 (B) Write the quarterly report for the board with every figure of the last three months +work due:2009-02-16\(g)(in\(g)3d) [att]
        2     2009-02-10 Pay rent due:2009-02-11\(g)(2d\(g)ago) +home [note]
        5     Plan trip due:2009-03-30\(g)(in\(g)6w)
        --
        TODO: 4 of 5 tasks shown

        """)
    // A done task (listed with --all) has an x in the priority column and the date it was
    // done instead of the one it was made.
    let all = try box.todo("ls", "--all", environment: ["TODO_LAYOUT": "readable"]).stdout
    #expect(all.contains("\n3 x   2009-02-12 Buy milk @store\n"))
  }

  @Test func settingsChooseWhatIsHidden() throws {
    let box = try box("export TODO_HIDE_TAGS='note id'\nexport TODO_HIDE_CREATED=1\n")
    let run = try box.todo("ls", "-q", "+home or +work", environment: ["TODO_LAYOUT": "readable"], merged: true)
    let g = TerminalLayoutTests.glue
    #expect(
      run.stdout == """
        4 (B) Write the quarterly report for the board with every figure of the last three months +work due:2009-02-16\(g)(in\(g)3d) att:a.pdf
        2     Pay rent due:2009-02-11\(g)(2d\(g)ago) +home [note]
        --
        TODO: 2 of 5 tasks shown

        """)
    // The global -+ and -@ options hide projects and contexts here too.
    let hidden = try box.todo("-+", "-@", "ls", "Mom", environment: ["TODO_LAYOUT": "readable"]).stdout
    #expect(hidden.hasPrefix("1 (A) Call Mom due:2009-02-13\(g)(today)\n"))
  }

  @Test func onATerminalLinesAreColouredAndWrapped() throws {
    let box = try box()
    let screen = try box.onTerminal(["ls"], environment: ["COLUMNS": "60"])
    func plain(_ text: String) -> String {
      text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }
    let g = TerminalLayoutTests.glue
    // 60 columns: the text goes on under itself, six columns in (number, blank, "(B) ").
    #expect(
      plain(screen).hasPrefix("""
        1 (A) 2009-02-01 Call Mom +family @phone
              due:2009-02-13\(g)(today)
        4 (B) Write the quarterly report for the board with every
              figure of the last three months +work
              due:2009-02-16\(g)(in\(g)3d) [att]
        2     2009-02-10 Pay rent due:2009-02-11\(g)(2d\(g)ago) +home
              [note]
        5     Plan trip due:2009-03-30\(g)(in\(g)6w)
        --
        """))
    let escape = "\u{1B}["
    #expect(screen.contains("\(escape)1;35mdue:2009-02-13\(g)(today)\(escape)0m"))
    #expect(screen.contains("\(escape)1;31mdue:2009-02-11\(g)(2d\(g)ago)\(escape)0m"))
    #expect(screen.contains("\(escape)0;33mdue:2009-02-16\(g)(in\(g)3d)\(escape)0m"))
    #expect(screen.contains("due:2009-03-30\(g)(in\(g)6w)\n"))
    #expect(screen.contains("\(escape)0;36m+family\(escape)0m"))
    #expect(screen.contains("\(escape)0;32m@phone\(escape)0m"))
    #expect(screen.contains("\(escape)1;33m(A)\(escape)0m"))
    // Without COLUMNS the terminal's own width (80) counts.
    let wide = plain(try box.onTerminal(["ls"]))
    #expect(wide.contains("4 (B) Write the quarterly report for the board with every figure of the last\n      three months"))
    // A done task is faint as a whole.
    let all = try box.onTerminal(["ls", "--all"])
    #expect(all.contains("3 \(escape)2mx\(escape)0m   \(escape)2m2009-02-12 Buy milk @store\(escape)0m"))
  }

  @Test func agendaDrawsItsTasksTheSameWay() throws {
    let box = try box()
    let screen = try box.onTerminal(["agenda"], environment: ["NO_COLOR": "1"])
    let g = TerminalLayoutTests.glue
    #expect(
      screen.hasPrefix("""
        Overdue
          2     2009-02-10 Pay rent due:2009-02-11\(g)(2d\(g)ago) +home [note]
        Today, Fri 2009-02-13
          1 (A) 2009-02-01 Call Mom +family @phone due:2009-02-13\(g)(today)
        Mon 2009-02-16
          4 (B) Write the quarterly report for the board with every figure of the last
                three months +work due:2009-02-16\(g)(in\(g)3d) [att]

        """))
    #expect(!screen.contains("\u{A0}"))
  }

  @Test func aFormatOrTheLinesLayoutKeepsTheRawLines() throws {
    let box = try box()
    let colourless = ["NO_COLOR": "1"]
    let text = try box.onTerminal(["ls", "--format", "text", "Mom"], environment: colourless)
    #expect(text.hasPrefix("1 (A) 2009-02-01 Call Mom +family @phone due:2009-02-13\n"))
    let lines = try box.onTerminal(["ls", "Mom"], environment: colourless.merging(["TODO_LAYOUT": "lines"]) { $1 })
    #expect(lines.hasPrefix("1 (A) 2009-02-01 Call Mom +family @phone due:2009-02-13\n"))
    let template = try box.onTerminal(["ls", "--format", "{n} {text}", "Mom"], environment: colourless)
    #expect(template.hasPrefix("1 Call Mom +family @phone due:2009-02-13\n"))
  }

  @Test func badLayoutSettingsAreRefused() throws {
    let box = try box("export TODO_LAYOUT=fancy\n")
    let before = box.bytes("todo.txt")
    let run = try box.todo("add", "more")
    #expect(run.status == 1)
    #expect(run.stderr == "todo: TODO_LAYOUT should be one of auto, readable, lines, not 'fancy'\n")
    #expect(box.bytes("todo.txt") == before)
    let other = try self.box()
    let sort = try other.todo("ls", environment: ["TODO_SORT": "dew"])
    #expect(sort.status == 1)
    #expect(sort.stderr.hasPrefix("todo: TODO_SORT should be sort keys"))
    let created = try other.todo("ls", environment: ["TODO_HIDE_CREATED": "yes\u{1B}"])
    #expect(created.stderr == "todo: TODO_HIDE_CREATED should be 0 or 1, not 'yes?'\n")
  }

  @Test func configuredDefaultOrder() throws {
    let box = try box()
    let run = try box.todo("ls", "--format", "{n}", environment: ["TODO_SORT": "due"])
    // Due dates: 2 (02-11), 1 (02-13), 4 (02-16), 5 (03-30).
    #expect(run.stdout == "2\n1\n4\n5\n")
    // --sort wins over the setting.
    #expect(try box.todo("ls", "--sort", "-due", "--format", "{n}", environment: ["TODO_SORT": "due"]).stdout == "5\n4\n1\n2\n")
  }

  @Test func todoShModeIsUntouched() throws {
    let box = try box()
    let run = try box.sh("-p", "ls")
    #expect(run.stdout.contains("3 x 2009-02-12 2009-02-01 Buy milk @store\n"))
    #expect(!run.stdout.contains("\u{A0}"))
  }
}

/// `todo help` is a few hundred lines: on a terminal it goes through a pager.
@Suite struct HelpPagerTests {
  @Test func longHelpIsPagedOnATerminalOnly() throws {
    let box = try Sandbox()
    let paged = try box.onTerminal(["help"], environment: ["PAGER": "sed 's/^/PAGED:/'"])
    #expect(paged.hasPrefix("PAGED:  Usage: todo "))
    #expect(!paged.contains("\nPAGED:END-OF-RUN"))
    // Into a pipe, and under the name todo.sh, it is written as it is.
    let piped = try box.todo("help", environment: ["PAGER": "sed 's/^/PAGED:/'"])
    #expect(piped.stdout.hasPrefix("  Usage: todo "))
    // The help of one action is short and never paged.
    let one = try box.onTerminal(["help", "ls"], environment: ["PAGER": "sed 's/^/PAGED:/'"])
    #expect(!one.contains("PAGED:"))
  }
}
