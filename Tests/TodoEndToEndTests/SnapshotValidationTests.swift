import Foundation
import Testing

/// A command line is checked on the snapshot it changes: todo.txt is read once per command,
/// under the lock, and a bad task number anywhere in the line changes nothing. (A command that
/// asks first reads it once to ask, without the lock, and once more under the lock to write;
/// see ``AskWithoutLockTests``.)
@Suite struct SnapshotValidationTests {
  /// How many times the command opened todo.txt for reading, counted with strace.
  func reads(
    _ box: Sandbox, _ arguments: [String], input: String? = nil, status: Int32 = 0, program: String = "todo"
  ) throws -> Int {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
    let log = box.path("strace.log")
    process.arguments = ["-f", "-e", "trace=openat", "-o", log, box.path("bin/" + program)] + arguments
    process.environment = box.environment
    process.currentDirectoryURL = box.home
    if let input {
      try box.write("answers", input)
      process.standardInput = FileHandle(forReadingAtPath: box.path("answers"))
    } else {
      process.standardInput = FileHandle.nullDevice
    }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == status, "\(arguments)")
    let text = box.read("strace.log")
    return text.components(separatedBy: "\n").filter { $0.contains("todo.txt\", O_RDONLY") }.count
  }

  @Test(arguments: [
    ["do", "1", "2"], ["pri", "1", "A", "2", "B"], ["depri", "1"], ["tag", "2", "due", "fri"], ["append", "2", "more"],
    ["prepend", "2", "first"], ["replace", "3", "new text"], ["-f", "del", "3"], ["del", "2", "--words", "b"],
    ["postpone", "2", "3d"], ["dep", "add", "1", "2"], ["reopen", "1"],
  ])
  func oneReadPerCommand(_ arguments: [String]) throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else { return }
    let box = try Sandbox()
    try box.write("todo.txt", "(C) a +x\nb due:2009-02-20\nc\n")
    if arguments.first == "reopen" { try box.todo("do", "1") }
    #expect(try reads(box, arguments) == 1, "\(arguments)")
  }

  /// A command that asks first (a confirmation, or under the name todo.sh text it was not
  /// given) asks on a snapshot read without the lock, and reads the list once more under the
  /// lock to write its change onto it (as a patch, refused when the task asked about changed:
  /// see ``AskWithoutLockTests``); `attach`, which asks nothing, copies a file for the task it
  /// names on the snapshot it changes, read once.
  @Test(arguments: [
    (["del", "3"], "y", 2, "(C) a +x\nb due:2009-02-20\n\n"),
    (["mv", "2", "done.txt"], "y", 2, "(C) a +x\n\nc\n"),
    (["append", "2"], "more\n", 2, "(C) a +x\nb due:2009-02-20 more\nc\n"),
    (["prepend", "3"], "first\n", 2, "(C) a +x\nb due:2009-02-20\nfirst c\n"),
    (["replace", "3"], "new text\n", 2, "(C) a +x\nb due:2009-02-20\nnew text\n"),
    (["attach", "1", "scan.pdf"], "", 1, "(C) a +x att:scan.pdf\nb due:2009-02-20\nc\n"),
  ])
  func askingFirstReadsToAskAndToWrite(_ arguments: [String], _ answer: String, _ count: Int, _ expected: String)
    throws
  {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else { return }
    let box = try Sandbox()
    try box.write("todo.txt", "(C) a +x\nb due:2009-02-20\nc\n")
    try box.write("done.txt", "")
    try box.write("scan.pdf", "%PDF-1.4 not really\n")
    let program = ["append", "prepend", "replace"].contains(arguments[0]) ? "todo.sh" : "todo"
    #expect(try reads(box, arguments, input: answer, program: program) == count, "\(arguments)")
    #expect(box.read("todo.txt") == expected, "\(arguments)")
  }

  /// `-q QUERY` picks its tasks on the snapshot it asks about: the question names the tasks
  /// the change then changes, found by content in the list as it is when written. Asked (or
  /// when it may ask), todo.txt is read to choose and ask, then under the lock to write;
  /// forced, once, under the lock.
  @Test(arguments: [
    (["pri", "-q", "+x", "B"], "y", 2, "(B) a +x\nb due:2009-02-20\n(B) c +x\n"),
    (["depri", "-q", "+x"], "y", 2, "a +x\nb due:2009-02-20\nc +x\n"),
    (["tag", "-q", "+x", "area", "home"], "y", 2, "(C) a +x area:home\nb due:2009-02-20\n(D) c +x area:home\n"),
    (["postpone", "-q", "due:2009-02-20", "2026-05-01"], "", 2, "(C) a +x\nb due:2026-05-01\n(D) c +x\n"),
    (["del", "-q", "+x"], "y", 2, "\nb due:2009-02-20\n\n"),
    (["do", "-f", "-q", "b"], "", 1, "(C) a +x\nx 2009-02-13 b due:2009-02-20\n(D) c +x\n"),
  ])
  func aQueryReadsToAskAndToWrite(_ arguments: [String], _ answer: String, _ count: Int, _ expected: String) throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else { return }
    let box = try Sandbox()
    try box.write("todo.txt", "(C) a +x\nb due:2009-02-20\n(D) c +x\n")
    #expect(try reads(box, arguments, input: answer) == count, "\(arguments)")
    #expect(box.read("todo.txt") == expected, "\(arguments)")
  }

  /// `note` finds the task and runs the editor on a read without the lock, then links the new
  /// note under it: the tag goes on the task the number named when the editor was started
  /// (found by content), and todo.txt is read to start and under the lock to write.
  @Test func aNewNoteReadsToStartAndToWrite() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else { return }
    let box = try Sandbox()
    try box.write("todo.txt", "call mom\nbuy milk\n")
    try box.write("bin/writer", "#!/bin/sh\necho 'ask about the trip' > \"$1\"\n")
    chmod(box.path("bin/writer"), 0o755)
    try box.write("todo.cfg", "export TODO_DIR=\"$HOME\"\nexport EDITOR=\"$HOME/bin/writer\"\n")
    #expect(try reads(box, ["note", "2"]) == 2)
    let note = box.noteName("buy-milk")
    #expect(box.read("todo.txt") == "call mom\nbuy milk note:\(note)\n")
    #expect(box.read("notes/\(note)") == "ask about the trip\n")
    // Opening it again changes nothing in todo.txt, which is then read once.
    #expect(try reads(box, ["note", "2"]) == 1)
    #expect(box.read("todo.txt") == "call mom\nbuy milk note:\(note)\n")
  }

  /// A "no" ends the one update without writing: the list is read once and stays as it was.
  @Test func aDeclinedQuestionReadsOnceAndWritesNothing() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else { return }
    let box = try Sandbox()
    try box.write("todo.txt", "a\nb\nc\n")
    try box.write("done.txt", "")
    #expect(try reads(box, ["del", "2"], input: "n", status: 1) == 1)
    #expect(try reads(box, ["mv", "2", "done.txt"], input: "n", status: 1) == 1)
    #expect(box.read("todo.txt") == "a\nb\nc\n")
    #expect(box.read("done.txt") == "")
    // A task that is not there is named before anything is asked.
    let missing = try box.run("todo", ["del", "9"], input: "y", environment: [:], merged: false)
    #expect(missing.status == 1 && missing.stderr == "TODO: No task 9.\n")
    #expect(box.read("todo.txt") == "a\nb\nc\n")
  }

  @Test func aBadNumberAnywhereChangesNothing() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "a\nb\nc\n")
    for arguments in [["do", "1", "9"], ["pri", "1", "A", "9", "B"], ["tag", "1", "9", "due", "fri"], ["append", "9", "x"]] {
      let run = try box.run("todo", arguments, input: "", environment: [:], merged: false)
      #expect(run.status == 1, "\(arguments)")
      #expect(run.stderr == "TODO: No task 9.\n", "\(arguments)")
      #expect(box.read("todo.txt") == "a\nb\nc\n", "\(arguments)")
    }
  }
}

