import Foundation
import Testing
import TodoTestSupport
import TodoTxt

@testable import TodoStore

/// Processes killed in the middle of a change to two files: the next store finishes or
/// forgets the change, and no task is ever in neither file or in both.
@Suite struct JournalTests {
  static let todo = "a\nx b\nc\nx d\n"
  static let done = "x old\n"
  static let newTodo = "a\nc\n"
  static let newDone = "x old\nx b\nx d\n"

  /// Kills an archive at the `n`th call of `call`, then lets a new store recover; returns
  /// whether the archive had reached the new state.
  func killArchive(at call: SystemCall, _ n: Int) throws -> Bool? {
    let dir = Scratch()
    dir.write("todo.txt", JournalTests.todo)
    dir.write("done.txt", JournalTests.done)
    let run = try Probe.run(
      ["kill", dir.file("todo.txt"), dir.file("done.txt"), call.rawValue, String(n)],
      state: dir.file("state"))
    let killed = run.reason == .uncaughtSignal
    #expect(killed || run.status == 0)
    // Any operation of a new store finishes what the killed one left.
    _ = try dir.store().read(dir.file("done.txt"))
    _ = try dir.store().read(dir.file("todo.txt"))
    let todo = dir.read("todo.txt")
    let done = dir.read("done.txt")
    let old = todo == JournalTests.todo && done == JournalTests.done
    let new = todo == JournalTests.newTodo && done == JournalTests.newDone
    #expect(old || new, "killed at \(call) \(n): todo \(todo ?? "-") done \(done ?? "-")")
    // Stale copies and temporary files go with the next change.
    try dir.store().update([dir.file("todo.txt"), dir.file("done.txt")], label: "none") { _ in }
    #expect(dir.entries.filter { $0.contains("journal") || $0.hasSuffix(".new") } == [])
    return killed ? new : nil
  }

  @Test(arguments: [SystemCall.rename, .fsync, .write, .open])
  func killedAtEveryCallEndsOldOrNew(_ call: SystemCall) throws {
    var outcomes: [Bool] = []
    for n in 1...12 {
      guard let new = try killArchive(at: call, n) else { break }
      outcomes.append(new)
    }
    #expect(!outcomes.isEmpty)
    if call == .rename {
      // Renames: journal copy, journal primary, done.txt, todo.txt. Killed before the
      // primary exists the change is forgotten; after, it is finished.
      #expect(outcomes.prefix(4) == [false, false, true, true])
    }
  }

  @Test func leftoverJournalIsRolledForwardOverAnOutsideEdit() throws {
    let dir = Scratch()
    dir.write("todo.txt", JournalTests.todo)
    dir.write("done.txt", JournalTests.done)
    // Killed after done.txt was replaced, before todo.txt was.
    let run = try Probe.run(
      ["kill", dir.file("todo.txt"), dir.file("done.txt"), "rename", "4"], state: dir.file("state"))
    #expect(run.reason == .uncaughtSignal)
    #expect(dir.read("done.txt") == JournalTests.newDone)
    #expect(dir.read("todo.txt") == JournalTests.todo)
    #expect(dir.entries.contains(".todo.txt.journal"))
    // An editor changes another line before the next run.
    dir.write("todo.txt", "a edited\nx b\nc\nx d\n")
    try dir.store().append([bytes("e")], to: dir.file("done.txt"), label: "add")
    #expect(dir.read("todo.txt") == "a edited\nc\n")
    #expect(dir.read("done.txt") == JournalTests.newDone + "e\n")
    #expect(dir.entries.filter { $0.contains("journal") || $0.hasSuffix(".new") } == [])
  }

  /// Leaves a journal of an archive killed between its renames (done.txt new, todo.txt old).
  func interruptedArchive(_ dir: Scratch) throws {
    dir.write("todo.txt", JournalTests.todo)
    dir.write("done.txt", JournalTests.done)
    let run = try Probe.run(
      ["kill", dir.file("todo.txt"), dir.file("done.txt"), "rename", "4"], state: dir.file("state"))
    #expect(run.reason == .uncaughtSignal)
    #expect(dir.entries.contains(".todo.txt.journal"))
  }

  /// A journal sealed with another key (another user's, or a forger's) is never replayed: the
  /// files stay as they are and the journal stays for inspection.
  @Test func journalSealedWithAnotherKeyIsLeftAlone() throws {
    let dir = Scratch()
    try interruptedArchive(dir)
    let journal = try #require(dir.bytes(".todo.txt.journal"))
    let stranger = TodoStore(stateDirectory: dir.file("stranger"))
    #expect(try stranger.read(dir.file("todo.txt")).text == JournalTests.todo)
    #expect(dir.read("done.txt") == JournalTests.newDone)
    #expect(dir.bytes(".todo.txt.journal") == journal)
    // The owner of the key still finishes it.
    _ = try dir.store().read(dir.file("todo.txt"))
    #expect(dir.read("todo.txt") == JournalTests.newTodo)
  }

