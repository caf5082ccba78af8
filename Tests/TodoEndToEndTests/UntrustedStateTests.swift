import Foundation
import Testing

/// What a todo directory holds may have been written by someone else (a sync peer, a
/// collaborator's push): the tool replays only what it wrote itself, only onto the list's own
/// files, and its records of changes work for files of any size.
@Suite(.serialized) struct UntrustedStateTests {
  static let todo = "a\nx 2009-02-01 b\nc\nx 2009-02-02 d\n"

  /// An archive killed between its renames by another user's tool (another key): its journal
  /// lands in the shared directory. Returns the journal's bytes.
  func plantJournal(_ sandbox: Sandbox) throws -> [UInt8] {
    try sandbox.write("todo.txt", UntrustedStateTests.todo)
    try sandbox.write("done.txt", "")
    let run = try sandbox.todo(
      "archive",
      environment: ["XDG_STATE_HOME": sandbox.path("peer"), "TODO_FAULT": "rename:KILL@4"])
    #expect(run.status == 128 + SIGKILL || run.status == SIGKILL)
    let journal = sandbox.bytes(".todo.txt.journal")
    #expect(!journal.isEmpty)
    return journal
  }

  /// `todo ls`, `todo.sh lsa` and `todo add` leave a journal sealed by another key where it
  /// is, warn once per journal on stderr, and replay none of it.
  @Test func journalFromAnotherUserIsNeverReplayed() throws {
    for command in [["ls"], ["lsa"], ["add", "e"]] {
      let sandbox = try Sandbox()
      let journal = try plantJournal(sandbox)
      let todoBefore = sandbox.bytes("todo.txt")
      let doneBefore = sandbox.bytes("done.txt")
      let run = try (command == ["lsa"] ? sandbox.run("todo.sh", command) : sandbox.run("todo", command))
      #expect(run.status == 0, "\(command): \(run.stderr)")
      let warnings = run.stderr.split(separator: "\n").filter { $0.contains("left in place, unreplayed") }
      // One line per journal met (lsa also reads done.txt, beside which lies the other copy).
      #expect(!warnings.isEmpty && Set(warnings).count == warnings.count, "\(command): \(run.stderr)")
      #expect(warnings.count == (command == ["lsa"] ? 2 : 1), "\(command): \(run.stderr)")
      #expect(sandbox.bytes(".todo.txt.journal") == journal)
      #expect(sandbox.bytes("done.txt") == doneBefore)
      if command[0] != "add" { #expect(sandbox.bytes("todo.txt") == todoBefore) }
    }
  }

  /// A journal copied onto a file that is not the list's (the key's owner wrote it, for
  /// another directory): even sealed correctly, it is not replayed here.
  @Test func journalOfAnotherDirectoryIsNotReplayed() throws {
    let sandbox = try Sandbox()
    try FileManager.default.createDirectory(atPath: sandbox.path("other"), withIntermediateDirectories: true)
    try sandbox.write("other/todo.cfg", "export TODO_DIR=\"$HOME/other\"\n")
    try sandbox.write("other/todo.txt", UntrustedStateTests.todo)
    try sandbox.write("other/done.txt", "")
    let run = try sandbox.todo("-d", sandbox.path("other/todo.cfg"), "archive", environment: ["TODO_FAULT": "rename:KILL@4"])
    #expect(run.status != 0)
    try sandbox.write("todo.txt", "mine\n")
    try sandbox.write(".todo.txt.journal", bytes: sandbox.bytes("other/.todo.txt.journal"))
    let ls = try sandbox.todo("ls")
    #expect(ls.stderr.contains("left in place, unreplayed"))
    #expect(sandbox.read("todo.txt") == "mine\n")
    #expect(sandbox.read("other/todo.txt") == UntrustedStateTests.todo)
  }

  /// The user's own interrupted archive is still finished by the next command.
  @Test func ownJournalIsFinished() throws {
    let sandbox = try Sandbox()
    try sandbox.write("todo.txt", UntrustedStateTests.todo)
    try sandbox.write("done.txt", "")
    _ = try sandbox.todo("archive", environment: ["TODO_FAULT": "rename:KILL@4"])
    let run = try sandbox.todo("ls")
    // No warning: only the listing's summary, which a pipe gets on standard error.
    #expect(run.stderr == "--\nTODO: 2 of 2 tasks shown\n")
    #expect(sandbox.read("todo.txt") == "a\nc\n")
    #expect(sandbox.read("done.txt") == "x 2009-02-01 b\nx 2009-02-02 d\n")
    #expect(!sandbox.exists(".todo.txt.journal"))
  }

  /// A file of `count` lines, every tenth done.
  static func bigList(_ count: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count * 24)
    for index in 1...count {
      if index % 10 == 0 { bytes += Array("x 2009-02-01 ".utf8) }
      bytes += Array("task \(index) +p @c\n".utf8)
    }
    return bytes
  }

