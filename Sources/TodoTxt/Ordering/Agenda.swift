/// What is due: the open tasks that are overdue, due today or due in the next days, earliest
/// first (`todo agenda`, an app's "upcoming" screen, a reminder).
///
/// Done tasks, blank lines and hidden tasks (`h:1`) are left out. Tasks due the same day come
/// by priority (A first, none last), then in file order.
public struct Agenda: Sendable {
  /// One task that is due.
  public struct Entry: Sendable, Equatable {
    /// Its index in the list (0-based: task number minus one).
    public var index: Int
    /// Its due date.
    public var due: TaskDate
    /// The task.
    public var task: Task
  }

  /// The day the agenda is made for.
  public var today: TaskDate
  /// The last day it reaches.
  public var last: TaskDate
  /// The tasks due up to ``last``, the overdue ones first.
  public var entries: [Entry]

  /// The agenda of `list` for the `days` days after `today`.
  public init(_ list: TodoList, today: TaskDate, days: Int = 7) {
    self.today = today
    last = today.adding(days: days)
    var entries: [Entry] = []
    for (index, task) in list.enumerated() {
      if let entry = Agenda.entry(index, task, last: last) { entries.append(entry) }
    }
    Agenda.order(&entries)
    self.entries = entries
  }

  /// The agenda of the tasks at `candidates` (indices in file order) for the `days` days
  /// after `today`: for a reader that holds a file's lines rather than a ``TodoList`` and has
  /// picked the lines that can be due at all (those with a `due:` token). The entries are
  /// reserved at that count, an upper bound: a million-task agenda otherwise grew its array
  /// by doubling, holding up to one and a half times its entries.
  public init(candidates: [Int], today: TaskDate, days: Int = 7, task: (Int) -> Task) {
    self.today = today
    last = today.adding(days: days)
    var entries: [Entry] = []
    entries.reserveCapacity(candidates.count)
    for index in candidates {
      if let entry = Agenda.entry(index, task(index), last: last) { entries.append(entry) }
    }
    Agenda.order(&entries)
    self.entries = entries
  }

  /// The entry of an open, shown task due by `last`.
  private static func entry(_ index: Int, _ task: Task, last: TaskDate) -> Entry? {
    guard !task.isCompleted, !task.isBlank, let due = task.dueDate, due <= last, !task.isHidden else { return nil }
    return Entry(index: index, due: due, task: task)
  }

  /// By day, then priority (A first, none last), then file order.
  ///
  /// Sorting the entries themselves (a whole task each) takes a scratch buffer of up to half
  /// of them; when they come in file order, as both initializers make them, one integer key
  /// an entry is sorted instead (day, priority, position) and the entries are moved into that
  /// order in place, one cycle of the permutation at a time.
  private static func order(_ entries: inout [Entry]) {
    let count = entries.count
    if count > 1, count <= Int(UInt32.max), (1..<count).allSatisfy({ entries[$0 - 1].index < entries[$0].index }) {
      var keys: [UInt64] = []
      keys.reserveCapacity(count)
      for (position, entry) in entries.enumerated() {
        // A date's ordinal takes 23 bits.
        let day = UInt64(entry.due.ordinal)
        let rank = UInt64(entry.task.priority?.byte ?? 0xFF)
        keys.append(day << 40 | rank << 32 | UInt64(position))
      }
      keys.sort()
      entries.permute { Int(keys[$0] & 0xFFFF_FFFF) }
      return
    }
    entries.sort { left, right in
      if left.due != right.due { return left.due < right.due }
      switch (left.task.priority, right.task.priority) {
      case (let l?, let r?) where l != r: return l < r
      case (.some, nil): return true
      case (nil, .some): return false
      default: return left.index < right.index
      }
    }
  }

  /// The tasks due before today.
  public var overdue: [Entry] { entries.filter { $0.due < today } }
}
