import Foundation
import Testing
import TodoTxt

@testable import TodoStore

/// A change is written from the edited list a block at a time, its journal encoded and
/// sealed a block at a time, and its undo entry measured before it is encoded: each gives
/// the bytes the whole-buffer way gave.
@Suite struct StreamedWriteTests {
  /// A list of `count` lines, every tenth done, and the list with the done ones moved out.
  func archiveLists(_ count: Int) -> (base: TodoList, edited: TodoList, done: TodoList) {
    var text = ""
    for index in 0..<count {
      text +=
        index % 10 == 3
        ? "x 2026-01-02 finished task number \(index) +Garden\n" : "(B) open task \(index) @home due:2026-03-04\n"
    }
    let base = TodoList(parsing: text)
    var edited = base
    var done = TodoList()
    edited.removeAll { task in
      guard task.isCompleted else { return false }
      done.append(task)
      return true
    }
    return (base, edited, done)
  }

  func target(_ dir: Scratch, _ name: String) -> Target {
    Target(path: dir.file(name), resolved: dir.file(name), directory: dir.path, name: name, isDevice: false)
  }

  /// The journal of an archive of 80,000 lines, encoded and sealed a block at a time, is the
  /// record encoded whole and then sealed, on disk too, and reads back as the patches made
  /// from the lists.
  @Test func journalIsSealedAsWhole() throws {
    let dir = Scratch()
    dir.write("todo.txt", "")
    dir.write("done.txt", "")
    let store = dir.store()
    let key = try #require(store.journalKey(creating: true))
    let (base, edited, done) = archiveLists(80_000)
    let journal = Journal(
      id: 42,
      entries: [
        Journal.Entry(
          target: target(dir, "done.txt"), oldHash: 1, newHash: ContentHash.ofFile(done.serialized()),
          patch: .whole(Patch(edits: done))),
        Journal.Entry(
          target: target(dir, "todo.txt"), oldHash: ContentHash.ofFile(base.serialized()),
          newHash: ContentHash.ofFile(edited.serialized()), patch: .whole(Patch(edits: edited))),
      ])
    // Every field into one buffer, then sealed.
    var writer = ByteWriter(magic: Journal.magic)
    writer.int(42)
    writer.int(2)
    for entry in journal.entries {
      writer.string(entry.target.path)
      writer.string(entry.target.resolved)
      writer.int(Int(Int64(bitPattern: entry.oldHash)))
      writer.int(Int(Int64(bitPattern: entry.newHash)))
      guard case .whole(let patch) = entry.patch else { return }
      writer.hashedPatch(patch)
    }
    let whole = writer.sealed(key: key)
    #expect(whole.count > 64 << 10)
    #expect(journal.encoded(key: key) == whole)
    // As written to disk, every copy.
    try store.writeJournal(journal)
    #expect(dir.bytes(".todo.txt.journal") == whole)
    #expect(dir.bytes(".done.txt.journal") == whole)
    let read = try #require(store.readJournal(dir.file(".todo.txt.journal")))
    #expect(read.id == 42)
    #expect(read.entries.map(\.newHash) == journal.entries.map(\.newHash))
    for (entry, list) in zip(read.entries, [done, edited]) {
      guard case .hashed(let patch) = entry.patch else {
        Issue.record("not the fourth version")
        continue
      }
      #expect(patch == HashedPatchTests.expected(Patch(edits: list)))
    }
    store.removeJournal(journal)
    #expect(dir.entries.filter { $0.contains("journal") } == [])
  }

  /// A patch kept as the edited list (no copy of the list as read) finds the lines the edit
  /// removed in the file's bytes: applied to the file it gives the list, and inverted it
  /// gives the file back, with its CR LF lines and its missing final newline.
  @Test func patchFromTheListAloneTakesTheFileToTheListAndBack() throws {
    var text = "\u{FEFF}"
    var doneCount = 1
    for index in 0..<3_000 {
      if index % 7 == 2 { doneCount += 1 }
      text += index % 7 == 2 ? "x done \(index)\r\n" : "open \(index)\n"
    }
    text += "x last without newline"
    let original = Array(text.utf8)
    var list = TodoList(bytes: original)
    list.removeAllLines(where: { $0.starts(with: Array("x ".utf8)) })
    list.replace(number: 5, with: Task(parsing: "open edited"))
    list.insert(Task(parsing: "inserted"), at: 0)
    let patch = Patch(edits: list)
    #expect(patch.hunkCount > 1)
    // The done lines, the line replaced, and the new last line, which takes over the
    // missing final newline.
    #expect(patch.removedCount == doneCount + 2)
    #expect(try patch.apply(to: original).bytes == list.serialized())
    #expect(try patch.inverted.apply(to: list.serialized()).bytes == original)
  }

