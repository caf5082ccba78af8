import Foundation
import Testing

/// Under the name `todo`, text added to a task that gives a tag with meaning again sets it in
/// place (a second `due:` would be kept but never count); todo.sh's name adds it as typed.
@Suite struct RepeatedTagTests {
  @Test func appendSetsADueDateTheTaskHas() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "pay rent due:2026-12-01 +home\n")
    let run = try box.todo("append", "1", "due:2026-12-04 call landlord")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == "TODO: due:2026-12-04 replaces due:2026-12-01.\n1 pay rent due:2026-12-04 +home call landlord\n")
    #expect(box.read("todo.txt") == "pay rent due:2026-12-04 +home call landlord\n")
  }

  @Test func prependAndDateWordsAndTheSameValue() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "(A) 2009-02-01 pay rent t:2009-02-01 due:2009-02-20 p:k1\n")
    #expect(try box.todo("prepend", "1", "urgent t:tomorrow").status == 0)
    #expect(box.read("todo.txt") == "(A) 2009-02-01 urgent pay rent t:2009-02-14 due:2009-02-20 p:k1\n")
    // The same value changes nothing and says nothing; a tag that repeats (p:) is added.
    let same = try box.todo("append", "1", "due:2009-02-20 p:k2")
    #expect(same.status == 0 && !same.stdout.contains("replaces"), "\(same.stdout)")
    #expect(box.read("todo.txt") == "(A) 2009-02-01 urgent pay rent t:2009-02-14 due:2009-02-20 p:k1 p:k2\n")
  }

  @Test func todoShAddsItAsTyped() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "pay rent due:2026-12-01\n")
    #expect(try box.sh("append", "1", "due:2026-12-04").status == 0)
    #expect(box.read("todo.txt") == "pay rent due:2026-12-01 due:2026-12-04\n")
  }
}

/// Under the name `todo`, a search term `-WORD` that spells an option with one dash is an
/// error naming the option and how to hide the word on purpose; before, `ls -sort due`
/// quietly hid every task holding "sort".
@Suite struct SingleDashOptionTests {
  @Test(arguments: [
    (["ls", "-sort", "due"], "'-sort' would hide every task containing 'sort': for the option write 'todo ls --sort'"),
    (["ls", "-all"], "for the option write 'todo ls --all'"),
    (["ls", "-p"], "for the option write 'todo -p ls' (before the action)"),
    (["ls", "-v"], "for the option write 'todo -v ls' (before the action)"),
  ])
  func aTermThatSpellsAnOptionIsAnError(_ arguments: [String], _ message: String) throws {
    let box = try Sandbox()
    try box.write("todo.txt", "pay rent due:2026-12-01\nsort socks\n")
    let run = try box.run("todo", arguments)
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr.hasPrefix("todo: ") && run.stderr.contains(message), "\(run.stderr)")
    #expect(run.stderr.contains("'todo ls -- \(arguments[1])'"), "\(run.stderr)")
  }

  /// After `--`, or a word that is no option, the term hides as before; todo.sh's name keeps
  /// todo.sh's reading.
  @Test func termsThatAreNoOptionStillHide() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "pay rent\nsort socks\n")
    #expect(try box.todo("ls", "--", "-sort", merged: true).stdout.hasPrefix("1 pay rent\n--\n"))
    #expect(try box.todo("ls", "-socks", merged: true).stdout.hasPrefix("1 pay rent\n--\n"))
    #expect(try box.sh("ls", "-sort").stdout.hasPrefix("1 pay rent\n--\n"))
  }
}

/// Under the name `todo`, `del` takes task numbers as `do` does, and removes words only when
/// told to with `--words`, whole and literally; todo.sh's `del NR TERM` is kept under its name.
@Suite struct DeleteNumbersTests {
  static let list = "a one\nb two\npay due:2026-12-07 rent +home\n"

  @Test func delOfTwoNumbersDeletesTwoTasks() throws {
    let box = try Sandbox()
    try box.write("todo.txt", DeleteNumbersTests.list)
    let run = try box.todo("-f", "del", "1", "3")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(box.read("todo.txt") == "\nb two\n\n")
  }

  /// `del 3 7` used to cut the 7 out of the due date; `del 3 .` to empty the line.
  @Test(arguments: [["del", "3", "7"], ["del", "3", "."], ["del", "3", "rent"]])
  func aWordIsNoTaskNumber(_ arguments: [String]) throws {
    let box = try Sandbox()
    try box.write("todo.txt", DeleteNumbersTests.list)
    let run = try box.run("todo", arguments)
    #expect(run.status != 0)
    #expect(box.read("todo.txt") == DeleteNumbersTests.list)
  }

