import Foundation
import Testing
import TodoTxt

@testable import TodoStore

/// The key that seals journals is trusted only when it is exactly what the store wrote: any
/// other key file (missing, short, long, empty, a link, a directory, readable by others,
/// someone else's) is never used, so a journal sealed with a guessable key is never replayed.
@Suite struct JournalKeyTests {
  /// What can be found where the key should be.
  enum Damage: String, CaseIterable, Sendable {
    case missing, empty, truncated, tooLong, link, directory, readableByOthers, anotherOwner
  }

  /// An archive killed between its renames, then its journal sealed again with the all-zero
  /// key: what a forger can write when the store fails open.
  func plantZeroKeyJournal(_ dir: Scratch) throws {
    try JournalTests().interruptedArchive(dir)
    let key = try #require(dir.store().journalKey(creating: false))
    for name in [".todo.txt.journal", ".done.txt.journal"] {
      guard let sealed = dir.bytes(name) else { continue }
      let journal = try Journal(decoding: sealed, key: key)
      #expect(FileManager.default.createFile(
        atPath: dir.file(name), contents: Data(journal.encoded(key: Journal.noKey))))
    }
  }

  func damage(_ dir: Scratch, _ damage: Damage) throws {
    let key = dir.file("state/journal.key")
    let manager = FileManager.default
    try manager.removeItem(atPath: key)
    let zero = Data(Journal.noKey)
    switch damage {
    case .missing: break
    case .empty: #expect(manager.createFile(atPath: key, contents: Data(), attributes: [.posixPermissions: 0o600]))
    case .truncated: #expect(manager.createFile(atPath: key, contents: zero.prefix(16), attributes: [.posixPermissions: 0o600]))
    case .tooLong: #expect(manager.createFile(atPath: key, contents: zero + [0], attributes: [.posixPermissions: 0o600]))
    case .link:
      #expect(manager.createFile(atPath: dir.file("zero.key"), contents: zero, attributes: [.posixPermissions: 0o600]))
      try manager.createSymbolicLink(atPath: key, withDestinationPath: dir.file("zero.key"))
    case .directory: try manager.createDirectory(atPath: key, withIntermediateDirectories: false)
    case .readableByOthers: #expect(manager.createFile(atPath: key, contents: zero, attributes: [.posixPermissions: 0o644]))
    case .anotherOwner:
      #expect(manager.createFile(atPath: key, contents: zero, attributes: [.posixPermissions: 0o600]))
      #expect(chown(key, 65534, 65534) == 0 || getuid() != 0)
    }
  }

  /// Whatever is in the key's place, the zero-key journal is left where it is and the files
  /// stay as the kill left them; a change then makes a fresh key of the store's own, and the
  /// damaged one is kept aside (a missing one has nothing to keep).
  @Test(arguments: Damage.allCases)
  func aKeyTheStoreDidNotWriteIsNeverUsed(_ damage: Damage) throws {
    if damage == .anotherOwner, getuid() != 0 { return }
    let dir = Scratch()
    try plantZeroKeyJournal(dir)
    let journal = try #require(dir.bytes(".todo.txt.journal"))
    try self.damage(dir, damage)
    let done = dir.read("done.txt")

    #expect(try dir.store().read(dir.file("todo.txt")).text == JournalTests.todo)
    #expect(dir.read("done.txt") == done)
    #expect(dir.bytes(".todo.txt.journal") == journal)
    let state = try FileManager.default.contentsOfDirectory(atPath: dir.file("state"))
    #expect(state.contains { $0.hasPrefix("journal.key.refused-") } == (damage != .missing), "\(state)")

    // A change to two files needs a key: a new one, 32 random bytes only this user may read.
    try dir.store().append([bytes("e")], to: dir.file("todo.txt"), label: "add")
    #expect(dir.store().journalKey(creating: true) != nil)
    let info = try #require(dir.store().posix.lstat(dir.file("state/journal.key")))
    #expect(info.isRegularFile && info.st_mode & 0o777 == 0o600 && info.st_uid == getuid())
    let key = try #require(dir.store().journalKey(creating: false))
    #expect(key.count == 32 && key != Journal.noKey)
    // The planted journal is still refused under the new key.
    #expect(try dir.store().read(dir.file("todo.txt")).text == JournalTests.todo + "e\n")
    #expect(dir.read("done.txt") == done)
  }

  /// The user's own interrupted change, when the key was damaged since (a sync tool made it
  /// 0644): the journal is left unreplayed; putting the key back as it was finishes it.
  @Test func journalsOfARefusedKeyWaitForItsReturn() throws {
    let dir = Scratch()
    try JournalTests().interruptedArchive(dir)
    let key = dir.file("state/journal.key")
    #expect(chmod(key, 0o644) == 0)
    #expect(try dir.store().read(dir.file("todo.txt")).text == JournalTests.todo)
    #expect(dir.entries.contains(".todo.txt.journal"))
    let aside = try #require(
      try FileManager.default.contentsOfDirectory(atPath: dir.file("state")).first { $0.hasPrefix("journal.key.refused-") })
    #expect(rename(dir.file("state/" + aside), key) == 0 && chmod(key, 0o600) == 0)
    #expect(try dir.store().read(dir.file("todo.txt")).text == JournalTests.newTodo)
    #expect(dir.read("done.txt") == JournalTests.newDone)
  }

  /// A state directory others may write (they could swap the key) holds no trusted key.
  @Test func aStateDirectoryOthersMayWriteHoldsNoKey() throws {
    let dir = Scratch()
    try plantZeroKeyJournal(dir)
    try damage(dir, .readableByOthers)
    #expect(chmod(dir.file("state"), 0o777) == 0)
    #expect(dir.store().journalKey(creating: true) == nil)
    #expect(try dir.store().read(dir.file("todo.txt")).text == JournalTests.todo)
  }
}