  /// Undo keeps working past 2^20 lines: `pri 5 A` then `undo` on 2,000,000 lines restores
  /// the file byte for byte.
  @Test func undoWorksAtTwoMillionLines() throws {
    let sandbox = try Sandbox()
    let original = UntrustedStateTests.bigList(2_000_000)
    try sandbox.write("todo.txt", bytes: original)
    let pri = try sandbox.todo("pri", "5", "A")
    #expect(pri.status == 0, "\(pri.stderr)")
    #expect(sandbox.bytes("todo.txt") != original)
    let undo = try sandbox.todo("undo")
    #expect(undo.status == 0, "\(undo.stderr)")
    #expect(sandbox.bytes("todo.txt") == original)
  }

  /// An archive of 110,000 done tasks out of 1,100,000 lines killed at its renames (the
  /// second: journal written, primary not yet; the fourth: done.txt replaced, todo.txt not
  /// yet — the two sides of the journal's commit point; each run takes seconds at this size):
  /// the next command leaves every task in exactly one of the two files.
  @Test func archiveKilledAtEveryRenameOfAMillionLinesLosesNothing() throws {
    let original = UntrustedStateTests.bigList(1_100_000)
    let lines = Set(original.split(separator: 0x0A).map { Array($0) })
    for n in [2, 4] {
      let sandbox = try Sandbox()
      try sandbox.write("todo.txt", bytes: original)
      try sandbox.write("done.txt", "")
      let run = try sandbox.todo("archive", environment: ["TODO_FAULT": "rename:KILL@\(n)"])
      #expect(run.status != 0, "rename \(n) was reached")
      #expect(try sandbox.todo("ls", "-q", "nothing-matches").status == 0)
      let todo = sandbox.bytes("todo.txt").split(separator: 0x0A).map { Array($0) }
      let done = sandbox.bytes("done.txt").split(separator: 0x0A).map { Array($0) }
      #expect(todo.count + done.count == lines.count, "killed at rename \(n)")
      #expect(Set(todo).union(done) == lines, "killed at rename \(n)")
      // Renames 3 and 4 come after the journal's primary is written: the archive is finished.
      #expect(done.count == (n >= 3 ? 110_000 : 0), "killed at rename \(n)")
    }
  }
}

/// A `resolve` killed at each rename of a two-million-line list: once its journal is in
/// place, the next command of any kind finishes it (the marker lines the files still held are
/// no reason to leave a journalled change); before, nothing of it happened and the conflict
/// is still there to settle.
@Suite struct KilledResolveTests {
  @Test func aKilledResolveIsFinishedByTheNextCommand() throws {
    var todo = UntrustedStateTests.bigList(2_000_000)
    todo += Array("<<<<<<< ours\nkeep ours\n=======\nkeep theirs\n>>>>>>> theirs\nlast\n".utf8)
    let done = "x 2009-02-01 old\n<<<<<<< ours\n=======\nx 2009-02-02 theirs\n>>>>>>> theirs\n"
    let resolved = Array(todo.dropLast(Array("<<<<<<< ours\nkeep ours\n=======\nkeep theirs\n>>>>>>> theirs\nlast\n".utf8).count))
      + Array("keep ours\nlast\n".utf8)
    for n in 1...4 {
      let sandbox = try Sandbox()
      try sandbox.write("todo.txt", bytes: todo)
      try sandbox.write("done.txt", done)
      let run = try sandbox.todo("resolve", "ours", environment: ["TODO_FAULT": "rename:KILL@\(n)"])
      #expect(run.status != 0, "rename \(n) was reached")
      let next = try sandbox.todo("ls", "-q", "nothing-matches")
      if n >= 3 {
        #expect(next.status == 0, "killed at rename \(n): \(next.stderr)")
        #expect(sandbox.bytes("todo.txt") == resolved, "killed at rename \(n)")
        #expect(sandbox.read("done.txt") == "x 2009-02-01 old\n", "killed at rename \(n)")
      } else {
        #expect(next.stderr.contains("'resolve' shows and settles them"), "killed at rename \(n): \(next.stderr)")
        #expect(sandbox.bytes("todo.txt") == todo, "killed at rename \(n)")
        #expect(try sandbox.todo("resolve", "ours").status == 0)
        #expect(sandbox.bytes("todo.txt") == resolved, "killed at rename \(n)")
      }
    }
  }
}

