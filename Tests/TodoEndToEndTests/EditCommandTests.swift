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

  /// Where a text that was not written is kept (`$XDG_STATE_HOME/todo/edits`).
  static let kept = "state/todo/edits/edited-todo.txt"

  /// An editor that leaves task 2 with a date that is none the first time, and the second
  /// time (it finds the notes) keeps what it was shown in `$HOME/seen` and does `second`.
  func editorMakingABadDate(_ box: Sandbox, second: String) throws -> [String: String] {
    var env = try editor(
      box, "ed",
      """
      if grep -q '^#!todo-edit:' "$1"; then
        cp "$1" "$HOME/seen"
        \(second)
      else
        sed -i 's/due:2009-02-20/due:2009-02-30/' "$1"
      fi
      """)
    env["XDG_STATE_HOME"] = box.path("state")
    return env
  }

  /// The refusal of a bad date, as todo(1)'s DATE WORDS section lists what is accepted.
  static let notADate =
    "'2009-02-30' is not a date; dates are written 2026-05-01, today, tomorrow, fri, next fri, this fri, "
    + "in 3 days, +3d, 2w, dec 10, 10 dec 2026, next week, next month, weekend, eom, eow, eoy "
    + "(in a due: or t: tag, one word: next-fri, in-3-days, dec10, 10dec)"

  static let notedFile =
    "#!todo-edit: each note like this one is removed before writing; fix the line below it, save and quit\r\n"
    + "(A) Call Mom\r\n"
    + "#!todo-edit: the next line: \(notADate)\r\n"
    + "Buy milk due:2009-02-30\r\nPay rent\r\n"

  @Test func aRefusedEditReopensTheEditorOnWhatWasWrittenWithTheProblemsNoted() throws {
    let box = try box()
    let env = try editorMakingABadDate(box, second: "sed -i 's/due:2009-02-30/due:2009-02-28/' \"$1\"")
    let run = try box.todo("edit", input: "y", environment: env)
    #expect(run.status == 0)
    #expect(run.stderr == "line 2: \(EditCommandTests.notADate)\n")
    #expect(run.stdout == "TODO: 1 changed, 0 added, 0 removed.\n")
    // The second time the editor had the text as the person left it, with a note above the
    // line in question; the notes are gone from what was written.
    #expect(box.read("seen") == EditCommandTests.notedFile)
    #expect(box.read("todo.txt") == "(A) Call Mom\r\nBuy milk due:2009-02-28\r\nPay rent\r\n")
    // Written, the text is kept no more; one undo takes the edit back.
    #expect(!box.exists(EditCommandTests.kept))
    #expect(try box.todo("undo", environment: env).status == 0)
    #expect(box.read("todo.txt") == EditCommandTests.file)
  }

  @Test func stoppingKeepsWhatWasWrittenAtANamedPath() throws {
    let box = try box()
    let env = try editorMakingABadDate(box, second: "exit 0")
    let run = try box.todo("edit", input: "n", environment: env)
    #expect(run.status == 1)
    #expect(
      run.stderr == """
        line 2: \(EditCommandTests.notADate)
        todo: edit: nothing changed; what you wrote is kept in '\(box.path(EditCommandTests.kept))'

        """)
    #expect(box.read("todo.txt") == EditCommandTests.file)
    #expect(box.read(EditCommandTests.kept) == "(A) Call Mom\r\nBuy milk due:2009-02-30\r\nPay rent\r\n")
    // A second text kept does not take the place of the first.
    #expect(try box.todo("edit", environment: env).status == 1)
    #expect(box.exists("state/todo/edits/edited-todo-2.txt"))
  }

  @Test func aNoteThePersonChangedIsNamedNotDropped() throws {
    let box = try box()
    // The second time the person fixes the date but types into the note above it.
    let env = try editorMakingABadDate(
      box, second: "sed -i 's/due:2009-02-30/due:2009-02-28/; s/^#!todo-edit: the next line/#!todo-edit: THE next line/' \"$1\"")
    let run = try box.todo("edit", input: "yn", environment: env)
    #expect(run.status == 1)
    #expect(run.stderr.contains("line 2: it starts with #!todo-edit: as the notes of edit do; remove it, or write it as it is\n"))
    #expect(box.read("todo.txt") == EditCommandTests.file)
    let kept = box.read(EditCommandTests.kept)
    #expect(kept.hasPrefix("(A) Call Mom\r\n#!todo-edit: THE next line: "))
    #expect(kept.hasSuffix("\r\nBuy milk due:2009-02-28\r\nPay rent\r\n"))
  }

  @Test func theListIsNotLockedWhileTheEditorRuns() throws {
    let box = try box()
    // From inside the editor, a script adds a task and will not wait for a lock; the person
    // changes task 3 meanwhile.
    let script = """
      TODO_LOCK_TIMEOUT=0 "$HOME/bin/todo" add 'written meanwhile' > "$HOME/inner.out" 2>&1; echo $? > "$HOME/inner.status"
      sed -i 's/Pay rent/Pay rent +home/' "$1"
      """
    let run = try box.todo("edit", environment: try editor(box, "ed", script))
    #expect(run.status == 0)
    #expect(box.read("inner.status") == "0\n")
    #expect(box.read("inner.out") == "4 2009-02-13 written meanwhile\nTODO: 4 added.\n")
    #expect(
      box.read("todo.txt") == "(A) Call Mom\r\nBuy milk due:2009-02-20\r\nPay rent +home\r\n2009-02-13 written meanwhile\r\n")
    // The edit is its own undo entry: undone, the task added meanwhile stays.
    #expect(try box.todo("undo").status == 0)
    #expect(box.read("todo.txt") == EditCommandTests.file + "2009-02-13 written meanwhile\r\n")
  }

  @Test func aTaskChangedMeanwhileAndInTheEditorIsRefusedAndTheTextKept() throws {
    let box = try box()
    var env = try editor(
      box, "ed",
      """
      "$HOME/bin/todo" append 2 '+shop' > /dev/null
      sed -i 's/milk/oat milk/' "$1"
      """)
    env["XDG_STATE_HOME"] = box.path("state")
    let run = try box.todo("edit", environment: env)
    #expect(run.status == 1)
    #expect(
      run.stderr == "todo: edit: task 2 was changed meanwhile by another program, as you changed it: "
        + "was 'Buy milk due:2009-02-20', now 'Buy milk due:2009-02-20 +shop'; nothing changed; "
        + "what you wrote is kept in '\(box.path(EditCommandTests.kept))'\n")
    #expect(box.read("todo.txt") == "(A) Call Mom\r\nBuy milk due:2009-02-20 +shop\r\nPay rent\r\n")
    #expect(box.read(EditCommandTests.kept) == "(A) Call Mom\r\nBuy oat milk due:2009-02-20\r\nPay rent\r\n")
    // The same for one task.
    let one = try box.todo("edit", "3", environment: try editor(box, "ed2", "sed -i '/Pay rent/d' \"$HOME/todo.txt\"; echo 'Pay the rent' > \"$1\""))
    #expect(one.status == 1)
    #expect(one.stderr.hasPrefix("todo: edit: task 3 was removed meanwhile by another program, and you changed it: was 'Pay rent'; "))
    #expect(one.stderr.hasSuffix("/edits/edited-task-3.txt'\n"))
  }

  @Test func badLinesAreShownAndAskedAbout() throws {
    let box = try box()
    var env = try editor(box, "ed", "sed -i 's/milk/milk due:2009-02-30/; s/rent/rent\\x01/' \"$1\"")
    env["XDG_STATE_HOME"] = box.path("state")
    // No one to answer: nothing is written, what was written is kept.
    let declined = try box.todo("edit", environment: env)
    #expect(declined.status == 1)
    #expect(
      declined.stderr == """
        line 2: '2009-02-30' is not a date; dates are written 2026-05-01, today, tomorrow, fri, next fri, this fri, in 3 days, +3d, 2w, dec 10, 10 dec 2026, next week, next month, weekend, eom, eow, eoy (in a due: or t: tag, one word: next-fri, in-3-days, dec10, 10dec)
        line 3: control character U+0001 in the line
        todo: edit: nothing changed; what you wrote is kept in '\(box.path(EditCommandTests.kept))'

        """)
    #expect(box.read("todo.txt") == EditCommandTests.file)
    // w writes it as it is, and what was kept for it goes (the earlier text stays).
    let answered = try box.todo("edit", input: "w", environment: env)
    #expect(answered.status == 0)
    #expect(box.read("todo.txt") == "(A) Call Mom\r\nBuy milk due:2009-02-30 due:2009-02-20\r\nPay rent\u{01}\r\n")
    #expect(box.exists(EditCommandTests.kept))
    #expect(!box.exists("state/todo/edits/edited-todo-2.txt"))
    // -f writes it without asking, and keeps nothing.
    try box.write("todo.txt", EditCommandTests.file)
    #expect(try box.todo("-f", "edit", environment: env).status == 0)
    #expect(box.read("todo.txt") == "(A) Call Mom\r\nBuy milk due:2009-02-30 due:2009-02-20\r\nPay rent\u{01}\r\n")
    #expect(!box.exists("state/todo/edits/edited-todo-2.txt"))
  }

  @Test func aC1ControlIsABadLineToo() throws {
    let box = try box()
    var env = try editor(box, "ed", "printf 'Pay rent \\302\\2332J\\n' > \"$1\"")
    env["XDG_STATE_HOME"] = box.path("state")
    let run = try box.todo("edit", "3", environment: env)
    #expect(run.status == 1)
    #expect(
      run.stderr == "line 1: control character U+009B in the line\n"
        + "todo: edit: nothing changed; what you wrote is kept in '\(box.path("state/todo/edits/edited-task-3.txt"))'\n")
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
    #expect(try box.todo("edit", "3", input: "w", environment: env).status == 0)
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
