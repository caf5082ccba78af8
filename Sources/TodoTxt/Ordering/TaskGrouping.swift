/// Tasks under headings: by project, context, priority or due date (`ls --group`, an app's
/// sections).
///
/// A task with two projects stands under both; one with none under "(no project)", which
/// comes last. Headings are ordered by name (case does not count), priorities A first, due
/// dates earliest first.
public enum TaskGrouping: String, Sendable, CaseIterable {
  /// `+project` headings.
  case project
  /// `@context` headings.
  case context
  /// `(A)` … `(Z)` headings.
  case priority
  /// `due 2026-12-24` headings, marked overdue or today against the day given.
  case due

  /// One heading and the tasks under it.
  public struct Group: Sendable, Equatable {
    /// What the group is shown under: `+work`, `@phone`, `(A)`, `due 2026-12-24 (overdue)`,
    /// `(no project)`.
    public var heading: String
    /// The tasks' indices (0-based line numbers), in the order given.
    public var indices: [Int]
  }

  /// The groups of the tasks at `indices` of `list` (in that order within each group).
  public func groups(_ indices: [Int], in list: TodoList, today: TaskDate) -> [Group] {
    groups(indices, today: today) { list[$0] }
  }

  /// ``groups(_:in:today:)`` for tasks given by their index, for a reader that holds a file's
  /// lines rather than a ``TodoList``.
  public func groups(_ indices: [Int], today: TaskDate, task: (Int) -> Task) -> [Group] {
    var groups: [String: Group] = [:]
    for index in indices {
      for (key, heading) in headings(of: task(index), today: today) {
        groups[key, default: Group(heading: heading, indices: [])].indices.append(index)
      }
    }
    return groups.keys.sorted().compactMap { groups[$0] }
  }

  /// The headings a task stands under, each with a key that orders the headings.
  func headings(of task: Task, today: TaskDate) -> [(key: String, heading: String)] {
    // A key no name reaches: the "(no …)" group comes last.
    let last = "\u{10FFFF}"
    switch self {
    case .project:
      let names = task.projects
      return names.isEmpty ? [(last, "(no project)")] : names.map { ($0.lowercased() + "\u{0}" + $0, "+" + $0) }
    case .context:
      let names = task.contexts
      return names.isEmpty ? [(last, "(no context)")] : names.map { ($0.lowercased() + "\u{0}" + $0, "@" + $0) }
    case .priority:
      guard let priority = task.priority else { return [(last, "(no priority)")] }
      return [(priority.description, "(\(priority))")]
    case .due:
      guard let due = task.dueDate else { return [(last, "(no due date)")] }
      // A done task is overdue to nobody: it stands under its date with a heading of its own.
      if task.isCompleted { return [(due.description + "\u{0}done", "due \(due) (done)")] }
      let note = due < today ? " (overdue)" : (due == today ? " (today)" : "")
      return [(due.description, "due \(due)\(note)")]
    }
  }
}
