/// An order of tasks by meaning, one key after another, ties in file order: what `ls --sort`
/// and an app's "sort by date / priority" use.
///
/// A missing value (no due date, no priority) sorts last in either direction. `urgency` (see
/// ``Urgency``) lists the most urgent first, as `priority` lists A first; `-urgency` turns
/// that round. Done tasks count as the least urgent. `text` is alphabetical for people (case
/// and accents do not count). The order never changes a task's number: it is a list of
/// indices.
public struct TaskOrder: Sendable, Equatable {
  /// What tasks are compared by.
  public enum Key: String, Sendable, CaseIterable {
    /// The creation date.
    case created
    /// The priority, A first.
    case priority
    /// The `due:` date, earliest first.
    case due
    /// The text, alphabetically.
    case text
    /// The completion date.
    case completed
    /// The place in the file (the manual order).
    case line
    /// The urgency score, highest first.
    case urgency
  }

  /// One key and its direction.
  public struct Term: Sendable, Equatable {
    /// What is compared.
    public var key: Key
    /// Largest (or latest, or last) first.
    public var descending: Bool

    /// A key, ascending unless told otherwise.
    public init(_ key: Key, descending: Bool = false) {
      self.key = key
      self.descending = descending
    }
  }

  /// A word of an order's text that names no key (or an empty text).
  public struct ParseError: Error, Sendable, Equatable {
    /// The word as written.
    public var word: String
  }

  /// The keys, the first deciding first.
  public var terms: [Term]

  /// An order of these keys.
  public init(_ terms: [Term]) { self.terms = terms }

  /// Parses `due,-priority,text` (commas or spaces between keys; `-key` for descending).
  public init(_ text: String) throws(ParseError) {
    var terms: [Term] = []
    for word in text.split(whereSeparator: { $0 == "," || $0 == " " }) {
      let descending = word.hasPrefix("-")
      let name = (descending || word.hasPrefix("+") ? word.dropFirst() : word).lowercased()
      guard let key = Key(rawValue: name) else { throw ParseError(word: String(word)) }
      terms.append(Term(key, descending: descending))
    }
    guard !terms.isEmpty else { throw ParseError(word: text) }
    self.terms = terms
  }

  /// The indices of `list`'s tasks (0-based) in this order; `where` picks the tasks (all by
  /// default).
  public func sorted(
    _ list: TodoList, today: TaskDate, where include: (Task) -> Bool = { _ in true }
  ) -> [Int] {
    let indices = list.indices.filter { include(list[$0]) }
    return sorted(indices, task: { list[$0] }, today: today) { Urgency.waitingCounts(in: list) }
  }

  /// The indices (0-based line numbers) in this order; `task` makes the task at an index.
  ///
  /// - Parameters:
  ///   - today: the day urgency is worked out for.
  ///   - waiting: ``Urgency/waitingCounts(in:)`` of the whole file (tasks hidden from the
  ///     listing may be the ones waiting), asked for only when sorting by urgency.
  public func sorted(
    _ indices: [Int], task: (Int) -> Task, today: TaskDate, waiting: () -> [String: Int] = { [:] }
  ) -> [Int] {
    sortedPositions(indices.count, index: { indices[$0] }, task: task, today: today, waiting: waiting).map { indices[Int($0)] }
  }

  /// ``sorted(_:task:today:waiting:)`` for indices held in 32 bits, as a listing of a large
  /// file holds them: no wider copy of them is made.
  public func sorted(
    _ indices: [Int32], task: (Int) -> Task, today: TaskDate, waiting: () -> [String: Int] = { [:] }
  ) -> [Int32] {
    sortedPositions(indices.count, index: { Int(indices[$0]) }, task: task, today: today, waiting: waiting).map { indices[Int($0)] }
  }