/// Links and special files in a todo directory: nothing there makes the tool write outside it
/// into the user's configuration, or wait for ever.
@Suite struct UntrustedLinkTests {
  /// `done.txt -> ~/.bashrc` (archive) and `todo.txt -> ~/.ssh/authorized_keys` (add): refused
  /// with one line naming the link, the target untouched.
  @Test func linksToDotFilesAreNotWrittenThrough() throws {
    let sandbox = try Sandbox()
    try FileManager.default.createDirectory(atPath: sandbox.path(".ssh"), withIntermediateDirectories: true)
    try sandbox.write(".bashrc", "export A=1\n")
    try sandbox.write(".ssh/authorized_keys", "ssh-ed25519 AAAA mine\n")
    try sandbox.write("todo.txt", "x 2009-02-01 done\nopen\n")
    try FileManager.default.createSymbolicLink(atPath: sandbox.path("done.txt"), withDestinationPath: sandbox.path(".bashrc"))
    let archive = try sandbox.todo("archive")
    #expect(archive.status != 0)
    #expect(archive.stderr.split(separator: "\n").count == 1 && archive.stderr.contains("done.txt"))
    #expect(sandbox.read(".bashrc") == "export A=1\n")
    #expect(sandbox.read("todo.txt") == "x 2009-02-01 done\nopen\n")

    try FileManager.default.removeItem(atPath: sandbox.path("todo.txt"))
    try FileManager.default.createSymbolicLink(
      atPath: sandbox.path("todo.txt"), withDestinationPath: sandbox.path(".ssh/authorized_keys"))
    for arguments in [["add", "ssh-rsa BBBB attacker"], ["pri", "1", "A"]] {
      let run = try sandbox.run("todo", arguments)
      #expect(run.status != 0, "\(arguments)")
      #expect(run.stderr.contains("symbolic link"), "\(arguments): \(run.stderr)")
    }
    #expect(sandbox.read(".ssh/authorized_keys") == "ssh-ed25519 AAAA mine\n")
  }

