import Foundation
import Testing
import TodoTxt

@testable import TodoStore

/// The journal's fourth version (patches as hashes and places, the new lines read from the
/// staged new versions) next to the third: a journal an earlier build left is still
/// finished; a fourth-version journal that is truncated, forged, inconsistent or short of
/// its staged versions is never replayed halfway.
@Suite struct JournalVersionTests {
  func target(_ dir: Scratch, _ name: String) -> Target {
    Target(
      path: dir.file(name), resolved: dir.file(name), directory: dir.path, name: name,
      isDevice: false)
  }

  /// JournalTests' archive as edited lists: todo.txt without its done tasks, done.txt with them.
  func archiveLists() -> (todo: TodoList, done: TodoList) {
    var todo = TodoList(parsing: JournalTests.todo)
    var done = TodoList(parsing: JournalTests.done)
    for task in todo where task.isCompleted { done.append(task) }
    todo.removeAll { $0.isCompleted }
    return (todo, done)
  }

  /// The record a build of the third version wrote: every line taken and brought, whole.
  static func version3(_ journal: Journal, key: [UInt8]) -> [UInt8] {
    var writer = ByteWriter(magic: Journal.magic3)
    writer.int(Int(Int64(bitPattern: journal.id)))
    writer.int(journal.entries.count)
    for entry in journal.entries {
      writer.string(entry.target.path)
      writer.string(entry.target.resolved)
      writer.int(Int(Int64(bitPattern: entry.oldHash)))
      writer.int(Int(Int64(bitPattern: entry.newHash)))
      if case .whole(let patch) = entry.patch { writer.patch(patch) }
    }
    return writer.sealed(key: key)
  }

  /// What a build of the third version left when killed between its renames: done.txt new,
  /// todo.txt old (its new version staged when `staged`), both copies of its journal.
  func leaveThirdVersionJournal(_ dir: Scratch, staged: Bool) throws {
    let (todo, done) = archiveLists()
    dir.write("todo.txt", JournalTests.todo)
    dir.write("done.txt", JournalTests.newDone)
    if staged { dir.write(".todo.txt.new", JournalTests.newTodo) }
    let key = try #require(dir.store().journalKey(creating: true))
    let journal = Journal(
      id: 99,
      entries: [
        Journal.Entry(
          target: target(dir, "done.txt"), oldHash: ContentHash.ofFile(bytes(JournalTests.done)),
          newHash: ContentHash.ofFile(bytes(JournalTests.newDone)),
          patch: .whole(Patch(edits: done))),
        Journal.Entry(
          target: target(dir, "todo.txt"), oldHash: ContentHash.ofFile(bytes(JournalTests.todo)),
          newHash: ContentHash.ofFile(bytes(JournalTests.newTodo)),
          patch: .whole(Patch(edits: todo))),
      ])
    let sealed = JournalVersionTests.version3(journal, key: key)
    _ = FileManager.default.createFile(
      atPath: dir.file(".done.txt.journal"), contents: Data(sealed))
    _ = FileManager.default.createFile(
      atPath: dir.file(".todo.txt.journal"), contents: Data(sealed))
    // It reads back as the third version.
    let read = try #require(dir.store().readJournal(dir.file(".done.txt.journal")))
    guard case .whole = read.entries[1].patch else {
      Issue.record("not read as the third version")
      return
    }
  }

  func leftovers(_ dir: Scratch) -> [String] {
    dir.entries.filter {
      $0.contains("journal") || $0.hasSuffix(".new") || $0.hasSuffix(".replayed")
    }
  }

  @Test func thirdVersionJournalIsFinished() throws {
    let dir = Scratch()
    try leaveThirdVersionJournal(dir, staged: true)
    _ = try dir.store().read(dir.file("todo.txt"))
    #expect(dir.read("todo.txt") == JournalTests.newTodo)
    #expect(dir.read("done.txt") == JournalTests.newDone)
    #expect(leftovers(dir) == [])
  }

  /// The third version holds the lines themselves: without its staged file it still
  /// finishes the change.
  @Test func thirdVersionJournalIsFinishedWithoutItsStagedFile() throws {
    let dir = Scratch()
    try leaveThirdVersionJournal(dir, staged: false)
    _ = try dir.store().read(dir.file("done.txt"))
    #expect(dir.read("todo.txt") == JournalTests.newTodo)
    #expect(dir.read("done.txt") == JournalTests.newDone)
    #expect(leftovers(dir) == [])
  }