/// No word of a native command line may carry a control character into a file: each is
/// refused with one line naming where it was, and nothing is written.
@Suite struct ControlCharacterArgumentTests {
  @Test(arguments: [
    (["add", "esc \u{1B}[31m red"], "argument 1", "001B"), (["add", "nul \u{01} x"], "argument 1", "0001"),
    (["append", "1", "c1 \u{9B}2J"], "argument 2", "009B"), (["tag", "1", "k\u{1B}", "v"], "argument 2", "001B"),
    (["tag", "1", "k", "v\nx"], "argument 3", "000A"), (["add", "--priority", "A\u{7F}", "x"], "the value of --priority", "007F"),
    (["replace", "1", "del \u{7F}"], "argument 2", "007F"), (["postpone", "1", "3d\r"], "argument 2", "000D"),
  ])
  func refused(_ arguments: [String], _ place: String, _ code: String) throws {
    let box = try Sandbox()
    try box.write("todo.txt", "task one due:2009-02-20\n")
    let run = try box.run("todo", arguments)
    #expect(run.status == 1, "\(arguments)")
    #expect(run.stderr == "todo: \(place) holds the control character U+\(code); nothing written\n", "\(arguments)")
    #expect(box.read("todo.txt") == "task one due:2009-02-20\n", "\(arguments)")
  }