  /// A failed write of a journal block leaves no journal and no temporary file behind.
  @Test func failedJournalBlockLeavesNothing() throws {
    let dir = Scratch()
    dir.write("todo.txt", "")
    dir.write("done.txt", "")
    let faults = Faults { call, path, count in call == .write && path.contains("journal") && count == 3 ? ENOSPC : nil }
    let store = dir.store(faults: faults.injection)
    let (_, edited, _) = archiveLists(40_000)
    let journal = Journal(
      id: 7,
      entries: [
        Journal.Entry(target: target(dir, "done.txt"), oldHash: 1, newHash: 2, patch: .whole(Patch(edits: edited))),
        Journal.Entry(target: target(dir, "todo.txt"), oldHash: 3, newHash: 4, patch: .whole(Patch(edits: edited))),
      ])
    #expect(throws: StoreError.self) { try store.writeJournal(journal) }
    #expect(dir.entries.filter { $0.contains("journal") } == [])
  }

  /// A list's content gives the same size, hash, blocks and comparison as its bytes.
  @Test func listContentIsItsBytes() {
    let (base, edited, _) = archiveLists(60_000)
    let bytes = edited.serialized()
    #expect(bytes.count > 2 * FileChange.Content.blockSize)
    let content = FileChange.Content(edited)
    #expect(content.count == bytes.count)
    #expect(content.hash == ContentHash.ofFile(bytes))
    #expect(content.equals(bytes))
    #expect(!content.equals(base.serialized()))
    var changed = bytes
    changed[bytes.count - 2] ^= 1
    #expect(!content.equals(changed))
    var joined: [UInt8] = []
    content.forEachBlock { joined += $0 }
    #expect(joined == bytes)
    var fromBytes: [UInt8] = []
    FileChange.Content.bytes(bytes).forEachBlock { fromBytes += $0 }
    #expect(fromBytes == bytes)
  }

  /// The size an undo entry is measured at is the size it is encoded at.
  @Test func undoEntryIsMeasuredAtItsSize() {
    let (_, edited, done) = archiveLists(3_000)
    let log = UndoLog(directory: "/nonexistent", limit: 10, byteLimit: 1 << 30)
    let record = UndoLog.Record(
      sequence: 3, isUndone: false, label: "archive", time: 1_234_500_000, isRecorded: true,
      files: [
        ("todo.txt", "/t/todo.txt", Patch(edits: edited)),
        ("done.txt", "/t/done.txt", Patch(edits: done)),
      ])
    #expect(log.encodedCount(record) == log.encode(record).count)
  }

  /// A change to a file of several megabytes, written a block at a time, leaves the bytes of
  /// the edited list on disk, and the undo of it puts the file back.
  @Test func largeArchiveWritesTheListAndUndoes() throws {
    let dir = Scratch()
    let (base, edited, done) = archiveLists(60_000)
    dir.write("todo.txt", base.text)
    dir.write("done.txt", "")
    let store = TodoStore(stateDirectory: dir.file("state"), undoByteLimit: 64 << 20)
    try store.update([dir.file("todo.txt"), dir.file("done.txt")], label: "archive") { lists in
      var moved: [Task] = []
      lists[0].removeAll { task in
        guard task.isCompleted else { return false }
        moved.append(task)
        return true
      }
      for task in moved { lists[1].append(task) }
    }
    #expect(dir.bytes("todo.txt") == edited.serialized())
    #expect(dir.bytes("done.txt") == done.serialized())
    #expect(dir.entries.filter { $0.hasSuffix(".new") || $0.contains("journal") } == [])
    try store.undo(files: [dir.file("todo.txt")])
    #expect(dir.bytes("todo.txt") == base.serialized())
    #expect(dir.read("done.txt") == "")
  }
}
