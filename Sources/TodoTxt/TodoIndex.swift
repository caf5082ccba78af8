#if canImport(Glibc)
  import Glibc
#endif
import Dispatch

/// What a list holds, gathered in one pass: projects, contexts, tag keys, dates and counts.
///
/// Used where a command needs to know the whole file at once (completion, listings of
/// projects and contexts, the prompt's counts). Names are gathered as bytes and turned into
/// strings once per distinct name, so a million-line file costs one pass and no allocation
/// per line. A large list is read in chunks on all cores and the partial results are joined
/// in file order, so the result is the same as that of one pass.
public struct TodoIndex: Sendable {
  /// Task numbers (1-based) of the lines naming each project, each line once, in file order.
  public private(set) var projects: [String: [Int]] = [:]
  /// Task numbers of the lines naming each context.
  public private(set) var contexts: [String: [Int]] = [:]
  /// How many lines carry each tag key (a key repeated on one line counts once).
  public private(set) var tagKeys: [String: Int] = [:]
  /// Task numbers and due dates of the lines with a valid `due:` date, in file order.
  public private(set) var dueDates: [(number: Int, date: TaskDate)] = []
  /// Task numbers and dates of the lines with a valid `t:` date, in file order.
  public private(set) var thresholdDates: [(number: Int, date: TaskDate)] = []
  /// Lines that are tasks (not blank).
  public private(set) var taskCount = 0
  /// Lines that are completed tasks.
  public private(set) var completedCount = 0
  /// Open tasks with a priority.
  public private(set) var prioritizedCount = 0

  /// Indexes a whole list in one pass (in parallel for a large one).
  public init(_ list: TodoList) {
    self.init(list, chunkCount: TodoIndex.chunkCount(for: list))
  }

  /// Lists smaller than this are read on one core: below it, starting threads costs more
  /// than it saves.
  static let bytesPerChunk = 1 << 20

  /// As many chunks as there are cores, when the list is large enough to be worth it.
  static func chunkCount(for list: TodoList) -> Int {
    var cores = 1
    #if canImport(Glibc)
      cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    #endif
    return max(1, min(cores, list.byteCount / bytesPerChunk))
  }

  /// Builds the index from `chunkCount` runs of lines (1 reads the list in one pass); the
  /// result does not depend on the number of chunks.
  ///
  /// The calling thread reads the first run straight into the result's own arrays; other
  /// threads read the rest into compact ones (four bytes a line number, four a date), which
  /// are then appended. So reading on two cores costs about a tenth more memory than on one,
  /// not twice as much.
  init(_ list: TodoList, chunkCount: Int) {
    let lineCount = list.count
    let chunks = max(1, min(chunkCount, lineCount))
    func lines(_ chunk: Int) -> Range<Int> { (lineCount * chunk / chunks)..<(lineCount * (chunk + 1) / chunks) }
    var whole = Partial<Int, TaskDate>()
    if chunks > 1, lineCount < Int(Int32.max) {
      let rest = UnsafeMutablePointer<Partial<Int32, PackedDate>>.allocate(capacity: chunks - 1)
      defer { rest.deallocate() }
      let results = ChunkResults(base: rest)
      let group = DispatchGroup()
      for chunk in 1..<chunks {
        let range = lines(chunk)
        DispatchQueue.global().async(group: group) {
          var partial = Partial<Int32, PackedDate>()
          partial.scan(list, range)
          results.store(partial, at: chunk - 1)
        }
      }
      whole.scan(list, lines(0))
      group.wait()
      for chunk in 1..<chunks {
        whole.append((rest + chunk - 1).move())
      }
    } else {
      whole.scan(list, 0..<lineCount)
    }
    projects = whole.projectNames.dictionary(whole.projectLines)
    contexts = whole.contextNames.dictionary(whole.contextLines)
    tagKeys = whole.keyNames.dictionary(whole.keyCounts)
    dueDates = whole.dueDates
    thresholdDates = whole.thresholdDates
    taskCount = whole.taskCount
    completedCount = whole.completedCount
    prioritizedCount = whole.prioritizedCount
  }
}

/// Where the other threads of a parallel scan leave their results.
///
/// Each thread initializes only its own element, and they are read only after every thread
/// is done, so sharing the pointer between threads is safe.
private struct ChunkResults: @unchecked Sendable {
  let base: UnsafeMutablePointer<Partial<Int32, PackedDate>>

