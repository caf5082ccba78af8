/// How pressing an open task is, as one number: the sum of four terms with fixed
/// coefficients, so that `next --explain` can show each term and a user can work the total
/// out by hand.
///
/// Every term is a whole number of tenths (``Urgency/Term/tenths``), so totals are exact and
/// print with one decimal without rounding surprises. Given the same task, `today` and the
/// same count of waiting tasks, the score is always the same.
///
/// - due: overdue by D days 10.0 + 0.5 × min(D, 20); due today 9.0; due in D days (1…14)
///   8.0 − 0.5 × D; later 0.5; no due date 0.
/// - priority: A 6.0, B 4.0, C 2.0, D to Z 1.0, none 0.
/// - age: 0.1 for every full 20 days since the creation date, at most 2.0; no creation date 0.
/// - blocks: 2.0 for every open task waiting for this one, at most 6.0.
public struct Urgency: Sendable, Equatable {
  /// One term of the sum: its value and what it was worked out from.
  public struct Term: Sendable, Equatable {
    /// What a value was worked out from; words are made only when asked for (sorting a
    /// large list makes many terms and reads none).
    enum Basis: Sendable, Equatable {
      case none
      case noDate
      case today
      case overdue(days: Int)
      case dueIn(days: Int)
      case priority(Priority)
      case age(days: Int)
      case waiting(Int)
    }

    /// The value in tenths (`85` is 8.5).
    public var tenths: Int
    var basis: Basis

    /// What the value was worked out from, for `--explain` (`2d overdue`, `A`, `40d`).
    public var reason: String {
      switch basis {
      case .none: "none"
      case .noDate: "no date"
      case .today: "today"
      case .overdue(let days): "\(days)d overdue"
      case .dueIn(let days): "in \(days)d"
      case .priority(let priority): priority.description
      case .age(let days): "\(days)d"
      case .waiting(let count): "\(count) waiting"
      }
    }
  }

  /// What the due date adds (overdue, or due soon).
  public var due: Term
  /// What the priority adds.
  public var priority: Term
  /// What the task's age adds.
  public var age: Term
  /// What the tasks waiting for this one add.
  public var blocks: Term

  /// The score in tenths: the sum of the terms.
  public var tenths: Int { due.tenths + priority.tenths + age.tenths + blocks.tenths }

  // MARK: Coefficients (tenths)

  /// Due yesterday or earlier: the base, the step per day overdue and the days it grows for.
  static let overdueBase = 100
  static let overdueStep = 5
  static let overdueDays = 20
  /// Due today.
  static let dueToday = 90
  /// Due within `soonDays`: `soonBase` less `soonStep` per day away.
  static let soonBase = 80
  static let soonStep = 5
  static let soonDays = 14
  /// Due later than that.
  static let dueLater = 5
  /// Priorities A, B, C, and D to Z.
  static let priorities = [60, 40, 20]
  static let lowPriority = 10
  /// One tenth for every `ageStep` days of age, at most `ageMaximum`.
  static let ageStep = 20
  static let ageMaximum = 20
  /// Per open task waiting, at most `blocksMaximum`.
  static let blocksStep = 20
  static let blocksMaximum = 60

  /// The urgency of `task` on `today`, with `waiting` open tasks waiting for it (see
  /// ``Urgency/waitingCounts(in:)``). A done task scores as if open: callers leave done
  /// tasks out.
  public init(_ task: Task, today: TaskDate, waiting: Int) {
    due = Urgency.dueTerm(task.dueDate, today: today)
    if let priority = task.priority {
      let rank = Int(priority.byte) - Int(UInt8(ascii: "A"))
      let value = rank < Urgency.priorities.count ? Urgency.priorities[rank] : Urgency.lowPriority
      self.priority = Term(tenths: value, basis: .priority(priority))
    } else {
      priority = Term(tenths: 0, basis: .none)
    }
    if let created = task.creationDate {
      let days = max(0, created.days(until: today))
      age = Term(tenths: min(days / Urgency.ageStep, Urgency.ageMaximum), basis: .age(days: days))
    } else {
      age = Term(tenths: 0, basis: .noDate)
    }
    let waiting = max(0, waiting)
    blocks = Term(tenths: min(waiting * Urgency.blocksStep, Urgency.blocksMaximum), basis: .waiting(waiting))
  }

  static func dueTerm(_ due: TaskDate?, today: TaskDate) -> Term {
    guard let due else { return Term(tenths: 0, basis: .none) }
    let days = today.days(until: due)
    if days < 0 {
      return Term(tenths: overdueBase + overdueStep * min(-days, overdueDays), basis: .overdue(days: -days))
    }
    if days == 0 { return Term(tenths: dueToday, basis: .today) }
    if days <= soonDays { return Term(tenths: soonBase - soonStep * days, basis: .dueIn(days: days)) }
    return Term(tenths: dueLater, basis: .dueIn(days: days))
  }

  /// `12.5` for 125 tenths.
  public static func format(tenths: Int) -> String {
    let sign = tenths < 0 ? "-" : ""
    return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)"
  }

  /// `12.0 = due 8.0 (2d overdue) + pri 6.0 (A) + age 0.5 (40d) + blocks 2.0 (2 waiting)`.
  public var explanation: String {
    let terms = [("due", due), ("pri", priority), ("age", age), ("blocks", blocks)].map { name, term in
      "\(name) \(Urgency.format(tenths: term.tenths)) (\(term.reason))"
    }
    return Urgency.format(tenths: tenths) + " = " + terms.joined(separator: " + ")
  }

  /// For each `p:` value, how many open tasks wait for the tasks carrying it: the open tasks
  /// whose `id:` it names (a task with `p:X` is waited for by the tasks with `id:X`).
  public static func waitingCounts(in tasks: some Sequence<Task>) -> [String: Int] {
    var counts: [String: Int] = [:]
    for task in tasks where !task.isCompleted {
      if let id = task.dependencyID { counts[id, default: 0] += 1 }
    }
    return counts
  }

  /// How many open tasks wait for `task`, given ``waitingCounts(in:)`` of its list.
  public static func waiting(for task: Task, counts: [String: Int]) -> Int {
    guard !counts.isEmpty else { return 0 }
    return Set(task.parentIDs).reduce(0) { $0 + (counts[$1] ?? 0) }
  }
}
