import TodoTxt

#if canImport(Glibc)
  import Glibc
#endif

/// What an append needs to know about a file without reading it whole: how many lines it has
/// (the new task numbers), which ending most of them use (the new lines get it), and its last
/// line (where undo finds the added lines again).
///
/// The counts of a large file are remembered in the state directory (`lines/`), keyed by the
/// file's identity (device, inode, size, modification and change times) and checked against
/// its last bytes, so `add` to a million-line file reads only its end. Every write this store
/// makes records the new counts; a file changed by another program is counted again, a
/// megabyte at a time.
struct LineCount: Equatable, Sendable {
  var lf: Int
  var crlf: Int
  /// Lines: every newline ends one (the caller only uses this for files ending in a newline).
  var lines: Int { lf + crlf }
  var preferred: LineEnding { crlf > lf ? .crlf : .lf }

  /// Files below this size are read whole, as before; the counts matter for larger ones.
  static let threshold = 1 << 20
  /// How many of the file's last bytes the remembered counts are checked against.
  static let tailCheck = 64

  /// Counts the newlines of an open file in chunks.
  static func count(_ fd: Int32, size: Int) -> LineCount? {
    var lf = 0
    var crlf = 0
    var previous: UInt8 = 0
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    var offset = 0
    while offset < size {
      let read = chunk.withUnsafeMutableBytes { Glibc.pread(fd, $0.baseAddress, $0.count, off_t(offset)) }
      if read < 0, errno == EINTR { continue }
      if read <= 0 { return nil }
      chunk.withUnsafeBufferPointer { b in
        let part = UnsafeBufferPointer(rebasing: b[0..<read])
        let (newlines, pairs) = tally(part)
        lf += newlines
        crlf += pairs
        if previous == 0x0D, part[0] == 0x0A { crlf += 1 }
        previous = part[read - 1]
      }
      offset += read
    }
    return LineCount(lf: lf - crlf, crlf: crlf)
  }

  /// The newlines in `b`, and how many of them follow a carriage return inside `b`. Bytes
  /// are compared eight at a time (an exact zero-byte test on a 64-bit word, then a
  /// population count); pairs are looked for only when there is a carriage return at all.
  static func tally(_ b: UnsafeBufferPointer<UInt8>) -> (newlines: Int, crlf: Int) {
    var newlines = 0
    var returns = 0
    let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    let lf: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
    let cr: UInt64 = 0x0D0D_0D0D_0D0D_0D0D
    /// One high bit per byte of `x` that is zero.
    func zeros(_ x: UInt64) -> UInt64 { ~(((x & low) &+ low) | x | low) }
    var index = 0
    if let base = b.baseAddress {
      let raw = UnsafeRawPointer(base)
      while index + 8 <= b.count {
        let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        newlines &+= zeros(word ^ lf).nonzeroBitCount
        returns &+= zeros(word ^ cr).nonzeroBitCount
        index += 8
      }
    }
    while index < b.count {
      newlines &+= b[index] == 0x0A ? 1 : 0
      returns &+= b[index] == 0x0D ? 1 : 0
      index += 1
    }
    var pairs = 0
    if returns > 0, b.count > 1 {
      for index in 1..<b.count where b[index] == 0x0A && b[index - 1] == 0x0D { pairs += 1 }
    }
    return (newlines, pairs)
  }

  /// The bytes from `start` to `end`.
  static func bytes(_ fd: Int32, from start: Int, to end: Int) -> [UInt8]? {
    var result = [UInt8](repeating: 0, count: end - start)
    var done = 0
    while done < result.count {
      let read = result.withUnsafeMutableBytes {
        Glibc.pread(fd, $0.baseAddress! + done, $0.count - done, off_t(start + done))
      }
      if read < 0, errno == EINTR { continue }
      if read <= 0 { return nil }
      done += read
    }
    return result
  }

  /// The last line of a file that ends with a newline, without its ending (and without a byte
  /// order mark when it is also the first line).
  static func lastLine(_ fd: Int32, size: Int) -> [UInt8]? {
    var window = 4096
    while true {
      let start = max(0, size - window)
      guard var tail = bytes(fd, from: start, to: size), tail.last == 0x0A else { return nil }
      tail.removeLast()
      if let newline = tail.lastIndex(of: 0x0A) {
        tail.removeSubrange(0...newline)
      } else if start > 0 {
        window *= 4
        continue
      } else if tail.starts(with: TodoList.byteOrderMark) {
        tail.removeFirst(3)
      }
      if tail.last == 0x0D { tail.removeLast() }
      return tail
    }
  }
}