  func store(_ partial: Partial<Int32, PackedDate>, at index: Int) { (base + index).initialize(to: partial) }
}

/// A date as a ``Partial`` keeps it.
protocol IndexDate {
  init(_ date: TaskDate)
  var taskDate: TaskDate { get }
}

extension TaskDate: IndexDate {
  init(_ date: TaskDate) { self = date }
  var taskDate: TaskDate { self }
}

/// A valid date in four bytes: year, month and day in bit fields.
struct PackedDate: IndexDate {
  var bits: UInt32

  init(_ date: TaskDate) { bits = UInt32(date.year) << 9 | UInt32(date.month) << 5 | UInt32(date.day) }

  var taskDate: TaskDate {
    TaskDate(year: Int(bits >> 9), month: Int(bits >> 5 & 15), day: Int(bits & 31)) ?? .earliest
  }
}

/// The index of a run of lines, with names numbered in the order they first appear in it.
///
/// `Number` and `Day` are how line numbers and dates are kept: as in the result, or compact.
private struct Partial<Number: FixedWidthInteger, Day: IndexDate> {
  var projectNames = ByteInterner()
  var projectLines: [[Number]] = []
  var contextNames = ByteInterner()
  var contextLines: [[Number]] = []
  var keyNames = ByteInterner()
  var keyCounts: [Int] = []
  var keyLastLine: [Int] = []
  var dueDates: [(number: Number, date: Day)] = []
  var thresholdDates: [(number: Number, date: Day)] = []
  var taskCount = 0
  var completedCount = 0
  var prioritizedCount = 0

  /// Reads the lines `lines` of `list`.
  ///
  /// The token rules are those of `Token.Kind.classify`, applied while finding where each
  /// token ends, so that every byte is looked at about once and mostly eight at a time.
  mutating func scan(_ list: TodoList, _ lines: Range<Int>) {
    list.forEachLine(in: lines) { index, buffer, lineStart, lineEnd in
      guard let p = buffer.baseAddress else { return }
      let limit = buffer.count
      let line = index + 1
      let number = Number(truncatingIfNeeded: line)
      var i = lineStart
      while i < lineEnd, p[i].isTaskWhitespace { i += 1 }
      if i == lineEnd { return }
      taskCount += 1
      let head = Task.scanHead(UnsafeBufferPointer(start: p + lineStart, count: lineEnd - lineStart))
      if head.isCompleted { completedCount += 1 }
      if head.priority != nil { prioritizedCount += 1 }
      var dueSeen = false
      var thresholdSeen = false
      i = lineStart + head.bodyOffset
      while true {
        while i < lineEnd, p[i].isTaskWhitespace { i += 1 }
        if i >= lineEnd { break }
        let start = i
        let first = p[i]
        if first == .plus || first == .at, i + 1 < lineEnd, !p[i + 1].isTaskWhitespace {
          let end = Separators.find(p, from: i + 1, end: lineEnd, limit: limit, colons: false)
          if first == .plus {
            let id = projectNames.intern(p + start + 1, end - start - 1, readable: limit - start - 1)
            if id == projectLines.count { projectLines.append([number]) }
            else if projectLines[id].last != number { projectLines[id].append(number) }
          } else {
            let id = contextNames.intern(p + start + 1, end - start - 1, readable: limit - start - 1)
            if id == contextLines.count { contextLines.append([number]) }
            else if contextLines[id].last != number { contextLines[id].append(number) }
          }
          i = end
          continue
        }
        let colon = Separators.find(p, from: i, end: lineEnd, limit: limit, colons: true)
        guard colon < lineEnd, p[colon] == .colon else {
          i = colon
          continue
        }
        let end = Separators.find(p, from: colon + 1, end: lineEnd, limit: limit, colons: true)
        i = end
        if end < lineEnd, p[end] == .colon {
          // A second colon: the token is text.
          i = Separators.find(p, from: end + 1, end: lineEnd, limit: limit, colons: false)
          continue
        }
        guard colon > start, colon < end - 1,
          !(colon + 2 < end && p[colon + 1] == .slash && p[colon + 2] == .slash)
        else { continue }
        let id = keyNames.intern(p + start, colon - start, readable: limit - start)
        if id == keyCounts.count {
          keyCounts.append(1)
          keyLastLine.append(line)
        } else if keyLastLine[id] != line {
          keyLastLine[id] = line
          keyCounts[id] += 1
        }
        let keyLength = colon - start
        if keyLength == 3, !dueSeen, p[start] == UInt8(ascii: "d"), p[start + 1] == UInt8(ascii: "u"),
          p[start + 2] == UInt8(ascii: "e")
        {
          dueSeen = true
          if end - colon == 11, let date = TaskDate.parse(buffer, at: colon + 1) {
            dueDates.append((number, Day(date)))
          }
        } else if keyLength == 1, !thresholdSeen, p[start] == UInt8(ascii: "t") {
          thresholdSeen = true
          if end - colon == 11, let date = TaskDate.parse(buffer, at: colon + 1) {
            thresholdDates.append((number, Day(date)))
          }
        }
      }
    }
  }

