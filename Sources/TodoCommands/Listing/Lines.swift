import TodoTxt

#if canImport(Glibc)
  import Glibc
#endif

/// Lines held in one byte buffer, so that a listing of a large file allocates per file and not
/// per line.
struct Lines {
  var buffer: [UInt8] = []
  var starts: [Int] = []
  var ends: [Int] = []

  init() {}

  init(_ lines: [[UInt8]]) {
    for line in lines { append(line) }
  }

  /// The lines of a file's bytes, split as ``TodoList`` splits them (see
  /// ``TodoList/lineBounds(in:raw:)``).
  init(bytes: [UInt8], raw: Bool) {
    buffer = bytes
    (starts, ends) = TodoList.lineBounds(in: bytes, raw: raw)
  }

  /// The lines of the files whose bytes are `bytes[part]` for each of `parts` (files read
  /// into one buffer, see ``CommandContext/readBytes(joining:)``), one file's after another's,
  /// sharing the buffer: each file's lines as it alone would have them.
  init(bytes: [UInt8], parts: [Range<Int>], raw: Bool) {
    buffer = bytes
    for part in parts {
      let (partStarts, partEnds) = TodoList.lineBounds(in: bytes, part: part, raw: raw)
      if starts.isEmpty {
        (starts, ends) = (partStarts, partEnds)
      } else {
        starts += partStarts
        ends += partEnds
      }
    }
  }

  /// The lines of a list, sharing its bytes (see ``TodoList/lineBounds(raw:)``).
  init(list: TodoList, raw: Bool) {
    (buffer, starts, ends) = list.lineBounds(raw: raw)
  }

  var count: Int { starts.count }
  var isEmpty: Bool { starts.isEmpty }

  mutating func append(_ line: some Collection<UInt8>) {
    starts.append(buffer.count)
    buffer.append(contentsOf: line)
    ends.append(buffer.count)
  }

  /// These lines, then `other`'s, in one buffer (one copy of each file's bytes, none per line).
  func appending(_ other: Lines) -> Lines {
    // Nothing to add: the same lines, sharing the buffer (appending even nothing copies it).
    guard !other.isEmpty else { return self }
    var result = self
    let offset = buffer.count
    result.buffer.append(contentsOf: other.buffer)
    result.starts.append(contentsOf: other.starts.lazy.map { $0 + offset })
    result.ends.append(contentsOf: other.ends.lazy.map { $0 + offset })
    return result
  }

  /// listall's awk step on the lines at `indices`, in their own bytes: each becomes its words
  /// joined by one space (see ``ListEngine/PostFilter/Step/joinsFields``), and ends where its
  /// words end. Returns whether each of them kept a word (a line of only blanks and tabs is,
  /// after the step, its number alone, without the blank a numbered line has).
  mutating func joinFields(of indices: [Int32]) -> Bool {
    var everyLineHasWords = true
    buffer.withUnsafeMutableBufferPointer { b in
      for index32 in indices {
        let index = Int(index32)
        let joined = ListingRows.joinWords(b, from: starts[index], to: ends[index], writingAt: starts[index], blankFirst: false)
        ends[index] = joined.end
        if joined.words == 0 { everyLineHasWords = false }
      }
    }
    return everyLineHasWords
  }

  mutating func reserve(lines: Int, bytes: Int) {
    buffer.reserveCapacity(bytes)
    starts.reserveCapacity(lines)
    ends.reserveCapacity(lines)
  }

  func line(_ index: Int) -> [UInt8] { Array(buffer[starts[index]..<ends[index]]) }

  /// The task on line `index` (of lines without their line endings).
  func task(_ index: Int) -> Task { Task(bytes: buffer[starts[index]..<ends[index]]) }

  var all: [[UInt8]] { (0..<count).map(line) }

  /// The lines with a token starting with `token` (`due:`, `p:`), in file order: the quick
  /// test (``NativeListing/hasToken(_:_:)``) before a line is parsed as a task.
  func indices(holdingToken token: StaticString) -> [Int] {
    var found: [Int] = []
    buffer.withUnsafeBufferPointer { b in
      for index in 0..<count where NativeListing.hasToken(UnsafeBufferPointer(rebasing: b[starts[index]..<ends[index]]), token) {
        found.append(index)
      }
    }
    return found
  }

