extension TodoList {
  /// Calls `body` with each line's 0-based index and bytes (without the line ending), without
  /// making a ``Task``: for passes over a whole file that must not allocate per line.
  public func forEachLineBytes(_ body: (Int, UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
    try forEachLine(body)
  }

  /// The list's bytes and where each line lies in them, for a pass over a large file that must
  /// not hold it twice: the returned bytes share the list's storage.
  ///
  /// - Parameter raw: bounds as line-oriented Unix tools see a file: a byte order mark belongs
  ///   to the first line and the carriage return of a CRLF ending to its line. Without it,
  ///   lines are what ``Task`` parses.
  public func lineBounds(raw: Bool) -> (bytes: [UInt8], starts: [Int], ends: [Int]) {
    var starts: [Int] = []
    var ends: [Int] = []
    starts.reserveCapacity(slots.count)
    ends.reserveCapacity(slots.count)
    // Edited lines live in another buffer: the bounds are then those of the file as it would
    // be written.
    guard isAsRead else { return TodoList(bytes: serialized()).lineBounds(raw: raw) }
    var contiguous = true
    buffer.withUnsafeBufferPointer { b in
      slots.withUnsafeBufferPointer { slots in
        for index in 0..<slots.count {
          let slot = slots[index]
          var start = slot.start
          var end = slot.end
          if raw {
            if index == 0, hasByteOrderMark {
              // An edited first line no longer follows the mark in the buffer.
              guard start == TodoList.byteOrderMark.count else {
                contiguous = false
                return
              }
              start = 0
            }
            if slot.ending == .crlf {
              // Nor does an edited line's carriage return follow it.
              guard end < b.count, b[end] == .cr else {
                contiguous = false
                return
              }
              end += 1
            }
          }
          starts.append(start)
          ends.append(end)
        }
      }
    }
    guard contiguous else { return TodoList(bytes: serialized()).lineBounds(raw: raw) }
    return (buffer, starts, ends)
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
