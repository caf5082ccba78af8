#if canImport(Glibc)
  import Glibc
#endif

/// One change in the undo log, as shown by `todo log`.
public struct UndoEntry: Equatable, Sendable {
  /// What one file gained and lost.
  public struct FileChange: Equatable, Sendable {
    /// The file, with symbolic links resolved.
    public var path: String
    /// The lines the change took out, in order.
    public var removed: [String]
    /// The lines the change put in, in order.
    public var added: [String]
    /// The file's size in bytes right after the change, `nil` when the entry predates the
    /// record of it: what lets a reader replaying the log tell whether the file was changed
    /// outside the tool between two entries (its size then differs).
    public var size: Int? = nil
  }

  /// The command that made the change (`"do 3"`).
  public var label: String
  /// Seconds since 1970.
  public var time: Int64
  /// The files changed, with symbolic links resolved.
  public var files: [String] { changes.map(\.path) }
  /// What the change did to each file.
  public var changes: [FileChange]
  /// The change was undone (and can be redone).
  public var isUndone: Bool
  /// The change was too large to keep; it cannot be undone.
  public var isRecorded: Bool
}

/// The undo log: one small file per change in a directory of the state directory,
/// `00000042.entry` while it is applied and `00000042.undone` once undone.
///
/// Each entry keeps the line patches of the change, so undo and redo apply them by content
/// (see ``Patch``). The log is bounded: the oldest entries beyond ``limit`` are removed, and
/// a change whose patch is larger than ``byteLimit`` keeps only its label. It is guarded by
/// its own lock, always taken after the data files' locks.
struct UndoLog {
  static let magic = "todo undo 1"
  /// The largest entry number taken for one: a change a second for three thousand years.
  static let largestSequence = 99_999_999_999
  let directory: String
  let limit: Int
  let byteLimit: Int

  struct Record {
    var sequence: Int
    var isUndone: Bool
    var label: String
    var time: Int64
    var isRecorded: Bool
    /// Per file: the path as named, the resolved path, the patch.
    var files: [(path: String, resolved: String, patch: Patch)]
    /// Per file, the size it had right after the change; empty in an entry written before
    /// sizes were kept (they follow the files as a trailer, so older entries still read).
    var sizes: [Int] = []

    var entry: UndoEntry {
      UndoEntry(
        label: label, time: time,
        changes: files.indices.map { index in
          let file = files[index]
          return UndoEntry.FileChange(
            path: file.resolved,
            removed: file.patch.hunks.flatMap {
              $0.old.map { String(decoding: $0.bytes, as: UTF8.self) }
            },
            added: file.patch.hunks.flatMap {
              $0.new.map { String(decoding: $0.bytes, as: UTF8.self) }
            }, size: index < sizes.count ? sizes[index] : nil)
        }, isUndone: isUndone, isRecorded: isRecorded)
    }
  }

  func fileName(_ sequence: Int, undone: Bool) -> String {
    var digits = String(sequence)
    if digits.count < 8 { digits = String(repeating: "0", count: 8 - digits.count) + digits }
    return Paths.join(directory, digits + (undone ? ".undone" : ".entry"))
  }

  /// Sequence numbers and states of the entries, oldest first.
  func list(posix: Posix) -> [(sequence: Int, isUndone: Bool)] {
    posix.directoryEntries(directory).compactMap { name -> (Int, Bool)? in
      let parts = name.split(separator: ".")
      // A number no run of the tool reaches (a planted or damaged name) is not an entry:
      // the next number after it would overflow.
      guard parts.count == 2, let sequence = Int(parts[0]), (0...UndoLog.largestSequence).contains(sequence)
      else { return nil }
      switch parts[1] {
      case "entry": return (sequence, false)
      case "undone": return (sequence, true)
      default: return nil
      }
    }.sorted { $0.0 < $1.0 }
  }

