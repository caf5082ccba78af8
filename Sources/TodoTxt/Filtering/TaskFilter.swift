/// A test a task passes or fails: the meaning of a query (see ``FilterExpression``) as a value.
///
/// A filter knows nothing about a clock: relative dates (`today`, `+3d`) stay relative until
/// ``matches(_:today:)`` or ``resolved(today:)`` is given a day. Regular expressions are
/// compiled once, when the filter is built, never per task.
public indirect enum TaskFilter: Sendable, Equatable {
  /// Every task (an empty query).
  case always
  /// Every part holds (juxtaposition or `and`).
  case all([TaskFilter])
  /// Some part holds (`or`).
  case any([TaskFilter])
  /// The part does not hold (`not` or `-`).
  case not(TaskFilter)
  /// `done` (true) or `open` (false).
  case completed(Bool)
  /// `+name`: a project with this name.
  case project(TextPattern)
  /// `@name`: a context with this name.
  case context(TextPattern)
  /// `pri:A`, `pri>=B`, `pri:A-C`: the priority that counts (a done task's kept `pri:` too).
  case priority(PriorityTest)
  /// `due:<today`, `created:2026-11`, `t:none`.
  case date(DateField, DateTest)
  /// `has:KEY`: the task has this part.
  case has(Part)
  /// `key:value`, `key>=3`: some tag with this key passes the test.
  case tag(key: String, Comparison, TagOperand)
  /// A plain word or a quoted phrase, looked for in the text after the head.
  case text(TextPattern)
  /// `/expression/`: a POSIX extended regular expression over the whole line.
  case regex(RegularExpression)

  /// How a value is compared with the query's operand.
  public enum Comparison: String, Sendable, Equatable {
    case equal = ":"
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
  }

  /// The dates a query can name.
  public enum DateField: String, Sendable, Equatable, CaseIterable {
    case due
    case threshold = "t"
    case created
    case completed

    /// This date of `task`, when it has a valid one.
    public func value(of task: Task) -> TaskDate? {
      switch self {
      case .due: task.dueDate
      case .threshold: task.thresholdDate
      case .created: task.creationDate
      case .completed: task.completionDate
      }
    }
  }

  /// A test of a date.
  public enum DateTest: Sendable, Equatable {
    /// The task has no such date (`due:none`).
    case absent
    /// The task has such a date (`due:any`).
    case present
    /// The date compares so with the operand.
    case compare(Comparison, DateOperand)
  }

  /// A test of the priority.
  public enum PriorityTest: Sendable, Equatable {
    case none
    case any
    /// Compared by importance: `pri>B` is A, `pri<=B` is B to Z.
    case compare(Comparison, Priority)
    /// `pri:A-C`, both ends included.
    case range(Priority, Priority)
  }

  /// What `has:` can ask for besides a tag key.
  public enum Part: Sendable, Equatable {
    case priority
    case project
    case context
    case creationDate
    case completionDate
    /// A `key:value` tag with this key (any value, valid date or not).
    case tag(String)
  }

  // MARK: Evaluation

  /// Whether `task` passes, with relative dates counted from `today`.
  public func matches(_ task: Task, today: TaskDate) -> Bool {
    switch self {
    case .always: return true
    case .all(let parts): return parts.allSatisfy { $0.matches(task, today: today) }
    case .any(let parts): return parts.contains { $0.matches(task, today: today) }
    case .not(let part): return !part.matches(task, today: today)
    case .completed(let done): return task.isCompleted == done
    case .project(let pattern): return task.hasToken(.project, named: pattern)
    case .context(let pattern): return task.hasToken(.context, named: pattern)
    case .priority(let test): return test.matches(task.priority)
    case .date(let field, let test):
      let value = field.value(of: task)
      switch test {
      case .absent: return value == nil
      case .present: return value != nil
      case .compare(let comparison, let operand):
        guard let value else { return false }
        return operand.range(today: today).map { comparison.holds(value, within: $0) } ?? false
      }
    case .has(let part): return task.has(part)
    case .tag(let key, let comparison, let operand):
      return task.anyTag(key) { operand.matches($0, comparison, today: today) }
    case .text(let pattern): return pattern.occurs(in: task.bodyBytes)
    case .regex(let expression): return expression.matches(task.bytes)
    }
  }

  /// Whether the filter says anything about being done (`done`, `open`, `completed:…`,
  /// `has:completed`): a listing that hides done tasks by default shows them to such a query,
  /// which then decides alone.
  public var mentionsCompletion: Bool {
    switch self {
    case .completed, .date(.completed, _), .has(.completionDate): return true
    case .all(let parts), .any(let parts): return parts.contains { $0.mentionsCompletion }
    case .not(let part): return part.mentionsCompletion
    default: return false
    }
  }

  /// The same filter with every relative date turned into a fixed one, so that evaluating it
  /// over many tasks resolves each date once.
  public func resolved(today: TaskDate) -> TaskFilter {
    switch self {
    case .all(let parts): return .all(parts.map { $0.resolved(today: today) })
    case .any(let parts): return .any(parts.map { $0.resolved(today: today) })
    case .not(let part): return .not(part.resolved(today: today))
    case .date(let field, .compare(let comparison, let operand)):
      return .date(field, .compare(comparison, operand.resolved(today: today)))
    case .tag(let key, let comparison, let operand):
      return .tag(key: key, comparison, operand.resolved(today: today))
    default: return self
    }
  }

  /// The parts of a conjunction (a single part for anything else), for explaining which one
  /// a task fails.
  public var conjuncts: [TaskFilter] {
    switch self {
    case .all(let parts): parts.flatMap(\.conjuncts)
    case .always: []
    default: [self]
    }
  }
}