  /// Whether line `index` has a token starting with `token`.
  func holdsToken(_ index: Int, _ token: StaticString) -> Bool {
    buffer.withUnsafeBufferPointer { NativeListing.hasToken(UnsafeBufferPointer(rebasing: $0[starts[index]..<ends[index]]), token) }
  }

  /// Each line's task, made only when it is read.
  var tasks: LazyMapCollection<Range<Int>, Task> { (0..<count).lazy.map { task($0) } }

  /// Keeps the lines for which `keep` is true; the buffer is shared, not copied.
  func filter(_ keep: (UnsafeBufferPointer<UInt8>) -> Bool) -> Lines {
    var result = Lines()
    result.buffer = buffer
    buffer.withUnsafeBufferPointer { b in
      for index in 0..<starts.count {
        if keep(UnsafeBufferPointer(rebasing: b[starts[index]..<ends[index]])) {
          result.starts.append(starts[index])
          result.ends.append(ends[index])
        }
      }
    }
    return result
  }

  /// The lines in the order of `order` (indices into this collection).
  func reordered(_ order: [Int]) -> Lines {
    var result = Lines()
    result.buffer = buffer
    result.starts = order.map { starts[$0] }
    result.ends = order.map { ends[$0] }
    return result
  }

  // MARK: Literals

  /// For each line, whether it holds every one of `literals` (see ``RequiredLiteral``);
  /// `nil` when there is nothing to look for.
  ///
  /// One literal is looked for in the whole buffer at once, by its rarest byte (`memchr`
  /// runs through a file far faster than a line at a time), and only the lines it is found
  /// in are checked for the others. A byte's rarity is guessed from a sample of the buffer.
  func holding(_ literals: [RequiredLiteral]) -> [Bool]? {
    guard !literals.isEmpty else { return nil }
    var holds = [Bool](repeating: false, count: count)
    buffer.withUnsafeBufferPointer { bytes in
      guard let base = bytes.baseAddress else { return }
      let frequency = Lines.sampledFrequency(bytes)
      // The literal whose anchor is rarest, among those every line must hold as bytes.
      var best: (literal: Int, anchor: Int, weight: Int)?
      for (position, literal) in literals.enumerated() where !literal.onlyInASCIILines {
        for (offset, byte) in literal.bytes.enumerated() {
          let weight = Lines.variants(byte, literal.ignoresCase).reduce(0) { $0 + frequency[Int($1)] }
          if best.map({ weight < $0.weight }) ?? true { best = (position, offset, weight) }
        }
      }
      func othersHold(_ line: Int, except skipped: Int?) -> Bool {
        let content = UnsafeBufferPointer(rebasing: bytes[starts[line]..<ends[line]])
        for (position, literal) in literals.enumerated() where position != skipped {
          if literal.onlyInASCIILines, NativeListing.hasNonASCII(content) { continue }
          if !Lines.occurs(literal, in: content) { return false }
        }
        return true
      }
      guard let best else {
        for line in 0..<count { holds[line] = othersHold(line, except: nil) }
        return
      }
      let literal = literals[best.literal]
      let needle = literal.bytes
      let anchor = best.anchor
      let variants = Lines.variants(needle[anchor], literal.ignoresCase)
      // The next place of each variant of the anchor byte at or after `from` (the buffer's
      // end when there is none): with a letter that ignores case, both are followed.
      var next = variants.map { _ in -1 }
      func find(_ variant: Int, from: Int) -> Int {
        guard from < bytes.count, let hit = memchr(base + from, Int32(variants[variant]), bytes.count - from) else {
          return bytes.count
        }
        return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
      }
      var from = anchor
      var line = 0
      while true {
        var hit = bytes.count
        for variant in variants.indices {
          if next[variant] < from { next[variant] = find(variant, from: from) }
          hit = min(hit, next[variant])
        }
        guard hit < bytes.count else { break }
        from = hit + 1
        let start = hit - anchor
        guard start + needle.count <= bytes.count,
          Lines.matches(needle, ignoresCase: literal.ignoresCase, at: UnsafeBufferPointer(rebasing: bytes[start...]))
        else { continue }
        // The line holding `start`: the last whose start is not after it (hits only grow).
        line = Lines.lastIndex(in: starts, notAfter: start, from: line)
        guard line >= 0 else {
          line = 0
          continue
        }
        guard start + needle.count <= ends[line] else { continue }
        holds[line] = othersHold(line, except: best.literal)
        // One find is enough: on to the next line.
        guard line + 1 < count else { break }
        from = max(from, starts[line + 1] + anchor)
      }
    }
    return holds
  }