  func read(_ sequence: Int, undone: Bool, posix: Posix) -> Record? {
    let path = fileName(sequence, undone: undone)
    guard let fd = try? posix.open(path, O_RDONLY) else { return nil }
    defer { posix.close(fd) }
    guard let bytes = try? posix.readAll(fd, path: path) else { return nil }
    do throws(CorruptRecord) {
      var reader = try ByteReader(bytes, magic: UndoLog.magic)
      let label = try reader.string()
      let time = Int64(try reader.int())
      let isRecorded = try reader.int() == 1
      var files: [(String, String, Patch)] = []
      for _ in 0..<(try reader.count()) {
        files.append((try reader.string(), try reader.string(), try reader.patch()))
      }
      var sizes: [Int] = []
      if !reader.isAtEnd {
        let count = try reader.count()
        guard count == files.count else { throw CorruptRecord() }
        for _ in 0..<count { sizes.append(try reader.int()) }
      }
      return Record(
        sequence: sequence, isUndone: undone, label: label, time: time, isRecorded: isRecorded,
        files: files, sizes: sizes)
    } catch {
      return nil
    }
  }

  func encode(_ record: Record) -> [UInt8] {
    var writer = ByteWriter(magic: UndoLog.magic)
    encode(record, into: &writer)
    return writer.sealed
  }

  /// The size of ``encode(_:)``'s bytes, without making them: a change too large to keep is
  /// found out before tens of megabytes are encoded for nothing.
  ///
  /// Measuring stops once the size passes `limit` (the answer is then some size above it).
  func encodedCount(_ record: Record, limit: Int = Int.max) -> Int {
    var writer = ByteWriter(magic: UndoLog.magic, keeping: false)
    writer.limit = limit
    encode(record, into: &writer)
    return writer.count + 8
  }

  private func encode(_ record: Record, into writer: inout ByteWriter) {
    writer.string(record.label)
    writer.int(Int(record.time))
    writer.int(record.isRecorded ? 1 : 0)
    writer.int(record.files.count)
    for file in record.files {
      writer.string(file.path)
      writer.string(file.resolved)
      writer.patch(file.patch)
    }
    if record.sizes.count == record.files.count, !record.sizes.isEmpty {
      writer.int(record.sizes.count)
      for size in record.sizes { writer.int(size) }
    }
  }

  /// Writes an entry file whole (temporary file and rename), so a reader never sees half of
  /// one. The log is not fsync'd: losing the last undo step in a power cut is acceptable,
  /// slowing every command down is not.
  /// Returns whether the change was kept whole (false: too large, only its label is kept).
  @discardableResult
  func write(_ record: Record, posix: Posix) throws(SystemError) -> Bool {
    let whole = encodedCount(record, limit: byteLimit) <= byteLimit
    var bytes: [UInt8] = []
    if whole {
      bytes = encode(record)
    } else {
      var stub = record
      stub.isRecorded = false
      stub.files = record.files.map {
        ($0.path, $0.resolved, Patch(hunks: [], oldCount: 0, newCount: 0))
      }
      bytes = encode(stub)
    }
    let path = fileName(record.sequence, undone: record.isUndone)
    let temporary = path + ".new"
    let fd = try posix.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0o600)
    do {
      try posix.writeAll(fd, bytes, path: temporary)
      posix.close(fd)
      try posix.rename(temporary, path)
    } catch {
      posix.close(fd)
      try? posix.unlink(temporary)
      throw error
    }
    return whole
  }

  /// Creates the directory and its parents, private to the user.
  func create(posix: Posix) throws(SystemError) {
    var path = directory.hasPrefix("/") ? "" : "."
    for component in directory.split(separator: "/") {
      path += "/" + component
      if posix.stat(path)?.isDirectory == true { continue }
      try posix.mkdir(path)
    }
  }

  func lock(timeout: Double, posix: Posix) throws(StoreError) -> FileLock? {
    try FileLock.acquire(
      Paths.join(directory, "log"), shownAs: directory, timeout: timeout, posix: posix)
  }
}
