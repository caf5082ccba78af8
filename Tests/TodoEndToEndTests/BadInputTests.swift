import Foundation
import Testing

/// Bad input, under the name `todo`: each case must give exactly one line on standard error
/// that names the problem, a non-zero exit status, no crash, and leave every file exactly as
/// it was.
@Suite struct BadInputTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var arguments: [String]
    var environment: [String: String] = [:]
    var input = ""
    /// A fragment the error line must contain.
    var message: String
    /// Extra preparation of the sandbox.
    var prepare: (@Sendable (Sandbox) throws -> Void)? = nil
    var testDescription: String { name }
  }

  static let todoFile = "(A) first task +home\nsecond @work due:2009-02-20\n\nx 2009-02-01 done\n"

  static let cases: [Case] = [
    Case(name: "no such task", arguments: ["do", "9"], message: "No task 9."),
    Case(name: "task zero", arguments: ["do", "0"], message: "No task 0."),
    Case(name: "negative number", arguments: ["do", "-1"], message: "usage: todo do NR [NR ...]"),
    Case(name: "not a number", arguments: ["do", "abc"], message: "usage: todo do NR [NR ...]"),
    Case(name: "huge number", arguments: ["do", "99999999999999999999999"], message: "No task 99999999999999999999999."),
    Case(name: "blank line", arguments: ["do", "3"], message: "No task 3."),
    Case(name: "list with one bad member", arguments: ["do", "1,2,abc"], message: "usage: todo do NR [NR ...]"),
    Case(name: "list with one missing task", arguments: ["do", "1", "2", "42"], message: "No task 42."),
    Case(name: "depri list with a bad member", arguments: ["depri", "1,x"], message: "usage: todo depri"),
    Case(name: "priority AA", arguments: ["pri", "2", "AA"], message: "todo: 'AA' is not a priority: a letter from A to Z"),
    Case(name: "priority a1", arguments: ["pri", "2", "a1"], message: "todo: 'a1' is not a priority: a letter from A to Z"),
    Case(name: "empty priority", arguments: ["pri", "2", ""], message: "todo: '' is not a priority: a letter from A to Z"),
    Case(name: "missing priority", arguments: ["pri", "2"], message: "usage: todo pri NR PRIORITY"),
    Case(name: "priority pairs with a bad task", arguments: ["pri", "1", "B", "7", "C"], message: "No task 7."),
    Case(name: "empty text", arguments: ["add", ""], message: "usage: todo add"),
    Case(name: "whitespace-only text", arguments: ["add", "   "], message: "the task text is empty"),
    Case(name: "text with a newline", arguments: ["add", "one\ntwo"], message: "line break"),
    Case(name: "append with a newline", arguments: ["append", "1", "a\rb"], message: "line break"),
    Case(name: "no text and no terminal", arguments: ["add"], message: "usage: todo add"),
    Case(name: "append without text", arguments: ["append", "1"], message: "usage: todo append"),
    Case(name: "replace a missing task", arguments: ["replace", "99", "new"], message: "No task 99."),
    Case(name: "prepend a non-number", arguments: ["prepend", "x", "new"], message: "usage: todo prepend"),
    Case(name: "del zero", arguments: ["del", "0"], message: "No task 0."),
    Case(name: "del without number", arguments: ["del"], message: "usage: todo del"),
    Case(name: "unknown action", arguments: ["frobnicate"], message: "unknown action 'frobnicate'"),
    Case(name: "unknown option", arguments: ["--frob", "ls"], message: "unknown option '--frob'"),
    Case(name: "unknown short option", arguments: ["-z", "ls"], message: "unknown option '-z'"),
    Case(name: "missing option value", arguments: ["-d"], message: "option '-d' needs a value"),
    Case(name: "bad option value", arguments: ["--color=sometimes", "ls"], message: "does not take 'sometimes'"),
    Case(name: "bad default priority", arguments: ["ls"], environment: ["TODOTXT_PRIORITY_ON_ADD": "zz"],
      message: "TODOTXT_PRIORITY_ON_ADD should be a capital letter"),
    Case(name: "del with a word that is no task number", arguments: ["del", "1", "[unclosed"], message: "usage: todo del NR [NR ...]"),
    Case(name: "move to a missing file", arguments: ["mv", "1", "nope.txt"], message: "Destination file"),
    Case(name: "addto a missing file", arguments: ["addto", "nope.txt", "x"], message: "Destination file"),
    Case(name: "listfile of a missing file", arguments: ["lf", "nope"], message: "File nope does not exist."),
    Case(name: "help for a missing action", arguments: ["help", "nope"], message: "No action \"nope\" exists."),
    Case(name: "already done", arguments: ["do", "4"], message: "4 is already marked done."),
    Case(name: "not prioritized", arguments: ["depri", "2"], message: "2 is not prioritized."),
    Case(name: "word not found", arguments: ["del", "1", "--words", "zebra"], message: "'zebra' not found"),
    Case(name: "nothing to undo", arguments: ["undo"], message: "nothing to undo"),
    Case(name: "undo count not a number", arguments: ["undo", "abc"], message: "usage: todo undo"),
    Case(name: "log count negative", arguments: ["log", "-1"], message: "usage: todo log"),
    Case(name: "if-match mismatch", arguments: ["--if-match", "something else", "do", "1"],
      message: "task 1 is '(A) first task +home', not 'something else'"),
    Case(name: "if-match without a task", arguments: ["--if-match", "x", "ls"], message: "names no task"),
    Case(
      name: "broken configuration", arguments: ["ls"], message: "error in configuration file",
      prepare: { try $0.write("todo.cfg", "export TODO_DIR=\"$HOME\"\nif then fi (\n") }),
    Case(
      name: "configuration that is a directory", arguments: ["ls"], message: "not a regular file",
      prepare: {
        try FileManager.default.createDirectory(atPath: $0.path("confdir"), withIntermediateDirectories: true)
        try $0.write("todo.cfg", "")
        try FileManager.default.removeItem(atPath: $0.path("todo.cfg"))
        try FileManager.default.createDirectory(atPath: $0.path("todo.cfg"), withIntermediateDirectories: true)
      }),
    Case(
      name: "todo.txt is a directory", arguments: ["ls"], environment: ["TODO_FILE": "$HOME/adir"],
      message: "is a directory",
      prepare: { try FileManager.default.createDirectory(atPath: $0.path("adir"), withIntermediateDirectories: true) }),
    Case(
      name: "todo directory is a file", arguments: ["add", "x"], message: "is not a directory",
      prepare: { try $0.write("todo.cfg", "export TODO_DIR=\"$HOME/plain.file\"\n"); try $0.write("plain.file", "") }),
    Case(name: "disk full on append", arguments: ["add", "new task"], environment: ["TODO_FAULT": "write:ENOSPC"],
      message: "no space left on device"),
    Case(name: "disk full on rewrite", arguments: ["do", "2"], environment: ["TODO_FAULT": "write:ENOSPC"],
      message: "no space left on device"),
    Case(name: "read-only file system", arguments: ["pri", "2", "B"], environment: ["TODO_FAULT": "open:EROFS:.new"],
      message: "read-only file system"),
    Case(name: "permission denied", arguments: ["archive"], environment: ["TODO_FAULT": "rename:EACCES"],
      message: "permission denied"),
    Case(
      name: "done.txt is a link to nowhere", arguments: ["archive"], message: "done.txt",
      prepare: {
        try FileManager.default.removeItem(atPath: $0.path("done.txt"))
        try FileManager.default.createSymbolicLink(atPath: $0.path("done.txt"), withDestinationPath: $0.path("gone/x.txt"))
      }),
  ]

  /// Every regular file under the sandbox except the undo log and lock files, with its bytes.
  static func snapshot(_ box: Sandbox) -> [String: [UInt8]] {
    var files: [String: [UInt8]] = [:]
    let root = box.home.path
    guard let walker = FileManager.default.enumerator(atPath: root) else { return files }
    for case let relative as String in walker {
      if relative.hasPrefix(".local") || relative.hasPrefix("bin") || relative.hasSuffix(".lock") { continue }
      if relative.hasPrefix(".out-") || relative.hasPrefix(".err-") { continue }
      var isDirectory: ObjCBool = false
      let path = root + "/" + relative
      if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
        files[relative] = box.bytes(relative)
      }
    }
    return files
  }

  @Test(arguments: cases)
  func badInputLeavesEverythingAsItWas(_ item: Case) throws {
    let box = try Sandbox()
    try box.write("todo.txt", BadInputTests.todoFile)
    try box.write("done.txt", "x 2009-01-01 old\n")
    try item.prepare?(box)
    let before = BadInputTests.snapshot(box)
    var environment = item.environment
    for (key, value) in environment { environment[key] = value.replacingOccurrences(of: "$HOME", with: box.home.path) }
    let run = try box.run("todo", item.arguments, input: item.input, environment: environment)
    #expect(run.status != 0, "\(item.name): exit status")
    let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    // One line, except the two-line usage of pri, whose second line explains PRIORITY.
    let allowed = item.message.hasPrefix("usage: todo pri") ? 3 : 2
    #expect(lines.count == allowed && lines.last == "", "\(item.name): \(run.stderr)")
    #expect(run.stderr.contains(item.message), "\(item.name): \(run.stderr)")
    #expect(!run.stderr.contains("Fatal error") && !run.stderr.contains("Stack"), "\(item.name)")
    #expect(BadInputTests.snapshot(box) == before, "\(item.name): files changed")
  }

  @Test func lockHeldTooLong() throws {
    let box = try Sandbox()
    try box.write("todo.txt", BadInputTests.todoFile)
    let before = BadInputTests.snapshot(box)
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
    holder.arguments = [box.path(".todo.txt.lock"), "sleep", "5"]
    try holder.run()
    defer { holder.terminate() }
    // Wait until the lock file exists and is held.
    for _ in 0..<50 where !box.exists(".todo.txt.lock") { usleep(20_000) }
    usleep(100_000)
    let run = try box.todo("do", "1", environment: ["TODO_LOCK_TIMEOUT": "0.3"])
    #expect(run.status != 0)
    #expect(run.stderr.contains("locked by another process"), "\(run.stderr)")
    #expect(run.stderr.split(separator: "\n").count == 1)
    #expect(BadInputTests.snapshot(box) == before)
  }
}
