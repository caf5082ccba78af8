import TodoStore
import TodoTxt

/// The details of one task, as lines of text: every field through the task model, the
/// note's text, what the task waits for and what waits for it (by task number, as the list
/// shows them), the next dates of a recurring task, and the attachments.
///
/// Text from the file is returned as it is; the renderer makes it safe for the terminal.
package struct DetailPane {
  package var lines: [String]
  /// The first attachment that is a picture (by its name), for the renderer to draw.
  package var imagePath: String?

  package init(task: Task, index: Int, document: TodoDocument, today: TaskDate) {
    var lines: [String] = []
    func field(_ name: String, _ value: String?) {
      if let value, !value.isEmpty { lines.append(name.padding(12) + value) }
    }
    lines.append("Task \(index + 1)")
    lines.append(task.title)
    lines.append("")
    field("Status", task.isCompleted ? "done" : "open")
    field("Priority", task.priority.map { "(\($0))" })
    field("Created", task.creationDate?.description)
    field("Completed", task.completionDate?.description)
    if let due = task.dueDate { field("Due", due.description + " (" + DetailPane.distance(from: today, to: due) + ")") }
    if let start = task.thresholdDate { field("Starts", start.description) }
    if let recurrence = task.recurrence {
      // Strict recurrence runs from the due date: its next dates are known. Otherwise the
      // next date counts from the day the task is done: shown for today.
      var dates: [String] = []
      var next = task
      for _ in 0..<(recurrence.isStrict ? 3 : 1) {
        guard let following = next.nextOccurrence(completedOn: today),
          let date = following.dueDate ?? following.thresholdDate
        else { break }
        dates.append(date.description)
        next = following
      }
      field("Repeats", "every \(recurrence.count)\(recurrence.unit.rawValue) " + (recurrence.isStrict ? "from the due date" : "from completion"))
      if !dates.isEmpty { field(recurrence.isStrict ? "Next" : "Next if done today", dates.joined(separator: ", ")) }
    }
    field("Projects", task.projects.map { "+" + $0 }.joined(separator: " "))
    field("Contexts", task.contexts.map { "@" + $0 }.joined(separator: " "))
    let shownKeys = Set([TagMeaning.due, .threshold, .recurrence, .note, .attachment, .id, .parent].map(\.key))
    field("Tags", task.tags.filter { !shownKeys.contains($0.key) }.map { "\($0.key):\($0.value)" }.joined(separator: " "))
    let list = document.list
    if let id = task.dependencyID {
      field("ID", id)
      let waiting = list.indices.filter { list[$0].parentIDs.contains(id) }.map { String($0 + 1) }
      field("Waited on by", waiting.isEmpty ? nil : "tasks " + waiting.joined(separator: ", "))
    }
    if !task.parentIDs.isEmpty {
      let parents = task.parentIDs.map { parent -> String in
        let found = list.indices.first { list[$0].dependencyID == parent }
        guard let found else { return parent + " (no such task)" }
        return "\(found + 1)" + (list[found].isCompleted ? " (done)" : "")
      }
      field("Waits for", parents.joined(separator: ", "))
    }
    let attachments = document.attachmentPaths(of: task)
    if !attachments.isEmpty {
      lines.append("")
      lines.append("Attachments")
      for path in attachments { lines.append("  " + (path.split(separator: "/").last.map(String.init) ?? path)) }
    }
    imagePath = attachments.first { DetailPane.isPicture($0) }
    if let name = task.note {
      lines.append("")
      lines.append("Note (\(name))")
      switch Result(catching: { () throws(StoreError) in try document.noteText(of: task) }) {
      case .success(let text?):
        lines += text.split(separator: "\n", omittingEmptySubsequences: false).prefix(200).map { "  " + $0 }
      case .success(nil): lines.append("  (the note's file is missing)")
      case .failure(let error): lines.append("  (cannot read: \(error))")
      }
    }
    self.lines = lines
  }

  /// Whether a file name is one the view can draw (PNG, JPEG).
  static func isPicture(_ path: String) -> Bool {
    let lowered = path.lowercased()
    return [".png", ".jpg", ".jpeg"].contains { lowered.hasSuffix($0) }
  }

  /// `today`, `in 3 days`, `2 days ago`.
  static func distance(from today: TaskDate, to date: TaskDate) -> String {
    let days = today.days(until: date)
    switch days {
    case 0: return "today"
    case 1: return "tomorrow"
    case -1: return "yesterday"
    case 2...: return "in \(days) days"
    default: return "\(-days) days ago"
    }
  }
}

extension String {
  /// The text followed by spaces up to `width` characters.
  func padding(_ width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
}
