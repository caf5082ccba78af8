import Foundation
import Testing

/// `todo edit [NR]` with editors that are small scripts, the clock at 2009-02-13.
@Suite struct EditCommandTests {
  static let file = "(A) Call Mom\r\nBuy milk due:2009-02-20\r\nPay rent\r\n"

  func box() throws -> Sandbox {
    let box = try Sandbox()
    try box.write("todo.txt", EditCommandTests.file)
    return box
  }

  /// An editor: a shell script given the file to edit as $1.
  func editor(_ box: Sandbox, _ name: String, _ body: String) throws -> [String: String] {
    try box.write(name, "#!/bin/sh\n" + body + "\n")
    chmod(box.path(name), 0o755)
    return ["EDITOR": box.path(name), "VISUAL": ""]
  }

  @Test func editingTheFileChangesOnlyTheEditedLines() throws {
    let box = try box()
    let run = try box.todo("edit", environment: try editor(box, "ed", "sed -i 's/milk/bread/' \"$1\""))
    #expect(run.status == 0)
    #expect(run.stdout == "TODO: 1 changed, 0 added, 0 removed.\n")
    // The file's CRLF endings stay, on the edited line too.
    #expect(box.read("todo.txt") == "(A) Call Mom\r\nBuy bread due:2009-02-20\r\nPay rent\r\n")
    // One undo entry takes it back byte for byte.
    #expect(try box.todo("undo").status == 0)
    #expect(box.read("todo.txt") == EditCommandTests.file)
  }

  @Test func linesAddedAndRemovedKeepTheRestInPlace() throws {
    let box = try box()
    let script = "printf '(A) Call Mom\\nNew one due:tomorrow\\nBuy milk due:2009-02-20\\n' > \"$1\""
    let run = try box.todo("edit", environment: try editor(box, "ed", script))
    #expect(run.stdout == "TODO: 0 changed, 1 added, 1 removed.\n")
    // A date word on a new line is stored as its date, as `add` stores it.
    #expect(box.read("todo.txt") == "(A) Call Mom\r\nNew one due:2009-02-14\r\nBuy milk due:2009-02-20\r\n")
  }

  @Test func oneTask() throws {
    let box = try box()
    let env = try editor(box, "ed", "test \"$(cat \"$1\")\" = 'Pay rent' && echo 'Pay rent due:mon' > \"$1\"")
    let run = try box.todo("edit", "3", environment: env)
    #expect(run.status == 0)
    #expect(run.stdout == "TODO: 3 Pay rent due:2009-02-16\n")
    #expect(box.read("todo.txt") == "(A) Call Mom\r\nBuy milk due:2009-02-20\r\nPay rent due:2009-02-16\r\n")
    let missing = try box.todo("edit", "9", environment: env)
    #expect(missing.status == 1)
    #expect(missing.stderr == "TODO: No task 9.\n")
    #expect(try box.todo("edit", "1", "2", environment: env).status == 1)
  }

  @Test func outsideChangesMadeMeanwhileAreKept() throws {
    let box = try box()
    // While the editor runs, another program (not this tool: it takes no lock) rewrites
    // task 1 and appends a task to the real file.
    let script = """
      sed -i 's/Call Mom/Call Mom tonight/' "$HOME/todo.txt"
      printf 'Added outside\\r\\n' >> "$HOME/todo.txt"
      sed -i 's/Pay rent/Pay rent +home/' "$1"
      """
    let run = try box.todo("edit", environment: try editor(box, "ed", script))
    #expect(run.status == 0)
    #expect(box.read("todo.txt") == "(A) Call Mom tonight\r\nBuy milk due:2009-02-20\r\nPay rent +home\r\nAdded outside\r\n")
  }

  @Test func theListStaysLockedWhileTheEditorRuns() throws {
    let box = try box()
    let script = "TODO_LOCK_TIMEOUT=0 \"$HOME/bin/todo\" add 'written meanwhile' > \"$HOME/inner.out\" 2>&1; echo $? > \"$HOME/inner.status\""
    let run = try box.todo("edit", environment: try editor(box, "ed", script))
    #expect(run.status == 0)
    #expect(box.read("inner.status") != "0\n")
    #expect(box.read("todo.txt") == EditCommandTests.file)
  }