  /// The user's own link to a list kept in another ordinary directory is still followed.
  @Test func ownLinkToAnOrdinaryFileIsFollowed() throws {
    let sandbox = try Sandbox()
    try FileManager.default.createDirectory(atPath: sandbox.path("lists"), withIntermediateDirectories: true)
    try sandbox.write("lists/todo.txt", "one\n")
    try FileManager.default.createSymbolicLink(atPath: sandbox.path("todo.txt"), withDestinationPath: sandbox.path("lists/todo.txt"))
    let run = try sandbox.todo("add", "two")
    #expect(run.status == 0, "\(run.stderr)")
    let lines = sandbox.read("lists/todo.txt").split(separator: "\n")
    #expect(lines.count == 2 && lines[0] == "one" && lines[1].hasSuffix("two"))
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: sandbox.path("todo.txt")) == sandbox.path("lists/todo.txt"))
  }

  /// The user's own link pointed (by a sync tool, by mistake) at something that is not a
  /// list: a script in `~/bin`, a file without the `.txt` name, a file in a folder of another
  /// user's. Nothing is appended or written through it; the error says why.
  @Test(arguments: [
    ("bin/cleanup", "not named like a list"),
    ("lists/done.md", "not named like a list"),
    ("shared/done.txt", "folder is not your own"),
  ])
  func ownLinkToSomethingNotAListIsRefused(_ target: String, _ reason: String) throws {
    if target.hasPrefix("shared/"), getuid() != 0 { return }
    let sandbox = try Sandbox()
    try sandbox.write(target, "#!/bin/sh\nrm -rf \"$HOME/tmp\"\n")
    if target.hasPrefix("shared/") { #expect(chown(sandbox.path("shared"), 65534, 65534) == 0) }
    try sandbox.write("todo.txt", "x 2009-02-01 done\nopen\n")
    try FileManager.default.createSymbolicLink(atPath: sandbox.path("done.txt"), withDestinationPath: sandbox.path(target))
    let archive = try sandbox.run("todo.sh", ["archive"])
    #expect(archive.status != 0)
    #expect(archive.stderr.contains("symbolic link") && archive.stderr.contains(reason), "\(archive.stderr)")
    #expect(sandbox.read("todo.txt") == "x 2009-02-01 done\nopen\n")
    // todo.sh's `do` marks the task, then its archive step is refused the same way.
    let done = try sandbox.run("todo.sh", ["do", "2"])
    #expect(done.status != 0)
    #expect(done.stderr.contains(reason), "\(done.stderr)")
    #expect(sandbox.read(target) == "#!/bin/sh\nrm -rf \"$HOME/tmp\"\n")
  }

  /// A planted `.todo.txt.lock` link does not create its target.
  @Test func lockFileLinkIsNotFollowed() throws {
    let sandbox = try Sandbox()
    try sandbox.write("todo.txt", "one\n")
    try FileManager.default.createSymbolicLink(atPath: sandbox.path(".todo.txt.lock"), withDestinationPath: sandbox.path("created-by-lock"))
    let run = try sandbox.todo("add", "two")
    #expect(run.status != 0)
    #expect(run.stderr.split(separator: "\n").count == 1)
    #expect(!sandbox.exists("created-by-lock"))
    #expect(sandbox.read("todo.txt") == "one\n")
  }

  /// A FIFO as todo.txt is refused at once by reads and writes (it used to block for ever).
  @Test func fifoIsRefused() throws {
    let sandbox = try Sandbox()
    #expect(mkfifo(sandbox.path("todo.txt"), 0o600) == 0)
    for arguments in [["ls"], ["pri", "1", "A"], ["add", "x"], ["lsa"]] {
      let start = Date()
      let run = try sandbox.run("todo", arguments)
      #expect(run.status != 0, "\(arguments)")
      #expect(run.stderr.contains("not a regular file"), "\(arguments): \(run.stderr)")
      #expect(Date().timeIntervalSince(start) < 5)
    }
  }
}

