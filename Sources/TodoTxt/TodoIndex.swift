/// What a list holds, gathered in one pass: projects, contexts, tag keys, dates and counts.
///
/// Used where a command needs to know the whole file at once (completion, listings of
/// projects and contexts, the prompt's counts). Names are gathered as bytes and turned into
/// strings once per distinct name, so a million-line file costs one pass and no allocation
/// per line.
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
  public private(set) var completedCount = 0
  public private(set) var prioritizedCount = 0

  public init(_ list: TodoList) {
    var projectNames = ByteInterner()
    var contextNames = ByteInterner()
    var keyNames = ByteInterner()
    var projectLines: [[Int32]] = []
    var contextLines: [[Int32]] = []
    var keyCounts: [Int] = []
    var keyLastLine: [Int32] = []
    let dueKey = Array("due".utf8)
    let thresholdKey = Array("t".utf8)

    list.forEachLine { index, b in
      let number = Int32(index + 1)
      let n = b.count
      var blank = true
      for byte in b where !byte.isTaskWhitespace {
        blank = false
        break
      }
      if blank { return }
      taskCount += 1
      let head = Task.scanHead(b)
      if head.isCompleted { completedCount += 1 }
      if head.priority != nil { prioritizedCount += 1 }
      var dueSeen = false
      var thresholdSeen = false
      var i = head.bodyOffset
      while i < n {
        while i < n, b[i].isTaskWhitespace { i += 1 }
        guard i < n else { break }
        let start = i
        while i < n, !b[i].isTaskWhitespace { i += 1 }
        switch Token.Kind.classify(b, start, i) {
        case .word:
          break
        case .project:
          let id = projectNames.intern(b, start + 1, i)
          if id == projectLines.count { projectLines.append([]) }
          if projectLines[id].last != number { projectLines[id].append(number) }
        case .context:
          let id = contextNames.intern(b, start + 1, i)
          if id == contextLines.count { contextLines.append([]) }
          if contextLines[id].last != number { contextLines[id].append(number) }
        case .tag(let colon):
          let id = keyNames.intern(b, start, colon)
          if id == keyCounts.count {
            keyCounts.append(0)
            keyLastLine.append(0)
          }
          if keyLastLine[id] != number {
            keyLastLine[id] = number
            keyCounts[id] += 1
          }
          let key = UnsafeBufferPointer(rebasing: b[start..<colon])
          if !dueSeen, key.elementsEqual(dueKey) {
            dueSeen = true
            if i - colon - 1 == 10, let date = TaskDate.parse(b, at: colon + 1) {
              dueDates.append((Int(number), date))
            }
          } else if !thresholdSeen, key.elementsEqual(thresholdKey) {
            thresholdSeen = true
            if i - colon - 1 == 10, let date = TaskDate.parse(b, at: colon + 1) {
              thresholdDates.append((Int(number), date))
            }
          }
        }
      }
    }
    projects = projectNames.dictionary(projectLines.map { $0.map(Int.init) })
    contexts = contextNames.dictionary(contextLines.map { $0.map(Int.init) })
    tagKeys = keyNames.dictionary(keyCounts)
  }
}

/// Gives each distinct byte string a dense number, without making a `String` per lookup.
struct ByteInterner {
  private var slots = [Int32](repeating: -1, count: 64)
  private var hashes: [UInt64] = []
  private var storage: [UInt8] = []
  private var bounds: [Range<Int>] = []

  /// The number of the bytes `b[start..<end]`, new ones numbered 0, 1, 2, … in order.
  mutating func intern(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for i in start..<end { hash = (hash ^ UInt64(b[i])) &* 0x100_0000_01b3 }
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let id = Int(slots[slot])
      if id < 0 { break }
      if hashes[id] == hash, bounds[id].count == end - start,
        storage[bounds[id]].elementsEqual(UnsafeBufferPointer(rebasing: b[start..<end]))
      {
        return id
      }
      slot = (slot + 1) & mask
    }
    let id = hashes.count
    hashes.append(hash)
    let lower = storage.count
    storage.append(contentsOf: UnsafeBufferPointer(rebasing: b[start..<end]))
    bounds.append(lower..<storage.count)
    slots[slot] = Int32(id)
    if hashes.count * 2 > slots.count { grow() }
    return id
  }

  private mutating func grow() {
    slots = [Int32](repeating: -1, count: slots.count * 2)
    let mask = slots.count - 1
    for (id, hash) in hashes.enumerated() {
      var slot = Int(truncatingIfNeeded: hash) & mask
      while slots[slot] >= 0 { slot = (slot + 1) & mask }
      slots[slot] = Int32(id)
    }
  }

  /// A dictionary from each name (as text) to the value with its number.
  ///
  /// Distinct byte strings that decode to the same text (invalid UTF-8) share one entry.
  func dictionary<Value>(_ values: [Value]) -> [String: Value] {
    var result: [String: Value] = [:]
    result.reserveCapacity(bounds.count)
    for (id, range) in bounds.enumerated() where id < values.count {
      let name = String(decoding: storage[range], as: UTF8.self)
      if result[name] == nil { result[name] = values[id] }
    }
    return result
  }
}