  /// The positions `0..<count` of a list of indices, in the order of the tasks at them.
  ///
  /// Every key is read once, before sorting (reading a tag scans the line), into arrays
  /// reserved at their size and as narrow as the key allows: a date is its 4-byte ordinal, not an
  /// optional of three `Int`s. At a million tasks each date key held that way is 4 MB where
  /// it was 32 MB, and the positions sorted in place are 4 MB where three arrays of `Int`
  /// (the positions, their sorted copy, the mapped result) were 24 MB.
  private func sortedPositions(
    _ count: Int, index: (Int) -> Int, task: (Int) -> Task, today: TaskDate, waiting: () -> [String: Int]
  ) -> [Int32] {
    let values = Values(count, index: index, task: task, keys: terms.map(\.key), today: today, waiting: waiting)
    let (created, priorities, dues, completed) = (values.created, values.priorities, values.dues, values.completed)
    let (textRanks, urgencies) = (values.textRanks, values.urgencies)
    if terms.count == 1, let only = terms.first, only.key == .urgency, count <= Int(UInt32.max),
      (1..<max(count, 1)).allSatisfy({ index($0 - 1) < index($0) })
    {
      return TaskOrder.byUrgency(urgencies, descending: only.descending)
    }
    var order = [Int32](unsafeUninitializedCapacity: count) { buffer, filled in
      for position in 0..<count { buffer[position] = Int32(truncatingIfNeeded: position) }
      filled = count
    }
    order.sort { x32, y32 in
      let x = Int(x32)
      let y = Int(y32)
      for term in terms {
        let result: Int?
        switch term.key {
        case .created: result = TaskOrder.compareDays(created[x], created[y])
        case .priority: result = compare(priorities[x], priorities[y])
        case .due: result = TaskOrder.compareDays(dues[x], dues[y])
        case .completed: result = TaskOrder.compareDays(completed[x], completed[y])
        case .line: result = compare(index(x), index(y))
        // The higher score first.
        case .urgency: result = compare(urgencies[y], urgencies[x])
        case .text: result = textRanks[x] < textRanks[y] ? -1 : (textRanks[y] < textRanks[x] ? 1 : 0)
        }
        // A missing value (no due date, no priority) sorts last in either direction: `nil`
        // means exactly one of the two has one.
        guard let result else {
          switch term.key {
          case .created: return created[x] != TaskOrder.noDay
          case .priority: return priorities[x] != nil
          case .due: return dues[x] != TaskOrder.noDay
          case .completed: return completed[x] != TaskOrder.noDay
          case .line, .text, .urgency: return false
          }
        }
        if result != 0 { return term.descending ? result > 0 : result < 0 }
      }
      return index(x) < index(y)
    }
    return order
  }

  /// The values of the keys a sort uses, one array a key, in the order of the positions.
  private struct Values {
    var created: [UInt32] = []
    var priorities: [Priority?] = []
    var dues: [UInt32] = []
    var completed: [UInt32] = []
    /// Each position's rank by text (``TextOrder/ranks(_:text:)``).
    var textRanks: [UInt32] = []
    var urgencies: [Int] = []

    init(
      _ count: Int, index: (Int) -> Int, task: (Int) -> Task, keys: [Key], today: TaskDate,
      waiting: () -> [String: Int]
    ) {
      // Which keys are used, looked up once: a `Set` of the keys hashed their names per task.
      let byCreated = keys.contains(.created)
      let byPriority = keys.contains(.priority)
      let byDue = keys.contains(.due)
      let byCompleted = keys.contains(.completed)
      let byText = keys.contains(.text)
      let byUrgency = keys.contains(.urgency)
      if byCreated { created.reserveCapacity(count) }
      if byPriority { priorities.reserveCapacity(count) }
      if byDue { dues.reserveCapacity(count) }
      if byCompleted { completed.reserveCapacity(count) }
      if byUrgency { urgencies.reserveCapacity(count) }
      let counts = byUrgency ? waiting() : [:]
      for position in 0..<count {
        let task = task(index(position))
        if byCreated { created.append(TaskOrder.dayKey(task.creationDate)) }
        if byPriority { priorities.append(task.priority) }
        if byDue { dues.append(TaskOrder.dayKey(task.dueDate)) }
        if byCompleted { completed.append(TaskOrder.dayKey(task.completionDate)) }
        if byUrgency {
          // A done task is pressing no more: below every open one.
          let waiting = Urgency.waiting(for: task, counts: counts)
          urgencies.append(task.isCompleted ? Int.min : Urgency(task, today: today, waiting: waiting).tenths)
        }
      }
      // A key of every text held at once took some 350 bytes a task (an array of 4-byte
      // scalars and a lower-cased copy): seven times a million-task file. The ranks read the
      // texts again where they are still tied, and hold 18 bytes a task.
      if byText { textRanks = TextOrder.ranks(count) { task(index($0)).text } }
    }
  }

