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
    // A format's name in any case, as a report's --format takes it; a template as written.
    switch text.lowercased() {
    case "text", "": self = .text
    case "json": self = .json
    case "jsonl", "ndjson": self = .jsonl
    case "ical", "ics": self = .ical
    default:
      guard text.contains("{") else {
        throw .optionValueNotAllowed(
          option: "--format", value: text, allowed: ["text", "json", "jsonl", "ical", "a template such as '{n} {text}'"])
      }
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

  /// The library's grouping of the same name.
  var grouping: TaskGrouping {
    switch self {
    case .project: .project
    case .context: .context
    case .priority: .priority
    case .due: .due
    }
  }
}
