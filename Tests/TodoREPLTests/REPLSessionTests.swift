import Foundation
import Testing
import TodoCommands
import TodoTxt

@testable import TodoREPL

/// The shell's loop with scripted lines, over a real todo directory in a temporary home.
@Suite struct REPLSessionTests {
  final class Home {
    let url: URL
    let environment: [String: String]

    init(todo: String = "") throws {
      url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "todo-repl-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
      try Data("export TODO_DIR=\"$HOME\"\n".utf8).write(to: url.appendingPathComponent("todo.cfg"))
      // The clock stands at 2009-02-13.
      environment = [
        "HOME": url.path, "XDG_STATE_HOME": url.appendingPathComponent("state").path,
        "PATH": "/usr/bin:/bin", "LANG": "C", "LC_ALL": "C", "TZ": "UTC", "TERM": "dumb",
        "TODO_TEST_TIME": "1234500000",
      ]
      try write(todo)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    var todoFile: URL { url.appendingPathComponent("todo.txt") }

    func write(_ text: String) throws { try Data(text.utf8).write(to: todoFile) }

    func read() -> String { (try? String(contentsOf: todoFile, encoding: .utf8)) ?? "" }

    /// Runs `todo ARGUMENTS` once, as from a shell's command line.
    func once(_ arguments: [String]) -> (status: TodoCommands.ExitStatus, console: CapturingConsole)
    {
      let console = CapturingConsole()
      let status = TodoCLI.run(
        arguments: ["todo"] + arguments, environment: environment, console: console,
        input: ScriptedInput())
      return (status, console)
    }

    /// Opens the shell (`todo OPTIONS shell`) and feeds it `lines`.
    func shell(
      _ lines: [String], options: [String] = [], interactive: Bool = true,
      reader: ScriptedLineReader? = nil,
      input: String = ""
    ) -> (status: TodoCommands.ExitStatus, console: CapturingConsole, reader: ScriptedLineReader) {
      let reader = reader ?? ScriptedLineReader(lines)
      let console = CapturingConsole()
      let status = TodoCLI.run(
        arguments: ["todo"] + options + ["shell"], environment: environment, console: console,
        input: ScriptedInput(input)
      ) { launch in
        REPLSession(launch: launch, reader: reader, interactive: interactive).run()
      }
      return (status, console, reader)
    }
  }

  @Test func aLineRunsAsItsCommandLineWould() throws {
    let shell = try Home(todo: "(A) call mom @phone\npay rent +home due:2009-02-01\n")
    let once = try Home(todo: "(A) call mom @phone\npay rent +home due:2009-02-01\n")
    let lines = ["add \"buy milk\" +home", "ls", "pri 3 B", "ls +home", "help add", "lsp"]
    let session = shell.shell(lines)
    var expected = ""
    for line in lines {
      expected += once.once(try ShellWords.split(line)).console.combinedText
    }
    #expect(session.status == .success)
    #expect(session.console.combinedText == expected + "\n")
    #expect(shell.read() == once.read())
    #expect(shell.read().contains("(B) 2009-02-13 buy milk +home\n"))
  }

  @Test func helpWorks() throws {
    let home = try Home()
    let help = home.shell(["help"]).console.outputText
    #expect(help == home.once(["help"]).console.outputText + "\n")
    #expect(help.contains("shell"))
  }

  @Test(arguments: ["quit", "exit", "  QUIT  "])
  func quitEndsTheShell(_ word: String) throws {
    let home = try Home()
    let session = home.shell(["add first", word, "add second"])
    #expect(session.status == .success)
    #expect(home.read() == "2009-02-13 first\n")
  }

  @Test func endOfInputEndsTheShellWithANewline() throws {
    let home = try Home()
    let session = home.shell([])
    #expect(session.status == .success)
    #expect(session.console.outputText == "\n")
  }

  @Test func aFailedLineDoesNotEndAnInteractiveShell() throws {
    let home = try Home(todo: "one\n")
    let session = home.shell(["do 7", "frobnicate", "add \"open", "do 1"])
    #expect(session.status == .success)
    #expect(home.read().hasPrefix("x 2009-02-13"))
    #expect(session.console.errorText.contains("unterminated double quote"))
    #expect(session.console.errorText.contains("frobnicate"))
  }

  /// English in the shell: an apostrophe inside a word is a letter, quotes still group words,
  /// and a quote left open is named with its column, and nothing is written.
  @Test func apostrophesAreLettersAndQuotesStillGroup() throws {
    let home = try Home()
    let session = home.shell([
      "add Don't forget the umbrella", "add 'two words' more", "add it's 'open", "add the kids' shoes",
    ])
    #expect(session.status == .success)
    #expect(
      home.read()
        == "2009-02-13 Don't forget the umbrella\n2009-02-13 two words more\n2009-02-13 the kids' shoes\n")
    #expect(session.console.errorText == "todo: unterminated single quote: the ' at column 10 is never closed\n")
  }