  /// Over an edit another program made to todo.txt before the next run, the third version's
  /// patch is applied to the edited file.
  @Test func thirdVersionJournalIsReappliedOverAnOutsideEdit() throws {
    let dir = Scratch()
    try leaveThirdVersionJournal(dir, staged: true)
    dir.write("todo.txt", "a edited\nx b\nc\nx d\n")
    _ = try dir.store().read(dir.file("done.txt"))
    #expect(dir.read("todo.txt") == "a edited\nc\n")
    #expect(dir.read("done.txt") == JournalTests.newDone)
    #expect(leftovers(dir) == [])
  }

  /// An archive of 80,000 lines records a small fraction of what the third version did.
  @Test func fourthVersionIsAFractionOfTheThird() throws {
    let dir = Scratch()
    let key = try #require(dir.store().journalKey(creating: true))
    let (base, edited, done) = StreamedWriteTests().archiveLists(80_000)
    let journal = Journal(
      id: 5,
      entries: [
        Journal.Entry(
          target: target(dir, "done.txt"), oldHash: 1, newHash: 2, patch: .whole(Patch(edits: done))
        ),
        Journal.Entry(
          target: target(dir, "todo.txt"), oldHash: 3, newHash: 4,
          patch: .whole(Patch(edits: edited))),
      ])
    let fourth = journal.encoded(key: key).count
    let third = JournalVersionTests.version3(journal, key: key).count
    #expect(fourth * 10 < third, "fourth \(fourth) bytes, third \(third)")
    // Less than a tenth of the file the lines were taken from.
    #expect(fourth * 10 < base.serializedCount)
  }

  /// Kills an archive between its renames (`n` = 4: done.txt new, todo.txt old and staged;
  /// 3: both old and staged) and returns its journal's bytes.
  func killedArchive(_ dir: Scratch, atRename n: Int) throws -> [UInt8] {
    dir.write("todo.txt", JournalTests.todo)
    dir.write("done.txt", JournalTests.done)
    let run = try Probe.run(
      ["kill", dir.file("todo.txt"), dir.file("done.txt"), "rename", String(n)],
      state: dir.file("state"))
    #expect(run.reason == .uncaughtSignal)
    let journal = try #require(dir.bytes(".done.txt.journal"))
    #expect(journal.starts(with: [UInt8(Journal.magic.utf8.count)] + Array(Journal.magic.utf8)))
    return journal
  }

  /// Writes `bytes` over both copies of the journal.
  func plant(_ dir: Scratch, _ bytes: [UInt8]) {
    for name in [".done.txt.journal", ".todo.txt.journal"] {
      _ = FileManager.default.createFile(atPath: dir.file(name), contents: Data(bytes))
    }
  }

  /// Reads both files with a new store and expects them as the kill left them, the planted
  /// journal in place.
  func expectLeftAlone(_ dir: Scratch, _ planted: [UInt8]) throws {
    let todo = dir.read("todo.txt")
    let done = dir.read("done.txt")
    _ = try dir.store().read(dir.file("todo.txt"))
    _ = try dir.store().read(dir.file("done.txt"))
    #expect(dir.read("todo.txt") == todo)
    #expect(dir.read("done.txt") == done)
    #expect(dir.bytes(".done.txt.journal") == planted)
    #expect(dir.bytes(".todo.txt.journal") == planted)
  }

  @Test(arguments: [1, 32, 33, 100])
  func truncatedJournalIsLeftAlone(_ cut: Int) throws {
    let dir = Scratch()
    let journal = try killedArchive(dir, atRename: 4)
    let truncated = Array(journal.dropLast(min(cut, journal.count - 1)))
    plant(dir, truncated)
    try expectLeftAlone(dir, truncated)
  }

  /// One byte changed anywhere (the record or its seal) and the journal is not this user's.
  @Test func forgedJournalIsLeftAlone() throws {
    let dir = Scratch()
    let journal = try killedArchive(dir, atRename: 4)
    for position in [journal.count / 2, journal.count - 1] {
      var forged = journal
      forged[position] ^= 0x01
      plant(dir, forged)
      try expectLeftAlone(dir, forged)
    }
  }