  /// Adds the index of the lines that follow this one's, releasing `next`'s arrays as it goes.
  mutating func append<N, D>(_ next: Partial<N, D>) {
    var next = next
    taskCount += next.taskCount
    completedCount += next.completedCount
    prioritizedCount += next.prioritizedCount
    Partial.append(&next.dueDates, to: &dueDates)
    Partial.append(&next.thresholdDates, to: &thresholdDates)
    for id in 0..<next.projectNames.count {
      let global = next.projectNames.withName(id) { projectNames.intern($0, $1, readable: $2) }
      if global == projectLines.count { projectLines.append([]) }
      Partial.append(&next.projectLines[id], to: &projectLines[global])
    }
    for id in 0..<next.contextNames.count {
      let global = next.contextNames.withName(id) { contextNames.intern($0, $1, readable: $2) }
      if global == contextLines.count { contextLines.append([]) }
      Partial.append(&next.contextLines[id], to: &contextLines[global])
    }
    for id in 0..<next.keyNames.count {
      let global = next.keyNames.withName(id) { keyNames.intern($0, $1, readable: $2) }
      if global == keyCounts.count {
        keyCounts.append(next.keyCounts[id])
        keyLastLine.append(0)
      } else {
        keyCounts[global] += next.keyCounts[id]
      }
    }
  }

  /// Moves line numbers to the end of `lines`, growing it only once.
  private static func append<N: FixedWidthInteger>(_ more: inout [N], to lines: inout [Number]) {
    lines.reserveCapacity(lines.count + more.count)
    for number in more { lines.append(Number(truncatingIfNeeded: number)) }
    more = []
  }

  /// Moves dated lines to the end of `dates`, growing it only once.
  private static func append<N: FixedWidthInteger, D: IndexDate>(
    _ more: inout [(number: N, date: D)], to dates: inout [(number: Number, date: Day)]
  ) {
    dates.reserveCapacity(dates.count + more.count)
    for (number, date) in more { dates.append((Number(truncatingIfNeeded: number), Day(date.taskDate))) }
    more = []
  }
}

/// Finding token separators eight bytes at a time.
enum Separators {
  static let ones: UInt64 = 0x0101_0101_0101_0101
  static let highs: UInt64 = 0x8080_8080_8080_8080

  /// The offset of the first space, tab or carriage return (or colon, when `colons` is set) in
  /// `p[from..<end]`, or `end` when there is none.
  ///
  /// Reads whole words up to `limit` (the end of the buffer), which may lie past `end`.
  @inline(__always)
  static func find(_ p: UnsafePointer<UInt8>, from: Int, end: Int, limit: Int, colons: Bool) -> Int {
    var i = from
    while i < end {
      let word = load(p, at: i, limit: limit)
      // The lowest flagged byte is exact in both tests: a borrow can only flag bytes above a
      // byte that is itself flagged.
      var flags = (word &- 0x21 &* ones) & ~word & highs
      if colons {
        let x = word ^ (UInt64(UInt8.colon) &* ones)
        flags |= (x &- ones) & ~x & highs
      }
      if flags == 0 {
        i += 8
        continue
      }
      let k = i + flags.trailingZeroBitCount >> 3
      if k >= end { return end }
      let byte = p[k]
      if byte.isTaskWhitespace || (colons && byte == .colon) { return k }
      // Another control character: text.
      i = k + 1
    }
    return end
  }

