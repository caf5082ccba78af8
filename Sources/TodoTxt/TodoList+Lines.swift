#if canImport(Glibc)
  import Glibc
#endif

extension TodoList {
  /// Calls `body` with each line's 0-based index and bytes (without the line ending), without
  /// making a ``Task``: for passes over a whole file that must not allocate per line.
  public func forEachLineBytes(_ body: (Int, UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
    try forEachLine(body)
  }

  /// The list's bytes and where each line lies in them, for a pass over a large file that must
  /// not hold it twice: the bytes of a list unchanged since it was read are its own storage.
  ///
  /// - Parameter raw: see ``lineBounds(in:raw:)``.
  public func lineBounds(raw: Bool) -> (bytes: [UInt8], starts: [Int], ends: [Int]) {
    let bytes = isAsRead ? buffer : serialized()
    let (starts, ends) = TodoList.lineBounds(in: bytes, raw: raw)
    return (bytes, starts, ends)
  }

  /// Where each line of a file's bytes lies, split as ``init(bytes:)`` splits them: at LF, a
  /// CR before it ending the line too, a byte order mark before the first line.
  ///
  /// - Parameter raw: bounds as line-oriented Unix tools see a file: the mark belongs to the
  ///   first line and the CR of a CRLF ending to its line. Without it, lines are what ``Task``
  ///   parses. (A file of nothing but the mark has no line either way.)
  public static func lineBounds(in bytes: [UInt8], raw: Bool) -> (starts: [Int], ends: [Int]) {
    var starts: [Int] = []
    var ends: [Int] = []
    starts.reserveCapacity(bytes.count / 48 + 1)
    ends.reserveCapacity(bytes.count / 48 + 1)
    bytes.withUnsafeBufferPointer { b in
      guard let base = b.baseAddress else { return }
      let count = b.count
      let mark = b.starts(with: TodoList.byteOrderMark)
      var start = mark ? TodoList.byteOrderMark.count : 0
      while start < count {
        let newline = memchr(base + start, 0x0A, count - start).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? count
        starts.append(raw && mark && starts.isEmpty ? 0 : start)
        ends.append(!raw && newline > start && newline < count && b[newline - 1] == .cr ? newline - 1 : newline)
        start = newline + 1
      }
    }
    return (starts, ends)
  }

  /// How many lines end with LF and how many with CRLF.
  public var lineEndingCounts: (lf: Int, crlf: Int) {
    var lf = 0
    var crlf = 0
    for slot in slots {
      switch slot.ending {
      case .lf: lf += 1
      case .crlf: crlf += 1
      case .none: break
      }
    }
    return (lf, crlf)
  }
}