  /// `next`'s one key: each task becomes one integer, its rank by score in the high half and
  /// its position in the low half (the caller's indices ascend, so ties stay in line order),
  /// so that sorting compares integers and no closure reads two arrays per comparison (a
  /// large listing makes some hundred thousand). Scores are far inside 32 bits; a done task's
  /// `Int.min` is clamped to the lowest.
  private static func byUrgency(_ urgencies: [Int], descending: Bool) -> [Int32] {
    var keys: [UInt64] = []
    keys.reserveCapacity(urgencies.count)
    for (position, urgency) in urgencies.enumerated() {
      let score = Int64(max(Int(Int32.min), min(Int(Int32.max), urgency)))
      let rank = descending ? score - Int64(Int32.min) : Int64(Int32.max) - score
      keys.append(UInt64(rank) << 32 | UInt64(position))
    }
    keys.sort()
    return keys.map { Int32(truncatingIfNeeded: $0 & 0xFFFF_FFFF) }
  }

  /// A date as its ordinal (``TaskDate/ordinal``, 4 bytes), or ``noDay`` for none.
  private static func dayKey(_ date: TaskDate?) -> UInt32 { date?.ordinal ?? noDay }

  /// No date: an ordinal is never 0.
  private static let noDay: UInt32 = 0

  /// ``compare(_:_:)`` of two ``dayKey(_:)`` values.
  private static func compareDays(_ a: UInt32, _ b: UInt32) -> Int? {
    if a == noDay || b == noDay { return a == b ? 0 : nil }
    return a < b ? -1 : (b < a ? 1 : 0)
  }

  /// -1, 0 or 1 when both values exist; `nil` when one is missing (decided by presence).
  private func compare<T: Comparable>(_ a: T?, _ b: T?) -> Int? {
    guard let a, let b else { return a == nil && b == nil ? 0 : nil }
    return a < b ? -1 : (b < a ? 1 : 0)
  }
}