  @Test func badLinesAreShownAndAskedAbout() throws {
    let box = try box()
    let env = try editor(box, "ed", "sed -i 's/milk/milk due:2009-02-30/; s/rent/rent\\x01/' \"$1\"")
    // No one to answer: nothing is written.
    let declined = try box.todo("edit", environment: env)
    #expect(declined.status == 1)
    #expect(
      declined.stderr == """
        line 2: '2009-02-30' is not a date; dates are written 2026-05-01, today, tomorrow, fri, next fri, this fri, in 3 days, +3d, 2w, dec 10, 10 dec 2026, next week, next month, weekend, eom, eow, eoy (in a due: or t: tag, one word: next-fri, in-3-days, dec10, 10dec)
        line 3: control character U+0001 in the line
        todo: edit: nothing changed

        """)
    #expect(box.read("todo.txt") == EditCommandTests.file)
    let answered = try box.todo("edit", input: "y", environment: env)
    #expect(answered.status == 0)
    #expect(box.read("todo.txt") == "(A) Call Mom\r\nBuy milk due:2009-02-30 due:2009-02-20\r\nPay rent\u{01}\r\n")
  }

  @Test func aC1ControlIsABadLineToo() throws {
    let box = try box()
    let env = try editor(box, "ed", "printf 'Pay rent \\302\\2332J\\n' > \"$1\"")
    let run = try box.todo("edit", "3", environment: env)
    #expect(run.status == 1)
    #expect(run.stderr == "line 1: control character U+009B in the line\ntodo: edit: nothing changed\n")
    #expect(box.read("todo.txt") == EditCommandTests.file)
  }

  @Test func emptyingAsksFirst() throws {
    let box = try box()
    let env = try editor(box, "ed", ": > \"$1\"")
    let task = try box.todo("edit", "2", environment: env)
    #expect(task.status == 1)
    #expect(box.read("todo.txt") == EditCommandTests.file)
    let file = try box.todo("edit", environment: env)
    #expect(file.status == 1)
    #expect(box.read("todo.txt") == EditCommandTests.file)
    // Said yes to: the task's line is emptied (numbers stay), or the file.
    #expect(try box.todo("edit", "2", input: "y", environment: env).status == 0)
    #expect(box.read("todo.txt") == "(A) Call Mom\r\n\r\nPay rent\r\n")
    #expect(try box.todo("-f", "edit", environment: env).status == 0)
    #expect(box.read("todo.txt") == "")
  }

  @Test func oneTaskBecomingSeveralLinesAsks() throws {
    let box = try box()
    let env = try editor(box, "ed", "printf 'Pay rent\\nPay gas\\n' > \"$1\"")
    #expect(try box.todo("edit", "3", environment: env).status == 1)
    #expect(try box.todo("edit", "3", input: "y", environment: env).status == 0)
    #expect(box.read("todo.txt") == "(A) Call Mom\r\nBuy milk due:2009-02-20\r\nPay rent\r\nPay gas\r\n")
  }

  @Test func aFailingEditorChangesNothing() throws {
    let box = try box()
    let run = try box.todo("edit", environment: try editor(box, "ed", "echo junk > \"$1\"; exit 3"))
    #expect(run.status == 1)
    #expect(run.stderr == "todo: edit: the editor '\(box.path("ed"))' exited with status 3; nothing changed\n")
    #expect(box.read("todo.txt") == EditCommandTests.file)
    // An unchanged copy is no change and no undo entry.
    let same = try box.todo("edit", environment: try editor(box, "ed2", "true"))
    #expect(same.stdout == "TODO: nothing changed.\n")
    #expect(try box.todo("undo").status == 1)
  }

  @Test func visualWinsOverEditorAndArgumentsWork() throws {
    let box = try box()
    var env = try editor(box, "ed", "exit 9")
    try box.write("vis", "#!/bin/sh\nsed -i \"s/$1/$2/\" \"$3\"\n")
    chmod(box.path("vis"), 0o755)
    env["VISUAL"] = box.path("vis") + " Mom Dad"
    #expect(try box.todo("edit", "1", environment: env).status == 0)
    #expect(box.read("todo.txt").hasPrefix("(A) Call Dad\r\n"))
  }
}
