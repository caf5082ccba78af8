import Testing
import TodoTestSupport
import TodoTxt

@testable import TodoStore

/// The journal's fourth version of a patch: encoded and read back run for run, applied like
/// the whole patch, and refused when its runs do not fit together.
@Suite struct HashedPatchTests {
  /// What the fourth version should record of `patch`, worked out from its hunks made whole.
  static func expected(_ patch: Patch) -> HashedPatch {
    HashedPatch(
      oldCount: patch.oldCount, newCount: patch.newCount,
      runs: patch.hunks.map { hunk in
        HashedPatch.Run(
          oldStart: hunk.oldStart, newStart: hunk.newStart,
          old: hunk.old.map { ContentHash.ofLine($0.bytes[...]) }, newCount: hunk.new.count,
          anchor: HashedPatch.hasAnchor(
            oldStart: hunk.oldStart, taking: hunk.old.count, oldCount: patch.oldCount)
            ? ContentHash.ofLine((hunk.anchor ?? [])[...]) : nil)
      })
  }

  /// A random list of `count` lines (some CR LF, some blank, repeated texts) and a random
  /// edit of it: removals, replacements, insertions, appends.
  static func edit(_ count: Int, seed: UInt64) -> (original: [UInt8], edited: TodoList) {
    var random = SplitMix64(seed: seed)
    var text = ""
    for index in 0..<count {
      let body = random.below(5) == 0 ? "same" : random.below(6) == 0 ? "" : "task \(index)"
      text += body + (random.below(4) == 0 ? "\r\n" : "\n")
    }
    let original = Array(text.utf8)
    var list = TodoList(bytes: original)
    for _ in 0..<max(1, count / 8) {
      switch random.below(4) {
      case 0 where !list.isEmpty: list.remove(at: random.below(list.count))
      case 1 where !list.isEmpty:
        list.replace(
          at: random.below(list.count), with: Task(parsing: "edited \(random.below(99))"))
      case 2:
        list.insert(Task(parsing: "new \(random.below(99))"), at: random.below(list.count + 1))
      default: list.append(Task(parsing: "appended"))
      }
    }
    return (original, list)
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
  func encodesAndReadsBackRunForRun(_ seed: UInt64) throws {
    let (_, edited) = HashedPatchTests.edit(400, seed: seed)
    let patch = Patch(edits: edited)
    var writer = ByteWriter(magic: "test")
    writer.hashedPatch(patch)
    var reader = try ByteReader(writer.sealed, magic: "test")
    let read = try reader.hashedPatch()
    #expect(reader.isAtEnd)
    #expect(read == HashedPatchTests.expected(patch))
    // Written again as read, it is the same record.
    var again = ByteWriter(magic: "test")
    again.hashedPatch(read)
    #expect(again.bytes == writer.bytes)
  }

  /// On the file as it was, and on the file after another program's edit elsewhere, the
  /// hashed patch with the staged new version gives what the whole patch gives.
  @Test(arguments: [11, 12, 13, 14, 15, 16])
  func appliesAsTheWholePatch(_ seed: UInt64) throws {
    let (original, edited) = HashedPatchTests.edit(300, seed: seed)
    let patch = Patch(edits: edited)
    let hashed = HashedPatchTests.expected(patch)
    let newVersion = edited.serialized()
    #expect(try hashed.apply(to: original, newVersion: newVersion) == newVersion)
    // Another program put a line at the top and changed the last line meanwhile.
    var outside = TodoList(bytes: original)
    outside.insert(Task(parsing: "from the editor"), at: 0)
    let changed = outside.serialized()
    let whole = try patch.apply(to: changed).bytes
    #expect(try hashed.apply(to: changed, newVersion: newVersion) == whole)
    #expect(whole != newVersion)
  }

  /// A line the patch takes that is gone from the file is a conflict, as with the whole patch.
  @Test func aTakenLineThatIsGoneIsAConflict() throws {
    let original = bytes("a\nx b\nc\n")
    var list = TodoList(bytes: original)
    list.remove(at: 1)
    let hashed = HashedPatchTests.expected(Patch(edits: list))
    #expect(throws: PatchConflict.self) {
      _ = try hashed.apply(to: bytes("a\nx B\nc\n"), newVersion: list.serialized())
    }
    // And a staged version of another length is not the one the patch was made for.
    #expect(throws: PatchConflict.self) {
      _ = try hashed.apply(to: original, newVersion: bytes("a\nc\nd\n"))
    }
  }

  /// Runs that overlap, leave the file or do not add up to the line counts are damage, even
  /// under a valid seal.
  @Test(arguments: [
    // oldCount, newCount, runs, then per run: unchanged lines before it, taken, brought.
    [3, 2, 1, 1, 5, 0],  // takes five lines of three
    [3, 2, 1, 4, 1, 0],  // starts past the end
    [3, 3, 1, 1, 1, 0],  // 3 - 1 + 0 is not 3
    [3, 2, 2, 1, 1, 0, 1, 1, 0],  // the second run starts past the end
  ])
  func inconsistentRunsAreDamage(_ fields: [Int]) throws {
    var writer = ByteWriter(magic: "test")
    var rest = fields[...]
    for _ in 0..<3 { writer.int(rest.removeFirst()) }
    while !rest.isEmpty {
      let taken = rest.dropFirst().first ?? 0
      for _ in 0..<3 { writer.int(rest.removeFirst()) }
      for _ in 0..<taken { writer.fixed64(7) }
    }
    var reader = try ByteReader(writer.sealed, magic: "test")
    #expect(throws: CorruptRecord.self) { _ = try reader.hashedPatch() }
  }
}

/// The journal's record of a patch made apart (on a second core, while the files are
/// written) is the record the journal would make of the patch itself.
@Suite struct RecordedPatchTests {
  @Test(arguments: [11, 12, 13, 14])
  func recordMadeApartSealsTheSameJournal(_ seed: UInt64) throws {
    let (original, edited) = HashedPatchTests.edit(300, seed: seed)
    let patch = Patch(edits: edited)
    var part = ByteWriter()
    part.hashedPatch(patch)
    let target = Target(
      path: "/lists/todo.txt", resolved: "/lists/todo.txt", directory: "/lists", name: "todo.txt",
      isDevice: false)
    func journal(_ lines: Journal.Lines) -> Journal {
      Journal(
        id: 7, entries: [Journal.Entry(target: target, oldHash: ContentHash.ofFile(original), newHash: 9, patch: lines)])
    }
    let key = [UInt8](repeating: 3, count: 32)
    let whole = journal(.whole(patch)).encoded(key: key)
    #expect(journal(.recorded(part.bytes)).encoded(key: key) == whole)
    // Read back, it is the fourth version's patch, as each kind of entry gives it.
    let read = try Journal(decoding: whole, key: key)
    let expected = HashedPatchTests.expected(patch)
    #expect(try read.entries[0].patch.hashedPatch() == expected)
    #expect(try Journal.Lines.recorded(part.bytes).hashedPatch() == expected)
    #expect(try Journal.Lines.whole(patch).hashedPatch() == expected)
  }
}
