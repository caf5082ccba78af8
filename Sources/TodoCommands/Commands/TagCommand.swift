import TodoTxt

/// `tag NR [NR ...] KEY [VALUE]`: set, replace or remove a `key:value` tag.
enum TagCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "tag", usage: "NR [NR ...] KEY [VALUE]",
    abstract: "Set, replace or remove a key:value tag on one or more tasks.",
    discussion: """
      With VALUE the first KEY: tag of each task gets that value, or the tag is added at the \
      end. Without VALUE every KEY: tag is removed. Values of due and t may be dates as you \
      say them, in one word or several (fri, tomorrow, next monday, in 3 days, dec 10, \
      weekend, +2w, 3b, eom); the absolute date is stored. A pri value may be high, medium or \
      low.
      """,
    arguments: [.taskNumbers, .tagKey, .tagValue],
    argumentsWhenGiven: [(OptionSpec.selectQuery.name, [.tagKey, .tagValue])], options: OptionSpec.selecting, nativeOnly: true
  ) { context, arguments throws(TodoError) in
    let selection = try QuerySelection.selection(context: context, question: "Tag")
    // With a query, the key and the value are the only positionals.
    let first = selection == nil ? 1 : 0
    let items = selection == nil ? try arguments.tasks(0) : []
    let key = try arguments.word(first)
    guard isTagPart(key), !key.hasPrefix("+"), !key.hasPrefix("@") else { throw .notATagKey(key) }
    var value: String?
    let valueWords = try arguments.text(first + 1)
    if !valueWords.isEmpty {
      // A date may be said in several words (`tag 3 due next monday`); any other value is one.
      let words = valueWords.joined(separator: " ")
      let typed = try TypedInput.tagValue(words, key: key, today: context.today)
      guard isTagPart(typed), !typed.hasPrefix("//") else { throw .notATagValue(words) }
      value = typed
    }
    let label = selection?.label("tag") ?? "tag \(arguments.words.joined(separator: " "))"
    let terminal = context.console.destination
    let edited = try context.editTasks(label: label, asking: selection?.mayAsk(context) ?? false, choosing: {
      list throws(TodoError) in
      try QuerySelection.references(items, selection, in: list, context: context, terminal: terminal)
    }) { reference, task throws(TodoError) in
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

/// `postpone NR [NR ...] DURATION|DATE`: move due dates (and thresholds with them).
enum PostponeCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "postpone", usage: "NR [NR ...] DURATION|DATE",
    abstract: "Move the due date of one or more tasks by a duration such as 3d, 1w, 2m, 1y or 5b, or to a date.",
    discussion: """
      A DURATION (3d, 1w, 5b or 3 days, 2 weeks, 5 business days; b counts business days; -1d \
      goes back) moves the due date, or today's date when the task is overdue, so a postponed \
      task is never left overdue. A DATE (tomorrow, fri, next monday, in 3 days, dec 10, \
      weekend, +2w from today, 2026-05-01) becomes the due date. A t: threshold moves by as many \
      days as the due date, so the gap stays. A task with only t: moves its threshold; a task \
      with neither gets due:. A task whose due: or t: is not a real date is left alone.
      """,
    arguments: [.taskNumbers, .dateOrDuration.required],
    argumentsWhenGiven: [(OptionSpec.selectQuery.name, [.dateOrDuration.required])], options: OptionSpec.selecting, nativeOnly: true
  ) { context, arguments throws(TodoError) in
    let selection = try QuerySelection.selection(context: context, question: "Postpone")
    // With a query, the date or duration is the only positional.
    let items = selection == nil ? try arguments.tasks(0) : []
    let when = try arguments.text(selection == nil ? 1 : 0)
    let today = context.today
    // A date or a duration may be said in several words (`next monday`, `3 days`).
    let move = try Move(when.joined(separator: " "), today: today)
    let terminal = context.console.destination
    let label = selection?.label("postpone") ?? "postpone \(arguments.words.joined(separator: " "))"
    let edited = try context.editTasks(label: label, asking: selection?.mayAsk(context) ?? false, choosing: {
      list throws(TodoError) in
      try QuerySelection.references(items, selection, in: list, context: context, terminal: terminal)
    }) { reference, task throws(TodoError) in
      // An unreadable date would be replaced as if it were missing: the user's text is lost.
      for key in [TagMeaning.due.key, TagMeaning.threshold.key] {
        if let value = task.tagValue(key), TaskDate(value) == nil {
          throw .invalidTagDate(reference.typed, key: key, value: value)
        }
      }
      postpone(&task, move, today: today)
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

  /// Where `postpone` moves a date: by a duration, or to a date.
  enum Move: Equatable {
    case by(RelativeDate.Offset)
    case to(TaskDate)

    /// Reads the words after the task numbers: an unsigned or negative duration (`3d`, `3`,
    /// `-1d`, `3 days`) moves; a date (`tomorrow`, `fri`, `next monday`, `in 3 days`,
    /// `2026-05-01`, and `+2w`, which counts from today) is a target.
    init(_ text: String, today: TaskDate) throws(TodoError) {
      if !text.hasPrefix("+"), let offset = try? TypedInput.duration(text) {
        self = .by(offset)
      } else if let date = RelativeDate.resolve(text, today: today) {
        self = .to(date)
      } else if let readings = RelativeDate.numericReadings(text, today: today), !readings.isEmpty {
        throw .ambiguousDate(text, readings: readings)
      } else {
        throw .notADurationOrDate(text)
      }
    }

    /// The new date for one that was `date`: a forward duration counts from today when
    /// `date` is already past, so the task is not left overdue.
    func apply(to date: TaskDate, today: TaskDate, overdueCountsFromToday: Bool) -> TaskDate {
      switch self {
      case .to(let target): return target
      case .by(let offset):
        let forward = offset.count > 0
        return offset.apply(to: overdueCountsFromToday && forward && date < today ? today : date)
      }
    }
  }

  /// Moves `due:` (and `t:` by as many days); a task with only `t:` moves its threshold, a
  /// task with neither gets `due:`.
  static func postpone(_ task: inout Task, _ move: Move, today: TaskDate) {
    let due = task.dueDate
    let threshold = task.thresholdDate
    if let due {
      let moved = move.apply(to: due, today: today, overdueCountsFromToday: true)
      task.setTag(TagMeaning.due.key, moved.description)
      // Keep the gap to the due date exactly (month arithmetic clamps).
      if let threshold { task.setTag(TagMeaning.threshold.key, moved.adding(days: -threshold.days(until: due)).description) }
    } else if let threshold {
      task.setTag(TagMeaning.threshold.key, move.apply(to: threshold, today: today, overdueCountsFromToday: false).description)
    } else {
      task.setTag(TagMeaning.due.key, move.apply(to: today, today: today, overdueCountsFromToday: false).description)
    }
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
    let references = try arguments.tasks(0)
    let items = references.map(\.typed)
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