  /// Even sealed with the right key, a journal naming a file outside the list's directory
  /// (or through a link planted since) is refused, and that file is not touched.
  @Test(arguments: ["../outside/.bashrc", "sub/../../outside/.bashrc", "link.txt"])
  func journalNamingAnotherFileIsRefused(_ name: String) throws {
    let dir = Scratch()
    try interruptedArchive(dir)
    let store = dir.store()
    let key = try #require(store.journalKey(creating: false))
    var journal = try Journal(
      decoding: try #require(dir.bytes(".todo.txt.journal")), key: key)
    try FileManager.default.createDirectory(
      atPath: dir.file("outside"), withIntermediateDirectories: true)
    dir.write("outside/.bashrc", "export PATH\n")
    try FileManager.default.createSymbolicLink(
      atPath: dir.file("link.txt"), withDestinationPath: dir.file("outside/.bashrc"))
    let index = try #require(journal.entries.firstIndex { $0.target.name == "done.txt" })
    let resolved = dir.file(name)
    let (directory, base) = Paths.split(resolved)
    journal.entries[index].target = Target(
      path: resolved, resolved: resolved, directory: directory, name: base, isDevice: false)
    journal.entries[index].oldHash = ContentHash.ofFile(bytes("export PATH\n"))
    let sealed = journal.encoded(key: key)
    _ = FileManager.default.createFile(atPath: dir.file(".todo.txt.journal"), contents: Data(sealed))
    try? FileManager.default.removeItem(atPath: dir.file(".done.txt.journal"))
    #expect(try store.read(dir.file("todo.txt")).text == JournalTests.todo)
    #expect(dir.read("outside/.bashrc") == "export PATH\n")
    #expect(dir.bytes(".todo.txt.journal") == sealed)
  }

  /// The content hash that sealed journals carried before (unkeyed, 64 bits) is no longer
  /// trusted: a journal of the earlier format is left alone.
  @Test func journalOfTheUnkeyedFormatIsLeftAlone() throws {
    let dir = Scratch()
    try interruptedArchive(dir)
    let key = try #require(dir.store().journalKey(creating: false))
    let journal = try Journal(decoding: try #require(dir.bytes(".todo.txt.journal")), key: key)
    // The same fields under the earlier magic and checksum.
    var body = journal.encoded(key: key).dropLast(32)
    let magic = Array(Journal.magic.utf8)
    body.replaceSubrange(1..<(1 + magic.count), with: Array("todo journal 2".utf8))
    var old = Array(body)
    var hash = ContentHash.of(old)
    for _ in 0..<8 {
      old.append(UInt8(truncatingIfNeeded: hash))
      hash >>= 8
    }
    _ = FileManager.default.createFile(atPath: dir.file(".todo.txt.journal"), contents: Data(old))
    #expect(try dir.store().read(dir.file("todo.txt")).text == JournalTests.todo)
    #expect(dir.bytes(".todo.txt.journal") == old)
  }

  @Test func staleJournalCopyIsIgnored() throws {
    let dir = Scratch()
    dir.write("todo.txt", JournalTests.todo)
    dir.write("done.txt", JournalTests.done)
    // Killed after the copy beside todo.txt was written, before the primary.
    let run = try Probe.run(
      ["kill", dir.file("todo.txt"), dir.file("done.txt"), "rename", "2"], state: dir.file("state"))
    #expect(run.reason == .uncaughtSignal)
    #expect(dir.entries.contains(".todo.txt.journal"))
    #expect(try dir.store().read(dir.file("todo.txt")).text == JournalTests.todo)
    #expect(dir.read("done.txt") == JournalTests.done)
    #expect(dir.entries.filter { $0.hasSuffix(".journal") } == [])
  }

  /// Kills a process that keeps moving lines between two files of 20,000 lines at random
  /// instants; after each kill every line is in exactly one file.
  @Test func randomKillsDuringLargeMovesLoseNothing() throws {
    let dir = Scratch()
    let lines = (1...20_000).map { "task \($0) +project @context due:2026-01-01" }
    dir.write("todo.txt", lines.joined(separator: "\n") + "\n")
    dir.write("done.txt", "")
    var generator = SplitMix64(seed: 171)
    var recovered = 0
    for _ in 0..<12 {
      let process = try Probe.start(
        ["shuttle", dir.file("todo.txt"), dir.file("done.txt")], state: dir.file("state"))
      usleep(UInt32.random(in: 150_000...900_000, using: &generator))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      if dir.entries.contains(where: { $0.contains("journal") }) { recovered += 1 }
      try dir.store().update([dir.file("todo.txt"), dir.file("done.txt")], label: "check") { _ in }
      let all = ((dir.read("todo.txt") ?? "") + (dir.read("done.txt") ?? "")).split(separator: "\n")
        .map(String.init)
      #expect(all.count == lines.count)
      #expect(all.sorted() == lines.sorted())
      #expect(dir.entries.filter { $0.hasSuffix(".journal") } == [])
    }
    print("random kills: 12, journals rolled forward: \(recovered)")
  }
}