extension TodoStore {
  /// The remembered-counts file of a resolved path.
  func lineCountPath(_ resolved: String) -> String? {
    guard let stateDirectory else { return nil }
    let hash = ContentHash.of(Array(resolved.utf8))
    return Paths.join(Paths.join(stateDirectory, "lines"), String(hash, radix: 16))
  }

  /// The identity fields and the last bytes the counts are valid for, as one line of text.
  private func lineCountKey(_ fd: Int32, _ info: Glibc.stat) -> String? {
    let size = Int(info.st_size)
    guard let tail = LineCount.bytes(fd, from: max(0, size - LineCount.tailCheck), to: size) else { return nil }
    let fields: [Int] = [
      Int(info.st_dev), Int(info.st_ino), size, info.st_mtim.tv_sec, info.st_mtim.tv_nsec,
      info.st_ctim.tv_sec, info.st_ctim.tv_nsec, Int(ContentHash.of(tail) & 0x7FFF_FFFF_FFFF_FFFF),
    ]
    return fields.map { String($0) }.joined(separator: " ")
  }

  /// The counts of an open file: remembered, or counted (and then remembered).
  func lineCount(_ fd: Int32, resolved: String) -> LineCount? {
    guard let info = try? posix.fstat(fd) else { return nil }
    let key = lineCountKey(fd, info)
    if let key, let path = lineCountPath(resolved), let saved = Posix.readSmall(path) {
      let text = String(decoding: saved, as: UTF8.self)
      let parts = text.split(separator: "\n", omittingEmptySubsequences: false)
      if parts.count >= 2, parts[0] == key {
        let numbers = parts[1].split(separator: " ").compactMap { Int($0) }
        if numbers.count == 2 { return LineCount(lf: numbers[0], crlf: numbers[1]) }
      }
    }
    guard let counted = LineCount.count(fd, size: Int(info.st_size)) else { return nil }
    rememberLineCount(counted, fd: fd, resolved: resolved)
    return counted
  }

  /// Remembers the counts of a file just written (open as `fd`). Failures are ignored: the
  /// counts are only a shortcut.
  func rememberLineCount(_ counts: LineCount, fd: Int32, resolved: String) {
    guard let path = lineCountPath(resolved), let info = try? posix.fstat(fd),
      Int(info.st_size) >= LineCount.threshold, let key = lineCountKey(fd, info)
    else { return }
    let text = Array("\(key)\n\(counts.lf) \(counts.crlf)\n".utf8)
    let directory = Paths.split(path).directory
    if posix.stat(directory) == nil {
      guard (try? UndoLog(directory: directory, limit: 0, byteLimit: 0).create(posix: posix)) != nil else { return }
    }
    guard let out = try? posix.open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600) else { return }
    defer { posix.close(out) }
    try? posix.writeAll(out, text, path: path)
  }

  /// Remembers the counts of bytes just written to `resolved` (`counts`, when the list they
  /// came from gave them).
  func rememberLineCount(of bytes: [UInt8], counts: LineCount? = nil, at resolved: String) {
    guard bytes.count >= LineCount.threshold, lineCountPath(resolved) != nil,
      let fd = try? posix.open(resolved, O_RDONLY)
    else { return }
    defer { posix.close(fd) }
    let counted =
      counts
      ?? bytes.withUnsafeBufferPointer { bytes in
        let (lf, crlf) = LineCount.tally(bytes)
        return LineCount(lf: lf - crlf, crlf: crlf)
      }
    rememberLineCount(counted, fd: fd, resolved: resolved)
  }
}

extension LineCount {
  /// The counts of a list's lines, from the endings it keeps per line.
  init(_ list: TodoList) {
    let (lf, crlf) = list.lineEndingCounts
    self.init(lf: lf, crlf: crlf)
  }
}

extension Posix {
  /// A small file's bytes (at most 4 KiB), or `nil`.
  static func readSmall(_ path: String) -> [UInt8]? {
    let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { _ = Glibc.close(fd) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let read = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
    guard read > 0 else { return nil }
    return Array(buffer[0..<read])
  }
}