// MARK: - Operands

extension TaskFilter.Comparison {
  /// Whether `value` compares so with the day range `range` (a whole month for `2026-11`).
  func holds(_ value: TaskDate, within range: ClosedRange<TaskDate>) -> Bool {
    switch self {
    case .equal: range.contains(value)
    case .less: value < range.lowerBound
    case .lessOrEqual: value <= range.upperBound
    case .greater: value > range.upperBound
    case .greaterOrEqual: value >= range.lowerBound
    }
  }

  /// Whether `order` (negative: value before operand) satisfies the comparison.
  func holds(order: Int) -> Bool {
    switch self {
    case .equal: order == 0
    case .less: order < 0
    case .lessOrEqual: order <= 0
    case .greater: order > 0
    case .greaterOrEqual: order >= 0
    }
  }
}

extension TaskFilter.PriorityTest {
  func matches(_ priority: Priority?) -> Bool {
    switch self {
    case .none: return priority == nil
    case .any: return priority != nil
    case .range(let low, let high):
      guard let priority else { return false }
      return priority >= low && priority <= high
    case .compare(let comparison, let operand):
      guard let priority else { return false }
      // Importance runs opposite to the letters: A is the highest.
      let order = Int(operand.byte) - Int(priority.byte)
      return comparison.holds(order: order)
    }
  }
}

/// A date in a query: a fixed day or span (`2026-11-30`, `2026-11`, `2026`), or a date relative
/// to today (`today`, `fri`, `+3d`, `eom`).
public enum DateOperand: Sendable, Equatable, CustomStringConvertible {
  case days(ClosedRange<TaskDate>)
  case relative(String)

  /// Reads an operand; `nil` when `text` is no date.
  public init?(_ text: String) {
    let bytes = Array(text.utf8)
    func number(_ range: Range<Int>) -> Int? {
      guard range.upperBound <= bytes.count, bytes[range].allSatisfy({ (48...57).contains($0) }) else { return nil }
      return bytes[range].reduce(0) { $0 * 10 + Int($1 - 48) }
    }
    if bytes.count == 4, let year = number(0..<4),
      let first = TaskDate(year: year, month: 1, day: 1), let last = TaskDate(year: year, month: 12, day: 31)
    {
      self = .days(first...last)
    } else if bytes.count == 7, bytes[4] == UInt8(ascii: "-"), let year = number(0..<4), let month = number(5..<7),
      let first = TaskDate(year: year, month: month, day: 1),
      let last = TaskDate(year: year, month: month, day: TaskDate.daysIn(month: month, year: year))
    {
      self = .days(first...last)
    } else if let date = TaskDate(text) {
      self = .days(date...date)
    } else if RelativeDate.resolve(text, today: .earliest.adding(days: 400)) != nil {
      self = .relative(text)
    } else {
      return nil
    }
  }

