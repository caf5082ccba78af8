import Foundation
import Testing

/// Edits at the edges of the format under the name `todo`: what the parser reads is what the
/// edits act on, and an edit never changes what kind of line it is working on.
@Suite struct EdgeFidelityTests {
  /// todo.txt(5): a line of only spaces and tabs is blank, so it is neither listed, counted
  /// nor a task a number can name.
  @Test func whitespaceOnlyLinesAreBlank() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "alpha\n\t\n \t \nbeta\n")
    #expect(try box.todo("ls", merged: true).stdout == "1 alpha\n4 beta\n--\nTODO: 2 of 2 tasks shown\n")
    let run = try box.todo("do", "2")
    #expect(run.status != 0)
    #expect(run.stderr == "TODO: No task 2.\n")
    #expect(box.read("todo.txt") == "alpha\n\t\n \t \nbeta\n")
    // todo.sh lists such a line, as before.
    #expect(try box.sh("ls").stdout.contains("2 \t\n"))
  }

  /// A done task stays done: pri keeps the priority as `pri:`, prepend writes after the head.
  @Test func doneTaskStaysDone() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "x 2011-03-03 done thing\n")
    try box.todo("pri", "1", "A")
    #expect(box.read("todo.txt") == "x 2011-03-03 done thing pri:A\n")
    try box.todo("prepend", "1", "PRE")
    #expect(box.read("todo.txt") == "x 2011-03-03 PRE done thing pri:A\n")
  }

  /// `(a)` is text to the parser, so it is text to every edit.
  @Test func lowercasePriorityIsText() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "(a) lower\n")
    #expect(try box.todo("pri", "1", "B").stdout == "1 (B) (a) lower\nTODO: 1 prioritized (B).\n")
    try box.todo("depri", "1")
    #expect(box.read("todo.txt") == "(a) lower\n")
    let run = try box.todo("depri", "1")
    #expect(run.status != 0)
    try box.todo("do", "1")
    #expect(box.read("todo.txt") == "x 2009-02-13 (a) lower\n")
  }

  /// do then reopen gives back the line byte for byte, trailing spaces and own pri: included.
  @Test func doThenReopenIsExact() throws {
    let box = try Sandbox()
    let lines = ["(C) keep  pri:Z  ", "(B) 2009-01-01 dated", "(A) 2009-01-01", "plain  "]
    try box.write("todo.txt", lines.joined(separator: "\n") + "\n")
    for number in 1...lines.count {
      try box.todo("do", String(number))
      #expect(box.read("todo.txt").split(separator: "\n", omittingEmptySubsequences: false)[number - 1].hasPrefix("x "))
      try box.todo("reopen", String(number))
    }
    #expect(box.read("todo.txt") == lines.joined(separator: "\n") + "\n")
  }

  /// The spec's own `(A) x Find ticket prices`: depri is refused, the file stays as it was.
  @Test func depriRefusesToMakeALineReadAsDone() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "(A) x Find ticket prices\n")
    let run = try box.todo("depri", "1")
    #expect(run.status != 0)
    #expect(run.stderr.contains("read as done"))
    #expect(box.read("todo.txt") == "(A) x Find ticket prices\n")
  }

  /// Reopening a recurring task takes back the occurrence its `do` added.
  @Test func reopenWithdrawsNextOccurrence() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "first\nwalk rec:1d due:2009-02-13\n")
    try box.todo("do", "2")
    #expect(box.read("todo.txt") == "first\nx 2009-02-13 walk rec:1d due:2009-02-13\nwalk rec:1d due:2009-02-14\n")
    try box.todo("reopen", "2")
    #expect(box.read("todo.txt") == "first\nwalk rec:1d due:2009-02-13\n")
  }
}

@Suite struct ManualReferenceTests {
  /// `man todo.txt` can open another package's page of that name; section 5 is the format.
  @Test func versionNamesTheFormatPageBySection() throws {
    let box = try Sandbox()
    #expect(try box.todo("--version").stdout.contains("man 5 todo.txt"))
  }

  /// An optional argument in an item's head closes before the comma and the alias.
  @Test func optionalArgumentsCloseBeforeTheAlias() throws {
    let page = try String(contentsOfFile: ManualReferenceTests.manualPath, encoding: .utf8)
    for line in page.split(separator: "\n") where line.hasPrefix(".It ") && line.contains(" , ") {
      let head = line.split(separator: ",", maxSplits: 1)[0]
      #expect(!head.contains(" Op "), "\(line)")
    }
  }

  static var manualPath: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("man/todo.1").path
  }
}

@Suite struct HidingTests {
  /// `-+` and `-@` hide a whole word, whatever script it is written in, under both names.
  @Test(arguments: ["todo", "todo.sh"]) func hidingIsNotASCIIOnly(name: String) throws {
    let box = try Sandbox()
    try box.write("todo.txt", "buy +café milk @超市\nread +日本語\n")
    let projects = try box.run(name, ["-+", "ls"]).stdout
    #expect(!projects.contains("é") && !projects.contains("日本語"))
    #expect(projects.contains("buy milk @超市"))
    let contexts = try box.run(name, ["-@", "ls"]).stdout
    #expect(!contexts.contains("超市"))
    #expect(contexts.contains("buy +café milk\n"))
  }
}
