import Glibc
import TodoStore
import TodoTxt

/// Keeps the todo file as the user last saw it, notices when it changes behind the shell's
/// back, and keeps task numbers pointing at the tasks the user meant.
///
/// Every line runs as a new command line that reads the file as it is now (the shell's
/// cache gives back only a version whose stamp is unchanged), so a number always names a
/// line of the file as it is now. After an outside edit that line may hold another
/// task: the number is then moved to where the task the user saw went, or, when that task is
/// gone or changed, the line is not run.
struct TodoFileWatch {
  let path: String
  let store: TodoStore
  /// The file's bytes when it was last seen (after the previous line ran). Kept as bytes and
  /// parsed only when a task number has to be followed (``seen``): a shell listing a
  /// million-line file reads it as bytes, and parsing each version it sees for the watch
  /// alone cost about as much as a listing, and a second array of slots.
  private(set) var seenBytes: [UInt8] = []
  private(set) var stamp: FileStamp?
  /// The stamp was settled when the file was seen: a later write is bound to change it (see
  /// ``FileStamp/isSettled(now:window:)``).
  private var settled = false

  /// - Parameter watching: whether to take the file as seen now.
  init(path: String, store: TodoStore, watching: Bool = true) {
    self.path = path
    self.store = store
    if watching { markSeen() }
  }

  /// The file as it is now (an empty list when it is missing or unreadable).
  func read() -> TodoList { (try? store.read(path)) ?? TodoList() }

  /// The file's bytes as they are now (none when it is missing or unreadable).
  func readBytes() -> [UInt8] { (try? store.readBytes(path)) ?? [] }

  /// The file as it was last seen.
  var seen: TodoList { TodoList(bytes: seenBytes) }

  /// The file changed since ``markSeen()``: its stamp did, or, when the stamp was too recent
  /// to show a second write in the same tick of the file system's clock, its lines did.
  var hasChanged: Bool {
    let now = FileStamp(path: path)
    if now != stamp { return true }
    return !settled && now != nil && readBytes() != seenBytes
  }

  /// Takes the file as it is now as what the user has seen.
  mutating func markSeen() {
    stamp = FileStamp(path: path)
    settled = stamp?.isSettled(now: FileStamp.wallClock()) ?? true
    seenBytes = readBytes()
  }

  /// Takes the version a line read or wrote (stamp and bytes) as what the user has seen:
  /// the file itself may already be another (see ``ReadCache/handedOut(_:)``).
  mutating func markSeen(stamp: FileStamp, bytes: [UInt8]) {
    self.stamp = stamp
    settled = stamp.isSettled(now: FileStamp.wallClock())
    seenBytes = bytes
  }

  /// The text of task `number` in the file as last seen (its line without the ending; a
  /// leading byte order mark left out), found by counting lines, without parsing the file;
  /// `nil` when there is no such line.
  func seenTask(_ number: Int) -> [UInt8]? {
    guard number >= 1 else { return nil }
    return seenBytes.withUnsafeBufferPointer { buffer -> [UInt8]? in
      guard let base = buffer.baseAddress else { return nil }
      var start = 0
      for _ in 1..<number {
        guard start < buffer.count, let hit = memchr(base + start, 0x0A, buffer.count - start) else { return nil }
        start = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - base + 1
      }
      guard start < buffer.count else { return nil }
      var end = memchr(base + start, 0x0A, buffer.count - start).map {
        UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base
      } ?? buffer.count
      if end > start, buffer[end - 1] == 0x0D, end < buffer.count { end -= 1 }
      if number == 1, end - start >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { start = 3 }
      return Array(buffer[start..<end])
    }
  }

  /// What became of a task number after an outside edit.
  enum Resolution: Equatable {
    /// The number still names the task the user saw (or one the user never saw).
    case unchanged
    /// The task the user saw is now at another number.
    case moved(to: Int)
    /// The task the user saw was changed or removed (or now appears more than once).
    case lost(line: String)
  }

  /// Where the task that had `number` in `seen` (the file as last seen, see ``seen``) is in
  /// `current`.
  static func resolve(_ number: Int, in current: TodoList, seen: TodoList) -> Resolution {
    guard let before = seen.task(number: number), !before.isBlank else { return .unchanged }
    if let now = current.task(number: number), now.bytes.elementsEqual(before.bytes) {
      return .unchanged
    }
    var found: [Int] = []
    for index in current.indices where current[index].bytes.elementsEqual(before.bytes) {
      found.append(index + 1)
      if found.count > 1 { break }
    }
    return found.count == 1 ? .moved(to: found[0]) : .lost(line: before.line)
  }
}
