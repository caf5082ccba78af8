import Foundation
import Testing

/// `sync`, `merge`, `git-setup` and `conflicts` with real git: two machines (two homes, each
/// with a clone) and a bare repository between them, all in temporary directories.
@Suite("Sync")
struct SyncTests {
  /// Two machines sharing one bare repository.
  final class Network: @unchecked Sendable {
    let root: URL
    let remote: URL
    let laptop: Sandbox
    let phone: Sandbox

    init() throws {
      root = FileManager.default.temporaryDirectory.appendingPathComponent(
        "todo-sync-\(UUID().uuidString)")
      remote = root.appendingPathComponent("remote.git")
      try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
      laptop = try Sandbox(config: "export TODO_DIR=\"$HOME/list\"\n")
      phone = try Sandbox(config: "export TODO_DIR=\"$HOME/list\"\n")
      for box in [laptop, phone] { box.environment["GIT_CONFIG_NOSYSTEM"] = "1" }
      try SyncTests.git(laptop, ["init", "-q", "--bare", "-b", "main", remote.path], in: root)
      for (box, name) in [(laptop, "laptop"), (phone, "phone")] {
        try SyncTests.git(box, ["clone", "-q", remote.path, box.path("list")], in: root)
        try SyncTests.git(box, ["checkout", "-q", "-B", "main"])
        try SyncTests.git(box, ["config", "user.name", name])
        try SyncTests.git(box, ["config", "user.email", "\(name)@example.com"])
      }
    }

    deinit { try? FileManager.default.removeItem(at: root) }
  }

  /// Runs git in a machine's todo directory (or in `directory`) and returns its output.
  @discardableResult
  static func git(_ box: Sandbox, _ arguments: [String], in directory: URL? = nil) throws -> String
  {
    let (status, text) = try SyncSafetyTests.gitStatus(box, arguments, in: directory)
    #expect(status == 0, "git \(arguments.joined(separator: " ")): \(text)")
    return text
  }

  static func lines(_ box: Sandbox, _ name: String) -> [String] {
    box.read("list/" + name).split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
  }

  // MARK: sync

  @Test func concurrentEditsOfEveryKindEndTheSameOnBothMachines() throws {
    let net = try Network()
    let (laptop, phone) = (net.laptop, net.phone)
    try laptop.write(
      "list/todo.txt",
      """
      (A) call mom +family
      buy milk @store
      water plants
      (B) plan trip +travel due:2026-05-01
      fix bike
      read book

      """)
    try laptop.write("list/done.txt", "x 2009-01-01 file taxes\n")
    let first = try laptop.todo("sync")
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains("Committed: "))
    #expect(try phone.todo("sync").status == 0)
    #expect(phone.read("list/todo.txt") == laptop.read("list/todo.txt"))

    // The laptop: complete, add, delete, reprioritise, edit text, a line in done.txt.
    #expect(try laptop.todo("do", "1").status == 0)
    #expect(try laptop.todo("add", "new from the laptop").status == 0)
    #expect(try laptop.todo("-f", "del", "5").status == 0)
    #expect(try laptop.todo("pri", "4", "A").status == 0)
    #expect(try laptop.todo("append", "6", "chapter 3").status == 0)
    try laptop.write(
      "list/done.txt", laptop.read("list/done.txt") + "x 2009-02-13 renew passport\n")
    // The phone, at the same time: edit the task the laptop completed, add, reprioritise
    // another, change a tag, complete and archive one.
    #expect(try phone.todo("append", "1", "tonight").status == 0)
    #expect(try phone.todo("add", "new from the phone").status == 0)
    #expect(try phone.todo("pri", "2", "C").status == 0)
    #expect(try phone.todo("tag", "4", "due", "2026-06-01").status == 0)
    #expect(try phone.todo("do", "3").status == 0)
    #expect(try phone.todo("archive").status == 0)

    let fromLaptop = try laptop.todo("sync")
    #expect(fromLaptop.status == 0, "\(fromLaptop.stderr)")
    let fromPhone = try phone.todo("sync")
    #expect(fromPhone.status == 0, "\(fromPhone.stderr)")
    #expect(fromPhone.stdout.contains("Synced with origin/main: sent "))
    let back = try laptop.todo("sync")
    #expect(back.status == 0, "\(back.stderr)")
    #expect(try laptop.todo("sync").stdout.contains("Already in sync"))