  @Test func wordsAreRemovedWholeAndNeverEmptyATask() throws {
    let box = try Sandbox()
    try box.write("todo.txt", DeleteNumbersTests.list)
    // Part of a tag's value is no word of the task.
    let part = try box.todo("del", "3", "--words", "2026-12-07")
    #expect(part.status != 0 && (part.stdout + part.stderr).contains("'2026-12-07' not found"), "\(part.stdout)\(part.stderr)")
    #expect(try box.todo("del", "3", "--words", "due:2026-12-07 +home").status == 0)
    #expect(box.read("todo.txt") == "a one\nb two\npay rent\n")
    let empty = try box.todo("del", "1", "--words", "a one")
    #expect(empty.status != 0 && empty.stderr.contains("no text"), "\(empty.stderr)")
    #expect(box.read("todo.txt") == "a one\nb two\npay rent\n")
  }

  @Test func todoShKeepsItsExpression() throws {
    let box = try Sandbox()
    try box.write("todo.txt", DeleteNumbersTests.list)
    #expect(try box.sh("del", "3", "7").status == 0)
    #expect(box.read("todo.txt") == "a one\nb two\npay due:2026-12-0 rent +home\n")
  }
}

/// Under the name `todo`, `replace` keeps the tags with meaning the new text leaves out (a
/// note, attachments, dates, dependencies) and names them; `--all` replaces everything, and
/// todo.sh's name replaces as todo.sh does.
@Suite struct ReplaceKeepsTagsTests {
  static let line = "(A) 2009-02-01 call mom +family due:2009-02-20 note:mom.txt att:a.png id:m1 p:x\n"

  @Test func theTagsTheNewTextLeavesOutStay() throws {
    let box = try Sandbox()
    try box.write("todo.txt", ReplaceKeepsTagsTests.line)
    let run = try box.todo("replace", "1", "phone mom p:x due:2009-02-27")
    #expect(run.status == 0, "\(run.stderr)")
    let kept = "(A) 2009-02-01 phone mom p:x due:2009-02-27 note:mom.txt att:a.png id:m1"
    #expect(box.read("todo.txt") == kept + "\n")
    #expect(run.stdout.hasSuffix("1 \(kept)\nTODO: Kept note:mom.txt att:a.png id:m1 ('replace --all' replaces them too).\n"), "\(run.stdout)")
  }

  @Test func allReplacesEverythingAndTodoShTheSame() throws {
    let box = try Sandbox()
    try box.write("todo.txt", ReplaceKeepsTagsTests.line)
    #expect(try box.todo("replace", "1", "--all", "just this").status == 0)
    #expect(box.read("todo.txt") == "(A) 2009-02-01 just this\n")
    try box.write("todo.txt", ReplaceKeepsTagsTests.line)
    #expect(try box.sh("replace", "1", "just this").status == 0)
    #expect(box.read("todo.txt") == "(A) 2009-02-01 just this\n")
  }
}

/// `note NR TEXT` and text piped to `note` are written to the note without an editor (added
/// as a line, or with --replace as the whole note); text is never ignored.
@Suite struct NoteTextTests {
  @Test func textAsArgumentsAndOnStandardInput() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "call mom\nbuy milk\n")
    // An editor that would fail shows none is run.
    let fail = ["EDITOR": "false", "VISUAL": "false"]
    let first = try box.run("todo", ["note", "1", "ask about", "the weekend"], environment: fail)
    #expect(first.status == 0, "\(first.stderr)")
    let note = box.noteName("call-mom")
    #expect(box.read("todo.txt") == "call mom note:\(note)\nbuy milk\n")
    #expect(try box.run("todo", ["note", "1"], input: "bring cake\n", environment: fail).status == 0)
    #expect(box.read("notes/\(note)") == "ask about the weekend\nbring cake\n")
    #expect(try box.run("todo", ["note", "1", "--replace", "only this"], environment: fail).status == 0)
    #expect(box.read("notes/\(note)") == "only this\n")
    #expect(try box.todo("note", "1", "--show").stdout == "only this\n")
    let control = try box.run("todo", ["note", "2", "bad\u{1B}[2J"], environment: fail)
    #expect(control.status != 0)
    #expect(box.read("todo.txt") == "call mom note:\(note)\nbuy milk\n")
    #expect(box.names(in: "notes") == [note])
  }
}

/// `ls --why` says a search's reason once for all the tasks it leaves out, with their
/// numbers as runs, and keeps a line per task for reasons of the task's own.
@Suite struct WhySummaryTests {
  @Test func aTermsReasonIsSaidOnce() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "a milk\nb\nc\nd\ne milk\nf\ng h:1\n")
    let run = try box.todo("ls", "--why", "milk")
    #expect(run.status == 0)
    let lines = run.stdout.split(separator: "\n").map(String.init)
    #expect(lines.filter { $0.contains("excluded by the term") } == ["4 tasks excluded by the term 'milk' (no match): 2-4, 6"], "\(run.stdout)")
    #expect(lines.contains("7 g h:1"), "\(run.stdout)")
  }
}