  /// Sealed with the right key (a bug, or whoever holds the key) but with runs that do not
  /// fit the files' line counts: read as damage, never replayed.
  @Test func inconsistentJournalUnderTheRightSealIsLeftAlone() throws {
    let dir = Scratch()
    let journal = try killedArchive(dir, atRename: 4)
    let store = dir.store()
    let key = try #require(store.journalKey(creating: false))
    var read = try Journal(decoding: journal, key: key)
    guard case .hashed(var patch) = read.entries[1].patch else {
      Issue.record("not the fourth version")
      return
    }
    patch.newCount += 1
    read.entries[1].patch = .hashed(patch)
    let sealed = read.encoded(key: key)
    #expect(throws: CorruptRecord.self) { _ = try Journal(decoding: sealed, key: key) }
    plant(dir, sealed)
    try expectLeftAlone(dir, sealed)
  }

  /// Killed after the journal was in place and before any file was renamed, with a staged
  /// version gone since: every file is still old, so the change is dropped, not half made.
  @Test func journalWithEveryFileOldAndAStagedVersionGoneIsDropped() throws {
    let dir = Scratch()
    _ = try killedArchive(dir, atRename: 3)
    try FileManager.default.removeItem(atPath: dir.file(".todo.txt.new"))
    _ = try dir.store().read(dir.file("todo.txt"))
    #expect(dir.read("todo.txt") == JournalTests.todo)
    #expect(dir.read("done.txt") == JournalTests.done)
    #expect(leftovers(dir) == [])
  }

  /// done.txt already new and todo.txt's staged version gone: nothing can finish the change,
  /// so nothing is touched and the journal stays, reported.
  @Test func halfMadeChangeWithoutItsStagedVersionIsReportedAndLeft() throws {
    let dir = Scratch()
    let journal = try killedArchive(dir, atRename: 4)
    try FileManager.default.removeItem(atPath: dir.file(".todo.txt.new"))
    do {
      _ = try dir.store().read(dir.file("todo.txt"))
      Issue.record("the change was not reported")
    } catch {
      #expect(error.kind == .unfinishedChange(journal: dir.file(".done.txt.journal")))
    }
    #expect(dir.read("todo.txt") == JournalTests.todo)
    #expect(dir.read("done.txt") == JournalTests.newDone)
    #expect(dir.bytes(".done.txt.journal") == journal)
  }

  /// A journal that appears while a change waits for the lock (the holder was killed
  /// halfway) is finished before the temporary files, its staged versions, are cleared.
  @Test func lockFinishesAJournalFoundOnceHeld() throws {
    let dir = Scratch()
    _ = try killedArchive(dir, atRename: 4)
    let store = dir.store()
    let targets = try [dir.file("todo.txt"), dir.file("done.txt")].map {
      try store.resolve($0, operation: .write)
    }
    let locks = try store.lock(targets)
    for lock in locks { lock.release(posix: store.posix) }
    #expect(dir.read("todo.txt") == JournalTests.newTodo)
    #expect(dir.read("done.txt") == JournalTests.newDone)
    #expect(leftovers(dir) == [])
  }

  /// The rename of todo.txt fails, and so does putting done.txt back: the journal stays with
  /// every new version still staged or in place, and the next store finishes the change.
  @Test func failedRollbackLeavesWhatTheJournalNeeds() throws {
    let dir = Scratch()
    dir.write("todo.txt", JournalTests.todo)
    dir.write("done.txt", JournalTests.done)
    var doneRenames = 0
    let faults = Faults { call, path, _ in
      guard call == .rename else { return nil }
      if path == dir.file("todo.txt") { return EIO }
      if path == dir.file("done.txt") {
        doneRenames += 1
        return doneRenames >= 2 ? EIO : nil
      }
      return nil
    }
    #expect(throws: StoreError.self) {
      try dir.store(faults: faults.injection).update(
        [dir.file("todo.txt"), dir.file("done.txt")], label: "archive"
      ) {
        lists in
        for task in lists[0] where task.isCompleted { lists[1].append(task) }
        lists[0].removeAll { $0.isCompleted }
      }
    }
    #expect(doneRenames == 2)
    #expect(dir.entries.contains(".done.txt.journal"))
    _ = try dir.store().read(dir.file("todo.txt"))
    #expect(dir.read("todo.txt") == JournalTests.newTodo)
    #expect(dir.read("done.txt") == JournalTests.newDone)
    #expect(leftovers(dir) == [])
  }
}