  /// Eight bytes from `p + i` as a little-endian word; bytes at or past `limit` read as zero.
  @inline(__always)
  static func load(_ p: UnsafePointer<UInt8>, at i: Int, limit: Int) -> UInt64 {
    if i + 8 <= limit {
      return UInt64(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
    }
    var word: UInt64 = 0
    var k = 0
    while i + k < limit {
      word |= UInt64(p[i + k]) << (8 * k)
      k += 1
    }
    return word
  }
}

/// Gives each distinct byte string a dense number, without making a `String` per lookup.
///
/// Names are hashed and compared eight bytes at a time: most are shorter than that, so a
/// lookup is a hash of one word, a probe and one comparison.
struct ByteInterner {
  private struct Entry {
    var hash: UInt64
    /// The name's first word in `storage`.
    var start: Int
    var count: Int
  }

  private var slots = [Int32](repeating: -1, count: 64)
  private var entries: [Entry] = []
  /// The names one after another, each padded with zero bytes to a whole number of words,
  /// after one spare word (so that there is always an address to hand out, even for "").
  private var storage: [UInt64] = [0]

  /// How many distinct names there are.
  var count: Int { entries.count }

  /// The number of the `count` bytes at `p`, new ones numbered 0, 1, 2, … in order.
  ///
  /// `readable` bytes from `p` on may be read (at least `count`): with eight of them a name's
  /// last word is one load.
  @inline(__always)
  mutating func intern(_ p: UnsafePointer<UInt8>, _ count: Int, readable: Int) -> Int {
    var hash = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
    var i = 0
    while i < count {
      hash = (hash ^ ByteInterner.word(p, at: i, count: count, readable: readable)) &* 0xFF51_AFD7_ED55_8CCD
      hash ^= hash >> 29
      i += 8
    }
    hash ^= hash >> 32
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let id = Int(slots[slot])
      if id < 0 { break }
      let entry = entries[id]
      if entry.hash == hash, entry.count == count, matches(entry.start, p, count, readable) { return id }
      slot = (slot + 1) & mask
    }
    let id = entries.count
    entries.append(Entry(hash: hash, start: storage.count, count: count))
    i = 0
    while i < count {
      storage.append(ByteInterner.word(p, at: i, count: count, readable: readable))
      i += 8
    }
    slots[slot] = Int32(id)
    if entries.count * 2 > slots.count { grow() }
    return id
  }

  private func matches(_ start: Int, _ p: UnsafePointer<UInt8>, _ count: Int, _ readable: Int) -> Bool {
    var i = 0
    var k = start
    while i < count {
      if storage[k] != ByteInterner.word(p, at: i, count: count, readable: readable) { return false }
      i += 8
      k += 1
    }
    return true
  }

  /// Bytes `i..<i + 8` of a name of `count` bytes as a little-endian word, zero past its end.
  @inline(__always)
  static func word(_ p: UnsafePointer<UInt8>, at i: Int, count: Int, readable: Int) -> UInt64 {
    let left = count - i
    if left >= 8 || readable - i >= 8 {
      let word = UInt64(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
      return left >= 8 ? word : word & ((1 << (8 * UInt64(left))) &- 1)
    }
    var word: UInt64 = 0
    for k in 0..<left { word |= UInt64(p[i + k]) << (8 * k) }
    return word
  }

  /// Calls `body` with the bytes of name `id` (followed by the zero bytes of its last word).
  func withName<R>(_ id: Int, _ body: (UnsafePointer<UInt8>, _ count: Int, _ readable: Int) -> R) -> R {
    let entry = entries[id]
    return storage.withUnsafeBytes { words in
      // Never empty: the storage starts with a spare word.
      guard let base = words.bindMemory(to: UInt8.self).baseAddress else { preconditionFailure() }
      return body(base + entry.start * 8, entry.count, (entry.count + 7) / 8 * 8)
    }
  }

  private mutating func grow() {
    slots = [Int32](repeating: -1, count: slots.count * 2)
    let mask = slots.count - 1
    for (id, entry) in entries.enumerated() {
      var slot = Int(truncatingIfNeeded: entry.hash) & mask
      while slots[slot] >= 0 { slot = (slot + 1) & mask }
      slots[slot] = Int32(id)
    }
  }

  /// A dictionary from each name (as text) to the value with its number.
  ///
  /// Distinct byte strings that decode to the same text (invalid UTF-8) share one entry: the
  /// one seen first.
  func dictionary<Value>(_ values: [Value]) -> [String: Value] {
    var result: [String: Value] = [:]
    result.reserveCapacity(count)
    for id in entries.indices where id < values.count {
      let name = withName(id) { p, count, _ in
        String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
      }
      if result[name] == nil { result[name] = values[id] }
    }
    return result
  }
}
