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
    lineBounds(in: bytes, part: 0..<bytes.count, raw: raw)
  }

  /// ``lineBounds(in:raw:)`` of the file whose bytes are `bytes[part]` (files read one after
  /// another into one buffer), as positions in `bytes`.
  public static func lineBounds(in bytes: [UInt8], part: Range<Int>, raw: Bool) -> (starts: [Int], ends: [Int]) {
    // Room for lines of 48 bytes on average, on huge pages when that is large (see
    // ``HugePages``); a file of shorter lines grows the arrays after.
    let room = HugePages.capacity(atLeast: part.count / 48 + 1, of: Int.self)
    let offset = part.lowerBound
    var next = 0
    var starts: [Int] = []
    var ends: [Int] = []
    bytes.withUnsafeBufferPointer { whole in
      let b = UnsafeBufferPointer(rebasing: whole[part])
      let count = b.count
      let mark = b.starts(with: TodoList.byteOrderMark)
      next = mark ? TodoList.byteOrderMark.count : 0
      // The end of the line that starts at `start`, and where the next one starts.
      func bounds(_ start: Int) -> (start: Int, end: Int, next: Int) {
        guard let base = b.baseAddress else { return (start, start, count) }
        let newline = memchr(base + start, 0x0A, count - start).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? count
        let end = !raw && newline > start && newline < count && b[newline - 1] == .cr ? newline - 1 : newline
        return (raw && mark && start == TodoList.byteOrderMark.count ? 0 : start, end, newline + 1)
      }
      starts = [Int](unsafeUninitializedCapacity: room) { startsOut, filled in
        HugePages.advise(UnsafeMutableRawBufferPointer(startsOut))
        ends = [Int](unsafeUninitializedCapacity: room) { endsOut, endsFilled in
          HugePages.advise(UnsafeMutableRawBufferPointer(endsOut))
          var lines = 0
          while next < count, lines < room {
            let line = bounds(next)
            startsOut[lines] = line.start + offset
            endsOut[lines] = line.end + offset
            next = line.next
            lines += 1
          }
          endsFilled = lines
        }
        filled = ends.count
      }
      while next < count {
        let line = bounds(next)
        starts.append(line.start + offset)
        ends.append(line.end + offset)
        next = line.next
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
