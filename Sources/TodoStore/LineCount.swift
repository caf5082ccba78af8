import Dispatch
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
///
/// A remembered count is trusted only when it is this user's store's own: an entry is
/// sealed with HMAC-SHA-256 under the per-user key that seals journals (see
/// ``TodoStore/journalKey(creating:)``), over the file's resolved path, the key fields and
/// the counts. A wrong count would number the added tasks wrongly and record an undo step
/// that removes other lines, so an entry that is not sealed (written by hand, restored from
/// another machine, left by an earlier release, copied from another file's entry) is ignored
/// and the file counted again. The key fields are what no program can set back: the change
/// time changes with every write and every `touch -d`, so a file edited in the middle to the
/// same size with its modification time restored no longer matches its entry.

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

  /// Counts the newlines of an open file, a megabyte at a time, the two halves of a large
  /// file on two cores.
  static func count(_ fd: Int32, size: Int) -> LineCount? { counted(fd, size: size)?.counts }

  /// ``count(_:size:)``, and whether the file holds a merge conflict (a line that is
  /// `<<<<<<<` alone or before a space, and after it one that is `>>>>>>>` so), found in the
  /// same pass: the lines that start with `<` or `>` are noted as they go by and looked at
  /// afterwards. `nil` when the file cannot be read, or when so many lines start so that
  /// looking at each would cost more than reading the file whole.
  static func counted(_ fd: Int32, size: Int) -> (counts: LineCount, hasConflict: Bool)? {
    let cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    let parts = max(1, min(cores, 2, size / (8 << 20)))
    if parts == 1 {
      guard let part = count(fd, from: 0, to: size), let conflict = hasConflict([part], fd: fd, size: size) else {
        return nil
      }
      return (LineCount(lf: part.newlines - part.crlf, crlf: part.crlf), conflict)
    }
    let bounds = (0...parts).map { size / parts * $0 }.dropLast() + [size]
    let results = Results(count: parts)
    DispatchQueue.concurrentPerform(iterations: parts) { part in
      results.set(part, count(fd, from: bounds[part], to: bounds[part + 1]))
    }
    var newlines = 0
    var crlf = 0
    for part in 0..<parts {
      guard let result = results.get(part) else { return nil }
      newlines += result.newlines
      crlf += result.crlf
      // A CRLF split between two parts.
      if part > 0, let before = results.get(part - 1), before.last == 0x0D, result.first == 0x0A { crlf += 1 }
    }
    guard let conflict = hasConflict((0..<parts).compactMap(results.get), fd: fd, size: size) else { return nil }
    return (LineCount(lf: newlines - crlf, crlf: crlf), conflict)
  }

  /// Whether the lines the parts noted (starting with `<` or `>`) make a conflict: an opening
  /// line before a closing one. `nil` when a part noted too many to look at.
  static func hasConflict(_ parts: [Part], fd: Int32, size: Int) -> Bool? {
    guard parts.allSatisfy({ $0.starts.count <= Part.startLimit }) else { return nil }
    var firstOpening: Int?
    var lastClosing: Int?
    // Seven signs and the byte after them decide; a ninth byte shows a CR LF ending.
    var line = [UInt8](repeating: 0, count: 9)
    for offset in parts.flatMap(\.starts) {
      let read = line.withUnsafeMutableBytes { Glibc.pread(fd, $0.baseAddress, 9, off_t(offset)) }
      guard read >= 7 else { continue }
      switch TodoStore.conflictMarker(line[0..<read].prefix { $0 != 0x0A }) {
      case 0x3C?: firstOpening = min(firstOpening ?? offset, offset)
      case 0x3E?: lastClosing = max(lastClosing ?? offset, offset)
      default: break
      }
    }
    guard let firstOpening, let lastClosing else { return false }
    return firstOpening < lastClosing
  }

  /// One part's tally, with its first and last bytes (for a CRLF across parts).
  struct Part: Sendable {
    var newlines: Int
    var crlf: Int
    var first: UInt8
    var last: UInt8
    /// Where the lines of the part that start with `<` or `>` start (a conflict's markers
    /// are among them), up to one past ``startLimit``.
    var starts: [Int] = []

    static let startLimit = 4096
  }

  /// The parts' tallies, written by one thread each.
  final class Results: @unchecked Sendable {
    private var parts: [Part?]
    private var lock = pthread_mutex_t()

    init(count: Int) {
      parts = Array(repeating: nil, count: count)
      pthread_mutex_init(&lock, nil)
    }

    deinit { pthread_mutex_destroy(&lock) }

    func set(_ index: Int, _ part: Part?) {
      pthread_mutex_lock(&lock)
      parts[index] = part
      pthread_mutex_unlock(&lock)
    }

    func get(_ index: Int) -> Part? {
      pthread_mutex_lock(&lock)
      defer { pthread_mutex_unlock(&lock) }
      return parts[index]
    }
  }

  /// Tallies bytes `start..<end` of an open file.
  static func count(_ fd: Int32, from start: Int, to end: Int) -> Part? {
    var part = Part(newlines: 0, crlf: 0, first: 0, last: 0)
    var previous: UInt8 = 0
    var chunk = [UInt8](repeating: 0, count: min(1 << 20, max(end - start, 1)))
    var offset = start
    // The byte before each chunk, to tell whether its first byte starts a line.
    var before: UInt8 = 0x0A
    if start > 0 {
      var byte: UInt8 = 0
      guard Glibc.pread(fd, &byte, 1, off_t(start - 1)) == 1 else { return nil }
      before = byte
    }
    while offset < end {
      let wanted = min(chunk.count, end - offset)
      let read = chunk.withUnsafeMutableBytes { Glibc.pread(fd, $0.baseAddress, wanted, off_t(offset)) }
      if read < 0, errno == EINTR { continue }
      if read <= 0 { return nil }
      chunk.withUnsafeBufferPointer { b in
        let bytes = UnsafeBufferPointer(rebasing: b[0..<read])
        let (newlines, pairs) = tally(bytes)
        part.newlines += newlines
        part.crlf += pairs
        if offset == start { part.first = bytes[0] }
        if previous == 0x0D, bytes[0] == 0x0A { part.crlf += 1 }
        previous = bytes[read - 1]
        if part.starts.count <= Part.startLimit { noteStarts(bytes, at: offset, after: before, in: &part) }
        before = bytes[read - 1]
      }
      offset += read
    }
    part.last = previous
    return part
  }

  /// Notes where lines of `bytes` (at `offset` in the file, after the byte `before`) start
  /// with `<` or `>`: one memchr per sign and hit, vectorised in the C library.
  static func noteStarts(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, after before: UInt8, in part: inout Part) {
    guard let base = bytes.baseAddress else { return }
    for sign: UInt8 in [0x3C, 0x3E] {
      var from = 0
      while from < bytes.count, let hit = memchr(base + from, Int32(sign), bytes.count - from) {
        let at = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - base
        if (at == 0 ? before : base[at - 1]) == 0x0A {
          part.starts.append(offset + at)
          if part.starts.count > Part.startLimit { return }
        }
        from = at + 1
      }
    }
  }

  /// Newlines and CRLF pairs in `b`.
  ///
  /// Newlines are counted eight bytes at a time, four words per round; most files hold no
  /// carriage return at all, which one memchr (vectorised in the C library) tells, and only
  /// a file that does is looked at again for the pairs.
  static func tally(_ b: UnsafeBufferPointer<UInt8>) -> (newlines: Int, crlf: Int) {
    guard let base = b.baseAddress, !b.isEmpty else { return (0, 0) }
    let count = b.count
    let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    let lf: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
    let cr: UInt64 = 0x0D0D_0D0D_0D0D_0D0D
    /// One high bit per byte of `x` that is zero.
    func zeros(_ x: UInt64) -> UInt64 { ~(((x & low) &+ low) | x | low) }
    let raw = UnsafeRawPointer(base)
    var newlines = 0
    var index = 0
    while index + 32 <= count {
      // One counter per byte lane (a newline adds one to its lane), summed across the lanes
      // by a multiplication before any lane can pass 255: no popcount instruction is assumed.
      var lanes: UInt64 = 0
      var rounds = 0
      while rounds < 63, index + 32 <= count {
        lanes &+= zeros(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ lf) >> 7
        lanes &+= zeros(raw.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self) ^ lf) >> 7
        lanes &+= zeros(raw.loadUnaligned(fromByteOffset: index + 16, as: UInt64.self) ^ lf) >> 7
        lanes &+= zeros(raw.loadUnaligned(fromByteOffset: index + 24, as: UInt64.self) ^ lf) >> 7
        index += 32
        rounds += 1
      }
      // Each lane holds at most 252: spread over sixteen-bit lanes, four of them sum into
      // the top sixteen bits of the product.
      let even = lanes & 0x00FF_00FF_00FF_00FF
      let odd = (lanes >> 8) & 0x00FF_00FF_00FF_00FF
      newlines &+= Int(truncatingIfNeeded: (even &* 0x0001_0001_0001_0001) >> 48)
      newlines &+= Int(truncatingIfNeeded: (odd &* 0x0001_0001_0001_0001) >> 48)
    }
    while index < count {
      if b[index] == 0x0A { newlines += 1 }
      index += 1
    }
    guard count > 1, memchr(base, 0x0D, count) != nil else { return (newlines, 0) }
    var pairs = 0
    index = 1
    while index + 8 <= count {
      let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      let before = raw.loadUnaligned(fromByteOffset: index - 1, as: UInt64.self)
      pairs &+= (zeros(word ^ lf) & zeros(before ^ cr)).nonzeroBitCount
      index += 8
    }
    while index < count {
      if b[index] == 0x0A, b[index - 1] == 0x0D { pairs += 1 }
      index += 1
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

  /// The seal of a remembered-counts entry: HMAC-SHA-256 under `key`, in hexadecimal.
  static func lineCountSeal(resolved: String, entry: String, key: [UInt8]) -> String {
    var code = Authenticator(key: key)
    code.update(Array("todo line counts 2\n\(resolved)\n\(entry)".utf8))
    return code.finish().map { byte in
      let hex = String(byte, radix: 16)
      return hex.count == 1 ? "0" + hex : hex
    }.joined()
  }

  /// The counts remembered for the file open as `fd`, when an entry sealed by this user's
  /// store matches the file as it is now and holds counts the file's size allows.
  func rememberedLineCount(_ fd: Int32, info: Glibc.stat, resolved: String) -> LineCount? {
    guard let key = lineCountKey(fd, info), let path = lineCountPath(resolved),
      let saved = Posix.readSmall(path), let secret = journalKey(creating: false)
    else { return nil }
    let parts = String(decoding: saved, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    guard parts.count >= 3, parts[0] == key else { return nil }
    let entry = "\(parts[0])\n\(parts[1])\n"
    guard parts[2] == TodoStore.lineCountSeal(resolved: resolved, entry: entry, key: secret) else { return nil }
    let numbers = parts[1].split(separator: " ").compactMap { Int($0) }
    guard numbers.count == 2, numbers[0] >= 0, numbers[1] >= 0,
      numbers[0] + 2 * numbers[1] <= Int(info.st_size)
    else { return nil }
    return LineCount(lf: numbers[0], crlf: numbers[1])
  }

  /// The counts of an open file: remembered, or counted (and then remembered).
  func lineCount(_ fd: Int32, resolved: String) -> LineCount? {
    guard let info = try? posix.fstat(fd) else { return nil }
    if let remembered = rememberedLineCount(fd, info: info, resolved: resolved) { return remembered }
    // The pass that counts also looks for a conflict; a file that holds one (or cannot be
    // told) is read whole, where it is checked.
    guard let (counted, conflict) = LineCount.counted(fd, size: Int(info.st_size)), !conflict else { return nil }
    rememberLineCount(counted, fd: fd, resolved: resolved, checked: true)
    return counted
  }

  /// Remembers the counts of a file just written (open as `fd`). Failures are ignored: the
  /// counts are only a shortcut.
  ///
  /// Only counts of a version checked for conflict markers are remembered, so that counts
  /// found later stand for a checked version (an append to a large file reads nothing else
  /// of it).
  ///
  /// - Parameter checked: the version is known to hold no conflict (by default: this store
  ///   refuses them, so what it read was checked).
  func rememberLineCount(_ counts: LineCount, fd: Int32, resolved: String, checked: Bool? = nil) {
    guard checked ?? refusesConflictMarkers, let path = lineCountPath(resolved), let info = try? posix.fstat(fd),
      Int(info.st_size) >= LineCount.threshold, let key = lineCountKey(fd, info),
      let secret = journalKey(creating: true)
    else { return }
    let entry = "\(key)\n\(counts.lf) \(counts.crlf)\n"
    let text = Array((entry + TodoStore.lineCountSeal(resolved: resolved, entry: entry, key: secret) + "\n").utf8)
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
  func rememberLineCount(of content: FileChange.Content, counts: LineCount? = nil, at resolved: String) {
    guard content.count >= LineCount.threshold, lineCountPath(resolved) != nil,
      let fd = try? posix.open(resolved, O_RDONLY)
    else { return }
    defer { posix.close(fd) }
    let counted: LineCount
    switch (counts, content) {
    case (let counts?, _): counted = counts
    case (nil, .list(let list, _)): counted = LineCount(list)
    case (nil, .bytes(let bytes)):
      counted = bytes.withUnsafeBufferPointer { bytes in
        let (lf, crlf) = LineCount.tally(bytes)
        return LineCount(lf: lf - crlf, crlf: crlf)
      }
    }
    // A store that lets conflicts through (undo, resolve, the name todo.sh) checks what it
    // wrote, a line at a time.
    rememberLineCount(counted, fd: fd, resolved: resolved, checked: refusesConflictMarkers || !content.hasConflictMarkers)
  }
}

extension FileChange.Content {
  /// Whether the bytes hold a merge conflict, as ``TodoStore/hasConflictMarkers(_:)`` says
  /// (a list is asked line by line, without making its bytes whole).
  var hasConflictMarkers: Bool {
    switch self {
    case .bytes(let bytes): return TodoStore.hasConflictMarkers(bytes)
    case .list(let list, _):
      var opened = false
      for index in 0..<list.count where TodoStore.conflictMarker(list.lineBytes(at: index)) == (opened ? 0x3E : 0x3C) {
        if opened { return true }
        opened = true
      }
      return false
    }
  }
}

extension TodoStore {
  /// ``ListCheck/conflictMarker(_:)`` of a line as it lies in a file, a CR before its newline
  /// not counted.
  static func conflictMarker<Line: BidirectionalCollection<UInt8>>(_ line: Line) -> UInt8? {
    line.last == 0x0D ? ListCheck.conflictMarker(line.dropLast()) : ListCheck.conflictMarker(line)
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