/// A leftover temporary file that cannot be removed (another user's, planted in a shared
/// folder whose sticky bit keeps it): a change of one file writes its new version under a
/// name of its own and goes on; a change of two files, whose journal needs the fixed names,
/// is refused with an error naming the planted file, not the list, and nothing changes.
@Suite struct PlantedTemporaryTests {
  /// A scratch directory with a list, and `name` planted there by uid 65534, which this
  /// store may not remove (what a sticky folder answers is injected: the tests run as root).
  func planted(_ name: String) throws -> (Scratch, TodoStore) {
    let dir = Scratch()
    dir.write("todo.txt", "a\nx b\n")
    dir.write("done.txt", "")
    dir.write(name, "planted\n")
    #expect(chown(dir.file(name), 65534, 65534) == 0 || getuid() != 0)
    let store = dir.store(faults: FaultInjection { call, path in
      call == .unlink && path.hasSuffix("/" + name) ? EPERM : nil
    })
    return (dir, store)
  }

  @Test func aChangeOfOneFileGoesOnUnderItsOwnName() throws {
    guard getuid() == 0 else { return }
    let (dir, store) = try planted(".todo.txt.new")
    try store.update(dir.file("todo.txt"), label: "pri") { list in
      var task = list[0]
      task.setPriority(Priority("A"))
      list.replace(at: 0, with: task)
    }
    #expect(dir.read("todo.txt") == "(A) a\nx b\n")
    #expect(dir.read(".todo.txt.new") == "planted\n")
    #expect(dir.entries.filter { $0.hasPrefix(".todo.txt.new-") }.isEmpty, "\(dir.entries)")
  }

  @Test(arguments: [".todo.txt.new", ".todo.txt.journal.new"])
  func aChangeOfTwoFilesNamesTheLeftover(_ name: String) throws {
    guard getuid() == 0 else { return }
    let (dir, store) = try planted(name)
    let change = { () throws in
      try store.update([dir.file("todo.txt"), dir.file("done.txt")], label: "archive") { lists in
        _ = lists[1].append(lists[0][1])
        _ = lists[0].remove(at: 1)
      }
    }
    #expect(throws: StoreError(.inTheWay(owner: 65534), path: dir.file(name), operation: .write)) { try change() }
    #expect(StoreError(.inTheWay(owner: 65534), path: dir.file(name), operation: .write).description
      == "cannot write '\(dir.file(name))': a leftover of another user's (uid 65534) that this folder does not let you remove is in the way; nothing was changed (that user or an administrator can remove it)")
    #expect(dir.read("todo.txt") == "a\nx b\n")
    #expect(dir.read("done.txt") == "")
    #expect(dir.read(name) == "planted\n")
  }
}
