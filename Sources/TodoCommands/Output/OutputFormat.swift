import TodoTxt

/// `--format`: how a listing is written.
enum OutputFormat {
  /// todo.sh's numbered lines (the default).
  case text
  /// One JSON array of task objects.
  case json
  /// One JSON object per line.
  case jsonl
  /// An iCalendar file of VTODO entries.
  case ical
  /// A line per task from a template such as `{n} {priority} {text}`.
  case template(TaskTemplate)

  init(_ text: String?) throws(TodoError) {
    guard let text else {
      self = .text
      return
    }
    switch text {
    case "text", "": self = .text
    case "json": self = .json
    case "jsonl", "ndjson": self = .jsonl
    case "ical", "ics": self = .ical
    default:
      guard text.contains("{") else { throw .badOptionValue("--format", text) }
      self = .template(try TaskTemplate(text))
    }
  }

  /// Written for programs: no colour, no hiding of words, no final filter, no summary.
  var isMachineReadable: Bool {
    switch self {
    case .text, .template: false
    case .json, .jsonl, .ical: true
    }
  }
}

/// `--group`: headings by project, context, priority or due date.
enum ListGrouping: String, CaseIterable {
  case project, context, priority, due

  /// Other words accepted for the same groupings.
  static let aliases: [String: ListGrouping] = ["projects": .project, "contexts": .context, "pri": .priority]

  init(_ text: String) throws(TodoError) {
    let name = text.lowercased()
    guard let grouping = ListGrouping(rawValue: name) ?? ListGrouping.aliases[name] else {
      throw .optionValueNotAllowed(option: "--group", value: text, allowed: ListGrouping.allCases.map(\.rawValue))
    }
    self = grouping
  }

  /// The headings a task stands under (a task with two projects stands under both), each
  /// with a key that orders the headings.
  func headings(of task: Task, today: TaskDate) -> [(key: String, heading: String)] {
    switch self {
    case .project:
      let names = task.projects
      return names.isEmpty ? [("\u{10FFFF}", "(no project)")] : names.map { ($0.lowercased() + "\u{0}" + $0, "+" + $0) }
    case .context:
      let names = task.contexts
      return names.isEmpty ? [("\u{10FFFF}", "(no context)")] : names.map { ($0.lowercased() + "\u{0}" + $0, "@" + $0) }
    case .priority:
      guard let priority = task.priority else { return [("\u{10FFFF}", "(no priority)")] }
      return [(priority.description, "(\(priority))")]
    case .due:
      guard let due = task.dueDate else { return [("\u{10FFFF}", "(no due date)")] }
      // A done task is overdue to nobody: it stands under its date with a heading of its own.
      if task.isCompleted { return [(due.description + "\u{0}done", "due \(due) (done)")] }
      let note = due < today ? " (overdue)" : (due == today ? " (today)" : "")
      return [(due.description, "due \(due)\(note)")]
    }
  }
}
