import Foundation
import Testing

/// The task model under the name `todo`: due and threshold dates, reminders, recurrence,
/// postponing, tags, priority words, reopening, notes, attachments, manual order, sorting and
/// search. The clock is pinned to Friday 2009-02-13.
@Suite struct TaskModelTests {
  /// An executable script in the sandbox.
  func script(_ box: Sandbox, _ name: String, _ body: String) throws -> String {
    try box.write(name, "#!/bin/sh\n" + body + "\n")
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: box.path(name))
    return box.path(name)
  }

  // MARK: Relative dates

  @Test func relativeDatesAreStoredAbsolute() throws {
    let box = try Sandbox()
    try box.todo("add", "Pay rent due:fri t:+2w")
    try box.todo("-T", "add", "Report due:eom")
    try box.todo("append", "2", "due2:eow t:tomorrow")
    #expect(box.read("todo.txt") == "2009-02-13 Pay rent due:2009-02-20 t:2009-02-27\nReport due:2009-02-28 due2:eow t:2009-02-14\n")
    try box.todo("replace", "2", "Report due:+3b")
    // The threshold the new text leaves out is kept (replace keeps tags with meaning).
    #expect(box.read("todo.txt").hasSuffix("\nReport due:2009-02-18 t:2009-02-14\n"))
    // Something that is no date is refused, unless stored on purpose.
    #expect(try box.todo("add", "Odd due:someday").status == 1)
    #expect(!box.read("todo.txt").contains("Odd"))
    try box.todo("add", "--verbatim", "Odd due:someday")
    #expect(box.read("todo.txt").hasSuffix("Odd due:someday\n"))
  }

  @Test func todoShModeStoresDatesAsTyped() throws {
    let box = try Sandbox()
    try box.sh("add", "Pay rent due:fri")
    #expect(box.read("todo.txt") == "Pay rent due:fri\n")
    #expect(try box.sh("tag", "1", "due", "fri").status != 0)
  }

  // MARK: Hiding and colour

  @Test func lsHidesFutureThresholdsAndHiddenTasks() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "now\nlater t:2009-03-01\nstarted t:2009-02-13\nkeep h:1\nshown h:0\n")
    #expect(try box.todo("ls", merged: true).stdout == "1 now\n5 shown h:0\n3 started t:2009-02-13\n--\nTODO: 3 of 5 tasks shown\n")
    #expect(try box.todo("ls", "--all").stdout.contains("2 later t:2009-03-01\n"))
    #expect(try box.todo("ls", "-a", "keep", merged: true).stdout == "4 keep h:1\n--\nTODO: 1 of 5 tasks shown\n")
    // todo.sh mode lists everything.
    #expect(try box.sh("ls").stdout.contains("2 later t:2009-03-01\n"))
  }

  @Test func overdueAndDueTodayStandOut() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "late due:2009-02-01\ntoday due:2009-02-13\nsoon due:2009-02-20\n")
    let out = try box.todo("--color=always", "ls").stdout
    #expect(out.contains("late \u{1B}[1;31mdue:2009-02-01\u{1B}[0m"))
    #expect(out.contains("today \u{1B}[1;35mdue:2009-02-13\u{1B}[0m"))
    #expect(out.contains("soon due:2009-02-20"))
    #expect(!(try box.todo("ls").stdout.contains("\u{1B}")))
  }

  // MARK: Sorting and search

  @Test func sortByKeys() throws {
    let box = try Sandbox()
    try box.write(
      "todo.txt",
      "(B) 2009-01-05 beta due:2009-03-01\n2009-01-01 Échelle due:2009-02-20\n(A) zebra\nx 2009-02-10 done pri:C\nalpha due:2009-02-20\n")
    func numbers(_ sort: String) throws -> String {
      // --all: the done task is listed too; the summary is on standard error.
      try box.todo("-p", "ls", "--all", "--sort", sort).stdout.split(separator: "\n").map { $0.prefix(1) }.joined()
    }
    #expect(try numbers("due") == "25134")
    #expect(try numbers("-due") == "12534")
    #expect(try numbers("due,-line") == "52143")
    #expect(try numbers("priority") == "31425")
    #expect(try numbers("text") == "51423")
    #expect(try numbers("-text") == "32415")
    #expect(try numbers("created") == "21345")
    #expect(try numbers("completed,line") == "41235")
    #expect(try numbers("line") == "12345")
    let bad = try box.todo("ls", "--sort", "size")
    #expect(bad.status == 1)
    #expect(bad.stderr == "todo: option '--sort' does not take 'size'; it takes created, priority, due, text, completed, line, urgency\n")
  }

  @Test func searchFoldsCaseAcrossUnicode() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "Café au lait\nGroße Straße\nplain\n")
    #expect(try box.todo("ls", "CAFÉ", merged: true).stdout.hasPrefix("1 Café au lait\n--"))
    #expect(try box.todo("ls", "café", merged: true).stdout.hasPrefix("1 Café au lait\n--"))
    #expect(try box.todo("ls", "STRASSE", merged: true).stdout.hasPrefix("2 Große Straße\n--"))
    #expect(try box.todo("ls", "-CAFÉ", merged: true).stdout.hasPrefix("2 Große Straße\n3 plain\n--"))
    // todo.sh mode keeps grep -i in the C locale: É is not é there.
    #expect(try box.sh("ls", "CAFÉ").stdout == "--\nTODO: 0 of 3 tasks shown\n")
  }

  // MARK: Agenda

  @Test func agendaGroupsByDay() throws {
    let box = try Sandbox()
    try box.write(
      "todo.txt",
      "late due:2009-02-10\n(A) today due:2009-02-13\nsat due:2009-02-14\nfar due:2009-03-30\nx 2009-02-12 gone due:2009-02-01\nnext week due:2009-02-20\nsecret due:2009-02-13 h:1\n")
    let run = try box.todo("agenda", merged: true)
    #expect(run.status == 0)
    #expect(
      run.stdout == """
        Overdue
          1 late due:2009-02-10
        Today, Fri 2009-02-13
          2 (A) today due:2009-02-13
        Tomorrow, Sat 2009-02-14
          3 sat due:2009-02-14
        Fri 2009-02-20
          6 next week due:2009-02-20
        --
        TODO: 4 tasks due by 2009-02-20, 1 overdue

        """)
    #expect(try box.todo("due", "60").stdout.contains("Mon 2009-03-30\n  4 far due:2009-03-30\n"))
    #expect(try box.todo("agenda", "--days", "0").stdout.contains("Today") == true)
    #expect(!(try box.todo("agenda", "--days=0").stdout.contains("Tomorrow")))
    let quiet = try box.todo("agenda", "--quiet")
    #expect(quiet.status == 1)
    #expect(quiet.stdout == "")
    try box.write("todo.txt", "fine due:2009-02-14\n")
    #expect(try box.todo("agenda", "--quiet").status == 0)
    #expect(try box.todo("agenda", "--days", "x").status == 1)
  }

  @Test func agendaMarksATaskThatWaitsForAnOpenOne() throws {
    let box = try Sandbox()
    // Task 1 (id:r) waits for task 2 (p:r), still open; task 3 waits for a done one.
    try box.write(
      "todo.txt",
      "file report due:2009-02-13 id:r\ngather receipts p:r\nsend it due:2009-02-14 id:s\nx 2009-02-12 sign p:s\n")
    let run = try box.todo("agenda")
    #expect(run.stdout.contains("  1 file report due:2009-02-13 id:r [blocked]\n"), "\(run.stdout)")
    #expect(run.stdout.contains("  3 send it due:2009-02-14 id:s\n"), "\(run.stdout)")
    #expect(box.read("todo.txt").contains("id:r\n"), "the mark is shown, never written")
  }

  // MARK: Recurrence

  @Test func doingARecurringTaskAddsTheNextOne() throws {
    let box = try Sandbox()
    try box.write(
      "todo.txt",
      "(A) 2009-01-01 Water plants due:2009-02-10 rec:1w\nPay rent due:2009-01-01 t:2008-12-29 rec:+1m\nStandup due:2009-02-13 rec:1b\nplain\n")
    let run = try box.todo("do", "1")
    #expect(
      run.stdout == """
        1 x 2009-02-13 2009-01-01 Water plants due:2009-02-10 rec:1w pri:A
        TODO: 1 marked as done.
        5 (A) 2009-02-13 Water plants due:2009-02-20 rec:1w
        TODO: 5 added.

        """)
    try box.todo("do", "2", "3")
    let lines = box.read("todo.txt").split(separator: "\n")
    // Strict: from the old due date, even in the past; the threshold keeps its distance.
    #expect(lines[5] == "Pay rent due:2009-02-01 t:2009-01-29 rec:+1m")
    // Business days: Friday + 1b is Monday.
    #expect(lines[6] == "Standup due:2009-02-16 rec:1b")
    // Catch-up moves a strict task to its first date from today.
    try box.write("todo.txt", "Pay rent due:2009-01-01 t:2008-12-29 rec:+1m\n")
    try box.todo("do", "1", environment: ["TODOTXT_RECUR_CATCHUP": "1"])
    #expect(box.read("todo.txt").hasSuffix("\nPay rent due:2009-03-01 t:2009-02-26 rec:+1m\n"))
    // todo.sh mode knows nothing of rec:.
    try box.write("todo.txt", "Water due:2009-02-10 rec:1w\n")
    try box.sh("-a", "do", "1")
    #expect(box.read("todo.txt") == "x 2009-02-13 Water due:2009-02-10 rec:1w\n")
  }

  @Test func recurrencePreviewAndRule() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "Pay rent due:2009-01-31 rec:+1m\nplain\n")
    let run = try box.todo("rec", "1", "--preview", "3")
    #expect(
      run.stdout == """
        1 Pay rent due:2009-01-31 rec:+1m
          rec:+1m: every month after the due date
          due:2009-02-28 (Sat)
          due:2009-03-28 (Sat)
          due:2009-04-28 (Tue)

        """)
    #expect(try box.todo("rec", "2").stderr == "TODO: 2 has no rec: tag.\n")
    try box.todo("rec", "2", "2w")
    #expect(box.read("todo.txt") == "Pay rent due:2009-01-31 rec:+1m\nplain rec:2w\n")
    #expect(try box.todo("rec", "2", "--preview").stdout.contains("every 2 weeks after it is done\n  due:2009-02-27 (Fri)\n"))
    #expect(try box.todo("rec", "2", "fortnightly").status == 1)
  }

  // MARK: Postpone, tag, priority words, reopen

  @Test func postponeMovesDueAndThreshold() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "a due:2009-02-13 t:2009-02-10\nb t:2009-02-20\nc\n")
    let run = try box.todo("postpone", "1", "2", "3", "1w")
    #expect(run.stdout.contains("TODO: 1 postponed to 2009-02-20.\n"))
    #expect(box.read("todo.txt") == "a due:2009-02-20 t:2009-02-17\nb t:2009-02-27\nc due:2009-02-20\n")
    try box.todo("postpone", "1", "5b")
    #expect(box.read("todo.txt").hasPrefix("a due:2009-02-27 t:2009-02-24\n"))
    let bad = try box.todo("postpone", "1", "soon")
    #expect(bad.status == 1)
    #expect(bad.stderr.contains("'soon' is neither a duration"))
    #expect(try box.todo("postpone", "1").status == 1)
  }

  @Test func tagSetsReplacesAndRemoves() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "a due:2009-01-01 x:1\nb\n")
    try box.todo("tag", "1", "2", "due", "mon")
    #expect(box.read("todo.txt") == "a due:2009-02-16 x:1\nb due:2009-02-16\n")
    try box.todo("tag", "1", "2", "due")
    try box.todo("tag", "2", "owner", "ann")
    #expect(box.read("todo.txt") == "a x:1\nb owner:ann\n")
    let missing = try box.todo("tag", "1", "owner")
    #expect(missing.status == 1)
    #expect(missing.stderr == "TODO: 1 has no owner: tag.\n")
    #expect(try box.todo("tag", "1", "due", "someday").stderr.contains("'someday' is not a date"))
    #expect(try box.todo("tag", "1", "a:b", "c").status == 1)
    #expect(box.read("todo.txt") == "a x:1\nb owner:ann\n")
  }

  @Test func priorityWords() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "a\nb\nc\nd\n")
    try box.todo("pri", "1", "high", "2", "m", "3", "low")
    try box.todo("pri", "4", "H")
    #expect(box.read("todo.txt") == "(A) a\n(B) b\n(C) c\n(H) d\n")
    try box.todo("add", "--priority", "medium", "e")
    try box.todo("add", "--priority=l", "(A) f")
    #expect(box.read("todo.txt").hasSuffix("(H) d\n(B) 2009-02-13 e\n(C) 2009-02-13 f\n"))
    #expect(try box.todo("add", "--priority", "urgent", "g").status == 1)
    // todo.sh mode: h is the letter H.
    try box.sh("pri", "1", "h")
    #expect(box.read("todo.txt").hasPrefix("(H) a\n"))
  }

  @Test func undoDoneRestoresThePriority() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "(A) 2009-01-01 first\nsecond\n")
    try box.todo("do", "1", "2")
    let run = try box.todo("undo-done", "1")
    #expect(run.stdout == "1 (A) 2009-01-01 first\nTODO: 1 reopened.\n")
    try box.todo("reopen", "2")
    #expect(box.read("todo.txt") == "(A) 2009-01-01 first\nsecond\n")
    let again = try box.todo("reopen", "2")
    #expect(again.status == 1)
    #expect(again.stderr == "TODO: 2 is not marked done.\n")
  }

  // MARK: Notes and attachments

  @Test func notesAreFilesLinkedByATag() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "(A) Call Mom +family\nother\n")
    let editor = try script(box, "editor.sh", "echo 'ask about the garden' >> \"$1\"")
    let run = try box.todo("note", "1", environment: ["EDITOR": editor])
    #expect(run.status == 0)
    let note = box.noteName("call-mom")
    #expect(box.read("todo.txt") == "(A) Call Mom +family note:\(note)\nother\n")
    #expect(box.read("notes/\(note)") == "ask about the garden\n")
    #expect(try box.todo("note", "1", "--show").stdout == "ask about the garden\n")
    // Editing again uses the same file; VISUAL wins over EDITOR.
    try box.todo("note", "1", environment: ["VISUAL": editor, "EDITOR": "false"])
    #expect(box.read("notes/\(note)") == "ask about the garden\nask about the garden\n")
    // Search looks in notes.
    #expect(try box.todo("ls", "GARDEN", merged: true).stdout.hasPrefix("1 (A) Call Mom +family note:\(note)\n--"))
    // A new note left empty is not kept.
    try box.todo("note", "2", environment: ["EDITOR": "true"])
    #expect(box.read("todo.txt").hasSuffix("\nother\n"))
    #expect(box.names(in: "notes") == [note])
    #expect(try box.todo("note", "2", "--show").stderr == "TODO: 2 has no note.\n")
    // The note follows its task on archive.
    try box.todo("do", "1")
    try box.todo("archive")
    #expect(box.read("done.txt") == "x 2009-02-13 Call Mom +family note:\(note) pri:A\n")
    #expect(box.exists("notes/\(note)"))
  }

  @Test func attachmentsAreCopiedUnderFreshNames() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "Fix the fence\n")
    try box.write("photo of fence.jpg", "JPEG")
    try box.todo("attach", "1", box.path("photo of fence.jpg"))
    // The very same file again is refused: it would only be a second copy and tag.
    let again = try box.todo("attach", "1", box.path("photo of fence.jpg"))
    #expect(again.status == 1)
    #expect(again.stderr == "TODO: 1 already has this file attached as 'photo-of-fence.jpg'; nothing done.\n")
    #expect(box.read("todo.txt") == "Fix the fence att:photo-of-fence.jpg\n")
    // Another file of the same name gets a fresh name.
    try box.write("photo of fence.jpg", "JPEG, retaken")
    try box.todo("attach", "1", box.path("photo of fence.jpg"))
    #expect(box.read("todo.txt") == "Fix the fence att:photo-of-fence.jpg att:photo-of-fence-2.jpg\n")
    #expect(box.read("attachments/photo-of-fence.jpg") == "JPEG")
    #expect(box.read("attachments/photo-of-fence-2.jpg") == "JPEG, retaken")
    #expect(
      try box.todo("attachments", "1").stdout
        == box.path("attachments/photo-of-fence.jpg") + "\n" + box.path("attachments/photo-of-fence-2.jpg") + "\n")
    let missing = try box.todo("attach", "1", box.path("nope.png"))
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("cannot copy"))
  }

  @Test func openUsesTheConfiguredOpener() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "Read https://example.com/a spec\nnothing here\n")
    let opener = try script(box, "opener.sh", "echo \"$1\" >> \"$HOME/opened\"")
    #expect(try box.todo("open", "1", environment: ["TODO_OPEN": opener]).status == 0)
    #expect(box.read("opened") == "https://example.com/a\n")
    try box.write("x.pdf", "pdf")
    try box.todo("attach", "1", box.path("x.pdf"))
    let choose = try box.todo("open", "1", environment: ["TODO_OPEN": opener])
    #expect(choose.status == 1)
    #expect(choose.stdout == "1 \(box.path("attachments/x.pdf"))\n2 https://example.com/a\n")
    try box.todo("open", "1", "1", environment: ["TODO_OPEN": opener])
    #expect(box.read("opened") == "https://example.com/a\n\(box.path("attachments/x.pdf"))\n")
    let nothing = try box.todo("open", "2", environment: ["TODO_OPEN": opener])
    #expect(nothing.status == 1)
    #expect(nothing.stderr == "TODO: 2 has no note, attachment or link to open.\n")
  }

  /// Without an opener and without a graphical session, xdg-open would hand the file to a
  /// terminal program (lynx) that takes the terminal: the path is printed instead, and why;
  /// with a session, xdg-open (here a stand-in on the PATH) is used.
  @Test func openWithoutADesktopPrintsThePath() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "Read https://example.com/a spec\n")
    _ = try script(box, "bin/xdg-open", "echo \"$1\" >> \"$HOME/opened\"")
    let run = try box.todo("open", "1")
    #expect(run.status == 0)
    #expect(run.stdout == "https://example.com/a\n")
    #expect(run.stderr.contains("no graphical session"), "\(run.stderr)")
    #expect(!box.exists("opened"))
    #expect(try box.todo("open", "1", environment: ["DISPLAY": ":0"]).status == 0)
    #expect(box.read("opened") == "https://example.com/a\n")
  }

  // MARK: Manual order

  @Test func reorderMovesALine() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "one\ntwo\nthree\nfour\n")
    let up = try box.todo("reorder", "4", "2")
    #expect(up.stdout == "2 four\nTODO: 4 moved to 2; 2-3 now 3-4.\n")
    #expect(box.read("todo.txt") == "one\nfour\ntwo\nthree\n")
    let down = try box.todo("reorder", "1", "2")
    #expect(down.stdout == "2 one\nTODO: 1 moved to 2; 2 now 1.\n")
    #expect(box.read("todo.txt") == "four\none\ntwo\nthree\n")
    #expect(try box.todo("reorder", "1", "9").stderr == "TODO: There is no line 9 to move to.\n")
    #expect(try box.todo("reorder", "7", "1").stderr == "TODO: No task 7.\n")
  }
}
