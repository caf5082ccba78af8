import Foundation
import Testing

/// The interactive shell, typed into on a pseudo-terminal, and its batch mode on a pipe.
@Suite struct ShellTests {
  /// The built `todo` running on a pseudo-terminal in a sandbox's home.
  final class Session {
    let terminal: PseudoTerminal
    let process = Process()

    /// - Parameter name: the name the tool is run under (`todo.sh` for todo.sh's behaviour).
    init(_ box: Sandbox, name: String = "todo", arguments: [String] = []) throws {
      terminal = try PseudoTerminal()
      let todo = box.home.appendingPathComponent("bin").appendingPathComponent(name)
      // As a terminal emulator does, make the terminal the session's controlling terminal, so
      // that Ctrl-C typed into it sends SIGINT (util-linux setsid; readline needs only isatty).
      let setsid = "/usr/bin/setsid"
      if FileManager.default.isExecutableFile(atPath: setsid) {
        process.executableURL = URL(fileURLWithPath: setsid)
        process.arguments = ["--wait", "--ctty", todo.path] + arguments
      } else {
        process.executableURL = todo
        process.arguments = arguments
      }
      process.currentDirectoryURL = box.home
      process.environment = box.environment.merging(["TERM": "xterm", "INPUTRC": "/dev/null"]) {
        $1
      }
      let handle = terminal.handle
      process.standardInput = handle
      process.standardOutput = handle
      process.standardError = handle
      try process.run()
    }

    deinit {
      if process.isRunning { process.terminate() }
    }

    /// Waits for `text` in the output; records an issue with what came instead on timeout.
    @discardableResult
    func expect(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
      guard let seen = terminal.read(until: text) else {
        Issue.record(
          "no '\(text)' in: \(terminal.unread.debugDescription)", sourceLocation: sourceLocation)
        return ""
      }
      return seen
    }

    func type(_ text: String) { terminal.send(text) }

    /// Waits for the process to end, at most `timeout`, and returns its status (nil if it did not).
    func exitStatus(timeout: Duration = .seconds(10)) -> Int32? {
      let deadline = ContinuousClock.now + timeout
      while process.isRunning {
        guard ContinuousClock.now < deadline else { return nil }
        // Drain the terminal meanwhile, so a chatty child never blocks on a full buffer.
        _ = terminal.read(until: "\u{0}", timeout: .milliseconds(50))
      }
      return process.terminationStatus
    }
  }

  static let tasks = "call mom +family @phone\nfix sink +home @home due:2009-02-01\n"

  @Test func typeACommandCompleteWithTabInterruptAndLeave() throws {
    let box = try Sandbox()
    try box.write("todo.txt", ShellTests.tasks)
    let session = try Session(box)
    session.expect("todo [2 open, 1 overdue]> ")

    // A project and a context completed with TAB, and a quoted word.
    session.type("add \"buy milk\" +fa\t@ph\t\r")
    session.expect("TODO: 3 added.")
    session.expect("todo [3 open, 1 overdue]> ")
    #expect(box.read("todo.txt").hasSuffix("\n2009-02-13 buy milk +family @phone\n"))

    // Ctrl-C drops the half-typed line and keeps the shell running.
    session.type("add half typed\u{03}")
    session.expect("todo [3 open, 1 overdue]> ")
    session.type("ls +family\r")
    session.expect("TODO: 2 of 3 tasks shown")
    // Control keys typed before readline has the terminal again would reach the tty's own
    // line discipline instead: wait for the prompt.
    session.expect("todo [3 open, 1 overdue]> ")
    #expect(!box.read("todo.txt").contains("half"))

    // Ctrl-D on an empty line leaves with status 0.
    session.type("\u{04}")
    #expect(session.exitStatus() == 0)
  }

