import TodoTxt

/// `tag NR [NR ...] KEY [VALUE]`: set, replace or remove a `key:value` tag.
enum TagCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "tag", usage: "NR [NR ...] KEY [VALUE]",
    abstract: "Set, replace or remove a key:value tag on one or more tasks.",
    discussion: """
      With VALUE the first KEY: tag of each task gets that value, or the tag is added at the \
      end. Without VALUE every KEY: tag is removed. Values of due and t may be dates as you \
      say them (fri, tomorrow, +2w, 3b, eom); the absolute date is stored.
      """,
    arguments: [.taskNumbers, .tagKey, .text], options: OptionSpec.selecting, nativeOnly: true
  ) { context, arguments throws(TodoError) in
    let arguments = try QuerySelection.arguments(arguments, context: context, question: "Tag") ?? arguments
    let (items, rest) = leadingTaskNumbers(arguments)
    guard !items.isEmpty, (1...2).contains(rest.count) else { throw spec.usageError }
    let key = rest[0]
    guard isTagPart(key), !key.hasPrefix("+"), !key.hasPrefix("@") else { throw .notATagKey(key) }
    var value: String?
    if rest.count == 2 {
      let typed = try TypedInput.tagValue(rest[1], key: key, today: context.today)
      guard isTagPart(typed), !typed.hasPrefix("//") else { throw .notATagValue(rest[1]) }
      value = typed
    }
    let references = try items.map { item throws(TodoError) in try TaskReference(item, usage: spec.usageError) }
    let label = "tag \(arguments.joined(separator: " "))"
    let edited = try context.editTasks(references, label: label) { reference, task throws(TodoError) in
      if let value {
        task.setTag(key, value)
      } else if !task.removeTag(key) {
        throw .noTag(item: reference.typed, key: key)
      }
    }
    if context.verbose {
      for (reference, task) in edited { context.echo(reference.typed, task.bytes) }
    }
    return .success
  }

  /// Non-empty, without whitespace or a colon: one side of a `key:value` tag.
  static func isTagPart(_ text: String) -> Bool {
    !text.isEmpty && !text.utf8.contains { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x3A }
  }
}

/// `postpone NR [NR ...] DURATION`: move due dates (and thresholds with them).
enum PostponeCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "postpone", usage: "NR [NR ...] DURATION",
    abstract: "Move the due date of one or more tasks by a duration such as 3d, 1w, 2m, 1y or 5b.",
    discussion: """
      The due date moves by DURATION (b counts business days; -1d goes back), and a t: \
      threshold moves with it so the gap stays. A task with only t: moves its threshold; a \
      task with neither gets due: DURATION from today.
      """,
    arguments: [.taskNumbers, .text], options: OptionSpec.selecting, nativeOnly: true
  ) { context, arguments throws(TodoError) in
    let arguments = try QuerySelection.arguments(arguments, context: context, question: "Postpone") ?? arguments
    let (items, rest) = leadingTaskNumbers(arguments)
    guard !items.isEmpty, rest.count == 1 else { throw spec.usageError }
    let offset = try TypedInput.duration(rest[0])
    let references = try items.map { item throws(TodoError) in try TaskReference(item, usage: spec.usageError) }
    let today = context.today
    let edited = try context.editTasks(references, label: "postpone \(arguments.joined(separator: " "))") {
      _, task in
      postpone(&task, by: offset, today: today)
    }
    if context.verbose {
      for (reference, task) in edited {
        context.echo(reference.typed, task.bytes)
        let date = task.dueDate ?? task.thresholdDate
        context.console.line("TODO: \(reference.typed) postponed to \(date?.description ?? "?").")
      }
    }
    return .success
  }

  /// Moves `due:` and `t:` by `offset`; a task with neither gets `due:` `offset` from today.
  static func postpone(_ task: inout Task, by offset: RelativeDate.Offset, today: TaskDate) {
    let due = task.dueDate
    let threshold = task.thresholdDate
    if let due { task.setTag("due", offset.apply(to: due).description) }
    if let threshold {
      // Keep the gap to the due date exactly (month arithmetic clamps), else move it alike.
      let moved = due.map { offset.apply(to: $0).adding(days: -threshold.days(until: $0)) }
      task.setTag("t", (moved ?? offset.apply(to: threshold)).description)
    }
    if due == nil, threshold == nil { task.setTag("due", offset.apply(to: today).description) }
  }
}

/// `undo-done NR [NR ...]` (`reopen`): make done tasks open again.
enum ReopenCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "undo-done", aliases: ["reopen"], usage: "NR [NR ...]",
    abstract: "Make done tasks open again.",
    discussion: """
      Removes the x and the completion date, and gives back the priority kept in pri: (or \
      written after the x). Only tasks still in todo.txt can be reopened.
      """,
    arguments: [.taskNumbers], taskState: .done, nativeOnly: true
  ) { context, arguments throws(TodoError) in
    let items = taskNumberWords(arguments)
    guard !items.isEmpty else { throw spec.usageError }
    let references = try items.map { item throws(TodoError) in try TaskReference(item, usage: spec.usageError) }
    let file = context.settings.todoFile
    let edited = try context.storing {
      try context.store.update(file, label: "undo-done \(items.joined(separator: " "))") {
        list throws(TodoError) -> [(TaskReference, Task)] in
        var result: [(TaskReference, Task)] = []
        for reference in references {
          var task = try reference.task(in: list, file: file, mode: context.settings.mode)
          guard task.isCompleted else { throw .notDone(reference.typed) }
          let done = task
          task.reopen()
          list.replace(number: reference.number, with: task)
          ReopenCommand.withdrawNextOccurrence(of: done, from: &list, context: context)
          result.append((reference, task))
        }
        return result
      }
    }
    if context.verbose {
      for (reference, task) in edited {
        context.echo(reference.typed, task.bytes)
        context.console.line("TODO: \(reference.typed) reopened.")
      }
    }
    return .success
  }
}

extension ReopenCommand {
  /// Takes back the next occurrence that `do` added for a recurring task, when it is still
  /// there as `do` wrote it: reopening means the task was not done, so it does not come back
  /// twice. The last line goes away; one further up is emptied, so no task number moves.
  static func withdrawNextOccurrence(of done: Task, from list: inout TodoList, context: CommandContext) {
    guard let completed = done.completionDate,
      let next = done.nextOccurrence(completedOn: completed, catchUp: RecurrenceCommand.catchesUp(context))
    else { return }
    guard let index = list.indices.last(where: { list[$0] == next }) else { return }
    if index == list.count - 1 { _ = list.remove(at: index) } else { list.replace(at: index, with: Task(bytes: [])) }
  }
}