    #expect(laptop.read("list/todo.txt") == phone.read("list/todo.txt"))
    #expect(laptop.read("list/done.txt") == phone.read("list/done.txt"))
    let todo = SyncTests.lines(laptop, "todo.txt")
    #expect(
      todo.contains { $0.hasPrefix("x 2009-02-13 ") && $0.contains("call mom +family tonight") })
    #expect(todo.contains("(C) buy milk @store"))
    #expect(todo.contains("(A) plan trip +travel due:2026-06-01"))
    #expect(!todo.contains { $0.contains("fix bike") })
    #expect(!todo.contains { $0.contains("water plants") })
    #expect(todo.contains("read book chapter 3"))
    #expect(todo.contains { $0.hasSuffix("new from the laptop") })
    #expect(todo.contains { $0.hasSuffix("new from the phone") })
    let done = SyncTests.lines(laptop, "done.txt")
    #expect(done.contains("x 2009-01-01 file taxes"))
    #expect(done.contains("x 2009-02-13 renew passport"))
    #expect(done.contains { $0.hasPrefix("x 2009-02-13 ") && $0.contains("water plants") })
    #expect(done.filter { $0.contains("file taxes") }.count == 1)
  }

  /// A project and a context renamed over many tasks on one machine (as an editor's search
  /// and replace does), tasks completed, prioritised and tagged on the other: the rename
  /// changes nothing but that name, so each task is still the same task and both changes
  /// are kept, whichever machine merges.
  @Test(arguments: [true, false])
  func aRenamedProjectMergesWithChangesOfItsTasks(_ renamingFirst: Bool) throws {
    let net = try Network()
    let (laptop, phone) = (net.laptop, net.phone)
    try laptop.write(
      "list/todo.txt",
      "fix bike +Home\npaint fence +Home @garden\ncall plumber +Home @phone\nwater plants @garden\nbuy milk\n")
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("sync").status == 0)
    try laptop.write(
      "list/todo.txt",
      laptop.read("list/todo.txt").replacingOccurrences(of: "+Home", with: "+House")
        .replacingOccurrences(of: "@garden", with: "@yard"))
    #expect(try phone.todo("do", "1").status == 0)
    #expect(try phone.todo("pri", "2", "A").status == 0)
    #expect(try phone.todo("tag", "3", "due", "2026-05-01").status == 0)
    #expect(try phone.todo("do", "4").status == 0)
    for box in renamingFirst ? [laptop, phone, laptop] : [phone, laptop, phone] {
      let run = try box.todo("sync")
      #expect(run.status == 0, "\(run.stderr)")
    }
    for box in [laptop, phone] {
      #expect(
        SyncTests.lines(box, "todo.txt") == [
          "x 2009-02-13 fix bike +House", "(A) paint fence +House @yard", "call plumber +House @phone due:2026-05-01",
          "x 2009-02-13 water plants @yard", "buy milk", "",
        ])
    }
  }

  @Test func aConflictWaitsForTheUserAndTheNextSyncFinishesIt() throws {
    let net = try Network()
    let (laptop, phone) = (net.laptop, net.phone)
    try laptop.write("list/todo.txt", "(C) plan trip\nbuy milk\n")
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("sync").status == 0)
    #expect(try laptop.todo("pri", "1", "A").status == 0)
    #expect(try phone.todo("pri", "1", "B").status == 0)
    #expect(try phone.todo("add", "pack bags").status == 0)
    #expect(try laptop.todo("sync").status == 0)

    let conflicted = try phone.todo("sync")
    #expect(conflicted.status == 1)
    #expect(conflicted.stderr.contains("todo.txt changed on both sides"))
    #expect(conflicted.stderr.split(separator: "\n").count == 1)
    let marked = SyncTests.lines(phone, "todo.txt")
    #expect(
      marked.contains("<<<<<<< ours") && marked.contains("(A) plan trip")
        && marked.contains("(B) plan trip"))
    #expect(marked.contains { $0.hasSuffix("pack bags") })
    // Still conflicted: sync refuses again, and changes nothing.
    #expect(try phone.todo("sync").status == 1)

    let settled = marked.filter {
      !$0.hasPrefix("<<<<<<<") && !$0.hasPrefix("=======") && !$0.hasPrefix(">>>>>>>")
    }
    .filter { $0 != "(A) plan trip" }
    try phone.write("list/todo.txt", settled.joined(separator: "\n"))
    let finished = try phone.todo("sync")
    #expect(finished.status == 0, "\(finished.stderr)")
    #expect(try laptop.todo("sync").status == 0)
    #expect(laptop.read("list/todo.txt") == phone.read("list/todo.txt"))
    #expect(SyncTests.lines(laptop, "todo.txt").contains("(B) plan trip"))
  }

  /// Two machines write a note for two tasks of the same words: each note keeps a name of its
  /// own, so after syncing each task still links to its own note, and sync needs nobody.
  @Test func notesOfTasksWithTheSameWordsKeepTheirOwnFiles() throws {
    let net = try Network()
    let (laptop, phone) = (net.laptop, net.phone)
    try laptop.write("list/todo.txt", "pay rent\n")
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("sync").status == 0)
    for (box, task, text) in [(laptop, "Call mom +family", "ask about the trip"), (phone, "Call mom @phone", "her birthday")] {
      #expect(try box.todo("add", task).status == 0)
      #expect(try box.todo("note", "2", text).status == 0)
    }
    let laptopNote = laptop.noteName("call-mom", in: "list/notes")
    let phoneNote = phone.noteName("call-mom", in: "list/notes")
    #expect(laptopNote != phoneNote)
    for box in [laptop, phone, laptop] {
      let run = try box.todo("sync")
      #expect(run.status == 0, "\(run.stderr)")
    }
    for box in [laptop, phone] {
      let tasks = SyncTests.lines(box, "todo.txt")
      #expect(tasks.contains("2009-02-13 Call mom +family note:\(laptopNote)"), "\(tasks)")
      #expect(tasks.contains("2009-02-13 Call mom @phone note:\(phoneNote)"), "\(tasks)")
      #expect(box.names(in: "list/notes") == [laptopNote, phoneNote].sorted())
      #expect(box.read("list/notes/\(laptopNote)") == "ask about the trip\n")
      #expect(box.read("list/notes/\(phoneNote)") == "her birthday\n")
    }
  }

  /// A note both machines rewrote: `resolve` settles todo.txt and done.txt only, so the
  /// message says to settle the note's marker lines, never to run `resolve`; doing what it
  /// says lets the next sync finish.
  @Test func aNoteChangedOnBothSidesIsSettledAsTheMessageSays() throws {
    let net = try Network()
    let (laptop, phone) = (net.laptop, net.phone)
    try laptop.write("list/todo.txt", "call mom\n")
    #expect(try laptop.todo("note", "1", "ask about the trip").status == 0)
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("sync").status == 0)
    let note = laptop.noteName("call-mom", in: "list/notes")
    #expect(try laptop.todo("note", "1", "--replace", "from the laptop").status == 0)
    #expect(try phone.todo("note", "1", "--replace", "from the phone").status == 0)
    #expect(try laptop.todo("sync").status == 0)
    let run = try phone.todo("sync")
    #expect(run.status == 1)
    #expect(
      run.stderr == "todo: notes/\(note) changed on both sides in ways that need you: "
        + "keep the right lines of notes/\(note) between <<<<<<< and >>>>>>> and remove the markers, "
        + "then run 'todo sync' again\n")
    #expect(try phone.todo("resolve").stdout.hasPrefix("No merge conflicts"))
    let marked = phone.read("list/notes/\(note)")
    #expect(marked.contains("<<<<<<< ") && marked.contains("from the laptop") && marked.contains("from the phone"))
    try phone.write("list/notes/\(note)", "from the phone\n")
    let finished = try phone.todo("sync")
    #expect(finished.status == 0, "\(finished.stderr)")
    #expect(try laptop.todo("sync").status == 0)
    #expect(laptop.read("list/notes/\(note)") == "from the phone\n")
  }

  /// An attachment both machines replaced has no lines to pick: the message names the git
  /// commands that keep one version, and with them the next sync finishes. A list conflict
  /// in the same merge is still sent to `resolve`.
  @Test(arguments: ["--ours", "--theirs"])
  func anAttachmentChangedOnBothSidesIsSettledAsTheMessageSays(_ side: String) throws {
    let net = try Network()
    let (laptop, phone) = (net.laptop, net.phone)
    try laptop.write("list/todo.txt", "(C) fix the fence\n")
    try laptop.write("photo.png", bytes: [0x89, 0x50, 0x4E, 0x47, 0, 1])
    #expect(try laptop.todo("attach", "1", laptop.path("photo.png")).status == 0)
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("sync").status == 0)
    #expect(laptop.names(in: "list/attachments") == ["photo.png"])
    try laptop.write("list/attachments/photo.png", bytes: [0x89, 0x50, 0x4E, 0x47, 0, 2])
    try phone.write("list/attachments/photo.png", bytes: [0x89, 0x50, 0x4E, 0x47, 0, 3])
    #expect(try laptop.todo("pri", "1", "A").status == 0)
    #expect(try phone.todo("pri", "1", "B").status == 0)
    #expect(try laptop.todo("sync").status == 0)
    let run = try phone.todo("sync")
    #expect(run.status == 1)
    let top = URL(fileURLWithPath: phone.path("list")).resolvingSymlinksInPath().path
    #expect(
      run.stderr == "todo: attachments/photo.png, todo.txt changed on both sides in ways that need you: "
        + "keep the right lines of todo.txt between <<<<<<< and >>>>>>> and remove the markers (or run 'todo resolve'); "
        + "attachments/photo.png has no lines to pick: keep one version with "
        + "'git checkout --ours -- attachments/photo.png' (or --theirs) and 'git add attachments/photo.png' in \(top), "
        + "then run 'todo sync' again\n")
    #expect(try phone.todo("resolve", "theirs").status == 0)
    try SyncTests.git(phone, ["checkout", side, "--", "attachments/photo.png"])
    try SyncTests.git(phone, ["add", "attachments/photo.png"])
    let finished = try phone.todo("sync")
    #expect(finished.status == 0, "\(finished.stderr)")
    #expect(try laptop.todo("sync").status == 0)
    let kept: UInt8 = side == "--ours" ? 3 : 2
    for box in [laptop, phone] {
      #expect(box.bytes("list/attachments/photo.png") == [0x89, 0x50, 0x4E, 0x47, 0, kept])
      #expect(SyncTests.lines(box, "todo.txt") == ["(A) fix the fence att:photo.png", ""])
    }
  }

  @Test func offlineKeepsTheLocalCommit() throws {
    let net = try Network()
    let laptop = net.laptop
    try laptop.write("list/todo.txt", "call mom\n")
    #expect(try laptop.todo("sync").status == 0)
    try SyncTests.git(
      laptop, ["remote", "set-url", "origin", net.root.appendingPathComponent("gone.git").path])
    #expect(try laptop.todo("add", "written offline").status == 0)
    let offline = try laptop.todo("sync")
    #expect(offline.status == 1)
    #expect(offline.stderr.hasPrefix("todo: cannot reach 'origin'"))
    #expect(offline.stderr.split(separator: "\n").count == 1)
    #expect(try SyncTests.git(laptop, ["status", "--porcelain", "--", "todo.txt"]).isEmpty)
    #expect(try SyncTests.git(laptop, ["log", "-1", "--format=%s"]).contains("todo.txt +1 -0"))
    // Back online, the commit goes out.
    try SyncTests.git(laptop, ["remote", "set-url", "origin", net.remote.path])
    let online = try laptop.todo("sync")
    #expect(online.status == 0)
    #expect(online.stdout.contains("sent 1 commit"))
  }

  @Test func aConflictedCopyBesideTheListIsNamedAfterSync() throws {
    let net = try Network()
    let laptop = net.laptop
    try laptop.write("list/todo.txt", "call mom\n")
    #expect(try laptop.todo("sync").stderr == "")
    // A file-syncing service on the same folder left a copy git does not know.
    try laptop.write("list/todo.sync-conflict-20261203-101010-ABCDEFG.txt", "call mom\nfrom the phone\n")
    let run = try laptop.todo("sync")
    #expect(run.status == 0)
    #expect(run.stderr.contains("'todo.sync-conflict-20261203-101010-ABCDEFG.txt' is a conflicted copy"), "\(run.stderr)")
    #expect(run.stderr.contains("'todo conflicts' merges them"))
  }

  @Test func syncOutsideARepositoryOrWithoutRemoteSaysSo() throws {
    let box = try Sandbox(config: "export TODO_DIR=\"$HOME/list\"\n")
    box.environment["GIT_CONFIG_NOSYSTEM"] = "1"
    try box.write("list/todo.txt", "a task\n")
    let outside = try box.todo("sync")
    #expect(outside.status == 1)
    #expect(outside.stderr.contains("is not in a git repository"))
    try SyncTests.git(box, ["init", "-q", "-b", "main"])
    try SyncTests.git(box, ["config", "user.name", "x"])
    try SyncTests.git(box, ["config", "user.email", "x@example.com"])
    let alone = try box.todo("sync")
    #expect(alone.status == 1)
    #expect(alone.stderr.contains("has no remote to sync with"))
    #expect(try SyncTests.git(box, ["log", "-1", "--format=%s"]).contains("todo.txt +1 -0"))
  }

  // MARK: git-setup and merge

  @Test func gitSetupRegistersTheDriversOnce() throws {
    let net = try Network()
    let laptop = net.laptop
    let setup = try laptop.todo("git-setup")
    #expect(setup.status == 0)
    #expect(setup.stdout.contains("Registered"))
    #expect(
      laptop.read("list/.gitattributes")
        == "/todo.txt merge=todotxt\n/done.txt merge=todotxt-done\n")
    let driver = try SyncTests.git(laptop, ["config", "merge.todotxt.driver"])
    // With both lists' paths, to merge them as one list.
    #expect(
      driver.hasSuffix(" merge --todo-file 'todo.txt' --done-file 'done.txt' --path %P %O %A %B\n")
        && driver.hasPrefix("'/"))
    // done.txt is merged three-way as well, not as a union.
    #expect(try SyncTests.git(laptop, ["config", "merge.todotxt-done.driver"]) == driver)
    #expect(try laptop.todo("git-setup").stdout.contains("already registered"))
    #expect(laptop.read("list/.gitattributes").split(separator: "\n").count == 2)
  }

  @Test func theDriverOutsideAMergeItCanVerifyMergesTheOneFileAlone() throws {
    let box = try Sandbox()
    try box.write("base.txt", "Submit timesheet week 48 +work\n")
    try box.write("theirs.txt", "x 2026-03-01 Submit timesheet week 48 +work\n")
    for name in ["plain.txt", "paired.txt"] {
      try box.write(name, "2026-03-01 Submit timesheet week 49 +work\n")
    }
    let plain = try box.todo("merge", box.path("base.txt"), box.path("plain.txt"), box.path("theirs.txt"))
    // No git merge runs here, so the commits cannot be found: the same conservative merge.
    let paired = try box.run(
      "todo",
      ["merge", "--todo-file", "todo.txt", "--done-file", "done.txt", "--path", "todo.txt",
       box.path("base.txt"), box.path("paired.txt"), box.path("theirs.txt")])
    #expect(plain.status == 1 && paired.status == 1)
    #expect(box.read("paired.txt") == box.read("plain.txt"))
    #expect(box.read("paired.txt").contains("<<<<<<< ours"))
  }

  @Test func mergeWritesOursAndExitsOneOnConflict() throws {
    let box = try Sandbox()
    try box.write("base.txt", "(A) call mom\nbuy milk\n")
    try box.write(
      "ours.txt", bytes: Array("\u{FEFF}x 2026-03-01 call mom pri:A\r\nbuy milk\r\n".utf8))
    try box.write("theirs.txt", "(A) call mom tonight\nbuy milk\nnew\n")
    let clean = try box.todo(
      "merge", box.path("base.txt"), box.path("ours.txt"), box.path("theirs.txt"))
    #expect(clean.status == 0)
    #expect(
      box.bytes("ours.txt")
        == Array("\u{FEFF}x 2026-03-01 call mom tonight pri:A\r\nbuy milk\r\nnew\r\n".utf8))

    try box.write("ours.txt", "(B) call mom\n")
    try box.write("theirs.txt", "(C) call mom\n")
    let conflict = try box.todo(
      "merge", box.path("base.txt"), box.path("ours.txt"), box.path("theirs.txt"))
    #expect(conflict.status == 1)
    #expect(conflict.stderr.contains("1 task changed on both sides"))
    #expect(
      box.read("ours.txt") == "<<<<<<< ours\n(B) call mom\n=======\n(C) call mom\n>>>>>>> theirs\n")

    try box.write("ours.txt", "x 2026-01-01 a\n")
    try box.write("theirs.txt", "x 2026-01-02 b\nx 2026-01-01 a\n")
    let union = try box.todo(
      "merge", "--union", box.path("base.txt"), box.path("ours.txt"), box.path("theirs.txt"))
    #expect(union.status == 0)
    #expect(box.read("ours.txt") == "x 2026-01-02 b\nx 2026-01-01 a\n")

    #expect(try box.todo("merge", box.path("base.txt")).stderr.hasPrefix("usage: todo merge"))
    #expect(try box.todo("merge", "a", "b", "c").stderr == "todo: cannot read a\n")
  }

  /// An empty file cannot be mapped (see `Posix.mapLines`): it is read, and merges as any
  /// other version does.
  @Test func mergeTakesEmptyVersions() throws {
    let box = try Sandbox()
    try box.write("base.txt", "")
    try box.write("ours.txt", "call mom\n")
    try box.write("theirs.txt", "buy milk\n")
    let bothAdded = try box.todo(
      "merge", box.path("base.txt"), box.path("ours.txt"), box.path("theirs.txt"))
    #expect(bothAdded.status == 0)
    // Their task follows nothing there: it goes first, after the tasks only we added.
    #expect(box.read("ours.txt") == "call mom\nbuy milk\n")

    try box.write("ours.txt", "")
    let intoEmpty = try box.todo(
      "merge", box.path("base.txt"), box.path("ours.txt"), box.path("theirs.txt"))
    #expect(intoEmpty.status == 0)
    #expect(box.read("ours.txt") == "buy milk\n")
  }

  // MARK: conflicts

  @Test func conflictedCopiesAreMergedAndMovedAside() throws {
    let box = try Sandbox()
    #expect(try box.todo("add", "call mom").status == 0)
    #expect(try box.todo("add", "buy milk").status == 0)
    #expect(try box.todo("add", "water plants").status == 0)
    // Here: buy milk deleted, call mom completed. The copies were made from the three tasks.
    #expect(try box.todo("-f", "del", "2").status == 0)
    #expect(try box.todo("do", "1").status == 0)
    try box.write(
      "todo (conflicted copy 2009-02-13).txt",
      "2009-02-13 call mom\n2009-02-13 buy milk\n2009-02-13 water plants @garden\nfrom dropbox\n")
    try box.write(
      "todo.sync-conflict-20090213-101500-ABCDEFG.txt",
      "2009-02-13 call mom\n2009-02-13 buy milk\n2009-02-13 water plants\nfrom syncthing\n")
    try box.write("done.txt", "x 2009-01-01 old\n")
    try box.write(
      "done (Sam's conflicted copy 2009-02-13).txt", "x 2009-01-01 old\nx 2009-02-12 on the phone\n"
    )
    try box.write("todo (notes).txt", "not a conflicted copy\n")

    let run = try box.todo("conflicts")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.components(separatedBy: "Merged '").count == 4)
    let todo = box.read("todo.txt").split(separator: "\n").map(String.init)
    #expect(todo.contains { $0.hasPrefix("x 2009-02-13 ") && $0.hasSuffix("call mom") })
    #expect(!todo.contains { $0.contains("buy milk") })
    #expect(todo.contains("2009-02-13 water plants @garden"))
    #expect(todo.contains("from dropbox") && todo.contains("from syncthing"))
    #expect(box.read("done.txt") == "x 2009-01-01 old\nx 2009-02-12 on the phone\n")
    #expect(!box.exists("todo (conflicted copy 2009-02-13).txt"))
    #expect(box.exists(".todo-conflicts/todo (conflicted copy 2009-02-13).txt"))
    #expect(box.exists(".todo-conflicts/todo.sync-conflict-20090213-101500-ABCDEFG.txt"))
    #expect(box.exists("todo (notes).txt"))

    #expect(try box.todo("conflicts").stdout == "TODO: No conflicted copies found.\n")
    // The merge is one change in the undo log.
    #expect(try box.todo("log").stdout.contains("conflicts todo (conflicted copy 2009-02-13).txt"))
  }

  @Test func withoutHistoryTasksOnOneSideAreKept() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "(A) call mom\nbuy milk\n")
    try box.write(
      "todo (conflicted copy 2009-02-13).txt", "x 2009-02-12 call mom pri:A\nwater plants\n")
    let run = try box.todo("conflicts")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(box.read("todo.txt") == "x 2009-02-12 call mom pri:A\nbuy milk\nwater plants\n")
  }
}