  /// The days meant, counted from `today` when relative.
  public func range(today: TaskDate) -> ClosedRange<TaskDate>? {
    switch self {
    case .days(let range): range
    case .relative(let text): RelativeDate.resolve(text, today: today).map { $0...$0 }
    }
  }

  func resolved(today: TaskDate) -> DateOperand { range(today: today).map { .days($0) } ?? self }

  public var description: String {
    switch self {
    case .relative(let text): return text
    case .days(let range):
      if range.lowerBound == range.upperBound { return range.lowerBound.description }
      let first = range.lowerBound.description
      return range.lowerBound.month == range.upperBound.month ? String(first.prefix(7)) : String(first.prefix(4))
    }
  }
}

/// The value side of a `key:value` test on any tag: compared as a whole number when both
/// sides are one, as a date when both sides are dates, and otherwise as text (equality with
/// smart case, order byte by byte).
public struct TagOperand: Sendable, Equatable, CustomStringConvertible {
  /// The operand as written.
  public var text: String
  var pattern: TextPattern
  var number: Int?
  var date: DateOperand?

  /// Reads an operand: a date (or date word) compares as a date, anything else as text.
  public init(_ text: String) {
    self.text = text
    pattern = TextPattern(text)
    number = Int(text)
    date = DateOperand(text)
  }

  func resolved(today: TaskDate) -> TagOperand {
    var copy = self
    copy.date = date?.resolved(today: today)
    return copy
  }

  func matches(_ value: ArraySlice<UInt8>, _ comparison: TaskFilter.Comparison, today: TaskDate) -> Bool {
    if let number, let other = Int(String(decoding: value, as: UTF8.self)) {
      return comparison.holds(order: other < number ? -1 : (other > number ? 1 : 0))
    }
    if let date, value.count == 10, let other = TaskDate(String(decoding: value, as: UTF8.self)),
      let range = date.range(today: today)
    {
      return comparison.holds(other, within: range)
    }
    if comparison == .equal { return pattern.equals(value) }
    let operand = Array(text.utf8)
    let order = value.lexicographicallyPrecedes(operand) ? -1 : (value.elementsEqual(operand) ? 0 : 1)
    return comparison.holds(order: order)
  }

  public var description: String { text }
}

/// A word to look for. A word of the text ignores case always, as a listing's search term
/// does; a project or context name or a tag value has smart case: it ignores case unless it
/// holds a capital letter. Ignoring case folds Unicode (``CaseFolding``): `CAFÉ` finds `café`.
public struct TextPattern: Sendable, Equatable, CustomStringConvertible {
  /// The text as written.
  public let text: String
  /// Whether case counts (the text holds a capital letter).
  public let caseSensitive: Bool
  /// The bytes to look for (lower-cased when case is ignored).
  let needle: [UInt8]
  /// The needle is ASCII, so ignoring case needs no Unicode folding.
  let ascii: Bool
  /// The folded needle, for text where bytes alone cannot decide.
  let folded: String

  /// - Parameter smartCase: whether a capital letter makes the pattern case-sensitive (names
  ///   and tag values); a word of the text ignores case always.
  public init(_ text: String, smartCase: Bool = true) {
    self.text = text
    caseSensitive = smartCase && text.contains { $0.isUppercase }
    ascii = text.utf8.allSatisfy { $0 < 0x80 }
    needle = Array((caseSensitive ? text : text.lowercased()).utf8)
    folded = CaseFolding.folded(text)
  }

  /// Whether the pattern occurs anywhere in `haystack`.
  func occurs(in haystack: ArraySlice<UInt8>) -> Bool {
    if needle.isEmpty { return true }
    if !caseSensitive, !ascii { return foldedOccurs(in: haystack) }
    let found = haystack.withUnsafeBufferPointer { b in
      needle.withUnsafeBufferPointer { n in
        let count = n.count
        guard b.count >= count else { return false }
        var start = 0
        while start <= b.count - count {
          var index = 0
          while index < count, fold(b[start + index]) == n[index] { index += 1 }
          if index == count { return true }
          start += 1
        }
        return false
      }
    }
    // An ASCII word may still match a folded letter (`strasse` in `Straße`).
    if !found, !caseSensitive, haystack.contains(where: { $0 >= 0x80 }) { return foldedOccurs(in: haystack) }
    return found
  }

