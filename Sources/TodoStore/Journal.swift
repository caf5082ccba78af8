#if canImport(Glibc)
  import Glibc
#endif

/// The intent record of a change to several files, written before the first rename and
/// removed when every file is in place, so that a process killed in between is finished by
/// the next one (rolled forward: the files end up all new, never half moved).
///
/// A copy lies beside each file (`.todo.txt.journal`), so a command that touches only one of
/// the files still finds it. The copy beside the first file (in lock order) is the primary:
/// it is written last and removed first, so a copy without its primary is stale.
///
/// Each file's entry keeps the hashes of its old and new content and the line patch between
/// them. Rolling forward renames the temporary file when the file is still the old version,
/// and otherwise re-applies the patch, so an outside edit made before the recovery is kept.
struct Journal: Sendable {
  struct Entry: Sendable {
    var target: Target
    var oldHash: UInt64
    var newHash: UInt64
    var patch: Patch
  }

  /// The second version hashes files eight bytes at a time (``ContentHash/ofFile(_:)``); a
  /// first-version journal, left by an earlier release, is still read and finished.
  static let magic = "todo journal 2"
  static let firstMagic = "todo journal 1"

  var id: UInt64
  /// In lock order; the first is the primary.
  var entries: [Entry]
  /// 2, or 1 for a journal read from an earlier release (or written as one, by tests).
  var version = 2

  /// How this journal's file hashes are made.
  func hash(_ bytes: [UInt8]) -> UInt64 { version == 1 ? ContentHash.of(bytes) : ContentHash.ofFile(bytes) }

  static func path(for target: Target) -> String {
    Paths.join(target.directory, ".\(target.name).journal")
  }

  var primaryPath: String { entries.first.map { Journal.path(for: $0.target) } ?? "" }

  var encoded: [UInt8] {
    var writer = ByteWriter(magic: version == 1 ? Journal.firstMagic : Journal.magic)
    writer.int(Int(Int64(bitPattern: id)))
    writer.int(entries.count)
    for entry in entries {
      writer.string(entry.target.path)
      writer.string(entry.target.resolved)
      writer.int(Int(Int64(bitPattern: entry.oldHash)))
      writer.int(Int(Int64(bitPattern: entry.newHash)))
      writer.patch(entry.patch)
    }
    return writer.sealed
  }

  init(id: UInt64, entries: [Entry]) {
    self.id = id
    self.entries = entries
  }

  init(decoding bytes: [UInt8]) throws(CorruptRecord) {
    var reader: ByteReader
    do {
      reader = try ByteReader(bytes, magic: Journal.magic)
    } catch {
      reader = try ByteReader(bytes, magic: Journal.firstMagic)
      version = 1
    }
    id = UInt64(bitPattern: Int64(try reader.int()))
    entries = []
    for _ in 0..<(try reader.count()) {
      let path = try reader.string()
      let resolved = try reader.string()
      let (directory, name) = Paths.split(resolved)
      entries.append(
        Entry(
          target: Target(
            path: path, resolved: resolved, directory: directory, name: name, isDevice: false),
          oldHash: UInt64(bitPattern: Int64(try reader.int())),
          newHash: UInt64(bitPattern: Int64(try reader.int())),
          patch: try reader.patch()))
    }
  }
}

extension TodoStore {
  /// Writes every copy of the journal durably: the copies first, the primary last.
  func writeJournal(_ journal: Journal) throws(StoreError) {
    let bytes = journal.encoded
    for entry in journal.entries.dropFirst() + journal.entries.prefix(1) {
      let path = Journal.path(for: entry.target)
      let temporary = path + ".new"
      do throws(SystemError) {
        try? posix.unlink(temporary)
        let fd = try posix.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600)
        defer { posix.close(fd) }
        try posix.writeAll(fd, bytes, path: temporary)
        try posix.fsync(fd, path: temporary)
        try posix.rename(temporary, path)
        try posix.fsyncDirectory(entry.target.directory)
      } catch {
        try? posix.unlink(temporary)
        removeJournal(journal)
        throw StoreError(errno: error.code, path: entry.target.path, operation: .write)
      }
    }
  }

  /// Removes every copy, the primary first; each removal is made durable so that a finished
  /// change is never replayed.
  func removeJournal(_ journal: Journal) {
    for entry in journal.entries {
      try? posix.unlink(Journal.path(for: entry.target))
      try? posix.fsyncDirectory(entry.target.directory)
    }
  }

  func readJournal(_ path: String) -> Journal? {
    guard let fd = try? posix.open(path, O_RDONLY) else { return nil }
    defer { posix.close(fd) }
    guard let bytes = try? posix.readAll(fd, path: path) else { return nil }
    return try? Journal(decoding: bytes)
  }

  /// Finishes any change a killed process left behind on these files.
  func recoverInterruptedChanges(_ targets: [Target]) throws(StoreError) {
    for target in targets where !target.isDevice {
      let path = Journal.path(for: target)
      guard posix.lstat(path) != nil else { continue }
      guard let journal = readJournal(path) else { continue }
      if path != journal.primaryPath {
        guard let primary = readJournal(journal.primaryPath), primary.id == journal.id else {
          try? posix.unlink(path)
          continue
        }
      }
      try recover(journal)
    }
  }

  /// Rolls a journal forward under the locks of all its files.
  func recover(_ journal: Journal) throws(StoreError) {
    // Not `lock(_:)`: the temporary files it clears are the new versions to finish with.
    let locks = try lockInOrder(journal.entries.map(\.target))
    defer { for lock in locks { lock.release(posix: posix) } }
    guard let current = readJournal(journal.primaryPath), current.id == journal.id else { return }
    for entry in journal.entries {
      let file = try snapshot(entry.target)
      let hash = journal.hash(file.bytes)
      let temporaryPath = TodoStore.temporaryPath(entry.target)
      let staged = stagedBytes(temporaryPath)
      let stagedIsNew = staged.map { journal.hash($0) == entry.newHash } ?? false
      if hash == entry.newHash || (hash != entry.oldHash && !stagedIsNew) {
        // Renamed before the process died (then possibly edited by another program).
        if staged != nil { try? posix.unlink(temporaryPath) }
        continue
      }
      if hash == entry.oldHash, stagedIsNew {
        try replace(entry.target, with: temporaryPath)
        continue
      }
      let bytes: [UInt8]
      do {
        bytes = try entry.patch.apply(to: file.bytes).bytes
      } catch {
        throw StoreError(
          .unfinishedChange(journal: journal.primaryPath), path: entry.target.path,
          operation: .recover)
      }
      let temporary = try writeTemporary(bytes, for: entry.target, like: file.identity)
      try replace(entry.target, with: temporary)
    }
    removeJournal(journal)
  }

  private func stagedBytes(_ path: String) -> [UInt8]? {
    guard let fd = try? posix.open(path, O_RDONLY | O_NOFOLLOW) else { return nil }
    defer { posix.close(fd) }
    return try? posix.readAll(fd, path: path)
  }
}