  /// Calls `body` with the index of each line that has a byte outside ASCII, in order, found
  /// by one pass over the whole buffer eight bytes at a time.
  func forEachLineWithNonASCII(_ body: (Int) -> Void) {
    buffer.withUnsafeBufferPointer { bytes in
      guard let base = bytes.baseAddress else { return }
      let raw = UnsafeRawPointer(base)
      let count = bytes.count
      var from = 0
      var line = 0
      while from < count {
        // The next byte at or after `from` with its high bit set.
        var at = from
        while at + 8 <= count, raw.loadUnaligned(fromByteOffset: at, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
          at += 8
        }
        while at < count, bytes[at] < 0x80 { at += 1 }
        guard at < count else { return }
        line = Lines.lastIndex(in: starts, notAfter: at, from: line)
        // Before the first line (a byte order mark) or in a line's ending: no line's text.
        guard line >= 0, at < ends[line] else {
          line = max(line, 0)
          from = at + 1
          continue
        }
        body(line)
        from = ends[line]
      }
    }
  }

  /// How often each byte value occurs in a sample of `bytes`: sixteen stretches of 4 KiB
  /// spread over a large buffer, or all of a small one.
  private static func sampledFrequency(_ bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
    var frequency = [Int](repeating: 0, count: 256)
    let stretch = 4096
    let stretches = 16
    if bytes.count <= stretch * stretches {
      for byte in bytes { frequency[Int(byte)] += 1 }
      return frequency
    }
    let step = bytes.count / stretches
    for index in 0..<stretches {
      for byte in bytes[(index * step)..<(index * step + stretch)] { frequency[Int(byte)] += 1 }
    }
    return frequency
  }

  /// The bytes a literal's byte matches: an ASCII letter in both cases when case is ignored.
  private static func variants(_ byte: UInt8, _ ignoresCase: Bool) -> [UInt8] {
    ignoresCase && (97...122).contains(byte) ? [byte, byte - 32] : [byte]
  }

  /// Whether `text` starts with `needle` (lower-cased when `ignoresCase`).
  private static func matches(_ needle: [UInt8], ignoresCase: Bool, at text: UnsafeBufferPointer<UInt8>) -> Bool {
    guard text.count >= needle.count else { return false }
    for (offset, expected) in needle.enumerated() {
      var byte = text[offset]
      if ignoresCase, (65...90).contains(byte) { byte += 32 }
      if byte != expected { return false }
    }
    return true
  }

  /// Whether `literal` occurs in `line`.
  private static func occurs(_ literal: RequiredLiteral, in line: UnsafeBufferPointer<UInt8>) -> Bool {
    if literal.ignoresCase { return TermMatcher.occurs(literal.bytes, in: line) }
    let needle = literal.bytes
    guard let first = needle.first, line.count >= needle.count, let base = line.baseAddress else {
      return needle.isEmpty
    }
    let last = line.count - needle.count
    var from = 0
    while from <= last, let hit = memchr(base + from, Int32(first), last - from + 1) {
      let start = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
      if Lines.matches(needle, ignoresCase: false, at: UnsafeBufferPointer(rebasing: line[start...])) { return true }
      from = start + 1
    }
    return false
  }

  /// The last index of `starts` (ascending) whose value is at most `position`, looked for
  /// from `from` on (the answer is known not to be before it); -1 when there is none.
  private static func lastIndex(in starts: [Int], notAfter position: Int, from: Int) -> Int {
    guard from < starts.count, starts[from] <= position else { return from == 0 ? -1 : from - 1 }
    // Galloping: the next find is usually a few lines on.
    var low = from
    var step = 1
    var high = from + 1
    while high < starts.count, starts[high] <= position {
      low = high
      step *= 2
      high = low + step
    }
    high = min(high, starts.count)
    // starts[low] <= position; starts[high] > position or high == count.
    while high - low > 1 {
      let middle = (low + high) / 2
      if starts[middle] <= position { low = middle } else { high = middle }
    }
    return low
  }
}