/// A name or tag of imported input holding a control character, or a text holding NUL, is
/// refused: nothing is written, and the error names the character. (A text may hold what a
/// line may hold, a tab or a BEL, as export and import round-trip them; terminals see them
/// escaped, see ``TerminalEscapeTests``.)
@Suite struct UntrustedInputTests {
  @Test(arguments: [
    (#"{"text":"a","projects":["p\nx"]}"#, "000A"),
    (#"{"text":"a","contexts":["work\n(A)\u00a0Wire money"]}"#, "000A"),
    (#"{"text":"a","contexts":["w\rx"]}"#, "000D"),
    (#"{"text":"a\u0000b"}"#, "0000"),
    (#"{"text":"a","projects":["x\u001b]52;c;SGVsbG8=\u0007"]}"#, "001B"),
    (#"{"text":"a","contexts":["\u009b2J"]}"#, "009B"),
    (#"{"text":"a","tags":{"due":"2009-02-14\u007f"}}"#, "007F"),
    (#"[{"text":"fine"},{"text":"a","projects":["p\u0085"]}]"#, "0085"),
  ])
  func importRefusesControlCharacters(_ json: String, _ code: String) throws {
    let sandbox = try Sandbox()
    try sandbox.write("todo.txt", "one\n")
    let run = try sandbox.todo("import", input: json)
    #expect(run.status != 0)
    #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains("U+" + code), "\(run.stderr)")
    #expect(sandbox.read("todo.txt") == "one\n")
  }

  /// A file named with a CR is not attached: no copy, no change to the line.
  @Test func attachRefusesAControlCharacterInTheName() throws {
    let sandbox = try Sandbox()
    try sandbox.write("todo.txt", "one\n")
    try sandbox.write("cr\rname.txt", "x")
    let run = try sandbox.todo("attach", "1", sandbox.path("cr\rname.txt"))
    #expect(run.status != 0)
    #expect(run.stderr.contains("U+000D") && !run.stderr.contains("\r"), "\(run.stderr)")
    #expect(sandbox.read("todo.txt") == "one\n")
    let copies = (try? FileManager.default.subpathsOfDirectory(atPath: sandbox.path(".")))?.filter { $0.contains("name.txt") } ?? []
    #expect(copies == ["cr\rname.txt"])
  }
}

/// Damaged or hostile state and input end in an error or are ignored, never in a crash.
@Suite struct DamagedStateTests {
  /// An undo entry named with the largest number is not an entry: changes and undo go on.
  @Test func hugeUndoEntryNumberIsIgnored() throws {
    let sandbox = try Sandbox()
    try sandbox.write("todo.txt", "a\n")
    #expect(try sandbox.todo("pri", "1", "A").status == 0)
    try sandbox.write(".local/state/todo/undo/9223372036854775807.entry", "junk")
    let pri = try sandbox.todo("pri", "1", "B")
    #expect(pri.status == 0, "\(pri.stderr)")
    #expect(sandbox.read("todo.txt") == "(B) a\n")
    let undo = try sandbox.todo("undo")
    #expect(undo.status == 0, "\(undo.stderr)")
    #expect(sandbox.read("todo.txt") == "(A) a\n")
  }

  /// A query nested 20,000 deep (brackets, or negations) is an error naming the limit.
  @Test(arguments: [
    String(repeating: "(", count: 20_000) + "a" + String(repeating: ")", count: 20_000),
    String(repeating: "not ", count: 20_000) + "a",
  ])
  func deeplyNestedQueryIsAnError(_ query: String) throws {
    let sandbox = try Sandbox()
    try sandbox.write("todo.txt", "a\n")
    let run = try sandbox.todo("ls", "-q", query)
    #expect(run.status != 0 && run.status < 128)
    #expect(run.stderr.contains("nests deeper than"))
  }
}

/// Every write is checked: output that cannot be written is an error, not a silent success.
@Suite struct FailedWriteTests {
  /// Listings into /dev/full fail with one line on stderr.
  @Test(arguments: [["ls"], ["ls", "--format", "json"], ["ls", "--format", "ical"], ["lsa"], ["log"], ["listproj"]])
  func outputIntoAFullDeviceIsAnError(_ arguments: [String]) throws {
    let sandbox = try Sandbox()
    try sandbox.write("todo.txt", "a +p @c due:2009-02-20\nx 2009-02-01 b +q\n")
    try sandbox.write("done.txt", "x 2009-01-01 old +r\n")
    _ = try sandbox.todo("pri", "1", "A")
    let command = ([sandbox.path("bin/todo")] + arguments).map { "'\($0)'" }.joined(separator: " ")
    let run = try Sandbox.shell(sandbox, "\(command) > /dev/full")
    #expect(run.status == 1, "\(arguments): \(run.stderr)")
    // One line, beside a listing's summary, which goes to standard error when piped.
    let lines = run.stderr.split(separator: "\n").filter { $0 != "--" && !$0.hasSuffix(" tasks shown") }
    #expect(lines.count == 1 && run.stderr.contains("standard output"), "\(arguments): \(run.stderr)")
  }

  /// Past `ulimit -f`, a rewrite fails with a message and leaves the file as it was.
  @Test func fileSizeLimitIsAnErrorNotASignal() throws {
    let sandbox = try Sandbox()
    let original = (1...10_000).map { "task \($0) +p\n" }.joined()
    try sandbox.write("todo.txt", original)
    let run = try Sandbox.shell(sandbox, "ulimit -f 100; '\(sandbox.path("bin/todo"))' pri 5 A")
    #expect(run.status == 1, "\(run.stderr)")
    #expect(run.stderr.contains("file too large"), "\(run.stderr)")
    #expect(sandbox.read("todo.txt") == original)
  }
}

extension Sandbox {
  /// Runs a `sh -c` script with the sandbox's environment, in its home.
  static func shell(_ sandbox: Sandbox, _ script: String) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script]
    process.currentDirectoryURL = sandbox.home
    process.environment = sandbox.environment
    let err = Pipe()
    process.standardError = err
    process.standardOutput = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(status: process.terminationStatus, stdout: "", stderr: String(decoding: data, as: UTF8.self))
  }
}

/// Settings and arguments that used to be taken silently.
@Suite struct SmallerInputTests {
  /// A lock timeout that is not a finite number of seconds up to a day is refused at once.
  @Test(arguments: ["nan", "inf", "1e400", "abc", "-1", "86401"])
  func badLockTimeoutIsRefused(_ value: String) throws {
    let sandbox = try Sandbox()
    try sandbox.write("todo.txt", "a\n")
    let start = Date()
    let run = try sandbox.todo("pri", "1", "A", environment: ["TODO_LOCK_TIMEOUT": value])
    #expect(run.status != 0)
    #expect(run.stderr.contains("TODO_LOCK_TIMEOUT") && run.stderr.contains(value), "\(run.stderr)")
    #expect(sandbox.read("todo.txt") == "a\n")
    #expect(Date().timeIntervalSince(start) < 5)
  }

  /// `do 1 1` (or `do 1 01`) is refused before anything is written.
  @Test(arguments: [["1", "1"], ["1", "01"], ["2", "1", "2"]])
  func taskNamedTwiceIsAnErrorBeforeWriting(_ numbers: [String]) throws {
    let sandbox = try Sandbox()
    try sandbox.write("todo.txt", "a\nb\n")
    let run = try sandbox.run("todo", ["do"] + numbers)
    #expect(run.status != 0)
    #expect(run.stderr.contains("more than once"), "\(run.stderr)")
    #expect(sandbox.read("todo.txt") == "a\nb\n")
  }
}

/// Task text with terminal commands in it, listed on a real (pseudo-)terminal: none of them
/// reaches the terminal raw, whichever path the text takes.
@Suite(.serialized) struct TerminalEscapeTests {
  static let hostile =
    "call +p\u{1B}]52;c;SGVsbG8=\u{07}x @c\u{1B}]0;title\u{07}y \u{1B}[2Jclear \u{9B}31m \u{9D}0;t\u{9C} \u{202E}gnp.exe due:2009-02-20"

  /// Runs `todo ARGS` with the pty as its standard streams; the bytes the terminal received.
  func onTerminal(_ sandbox: Sandbox, _ arguments: [String]) throws -> [UInt8] {
    Array(try sandbox.onTerminal(arguments).utf8)
  }

  /// A colour sequence written into a task is text: every listing shows it as `^[[31m`, so a
  /// task cannot colour (or hide, with a black-on-black) the lines after it.
  @Test(arguments: [
    ["ls"], ["lsa"], ["next"], ["ls", "--format", "{n} {text}"], ["ls", "--group", "project"], ["agenda"],
    ["pri", "1", "A"], ["append", "1", "more"], ["view", "all"],
  ])
  func colourSequencesInTasksAreShownAsText(_ arguments: [String]) throws {
    let sandbox = try Sandbox(config: "export TODO_DIR=\"$HOME\"\nexport TODO_VIEW_all='+p'\n")
    try sandbox.write("todo.txt", "red \u{1B}[31mtext\u{1B}[0m +p due:2009-02-14\n")
    let output = try onTerminal(sandbox, arguments)
    let text = String(decoding: output, as: UTF8.self)
    #expect(!text.contains("\u{1B}[31mtext"), "\(arguments)")
    #expect(text.contains("^[[31mtext^[[0m"), "\(arguments)")
  }

  @Test(arguments: [
    ["ls"], ["lsa"], ["listproj"], ["listcon"], ["ls", "--why"], ["ls", "--group", "project"],
    ["ls", "--format", "{text}"], ["agenda"], ["pri", "1", "A"], ["--if-match", "nothing like it", "do", "1"],
  ])
  func hostileTextReachesNoTerminalRaw(_ arguments: [String]) throws {
    let sandbox = try Sandbox()
    try sandbox.write("todo.txt", TerminalEscapeTests.hostile + "\n")
    let output = try onTerminal(sandbox, arguments)
    let forbidden: [[UInt8]] = [
      [0x1B, 0x5D], [0x1B, 0x5B, 0x32, 0x4A], [0x07], [0xC2, 0x9B], [0xC2, 0x9D], [0xC2, 0x9C], [0xE2, 0x80, 0xAE],
    ]
    for sequence in forbidden {
      let found = output.indices.contains { output[$0...].starts(with: sequence) }
      #expect(!found, "\(arguments): \(sequence) reached the terminal")
    }
    // The text was shown, escaped (so the check above is not passed by showing nothing).
    if ["ls", "lsa", "agenda", "pri"].contains(arguments[0]) && arguments.count <= 3 {
      let shown = String(decoding: output, as: UTF8.self)
      #expect(shown.contains("^[]52") && shown.contains("<U+202E>"), "\(arguments): \(shown)")
    }
  }
}

/// Attachments on a filesystem too small for them: checked copies, true messages. Needs root
/// to mount a tiny tmpfs.
@Suite(.serialized, .enabled(if: getuid() == 0)) struct TinyFilesystemTests {
  /// Mounts a tmpfs of `options` at `$HOME/tiny` and makes it the todo directory.
  func tinySandbox(_ options: String) throws -> Sandbox {
    let sandbox = try Sandbox(config: "export TODO_DIR=\"$HOME/tiny\"\n")
    try FileManager.default.createDirectory(atPath: sandbox.path("tiny"), withIntermediateDirectories: true)
    #expect(mount("tmpfs", sandbox.path("tiny"), "tmpfs", 0, options) == 0)
    return sandbox
  }

  func unmount(_ sandbox: Sandbox) { _ = umount2(sandbox.path("tiny"), Int32(MNT_DETACH)) }

  /// A 1 MB file attached onto a 64 KB filesystem: an error, the task untouched, no
  /// truncated copy left behind.
  @Test func attachOntoAFullFilesystemFails() throws {
    let sandbox = try tinySandbox("size=64k")
    defer { unmount(sandbox) }
    try sandbox.write("tiny/todo.txt", "one\n")
    try sandbox.write("big.bin", bytes: [UInt8](repeating: 0x41, count: 1 << 20))
    let run = try sandbox.todo("attach", "1", sandbox.path("big.bin"))
    #expect(run.status != 0)
    #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    #expect(run.stderr.contains("no space left on device"), "\(run.stderr)")
    #expect(sandbox.read("tiny/todo.txt") == "one\n")
    let copies = (try? FileManager.default.contentsOfDirectory(atPath: sandbox.path("tiny/attachments"))) ?? []
    #expect(copies.isEmpty)
  }

  /// No free inode for the attachments or notes folder is reported as such, not as "not a
  /// directory" or a bare "cannot write".
  @Test(arguments: [["attach", "1", "small.txt"], ["note", "1"]])
  func noFreeInodeIsNamed(_ arguments: [String]) throws {
    let sandbox = try tinySandbox("size=1m,nr_inodes=3")
    defer { unmount(sandbox) }
    var index = 0
    while FileManager.default.createFile(atPath: sandbox.path("tiny/f\(index)"), contents: nil), index < 10 { index += 1 }
    try? FileManager.default.removeItem(atPath: sandbox.path("tiny/f0"))
    try sandbox.write("tiny/todo.txt", "one\n")
    try sandbox.write("small.txt", "x")
    let run = try sandbox.run(
      "todo", arguments.map { $0 == "small.txt" ? sandbox.path($0) : $0 }, environment: ["EDITOR": "true"])
    #expect(run.status != 0)
    #expect(run.stderr.contains("no free inodes") && !run.stderr.contains("not a directory"), "\(run.stderr)")
    #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    #expect(sandbox.read("tiny/todo.txt") == "one\n")
  }
}

/// A change the undo log cannot keep is made, and the user is told it cannot be undone.
@Suite struct UnrecordedChangeTests {
  /// The state directory's place is taken by a file: the change is made, with a warning.
  @Test func unwritableUndoLogIsAWarning() throws {
    let sandbox = try Sandbox()
    try sandbox.write("todo.txt", "a\n")
    try sandbox.write(".local/state/todo", "not a directory")
    let run = try sandbox.todo("pri", "1", "A")
    #expect(run.status == 0)
    #expect(sandbox.read("todo.txt") == "(A) a\n")
    #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains("warning"), "\(run.stderr)")
  }

  /// An archive larger than the undo log keeps (4 MiB) warns that it cannot be undone.
  @Test func changeTooLargeForTheUndoLogIsAWarning() throws {
    let sandbox = try Sandbox()
    let lines = (1...300_000).map { "x 2009-02-01 finished task number \($0)\n" }.joined()
    try sandbox.write("todo.txt", "open\n" + lines)
    let run = try sandbox.todo("archive")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("too large to keep in the undo log"), "\(run.stderr)")
    #expect(sandbox.read("todo.txt") == "open\n")
  }
}

/// A truncated newest undo entry stops undo with an error naming it; the older change it
/// would otherwise have stepped over is left alone.
@Suite struct DamagedUndoEntryTests {
  @Test func truncatedNewestEntryDoesNotUndoAnOlderChange() throws {
    let sandbox = try Sandbox()
    try sandbox.write("todo.txt", "a\nb\n")
    #expect(try sandbox.todo("pri", "1", "A").status == 0)
    #expect(try sandbox.todo("pri", "2", "B").status == 0)
    let undoDirectory = sandbox.path(".local/state/todo/undo")
    let newest = try #require(
      try FileManager.default.contentsOfDirectory(atPath: undoDirectory).filter { $0.hasSuffix(".entry") }.sorted().last)
    let handle = try #require(FileHandle(forWritingAtPath: undoDirectory + "/" + newest))
    try handle.truncate(atOffset: 10)
    try handle.close()
    let before = sandbox.read("todo.txt")
    let run = try sandbox.todo("undo")
    #expect(run.status != 0)
    #expect(run.stderr.contains("damaged") && run.stderr.contains(newest), "\(run.stderr)")
    #expect(sandbox.read("todo.txt") == before)
  }
}

/// A note that arrives as a symbolic link (by sync, or planted in a shared folder) is never
/// followed: neither the editor nor `--show` reads or writes a file outside the notes folder.
@Suite struct LinkedNoteTests {
  @Test func aNoteThatIsALinkIsRefused() throws {
    let box = try Sandbox()
    try box.write("secret", "do not touch\n")
    try box.write("todo.txt", "call mom note:mom.txt\nbuy milk\n")
    try FileManager.default.createDirectory(atPath: box.path("notes"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: box.path("notes/mom.txt"), withDestinationPath: box.path("secret"))
    try box.write("bin/writer", "#!/bin/sh\necho overwritten > \"$1\"\n")
    chmod(box.path("bin/writer"), 0o755)
    for arguments in [["note", "1"], ["note", "1", "--show"]] {
      let run = try box.run("todo", arguments, environment: ["EDITOR": box.path("bin/writer")])
      #expect(run.status == 1, "\(arguments)")
      let verb = arguments.contains("--show") ? "read" : "write"
      #expect(run.stderr == "todo: cannot \(verb) '\(box.path("notes/mom.txt"))': it is a symbolic link to '\(box.path("secret"))'; not followed\n", "\(arguments)")
      #expect(run.stdout == "", "\(arguments)")
    }
    #expect(box.read("secret") == "do not touch\n")
    // The folder itself as a link: a new note is not made through it.
    try FileManager.default.removeItem(atPath: box.path("notes"))
    try FileManager.default.createDirectory(atPath: box.path("elsewhere"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: box.path("notes"), withDestinationPath: box.path("elsewhere"))
    let run = try box.run("todo", ["note", "2"], environment: ["EDITOR": box.path("bin/writer")])
    #expect(run.status == 1)
    #expect(run.stderr.contains("a folder of the list is never followed elsewhere"), "\(run.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: box.path("elsewhere")).isEmpty)
    #expect(box.read("todo.txt") == "call mom note:mom.txt\nbuy milk\n")
  }
}
