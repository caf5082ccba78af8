import Foundation
import Testing

/// What sync must never do, with real git (a bare repository and a clone per machine, each
/// with its own home and undo log): lose a write made while it runs, or commit a merge that
/// neither the tool nor the user completed.
@Suite("Sync safety")
struct SyncSafetyTests {
  /// Runs git in a machine's todo directory and returns its status and output.
  static func gitStatus(_ box: Sandbox, _ arguments: [String], in directory: URL? = nil) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git"] + arguments
    process.currentDirectoryURL = directory ?? box.home.appendingPathComponent("list")
    process.environment = box.environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// The task lines of a machine's todo.txt (no blank lines).
  static func tasks(_ box: Sandbox) -> [String] {
    SyncTests.lines(box, "todo.txt").filter { !$0.isEmpty }
  }

  /// Brings the remote's changes to a machine and sends its own, one of the three ways.
  static func merge(_ box: Sandbox, _ way: SyncPropertyTests.Way) throws -> (status: Int32, text: String) {
    switch way {
    case .sync:
      let run = try box.todo("sync")
      return (run.status, run.stderr)
    case .pull, .rebase:
      #expect(try box.todo("git-setup").status == 0)
      let lists = ["todo.txt", "done.txt"].filter { box.exists("list/" + $0) }
      _ = try gitStatus(box, ["add", "-A", "--"] + lists)
      _ = try gitStatus(box, ["commit", "-q", "-m", "edit"])
      let (pulled, text) = try gitStatus(
        box, ["pull", "-q", way == .rebase ? "--rebase" : "--no-rebase", "origin", "main"])
      guard pulled == 0 else { return (pulled, text) }
      return try gitStatus(box, ["push", "-q", "origin", "HEAD:main"])
    }
  }

  @Test func addsRunningDuringSyncAreNeverLost() throws {
    let net = try Network()
    let (laptop, phone) = (net.laptop, net.phone)
    let seeded = (1...20).map { "seeded task \($0)" }
    try laptop.write("list/todo.txt", seeded.map { $0 + "\n" }.joined())
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("sync").status == 0)