  private func foldedOccurs(in haystack: ArraySlice<UInt8>) -> Bool {
    CaseFolding.folded(String(decoding: haystack, as: UTF8.self)).contains(folded)
  }

  /// Whether `candidate` is the pattern exactly (up to case when case is ignored).
  func equals(_ candidate: ArraySlice<UInt8>) -> Bool {
    if !caseSensitive, !ascii { return CaseFolding.folded(String(decoding: candidate, as: UTF8.self)) == folded }
    guard candidate.count == needle.count else { return false }
    return zip(candidate, needle).allSatisfy { fold($0) == $1 }
  }

  @inline(__always) private func fold(_ byte: UInt8) -> UInt8 {
    !caseSensitive && byte >= 65 && byte <= 90 ? byte + 32 : byte
  }

  public var description: String { text }
}

// MARK: - Reading tasks

extension Task {
  /// Whether a `+project` or `@context` token names `pattern`.
  fileprivate func hasToken(_ kind: Token.Kind, named pattern: TextPattern) -> Bool {
    var found = false
    forEachToken { token in
      guard !found, token.kind == kind else { return }
      found = pattern.equals(bytes[(token.range.lowerBound + 1)..<token.range.upperBound])
    }
    return found
  }

  /// Whether some tag with `key` has a value passing `test`.
  fileprivate func anyTag(_ key: String, _ test: (ArraySlice<UInt8>) -> Bool) -> Bool {
    let keyBytes = Array(key.utf8)
    var found = false
    forEachToken { token in
      guard !found, case .tag(let colon) = token.kind, bytes[token.range.lowerBound..<colon].elementsEqual(keyBytes)
      else { return }
      found = test(bytes[(colon + 1)..<token.range.upperBound])
    }
    return found
  }

  fileprivate func has(_ part: TaskFilter.Part) -> Bool {
    switch part {
    case .priority: return priority != nil
    case .creationDate: return creationDate != nil
    case .completionDate: return completionDate != nil
    case .project, .context:
      let kind: Token.Kind = part == .project ? .project : .context
      var found = false
      forEachToken { if $0.kind == kind { found = true } }
      return found
    case .tag(let key): return anyTag(key) { _ in true }
    }
  }
}

// MARK: - Description

extension TaskFilter: CustomStringConvertible {
  /// The filter written back in the query language, with every grouping made explicit.
  public var description: String {
    switch self {
    case .always: return "(everything)"
    case .all(let parts): return parts.map(\.groupedDescription).joined(separator: " ")
    case .any(let parts): return parts.map(\.groupedDescription).joined(separator: " or ")
    case .not(let part): return "not " + part.groupedDescription
    case .completed(let done): return done ? "done" : "open"
    case .project(let pattern): return "+" + pattern.text
    case .context(let pattern): return "@" + pattern.text
    case .priority(let test):
      switch test {
      case .none: return TagMeaning.keptPriority.key + ":none"
      case .any: return TagMeaning.keptPriority.key + ":any"
      case .range(let low, let high): return TagMeaning.keptPriority.key + ":\(low)-\(high)"
      case .compare(let comparison, let priority): return "pri\(comparison.rawValue)\(priority)"
      }
    case .date(let field, let test):
      switch test {
      case .absent: return "\(field.rawValue):none"
      case .present: return "\(field.rawValue):any"
      case .compare(let comparison, let operand): return "\(field.rawValue)\(comparison.rawValue)\(operand)"
      }
    case .has(let part):
      switch part {
      case .priority: return "has:pri"
      case .project: return "has:project"
      case .context: return "has:context"
      case .creationDate: return "has:created"
      case .completionDate: return "has:completed"
      case .tag(let key): return "has:\(key)"
      }
    case .tag(let key, let comparison, let operand): return "\(key)\(comparison.rawValue)\(operand)"
    case .text(let pattern):
      return pattern.text.contains(" ") || pattern.text.isEmpty ? "\"\(pattern.text)\"" : pattern.text
    case .regex(let expression): return expression.description
    }
  }

  private var groupedDescription: String {
    switch self {
    case .all(let parts) where parts.count > 1: "(\(description))"
    case .any(let parts) where parts.count > 1: "(\(description))"
    default: description
    }
  }
}