  /// Typed at the terminal, English is read as English: an apostrophe inside a word is a
  /// letter, a quoted phrase is still one word, TAB completes after a word with an apostrophe,
  /// and a quote left open names its column.
  @Test func apostrophesAreLettersAtTheTerminal() throws {
    let box = try Sandbox()
    try box.write("todo.txt", ShellTests.tasks)
    let session = try Session(box)
    session.expect("]> ")
    session.type("add Don't forget the umbrella +fa\t\r")
    session.expect("TODO: 3 added.")
    session.expect("]> ")
    session.type("add 'rock'n'roll night' it's\r")
    session.expect("TODO: 4 added.")
    session.expect("]> ")
    session.type("add it's 'open\r")
    session.expect("the ' at column 10 is never closed")
    session.expect("]> ")
    #expect(
      box.read("todo.txt") == ShellTests.tasks
        + "2009-02-13 Don't forget the umbrella +family\n2009-02-13 rock'n'roll night it's\n")
    session.type("quit\r")
    #expect(session.exitStatus() == 0)
  }

  @Test func ctrlCAtAQuestionAnswersNoAndEatsNothing() throws {
    let box = try Sandbox()
    try box.write("todo.txt", ShellTests.tasks)
    let session = try Session(box)
    session.expect("]> ")
    session.type("del 1\r")
    session.expect("(y/n) ")
    session.type("\u{03}")
    session.expect("No tasks were deleted.")
    session.expect("]> ")
    // The next line is read whole: `ls sink`, not `s sink`.
    session.type("ls sink\r")
    session.expect("TODO: 1 of 2 tasks shown")
    session.expect("]> ")
    // An answer typed with more after it takes the line with it.
    session.type("del 1\r")
    session.expect("(y/n) ")
    session.type("nope\r")
    session.expect("No tasks were deleted.")
    session.expect("]> ")
    #expect(box.read("todo.txt") == ShellTests.tasks)
    session.type("quit\r")
    #expect(session.exitStatus() == 0)
  }

  @Test func theTabListingShowsControlsInTasksAsText() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "evil \u{1B}]0;owned\u{07} \u{1B}[31mred \u{9B}2J +p\nplain +q\n")
    let session = try Session(box, arguments: ["shell"])
    session.expect("]> ")
    session.type("do \t\t")
    let listing = session.expect("2  plain +q")
    #expect(listing.contains("1  evil ^[]0;owned^G ^[[31mred <U+009B>2J +p"))
    #expect(!listing.contains("\u{1B}]0;") && !listing.contains("\u{1B}[31m"))
    session.type("\u{03}")
    session.expect("]> ")
    session.type("quit\r")
    #expect(session.exitStatus() == 0)
  }

  @Test func taskNumbersAreListedWithTheirText() throws {
    let box = try Sandbox()
    try box.write("todo.txt", ShellTests.tasks)
    let session = try Session(box, arguments: ["shell"])
    session.expect("]> ")
    // Two TABs list the candidates; one line each, the number and the task.
    session.type("do \t\t")
    session.expect("1  call mom +family @phone")
    session.expect("2  fix sink +home @home due:2009-02-01")
    session.expect("do ")
    // Only the number goes into the line.
    session.type("2\r")
    session.expect("TODO: 2 marked as done.")
    #expect(box.read("todo.txt").contains("x 2009-02-13 fix sink"))
    session.type("quit\r")
    #expect(session.exitStatus() == 0)
  }

  @Test func historyIsRecalledInTheNextSession() throws {
    let box = try Sandbox()
    try box.write("todo.txt", ShellTests.tasks)
    let first = try Session(box)
    first.expect("]> ")
    first.type("lsc\r")
    first.expect("@phone")
    first.type("listproj\r")
    first.expect("+home")
    first.type("listproj\r")
    first.expect("+home")
    first.type("exit\r")
    #expect(first.exitStatus() == 0)
    // Leaving is not history: Up and Enter in the next session must not leave.
    #expect(box.read(".local/state/todo/history") == "lsc\nlistproj\n")

    let second = try Session(box)
    second.expect("]> ")
    // Up brings back `listproj`; Enter runs it.
    second.type("\u{1B}[A\r")
    second.expect("+family")
    second.type("quit\r")
    #expect(second.exitStatus() == 0)
  }

  @Test func anOutsideEditIsPickedUpBetweenTwoCommands() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "alpha\nbeta\n")
    let session = try Session(box)
    session.expect("todo [2 open]> ")
    session.type("ls\r")
    session.expect("TODO: 2 of 2 tasks shown")
    session.expect("]> ")
    try box.write("todo.txt", "inserted by an editor\nalpha\nbeta\n")
    session.type("do 2\r")
    session.expect("todo.txt changed on disk; re-read")
    session.expect("task 2 is now task 3")
    session.expect("TODO: 3 marked as done.")
    session.expect("todo [2 open]> ")
    #expect(box.read("todo.txt") == "inserted by an editor\nalpha\nx 2009-02-13 beta\n")
    session.type("quit\r")
    #expect(session.exitStatus() == 0)
  }

  // MARK: What the shell keeps between lines

  /// Other programs (add-ons here, each its own process) change the list between two lines of
  /// one shell in every way an editor or a sync client does; each next line sees the change,
  /// and the shell prints exactly what it prints with its cache turned off.
  @Test func changesByOtherProcessesBetweenLinesAreSeen() throws {
    let box = try Sandbox()
    let addons: [(String, String)] = [
      // In place, same size, modification time set back: an editor saving within the second.
      (
        "rewrite",
        "touch -r \"$TODO_FILE\" \"$TODO_DIR/.stamp\"; printf 'ccc\\nddd\\n' 1<> \"$TODO_FILE\"; "
          + "touch -r \"$TODO_DIR/.stamp\" \"$TODO_FILE\""
      ),
      ("editor", "printf 'eee\\nfff\\n' > \"$TODO_DIR/.new\" && mv \"$TODO_DIR/.new\" \"$TODO_FILE\""),
      ("grow", "printf 'ggg\\n' >> \"$TODO_FILE\""),
      ("other", "\"$TODO_FULL_SH\" add hhh > /dev/null"),
    ]
    for (name, body) in addons {
      try box.write(".todo.actions.d/\(name)", "#!/usr/bin/env bash\n\(body)\n")
      _ = try Sandbox.makeExecutable(box.path(".todo.actions.d/\(name)"))
    }
    let input = "ls\nrewrite\nls\neditor\nls\ngrow\nls\nother\nls\nundo\nls\n"
    try box.write("todo.txt", "aaa\nbbb\n")
    // Both streams in one, in order: a pipe gets the listings' summaries on standard error.
    let cached = try box.todo("shell", input: input, merged: true)
    #expect(box.read("todo.txt") == "eee\nfff\nggg\n")
    try box.write("todo.txt", "aaa\nbbb\n")
    let uncached = try box.todo("shell", input: input, environment: ["TODO_SHELL_CACHE": "0"], merged: true)
    #expect(cached.status == 0)
    #expect(!cached.stdout.contains("todo:"), "\(cached.stdout)")
    #expect(cached.stdout == uncached.stdout)
    #expect(
      cached.stdout.hasPrefix(
        """
        1 aaa
        2 bbb
        --
        TODO: 2 of 2 tasks shown
        1 ccc
        2 ddd
        --
        TODO: 2 of 2 tasks shown
        1 eee
        2 fff
        --
        TODO: 2 of 2 tasks shown
        1 eee
        2 fff
        3 ggg
        --
        TODO: 3 of 3 tasks shown
        4 2009-02-13 hhh
        1 eee
        2 fff
        3 ggg
        --
        TODO: 4 of 4 tasks shown

        """))
    #expect(cached.stdout.hasSuffix("1 eee\n2 fff\n3 ggg\n--\nTODO: 3 of 3 tasks shown\n"))
  }

  // MARK: Batch mode

  @Test func batchModeRunsLinesWithoutPromptOrEcho() throws {
    let box = try Sandbox()
    let run = try box.todo("shell", input: "add \"buy milk\" +home\n# a comment\n\nls\n")
    #expect(run.status == 0)
    #expect(
      run.stdout == """
        1 2009-02-13 buy milk +home
        TODO: 1 added.
        1 2009-02-13 buy milk +home

        """)
    // Not a terminal: the listing's summary is on standard error.
    #expect(run.stderr == "--\nTODO: 1 of 1 tasks shown\n")
  }

  /// A line that is not UTF-8 keeps its bytes in the task, as the same words on the command
  /// line do: the shell does not repair them to U+FFFD on the way in.
  @Test func aLineThatIsNotUTF8KeepsItsBytes() throws {
    let box = try Sandbox()
    try box.write("lines", bytes: Array("add \"caf".utf8) + [0xE9] + Array(" au lait\" +x\nadd 'a\\".utf8) + [0xFF, 0xFE] + Array("b'\nls ".utf8) + [0xE9] + [0x0A])
    try box.write("bin/feed", "#!/bin/sh\nexec todo shell < \"$HOME/lines\"\n")
    chmod(box.path("bin/feed"), 0o755)
    let run = try box.run("feed", [])
    #expect(run.status == 0)
    let expected = Array("2009-02-13 caf".utf8) + [0xE9] + Array(" au lait +x\n2009-02-13 a\\".utf8) + [0xFF, 0xFE] + Array("b\n".utf8)
    #expect(box.bytes("todo.txt") == expected)
    // The term typed as the same byte finds the task that holds it, and only that one.
    #expect(run.stderr.hasSuffix("--\nTODO: 1 of 2 tasks shown\n"))
  }

  /// Two lines whose words repair to the same text keep each its own bytes, and a line that
  /// is UTF-8 (holding U+FFFD itself) borrows none of an earlier line's.
  @Test func eachLineKeepsItsOwnBytes() throws {
    let box = try Sandbox()
    try box.write("lines", bytes: Array("add a".utf8) + [0xFF] + Array("\nadd a".utf8) + [0xFE] + Array("\nadd a\u{FFFD}\n".utf8))
    try box.write("bin/feed", "#!/bin/sh\nexec todo shell < \"$HOME/lines\"\n")
    chmod(box.path("bin/feed"), 0o755)
    #expect(try box.run("feed", []).status == 0)
    let expected = Array("2009-02-13 a".utf8) + [0xFF, 0x0A] + Array("2009-02-13 a".utf8) + [0xFE, 0x0A]
      + Array("2009-02-13 a\u{FFFD}\n".utf8)
    #expect(box.bytes("todo.txt") == expected)
  }

  @Test func batchModeFailsWhenALineFails() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "one\n")
    let run = try box.todo("shell", input: "do 9\nadd \"open quote\nadd two\n")
    #expect(run.status == 1)
    #expect(run.stderr == "TODO: No task 9.\ntodo: unterminated double quote: the \" at column 5 is never closed\n")
    #expect(box.read("todo.txt") == "one\n2009-02-13 two\n")
  }

  /// A script piped into the shell is checked for outside edits between its lines as a
  /// person's typing is: a task number follows its task when another program inserts a line
  /// above it.
  @Test func batchModeFollowsTasksMovedByAnOutsideEdit() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "alpha\nbeta\n")
    let process = Process()
    process.executableURL = box.home.appendingPathComponent("bin/todo")
    process.arguments = ["shell"]
    process.currentDirectoryURL = box.home
    process.environment = box.environment
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    (process.standardInput, process.standardOutput, process.standardError) = (input, output, errors)
    try process.run()
    input.fileHandleForWriting.write(Data("ls\n".utf8))
    var shown = ""
    while !shown.contains("2 beta\n") {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      shown += String(decoding: chunk, as: UTF8.self)
    }
    #expect(shown.contains("2 beta"))
    // The shell takes the file as seen after the line ran, then waits for the next line in
    // read(2) on standard input (syscall 0 on fd 0): only then does the other program write.
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      let call = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/syscall", encoding: .utf8)) ?? ""
      if call.hasPrefix("0 0x0 ") { break }
      usleep(5_000)
    }
    try box.write("todo.txt", "inserted\nalpha\nbeta\n")
    input.fileHandleForWriting.write(Data("do 2\n".utf8))
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationStatus == 0)
    #expect(stderr == "--\nTODO: 2 of 2 tasks shown\ntodo.txt changed on disk; re-read\ntask 2 is now task 3\n")
    #expect(box.read("todo.txt") == "inserted\nalpha\nx 2009-02-13 beta\n")
  }

  @Test func withoutATerminalNoActionIsStillAUsageError() throws {
    let box = try Sandbox()
    let run = try box.todo()
    #expect(run.status == 1)
    #expect((run.stdout + run.stderr).contains("Usage: todo"))
  }
}