    // A script on the laptop adds tasks one by one while both machines keep syncing.
    let script = Process()
    script.executableURL = URL(fileURLWithPath: "/bin/sh")
    script.arguments = ["-c", "i=1; while [ $i -le 60 ]; do todo add \"background $i\" >/dev/null; i=$((i+1)); done"]
    script.currentDirectoryURL = laptop.home
    script.environment = laptop.environment
    try script.run()
    var phoneTasks: [String] = []
    for round in 1...4 {
      phoneTasks.append("phone task \(round)")
      #expect(try phone.todo("add", "phone task \(round)").status == 0)
      let phoneSync = try phone.todo("sync")
      #expect(phoneSync.status == 0, "\(phoneSync.stderr)")
      let laptopSync = try laptop.todo("sync")
      #expect(laptopSync.status == 0, "\(laptopSync.stderr)")
    }
    script.waitUntilExit()
    #expect(script.terminationStatus == 0)
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("sync").status == 0)

    let expected = seeded + (1...60).map { "background \($0)" } + phoneTasks
    for box in [laptop, phone] {
      // `add` dates the tasks it adds.
      let texts = SyncSafetyTests.tasks(box).map {
        $0.hasPrefix("2009-02-13 ") ? String($0.dropFirst(11)) : $0
      }
      #expect(texts.count == expected.count, "\(texts)")
      #expect(Set(texts) == Set(expected))
    }
  }

  @Test func aMergeTheDriverNeverRanIsMergedBySyncNotCommittedAsIs() throws {
    let net = try Network()
    let (laptop, phone) = (net.laptop, net.phone)
    try laptop.write("list/todo.txt", "submit report +work\ncall mom\n")
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("sync").status == 0)
    #expect(try laptop.todo("do", "1").status == 0)
    #expect(try laptop.todo("add", "order new glasses").status == 0)
    #expect(try laptop.todo("sync").status == 0)

    // The phone pulls with git itself while the driver's program is gone: git leaves the
    // phone's own todo.txt, without markers, as the conflicted file.
    #expect(try phone.todo("add", "book dentist").status == 0)
    try SyncTests.git(
      phone, ["config", "merge.todotxt.driver", "/nonexistent/todo merge %O %A %B"])
    try SyncTests.git(phone, ["commit", "-q", "-am", "phone edit"])
    let (pulled, _) = try SyncSafetyTests.gitStatus(phone, ["pull", "-q", "--no-rebase"])
    #expect(pulled != 0)
    #expect(!phone.read("list/todo.txt").contains("<<<<<<<"))

    let synced = try phone.todo("sync")
    #expect(synced.status == 0, "\(synced.stderr)")
    #expect(try laptop.todo("sync").status == 0)
    for box in [laptop, phone] {
      let texts = SyncSafetyTests.tasks(box)
      #expect(texts.count == 4, "\(texts)")
      #expect(texts.contains { $0.hasPrefix("x ") && $0.hasSuffix("submit report +work") })
      #expect(texts.contains { $0.hasSuffix("order new glasses") })
      #expect(texts.contains { $0.hasSuffix("book dentist") })
      #expect(texts.contains("call mom"))
    }
    #expect(laptop.read("list/todo.txt") == phone.read("list/todo.txt"))
  }

  /// The same when the driver could not run, for an archive: sync's own merge of the file
  /// git left reads done.txt too, so the completion never lands on the look-alike.
  @Test func aMergeTheDriverNeverRanStillReadsTheArchiveAsAMove() throws {
    let net = try Network()
    let (laptop, phone) = (net.laptop, net.phone)
    try laptop.write("list/todo.txt", "Submit timesheet week 48 +work\ncall mom\n")
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("sync").status == 0)
    #expect(try laptop.todo("do", "1").status == 0)
    #expect(try laptop.todo("archive").status == 0)
    #expect(try laptop.todo("add", "Submit timesheet week 49 +work").status == 0)
    #expect(try laptop.todo("sync").status == 0)

    #expect(try phone.todo("do", "1").status == 0)
    for driver in ["todotxt", "todotxt-done"] {
      try SyncTests.git(phone, ["config", "merge.\(driver).driver", "/nonexistent/todo merge %O %A %B"])
    }
    try SyncTests.git(phone, ["commit", "-q", "-am", "phone edit"])
    let (pulled, _) = try SyncSafetyTests.gitStatus(phone, ["pull", "-q", "--no-rebase"])
    #expect(pulled != 0)

    let synced = try phone.todo("sync")
    #expect(synced.status == 0, "\(synced.stderr)")
    #expect(try laptop.todo("sync").status == 0)
    for box in [laptop, phone] {
      let open = SyncSafetyTests.tasks(box)
      #expect(open.count == 2, "\(open)")
      #expect(open.contains { $0.hasSuffix("Submit timesheet week 49 +work") && !$0.hasPrefix("x ") }, "\(open)")
      #expect(open.contains("call mom"))
      let done = SyncTests.lines(box, "done.txt").filter { !$0.isEmpty }
      #expect(done.count == 1 && done[0].hasPrefix("x ") && done[0].hasSuffix("week 48 +work"), "\(done)")
    }
  }

  @Test func aConflictLeftWithoutMarkersIsNotCommitted() throws {
    let net = try Network()
    let (laptop, phone) = (net.laptop, net.phone)
    try laptop.write("list/todo.txt", "(C) plan trip\n")
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("sync").status == 0)
    #expect(try laptop.todo("pri", "1", "A").status == 0)
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("pri", "1", "B").status == 0)
    try SyncTests.git(
      phone, ["config", "merge.todotxt.driver", "/nonexistent/todo merge %O %A %B"])
    try SyncTests.git(phone, ["commit", "-q", "-am", "phone edit"])
    let head = try SyncTests.git(phone, ["rev-parse", "HEAD"])
    let (pulled, _) = try SyncSafetyTests.gitStatus(phone, ["pull", "-q", "--no-rebase"])
    #expect(pulled != 0)

    // Sync merges it itself, finds the real conflict, shows it and commits nothing.
    let synced = try phone.todo("sync")
    #expect(synced.status == 1)
    #expect(synced.stderr.contains("todo.txt"))
    #expect(synced.stderr.split(separator: "\n").count == 1)
    #expect(try SyncTests.git(phone, ["rev-parse", "HEAD"]) == head)
    let marked = SyncTests.lines(phone, "todo.txt")
    #expect(marked.contains("(A) plan trip") && marked.contains("(B) plan trip"))
    #expect(marked.contains { $0.hasPrefix("<<<<<<<") })
    // Picking this machine's side by hand counts as resolved.
    try phone.write("list/todo.txt", "(B) plan trip\n")
    let finished = try phone.todo("sync")
    #expect(finished.status == 0, "\(finished.stderr)")
    #expect(try laptop.todo("sync").status == 0)
    #expect(SyncSafetyTests.tasks(laptop) == ["(B) plan trip"])
  }

  // MARK: Archiving is a move

  /// Week 48 done and archived on the laptop, which then adds week 49; the phone only sees week
  /// 48 and completes it: the phone's completion is the archived task's, not the new one's.
  @Test(arguments: SyncPropertyTests.Way.allCases)
  func aCompletionNeverLandsOnANewTaskWrittenLikeTheArchivedOne(way: SyncPropertyTests.Way) throws {
    let net = try Network()
    let (laptop, phone) = (net.laptop, net.phone)
    try laptop.write("list/todo.txt", "Submit timesheet week 48 +work\n")
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("sync").status == 0)
    #expect(try laptop.todo("do", "1").status == 0)
    #expect(try laptop.todo("archive").status == 0)
    #expect(try laptop.todo("add", "Submit timesheet week 49 +work").status == 0)
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("do", "1").status == 0)
    let synced = try SyncSafetyTests.merge(phone, way)
    #expect(synced.status == 0, "\(way): \(synced.text)")
    #expect(try laptop.todo("sync").status == 0)
    for box in [laptop, phone] {
      #expect(SyncSafetyTests.tasks(box) == ["2009-02-13 Submit timesheet week 49 +work"], "\(way)")
      let done = SyncTests.lines(box, "done.txt").filter { !$0.isEmpty }
      #expect(done == ["x 2009-02-13 Submit timesheet week 48 +work"], "\(way)")
    }
  }

  /// The phone changes week 48 (a priority, or its text) while the laptop archives it and adds
  /// week 49: the change belongs to the archived task, so it is a conflict with the archiving,
  /// and week 49 stays as the laptop wrote it.
  @Test(arguments: SyncPropertyTests.Way.allCases, [["pri", "1", "A"], ["append", "1", "by friday"]])
  func anEditOfATaskTheOtherSideArchivedNeverMovesToItsLookAlike(
    way: SyncPropertyTests.Way, edit: [String]
  ) throws {
    let net = try Network()
    let (laptop, phone) = (net.laptop, net.phone)
    try laptop.write("list/todo.txt", "Submit timesheet week 48 +work\n")
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("sync").status == 0)
    #expect(try laptop.todo("do", "1").status == 0)
    #expect(try laptop.todo("archive").status == 0)
    #expect(try laptop.todo("add", "Submit timesheet week 49 +work").status == 0)
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.run("todo", edit).status == 0)
    let edited = SyncSafetyTests.tasks(phone)[0]
    let synced = try SyncSafetyTests.merge(phone, way)
    #expect(synced.status != 0, "\(way) \(edit)")
    let lines = SyncTests.lines(phone, "todo.txt").filter { !$0.isEmpty }
    // The new task once, untouched, outside the conflict; the edited one inside it.
    #expect(lines.filter { $0.contains("week 49") } == ["2009-02-13 Submit timesheet week 49 +work"])
    let markers = lines.filter { $0.hasPrefix("<<<<<<<") || $0 == "=======" || $0.hasPrefix(">>>>>>>") }
    #expect(markers.count == 3, "\(way) \(edit): \(lines)")
    let inside = lines.drop { !$0.hasPrefix("<<<<<<<") }.prefix { !$0.hasPrefix(">>>>>>>") }
    #expect(inside.contains(edited), "\(way) \(edit): \(lines)")
    #expect(!inside.contains { $0.contains("week 49") })
    // The archived task stays archived, once.
    let done = SyncTests.lines(phone, "done.txt").filter { !$0.isEmpty }
    #expect(done == ["x 2009-02-13 Submit timesheet week 48 +work"], "\(way) \(edit)")
  }

  /// Both machines move week 48 back from done.txt to todo.txt; the laptop also archives week
  /// 49: in done.txt, week 48's old line is gone on both sides and week 49's is new.
  @Test(arguments: SyncPropertyTests.Way.allCases)
  func aTaskMovedBackOnBothSidesIsNotTakenForTheLookAlikeArchived(way: SyncPropertyTests.Way) throws {
    let net = try Network()
    let (laptop, phone) = (net.laptop, net.phone)
    try laptop.write("list/todo.txt", "call mom\n")
    try laptop.write("list/done.txt", "x 2009-02-06 Submit timesheet week 48 +work\n")
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("sync").status == 0)
    for box in [laptop, phone] {
      try box.write("list/todo.txt", "call mom\nSubmit timesheet week 48 +work\n")
      try box.write("list/done.txt", "")
    }
    #expect(try laptop.todo("add", "Submit timesheet week 49 +work").status == 0)
    #expect(try laptop.todo("do", "3").status == 0)
    #expect(try laptop.todo("archive").status == 0)
    #expect(try laptop.todo("sync").status == 0)
    let synced = try SyncSafetyTests.merge(phone, way)
    #expect(synced.status == 0, "\(way): \(synced.text)")
    #expect(try laptop.todo("sync").status == 0)
    for box in [laptop, phone] {
      #expect(SyncSafetyTests.tasks(box) == ["call mom", "Submit timesheet week 48 +work"], "\(way)")
      let done = SyncTests.lines(box, "done.txt").filter { !$0.isEmpty }
      #expect(done == ["x 2009-02-13 2009-02-13 Submit timesheet week 49 +work"], "\(way)")
    }
  }

  /// Archived on both machines, and the laptop adds the same chore again: the new task stays.
  @Test(arguments: SyncPropertyTests.Way.allCases)
  func aTaskArchivedOnBothSidesLeavesTheLookAlikeAddedAfterIt(way: SyncPropertyTests.Way) throws {
    let net = try Network()
    let (laptop, phone) = (net.laptop, net.phone)
    try laptop.write("list/todo.txt", "2009-02-06 water the plants\n")
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("sync").status == 0)
    #expect(try laptop.todo("do", "1").status == 0)
    #expect(try laptop.todo("archive").status == 0)
    #expect(try laptop.todo("add", "water the plants").status == 0)
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("do", "1").status == 0)
    #expect(try phone.todo("archive").status == 0)
    let synced = try SyncSafetyTests.merge(phone, way)
    #expect(synced.status == 0, "\(way): \(synced.text)")
    #expect(try laptop.todo("sync").status == 0)
    for box in [laptop, phone] {
      #expect(SyncSafetyTests.tasks(box) == ["2009-02-13 water the plants"], "\(way)")
      let done = SyncTests.lines(box, "done.txt").filter { !$0.isEmpty }
      #expect(done == ["x 2009-02-13 2009-02-06 water the plants"], "\(way)")
    }
  }

  @Test func whileTheListHoldsMarkersCommandsRefuseToTakeThemForTasks() throws {
    let net = try Network()
    let (laptop, phone) = (net.laptop, net.phone)
    try laptop.write("list/todo.txt", "(C) plan trip\nbuy milk\n")
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("sync").status == 0)
    #expect(try laptop.todo("pri", "1", "A").status == 0)
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("pri", "1", "B").status == 0)
    #expect(try phone.todo("sync").status == 1)
    let marked = phone.read("list/todo.txt")
    #expect(marked.contains("<<<<<<< "))

    for arguments in [["ls"], ["do", "2"], ["pri", "1", "C"], ["del", "1"], ["archive"], ["add", "buy bread"], ["addm", "buy bread"]] {
      let run = try phone.run("todo", arguments)
      #expect(run.status == 1, "\(arguments)")
      #expect(run.stdout.isEmpty, "\(arguments): \(run.stdout)")
      #expect(run.stderr.contains("merge conflict") && run.stderr.contains("todo.txt"))
      #expect(run.stderr.split(separator: "\n").count == 1)
      #expect(phone.read("list/todo.txt") == marked)
    }
    // todo.sh knows nothing of merges: under that name the file is lines as ever.
    #expect(try phone.sh("ls").stdout.contains("<<<<<<< "))

    try phone.write("list/todo.txt", "(B) plan trip\nbuy milk\n")
    #expect(try phone.todo("ls").status == 0)
    #expect(try phone.todo("sync").status == 0)
  }

  // MARK: done.txt

  @Test(arguments: SyncPropertyTests.Way.allCases)
  func aTaskMovedBackFromDoneDoesNotComeBackDone(way: SyncPropertyTests.Way) throws {
    let net = try Network()
    let (laptop, phone) = (net.laptop, net.phone)
    try laptop.write("list/todo.txt", "call mom\n")
    try laptop.write("list/done.txt", "x 2009-02-10 file taxes\nx 2009-02-11 pay rent\n")
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("sync").status == 0)
    // The laptop reopens 'pay rent' by moving it back by hand; the phone archives a task.
    try laptop.write("list/todo.txt", "call mom\npay rent\n")
    try laptop.write("list/done.txt", "x 2009-02-10 file taxes\n")
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("do", "1").status == 0)
    #expect(try phone.todo("archive").status == 0)
    let synced = try SyncSafetyTests.merge(phone, way)
    #expect(synced.status == 0, "\(way): \(synced.text)")
    #expect(try laptop.todo("sync").status == 0)
    for box in [laptop, phone] {
      let done = SyncTests.lines(box, "done.txt").filter { !$0.isEmpty }
      #expect(done.count == 2, "\(done)")
      #expect(!done.contains { $0.contains("pay rent") })
      #expect(done.contains { $0.hasSuffix("call mom") })
      #expect(SyncSafetyTests.tasks(box) == ["pay rent"])
    }
  }

  @Test(arguments: SyncPropertyTests.Way.allCases)
  func oneTaskDoneAndArchivedOnBothMachinesIsInDoneOnce(way: SyncPropertyTests.Way) throws {
    let net = try Network()
    let (laptop, phone) = (net.laptop, net.phone)
    try laptop.write("list/todo.txt", "call mom\nwater plants\n")
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("sync").status == 0)
    #expect(try laptop.todo("do", "1").status == 0)
    #expect(try laptop.todo("archive").status == 0)
    #expect(try laptop.todo("sync").status == 0)
    let nextDay = ["TODO_TEST_TIME": "1234600000"]  // 2009-02-14
    #expect(try phone.todo("do", "1", environment: nextDay).status == 0)
    #expect(try phone.todo("archive", environment: nextDay).status == 0)
    let synced = try SyncSafetyTests.merge(phone, way)
    #expect(synced.status == 0, "\(way): \(synced.text)")
    #expect(try laptop.todo("sync").status == 0)
    for box in [laptop, phone] {
      let done = SyncTests.lines(box, "done.txt").filter { !$0.isEmpty }
      #expect(done == ["x 2009-02-13 call mom"], "\(done)")
    }
  }

  @Test(arguments: SyncPropertyTests.Way.allCases)
  func aRecurringTaskDoneOnBothMachinesIsOneCompletionWithOneNextTask(way: SyncPropertyTests.Way) throws {
    let net = try Network()
    let (laptop, phone) = (net.laptop, net.phone)
    try laptop.write("list/todo.txt", "water plants due:2009-02-13 rec:3d\n")
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("sync").status == 0)
    #expect(try laptop.todo("do", "1").status == 0)
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("do", "1", environment: ["TODO_TEST_TIME": "1234600000"]).status == 0)
    let synced = try SyncSafetyTests.merge(phone, way)
    #expect(synced.status == 0, "\(way): \(synced.text)")
    #expect(try laptop.todo("sync").status == 0)
    for box in [laptop, phone] {
      let tasks = SyncSafetyTests.tasks(box)
      #expect(tasks.count == 2, "\(tasks)")
      #expect(tasks.filter { $0.hasPrefix("x 2009-02-13 ") }.count == 1)
      #expect(tasks.filter { !$0.hasPrefix("x ") } == ["water plants due:2009-02-16 rec:3d"])
    }
  }

  @Test(arguments: SyncPropertyTests.Way.allCases)
  func aReorderSurvivesAnEditOnTheOtherMachine(way: SyncPropertyTests.Way) throws {
    let net = try Network()
    let (laptop, phone) = (net.laptop, net.phone)
    try laptop.write("list/todo.txt", "call mom\nbuy milk\nwater plants\nfix bike\n")
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("sync").status == 0)
    #expect(try laptop.todo("reorder", "4", "1").status == 0)
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("pri", "2", "A").status == 0)
    let synced = try SyncSafetyTests.merge(phone, way)
    #expect(synced.status == 0, "\(way): \(synced.text)")
    #expect(try laptop.todo("sync").status == 0)
    for box in [laptop, phone] {
      #expect(
        SyncSafetyTests.tasks(box) == ["fix bike", "call mom", "(A) buy milk", "water plants"])
    }
  }

  // MARK: What sync commits

  @Test func syncCommitsTheListsNotesAndAttachmentsAndNothingElse() throws {
    let net = try Network()
    let (laptop, phone) = (net.laptop, net.phone)
    try laptop.write("list/todo.txt", "call mom\n")
    try laptop.write("list/plans.md", "first draft\n")
    #expect(try laptop.todo("sync").status == 0)
    try SyncTests.git(laptop, ["add", "plans.md"])
    try SyncTests.git(laptop, ["commit", "-q", "-m", "plans"])
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("sync").status == 0)

    // A note, a half-written tracked file and a staged scratch file.
    try laptop.write("bin/fake-editor", "#!/bin/sh\necho 'ask about the trip' >> \"$1\"\n")
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o755], ofItemAtPath: laptop.path("bin/fake-editor"))
    let noted = try laptop.todo("note", "1", environment: ["EDITOR": "fake-editor", "VISUAL": ""])
    #expect(noted.status == 0, "\(noted.stderr)")
    let note = SyncTests.lines(laptop, "todo.txt")[0]
    #expect(note.contains("note:"))
    try laptop.write("list/plans.md", "first draft, half rewrit")
    try laptop.write("list/scratch.txt", "scratch\n")
    try SyncTests.git(laptop, ["add", "scratch.txt"])
    let synced = try laptop.todo("sync")
    #expect(synced.status == 0, "\(synced.stderr)")
    #expect(try phone.todo("sync").status == 0)

    #expect(SyncTests.lines(phone, "todo.txt")[0] == note)
    let notes = try FileManager.default.contentsOfDirectory(atPath: phone.path("list/notes"))
    #expect(notes.count == 1)
    #expect(phone.read("list/plans.md") == "first draft\n")
    #expect(!phone.exists("list/scratch.txt"))
    // Still staged here, for the user to commit or not.
    #expect(try SyncTests.git(laptop, ["diff", "--cached", "--name-only"]) == "scratch.txt\n")
    // The store's lock files never show.
    let status = try SyncTests.git(laptop, ["status", "--porcelain", "--ignored=no"])
    #expect(!status.contains(".lock"), "\(status)")
  }

  @Test func clonesOnMasterAndMainMeetOnOneBranch() throws {
    let net = try Network()
    let (laptop, phone) = (net.laptop, net.phone)
    try SyncTests.git(laptop, ["checkout", "-q", "-B", "master"])
    try laptop.write("list/todo.txt", "call mom\n")
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("add", "buy milk").status == 0)
    let first = try phone.todo("sync")
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains("origin/master"), "\(first.stdout)")
    #expect(try laptop.todo("sync").status == 0)
    for box in [laptop, phone] {
      #expect(Set(SyncSafetyTests.tasks(box)) == ["call mom", "2009-02-13 buy milk"])
    }
  }

  @Test(arguments: SyncPropertyTests.Way.allCases)
  func archivedOnOneMachineAndDoneOnTheOtherIsDoneOnceWithoutConflict(way: SyncPropertyTests.Way) throws {
    let net = try Network()
    let (laptop, phone) = (net.laptop, net.phone)
    try laptop.write("list/todo.txt", "call mom\nbuy milk\n")
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("sync").status == 0)
    #expect(try laptop.todo("do", "1").status == 0)
    #expect(try laptop.todo("archive").status == 0)
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("do", "1").status == 0)
    let synced = try SyncSafetyTests.merge(phone, way)
    #expect(synced.status == 0, "\(way): \(synced.text)")
    #expect(try laptop.todo("sync").status == 0)
    for box in [laptop, phone] {
      #expect(SyncSafetyTests.tasks(box) == ["buy milk"])
      #expect(SyncTests.lines(box, "done.txt").filter { !$0.isEmpty } == ["x 2009-02-13 call mom"])
    }
  }

  /// .gitattributes travels with the repository, the drivers it names do not: a clone that
  /// only ran `git pull` merges the lists line by line, and `doctor` says so.
  @Test func doctorNamesACloneWhoseMergeDriversAreMissingOrMoved() throws {
    let net = try Network()
    let (laptop, phone) = (net.laptop, net.phone)
    try laptop.write("list/todo.txt", "call mom\n")
    #expect(try laptop.todo("sync").status == 0)
    try SyncTests.git(phone, ["pull", "-q", "origin", "main"])
    #expect(phone.read("list/.gitattributes").contains("merge=todotxt"))

    let missing = try phone.todo("doctor")
    #expect(missing.status == 1)
    let lines = missing.stdout.split(separator: "\n")
    #expect(lines.filter { $0.hasPrefix("git: ") && $0.contains("does not define") }.count == 2, "\(missing.stdout)")
    #expect(missing.stdout.contains("run 'todo git-setup'"))

    #expect(try phone.todo("git-setup").status == 0)
    let fine = try phone.todo("doctor")
    #expect(fine.status == 0, "\(fine.stdout)")

    // A program found in PATH is there; a file that cannot run is not.
    try SyncTests.git(phone, ["config", "merge.todotxt.driver", "true %A"])
    #expect(try phone.todo("doctor").status == 0)
    try SyncTests.git(phone, ["config", "merge.todotxt.driver", "/etc/passwd %A"])
    #expect(try phone.todo("doctor").stdout.contains("runs /etc/passwd, which is not there or cannot run"))

    // The program the driver runs moved away (a reinstall elsewhere).
    try SyncTests.git(phone, ["config", "merge.todotxt.driver", "'/nowhere/it'\\''s/todo' merge %O %A %B"])
    let moved = try phone.todo("doctor")
    #expect(moved.status == 1)
    #expect(moved.stdout.contains("git: the merge driver todotxt runs /nowhere/it's/todo, which is not there or cannot run"), "\(moved.stdout)")
    #expect(try phone.todo("git-setup").status == 0)
    #expect(try phone.todo("doctor").status == 0)

    // Attributes git reads besides the top .gitattributes override it: doctor asks git.
    try phone.write("list/.git/info/attributes", "todo.txt -merge\ndone.txt merge=union\n")
    let overridden = try phone.todo("doctor")
    #expect(overridden.status == 1)
    #expect(overridden.stdout.contains("git: todo.txt is marked -merge, so git leaves both versions for you to pick"), "\(overridden.stdout)")
    #expect(overridden.stdout.contains("git: done.txt is merged with the driver union, not task by task"), "\(overridden.stdout)")
    try phone.write("list/.git/info/attributes", "")
    #expect(try phone.todo("doctor").status == 0)
  }
}

typealias Network = SyncTests.Network