/// Alphabetical order for people: case does not count, and letters with accents sort with
/// their base letter (é with e, ß as ss, æ as ae), whatever the normalization of the text.
package enum TextOrder {
  /// Letters of U+00C0 to U+017F and the base letters they sort as.
  private static let latin: [(ClosedRange<UInt32>, String)] = [
    (0xC0...0xC5, "a"), (0xC6...0xC6, "ae"), (0xC7...0xC7, "c"), (0xC8...0xCB, "e"), (0xCC...0xCF, "i"),
    (0xD0...0xD0, "d"), (0xD1...0xD1, "n"), (0xD2...0xD6, "o"), (0xD8...0xD8, "o"), (0xD9...0xDC, "u"),
    (0xDD...0xDD, "y"), (0xDE...0xDE, "th"), (0xDF...0xDF, "ss"), (0xE0...0xE5, "a"), (0xE6...0xE6, "ae"),
    (0xE7...0xE7, "c"), (0xE8...0xEB, "e"), (0xEC...0xEF, "i"), (0xF0...0xF0, "d"), (0xF1...0xF1, "n"),
    (0xF2...0xF6, "o"), (0xF8...0xF8, "o"), (0xF9...0xFC, "u"), (0xFD...0xFD, "y"), (0xFE...0xFE, "th"),
    (0xFF...0xFF, "y"), (0x100...0x105, "a"), (0x106...0x10D, "c"), (0x10E...0x111, "d"), (0x112...0x11B, "e"),
    (0x11C...0x123, "g"), (0x124...0x127, "h"), (0x128...0x131, "i"), (0x132...0x133, "ij"), (0x134...0x135, "j"),
    (0x136...0x138, "k"), (0x139...0x142, "l"), (0x143...0x14B, "n"), (0x14C...0x151, "o"), (0x152...0x153, "oe"),
    (0x154...0x159, "r"), (0x15A...0x161, "s"), (0x162...0x167, "t"), (0x168...0x173, "u"), (0x174...0x175, "w"),
    (0x176...0x178, "y"), (0x179...0x17E, "z"), (0x17F...0x17F, "s"),
  ]

  /// The primary sort key of `text`: lower-case base letters, combining marks left out.
  package static func key(_ text: String) -> [UInt32] {
    var result: [UInt32] = []
    result.reserveCapacity(text.utf8.count)
    forEachKeyScalar(text) { scalar in
      result.append(scalar)
      return true
    }
    return result
  }

  /// The rank of each of `count` texts (made by `text` when asked for) in the order of
  /// ``key(_:)``, then of the lower-cased text; texts equal in both share a rank.
  ///
  /// No key is held whole: the keys' UTF-8 bytes (which sort as their scalars do) are
  /// compared eight at a time, most significant first, and only the texts still tied after
  /// eight bytes are read again for their next eight. A task's text is read about once for
  /// each eight bytes its start shares with another's.
  package static func ranks(_ count: Int, text: (Int) -> String) -> [UInt32] {
    precondition(count <= Int(UInt32.max), "a rank fits 32 bits")
    var order = [Int32](unsafeUninitializedCapacity: count) { buffer, filled in
      for position in 0..<count { buffer[position] = Int32(truncatingIfNeeded: position) }
      filled = count
    }
    // Each position's eight bytes at the depth its range is at, and how many of them are
    // the key's (fewer than eight: the key ends there).
    var chunks = [UInt64](repeating: 0, count: count)
    var used = [UInt8](repeating: 0, count: count)
    // Where a run of equal texts starts, by slot of `order`.
    var starts = [Bool](repeating: false, count: count)
    if count > 0 { starts[0] = true }
    var pending: [(range: Range<Int>, depth: Int)] = count > 1 ? [(0..<count, 0)] : []
    while let (range, depth) = pending.popLast() {
      for slot in range {
        let position = Int(order[slot])
        (chunks[position], used[position]) = chunk(of: text(position), at: depth)
      }
      order[range].sort { a, b in
        let (x, y) = (Int(a), Int(b))
        return chunks[x] != chunks[y] ? chunks[x] < chunks[y] : used[x] < used[y]
      }
      var runStart = range.lowerBound
      while runStart < range.upperBound {
        let first = Int(order[runStart])
        var runEnd = runStart + 1
        while runEnd < range.upperBound, chunks[Int(order[runEnd])] == chunks[first], used[Int(order[runEnd])] == used[first] {
          runEnd += 1
        }
        starts[runStart] = true
        if runEnd - runStart > 1 {
          if used[first] == 8 {
            pending.append((runStart..<runEnd, depth + 1))
          } else {
            // The keys are equal: the lower-cased texts decide, and equal ones tie.
            var lowered = (runStart..<runEnd).map { (text(Int(order[$0])).lowercased(), order[$0]) }
            lowered.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
            for (offset, entry) in lowered.enumerated() {
              order[runStart + offset] = entry.1
              if offset > 0, entry.0 != lowered[offset - 1].0 { starts[runStart + offset] = true }
            }
          }
        }
        runStart = runEnd
      }
    }
    var ranks = [UInt32](repeating: 0, count: count)
    var rank: UInt32 = 0
    for slot in 0..<count {
      if slot > 0, starts[slot] { rank += 1 }
      ranks[Int(order[slot])] = rank
    }
    return ranks
  }

  /// Bytes `8 × depth` to `8 × depth + 7` of the UTF-8 form of `text`'s ``key(_:)``, the
  /// first the most significant (missing ones 0), and how many of them the key has.
  static func chunk(of text: String, at depth: Int) -> (UInt64, UInt8) {
    let skip = depth * 8
    var seen = 0
    var value: UInt64 = 0
    var taken: UInt8 = 0
    forEachKeyScalar(text) { scalar in
      guard let unicode = Unicode.Scalar(scalar) else { return true }
      for byte in UTF8.encode(unicode)! {
        if seen >= skip {
          value |= UInt64(byte) << (56 - 8 * UInt64(taken))
          taken += 1
          if taken == 8 { return false }
        }
        seen += 1
      }
      return true
    }
    return (value, taken)
  }

  /// Calls `body` with each scalar of `text`'s key, in order, until it returns false.
  private static func forEachKeyScalar(_ text: String, _ body: (UInt32) -> Bool) {
    for scalar in text.unicodeScalars {
      let value = scalar.value
      if value < 0x80 {
        if !body((0x41...0x5A).contains(value) ? value + 32 : value) { return }
      } else if value <= 0x17F, let base = latin.first(where: { $0.0.contains(value) })?.1 {
        for part in base.unicodeScalars where !body(part.value) { return }
      } else if scalar.properties.canonicalCombiningClass.rawValue != 0 {
        continue
      } else {
        for part in scalar.properties.lowercaseMapping.unicodeScalars where !body(part.value) { return }
      }
    }
  }

  package static func compare(_ a: [UInt32], _ b: [UInt32]) -> Int {
    if a == b { return 0 }
    return a.lexicographicallyPrecedes(b) ? -1 : 1
  }

  /// Text for case-insensitive search (see ``CaseFolding/folded(_:)``, which the query
  /// language uses too).
  package static func folded(_ text: String) -> String { CaseFolding.folded(text) }
}
