import TodoStore
import TodoTxt

/// `show NR`: one task with all it means, read through the task model: title, priority,
/// dates, names, tags with meaning, what it waits for, its note and attachments.
enum ShowCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "show", usage: "NR",
    abstract: "Show one task with everything it holds: dates, names, dependencies, note and attachments.",
    discussion: """
      The task's line comes first, then a line for each thing it holds: its title, priority, \
      creation, completion, due and threshold dates (with how far they are), recurrence, \
      projects and contexts, the tasks it waits for and those that wait for it, other tags, \
      the attachments' paths and the note's text.
      """,
    arguments: [.taskNumber], nativeOnly: true
  ) { context, arguments throws(TodoError) in
    let reference = try arguments.task(0)
    let file = context.settings.todoFile
    let list = try context.readList(file)
    let task = try reference.task(in: list, file: file, mode: context.settings.mode)
    let today = context.today
    var fields: [(String, String)] = []
    func date(_ value: TaskDate) -> String { "\(value) (\(TerminalLayout.relative(days: today.days(until: value))))" }
    fields.append(("title", task.title))
    if task.isCompleted { fields.append(("done", task.completionDate.map(date) ?? "yes")) }
    if let priority = task.priority {
      fields.append(("priority", priority.description + (task.priorityLevel.map { " (\($0.rawValue))" } ?? "")))
    }
    if let created = task.creationDate { fields.append(("created", date(created))) }
    if let due = task.dueDate { fields.append(("due", date(due))) }
    if let threshold = task.thresholdDate { fields.append(("starts", date(threshold))) }
    if let rule = task.recurrence { fields.append(("repeats", rule.description)) }
    if task.isHidden { fields.append(("hidden", "yes (h:1)")) }
    if !task.projects.isEmpty { fields.append(("projects", task.projects.map { "+" + $0 }.joined(separator: " "))) }
    if !task.contexts.isEmpty { fields.append(("contexts", task.contexts.map { "@" + $0 }.joined(separator: " "))) }
    // Dependencies as task numbers: the ids are names, the numbers what a person acts on.
    func numbers(where matches: (Task) -> Bool) -> String {
      list.indices.filter { !list[$0].isBlank && matches(list[$0]) }.map { String($0 + 1) }.joined(separator: " ")
    }
    // As `dep` links them: the task with `id:X` waits for the tasks with `p:X`.
    if let id = task.dependencyID {
      let awaited = numbers { $0.parentIDs.contains(id) }
      if !awaited.isEmpty { fields.append(("waits for", awaited)) }
    }
    let parents = task.parentIDs
    if !parents.isEmpty {
      let found = numbers { $0.dependencyID.map(parents.contains) ?? false }
      fields.append(("waited for by", found.isEmpty ? parents.map { TagMeaning.id.key + ":" + $0 }.joined(separator: " ") : found))
    }
    let other = task.tags.filter { TagMeaning.named($0.key) == nil }
    if !other.isEmpty { fields.append(("tags", other.map { $0.key + ":" + $0.value }.joined(separator: " "))) }
    for path in AttachCommand.attachments(of: task, settings: context.settings) { fields.append(("attachment", path)) }
    if let name = NoteCommand.linkedName(task) {
      fields.append(("note", NoteCommand.directory(context.settings) + "/" + name))
    }

    context.echo(reference.typed, task.bytes)
    let width = fields.map(\.0.count).max() ?? 0
    for (label, value) in fields {
      context.console.write(
        Array("  \(label):".utf8) + [UInt8](repeating: 0x20, count: width - label.count + 1)
          + context.display(Array(value.utf8)) + [0x0A])
    }
    let note = QueryListing.noteLines(of: task, context: context)
    if !note.isEmpty {
      context.console.line("")
      for line in note { context.console.line(line) }
    }
    return .success
  }
}