  @Test func batchModeFailsWhenALineFailed() throws {
    let home = try Home(todo: "one\n")
    let failing = home.shell(["do 7", "add two"], interactive: false)
    #expect(failing.status == .failure)
    #expect(home.read() == "one\n2009-02-13 two\n")
    #expect(failing.reader.prompts == ["", "", ""])
    #expect(failing.reader.history == [])
    let passing = home.shell(["ls", "", "# a comment", "quit"], interactive: false)
    #expect(passing.status == .success)
    #expect(!passing.console.outputText.hasSuffix("\n\n"))
  }

  @Test func historyKeepsLinesOnceInARow() throws {
    let home = try Home()
    let reader = ScriptedLineReader(["ls", "ls", "", "  ", "lsp", "ls", "quit"], history: ["lsp"])
    _ = home.shell([], reader: reader)
    #expect(reader.history == ["lsp", "ls", "lsp", "ls"])
  }

  @Test func promptCountsOpenAndOverdueTasks() throws {
    let home = try Home(
      todo:
        "a due:2009-02-01\nx 2009-02-01 b due:2009-01-01\n\nc due:2009-02-13\nd due:2009-03-01\ne\n"
    )
    let session = home.shell(["add f", "do 6"])
    #expect(
      session.reader.prompts == [
        "todo [4 open, 1 overdue]> ", "todo [5 open, 1 overdue]> ", "todo [4 open, 1 overdue]> ",
      ])
    #expect(
      ShellPrompt.text(
        programName: "todo", list: TodoList(), today: TaskDate(year: 2009, month: 2, day: 13)!)
        == "todo [0 open]> ")
  }

  /// Typed from habit, `todo ls` runs `ls` and `?` shows the help, instead of "unknown action".
  @Test func theProgramNameAndAQuestionMarkAreUnderstood() throws {
    let home = try Home(todo: "a\n")
    let session = home.shell(["todo ls", "todo.sh add b", "?"])
    #expect(session.status == .success, "\(session.console.errorText)")
    #expect(session.console.combinedText.hasPrefix("1 a\n--\nTODO: 1 of 1 tasks shown\n"), "\(session.console.combinedText)")
    #expect(home.read() == "a\n2009-02-13 b\n")
    #expect(!session.console.errorText.contains("unknown action"), "\(session.console.errorText)")
    #expect(session.console.outputText.contains("Usage:") || session.console.outputText.contains("usage"), "\(session.console.outputText.suffix(300))")
  }

  /// A copy a sync service left beside the list shows in the prompt until `conflicts` merges it.
  @Test func promptCountsConflictedCopies() throws {
    let home = try Home(todo: "a\n")
    try Data("a\nb\n".utf8).write(to: home.url.appendingPathComponent("todo (conflicted copy 2026-12-01).txt"))
    let session = home.shell(["conflicts"])
    #expect(session.reader.prompts == ["todo [1 open, 1 conflicted copy]> ", "todo [2 open]> "])
  }

  @Test func optionsApplyToEveryLineAndMayStartALine() throws {
    let home = try Home(todo: "call mom +family @phone\n")
    let startup = home.shell(["ls"], options: ["-+"]).console.outputText
    #expect(startup == home.once(["-+", "ls"]).console.outputText + "\n")
    #expect(!startup.contains("+family"))
    let perLine = home.shell(["-@ ls", "ls"]).console.outputText
    #expect(
      perLine == home.once(["-@", "ls"]).console.outputText + home.once(["ls"]).console.outputText
        + "\n")
  }

  @Test func theShellIsNotOpenedTwice() throws {
    let home = try Home()
    let session = home.shell(["shell"])
    #expect(session.console.errorText == "todo: the interactive shell is already running\n")
  }

  @Test func questionsTakeTheirAnswerFromTheScript() throws {
    let home = try Home(todo: "one\ntwo\n")
    let console = CapturingConsole()
    let input = ScriptedInput("del 1\nn\nls\n")
    let status = TodoCLI.run(
      arguments: ["todo", "shell"], environment: home.environment, console: console, input: input
    ) { launch in
      REPLSession(
        launch: launch, reader: BatchLineReader(input: launch.context.input), interactive: false
      ).run()
    }
    // Declining fails the line, as in todo.sh; the answer was not read as a line of its own.
    #expect(status == .failure)
    #expect(home.read() == "one\ntwo\n")
    #expect(console.outputText.contains("2 two"))
    #expect(!console.errorText.contains("'n'"))
  }

  // MARK: Outside edits

  /// A reader that edits the todo file just before handing out chosen lines.
  final class EditingReader: LineReader {
    var lines: [(edit: String?, line: String)]
    let home: Home
    init(_ home: Home, _ lines: [(edit: String?, line: String)]) {
      self.home = home
      self.lines = lines
    }
    func readLine(prompt: String) -> String? {
      guard !lines.isEmpty else { return nil }
      let next = lines.removeFirst()
      if let edit = next.edit { try? home.write(edit) }
      return next.line
    }
    func addHistory(_ line: String) {}
    var lastHistoryEntry: String? { nil }
  }

  func run(_ home: Home, _ reader: LineReader) -> CapturingConsole {
    let console = CapturingConsole()
    _ = TodoCLI.run(
      arguments: ["todo", "shell"], environment: home.environment, console: console,
      input: ScriptedInput()
    ) { launch in
      REPLSession(launch: launch, reader: reader, interactive: true).run()
    }
    return console
  }

  @Test func anOutsideEditIsReportedAndNumbersFollowTheirTasks() throws {
    let home = try Home(todo: "alpha\nbeta\n")
    let reader = EditingReader(
      home, [(nil, "ls"), ("inserted\nalpha\nbeta\n", "do 2"), (nil, "ls")])
    let console = run(home, reader)
    #expect(console.errorText.contains("todo.txt changed on disk; re-read\ntask 2 is now task 3\n"))
    #expect(home.read() == "inserted\nalpha\nx 2009-02-13 beta\n")
  }

  @Test func aChangedTaskIsNotTouched() throws {
    let home = try Home(todo: "alpha\nbeta\n")
    let reader = EditingReader(
      home, [(nil, "ls"), ("alpha\nbeta edited\n", "do 2"), (nil, "do 2")])
    let console = run(home, reader)
    #expect(
      console.errorText.contains(
        "todo: task 2 changed on disk since it was shown ('beta'); nothing done"))
    // Once told, the user's numbers are those of the file as it is now.
    #expect(home.read() == "alpha\nx 2009-02-13 beta edited\n")
  }

  @Test func anEditThatKeepsTheTaskInPlaceRunsQuietly() throws {
    let home = try Home(todo: "alpha\nbeta\n")
    let reader = EditingReader(home, [(nil, "ls"), ("alpha\nbeta\ngamma\n", "do 1,2")])
    let console = run(home, reader)
    #expect(console.errorText.contains("todo.txt changed on disk; re-read\n"))
    #expect(!console.errorText.contains("is now"))
    #expect(home.read() == "x 2009-02-13 alpha\nx 2009-02-13 beta\ngamma\n")
  }

  @Test func ownChangesAreNotReportedAsOutsideEdits() throws {
    let home = try Home(todo: "alpha\n")
    let console = home.shell(["add beta", "do 1", "ls"]).console
    #expect(!console.errorText.contains("changed on disk"))
  }

  // MARK: Pieces

  @Test func taskNumberPositionsComeFromTheCommandTable() {
    #expect(TaskNumberPositions.find(in: ["do", "1", "2,3"], mode: .native) == [1, 2])
    #expect(
      TaskNumberPositions.find(in: ["-p", "-d", "cfg", "pri", "4", "A"], mode: .native) == [4])
    #expect(TaskNumberPositions.find(in: ["append", "4", "5"], mode: .native) == [1])
    #expect(TaskNumberPositions.find(in: ["add", "4"], mode: .native) == [])
    #expect(TaskNumberPositions.find(in: ["command", "del", "4"], mode: .native) == [2])
    #expect(TaskNumberPositions.find(in: ["-p"], mode: .native) == [])
    // Every number of a repeated pair list; none of an option's value.
    #expect(TaskNumberPositions.find(in: ["pri", "1", "A", "2", "B"], mode: .native) == [1, 3])
    #expect(TaskNumberPositions.find(in: ["do", "-q", "3", "4"], mode: .native) == [3])
    // The options before the action are skipped as declared: a bundle ending in -d and the
    // long options with a value take the next word, --color's value is after its =.
    #expect(TaskNumberPositions.find(in: ["-fd", "cfg", "do", "3"], mode: .native) == [3])
    #expect(TaskNumberPositions.find(in: ["-dcfg", "do", "3"], mode: .native) == [2])
    #expect(TaskNumberPositions.find(in: ["--if-match", "abc123", "do", "3"], mode: .native) == [3])
    #expect(TaskNumberPositions.find(in: ["--config=cfg", "--color=never", "do", "3"], mode: .native) == [3])
  }

  @Test func everyNumberOfAPairListFollowsItsTask() throws {
    let home = try Home(todo: "alpha\nbeta\n")
    let reader = EditingReader(home, [(nil, "ls"), ("inserted\nalpha\nbeta\n", "pri 1 A 2 B")])
    let console = run(home, reader)
    #expect(console.errorText.contains("task 1 is now task 2\n"))
    #expect(console.errorText.contains("task 2 is now task 3\n"))
    #expect(home.read() == "inserted\n(A) alpha\n(B) beta\n")
  }

  @Test func historyLivesInTheStateDirectory() {
    #expect(
      HistoryFile.path(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/todo/history")
    #expect(
      HistoryFile.path(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"])
        == "/h/.local/state/todo/history")
    #expect(HistoryFile.path(environment: [:]) == nil)
  }

  @Test func historyFileIsCreatedWithItsDirectories() throws {
    let home = try Home()
    let path = home.url.appendingPathComponent("a/b/history").path
    #expect(HistoryFile.create(path))
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
  }
}