  @Test func tabsAndAddmLinesAreText() throws {
    let box = try Sandbox()
    #expect(try box.todo("-T", "add", "a\tb").status == 0)
    #expect(try box.todo("-T", "addm", "one\ntwo").status == 0)
    // A line break in one task's text keeps its own message.
    #expect(try box.todo("add", "x\ny").stderr.contains("line break"))
    #expect(box.read("todo.txt").hasPrefix("a\tb\n"))
  }
}

/// `--if-match` is judged on the snapshot the command acts on, for every action whose first
/// argument is a task: a mismatch changes nothing, runs no editor or opener, and the list is
/// read once either way.
@Suite struct IfMatchTests {
  static let file = "first task +home\nsecond task\n"
  /// Every native action that takes a task number first, with the rest of a valid line.
  static let lines: [[String]] = [
    ["append", "1", "more"], ["del", "1"], ["depri", "1"], ["do", "1"], ["move", "1", "done.txt"],
    ["prepend", "1", "x"], ["pri", "1", "B"], ["replace", "1", "new"], ["attach", "1", "scan.pdf"],
    ["attachments", "1"], ["note", "1"], ["open", "1"], ["postpone", "1", "3d"], ["rec", "1", "1w"],
    ["undo-done", "1"], ["reorder", "1", "2"], ["tag", "1", "k", "v"], ["edit", "1"],
  ]

  /// An editor and an opener that leave a mark when they run.
  func box() throws -> Sandbox {
    let box = try Sandbox()
    try box.write("todo.txt", IfMatchTests.file)
    try box.write("done.txt", "")
    try box.write("scan.pdf", "%PDF-1.4 not really\n")
    try box.write("bin/mark", "#!/bin/sh\necho ran >> \"$HOME/ran\"\n")
    chmod(box.path("bin/mark"), 0o755)
    return box
  }

  @Test(arguments: lines)
  func aMismatchChangesNothing(_ line: [String]) throws {
    let box = try box()
    let run = try box.run(
      "todo", ["-f", "--if-match", "nothing like it"] + line,
      environment: ["EDITOR": box.path("bin/mark"), "VISUAL": box.path("bin/mark"), "TODO_OPEN": box.path("bin/mark")])
    #expect(run.status == 1, "\(line)")
    #expect(run.stderr == "todo: task 1 is 'first task +home', not 'nothing like it'; nothing was changed\n", "\(line)")
    #expect(box.read("todo.txt") == IfMatchTests.file, "\(line)")
    #expect(box.read("done.txt") == "", "\(line)")
    #expect(!FileManager.default.fileExists(atPath: box.path("ran")), "\(line)")
  }

  @Test func aMatchReadsTheListOnce() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else { return }
    let box = try box()
    let validation = SnapshotValidationTests()
    #expect(try validation.reads(box, ["--if-match", "first task +home", "pri", "1", "B"]) == 1)
    #expect(box.read("todo.txt") == "(B) first task +home\nsecond task\n")
    #expect(try validation.reads(box, ["--if-match", "first task +home", "do", "1"]) == 1)
    #expect(try validation.reads(box, ["--if-match", "second", "do", "2"], status: 1) == 1)
    #expect(box.read("todo.txt").hasSuffix("\nsecond task\n"))
  }
}
