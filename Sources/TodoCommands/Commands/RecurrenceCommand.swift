import TodoTxt

/// `rec NR [RULE | --preview [K]]`: show, set or preview a task's recurrence.
enum RecurrenceCommand {
  static let previewOption = OptionSpec(
    ["--preview"], help: "List the next dates (K of them, 5 when K is not given) instead of setting a rule.")

  static let spec: CommandSpec = CommandSpec(
    name: "rec", usage: "NR [RULE | K]",
    abstract: "Show, set or preview how a task recurs.",
    discussion: """
      RULE is a rec: value: a number and d, w, m, y or b (business days), such as 1w or 3b; \
      with + in front (+1m) the next date counts from the old due date, otherwise from the day \
      the task is done. Doing a task with a rec: tag adds the next one, t: keeping its distance \
      to due:. A strict task whose next date would already be past skips ahead to the first \
      date from today when TODOTXT_RECUR_CATCHUP=1. --preview lists the next K dates (5 when K \
      is not given), as if each task were done on its due date.
      """,
    arguments: [.taskNumber, .text.recurrence.optional],
    argumentsWhenGiven: [(previewOption.name, [.taskNumber, .text.counting(1...1000, named: "--preview").optional])],
    options: [previewOption], nativeOnly: true
  ) { context, arguments throws(TodoError) in
    let reference = try arguments.task(0)
    let file = context.settings.todoFile
    let previewing = context.invocation.has(previewOption.name)
    if !previewing, let rule = try arguments.recurrence(1) {
      let edited = try context.editTasks([reference], label: "rec \(arguments.words.joined(separator: " "))") { _, task in
        task.setTag(TagMeaning.recurrence.key, rule.description)
      }
      if context.verbose {
        for (reference, task) in edited { context.echo(reference.typed, task.bytes) }
      }
      return .success
    }
    let count = previewing ? try arguments.number(1) ?? 5 : 1
    let task = try reference.task(in: context.readList(file), file: file, mode: context.settings.mode)
    guard let recurrence = task.recurrence else { throw .doesNotRecur(reference.typed) }
    context.echo(reference.typed, task.bytes)
    context.console.line("  rec:\(recurrence): \(describe(recurrence))")
    for next in preview(task, count: count, context: context) { context.console.line("  " + next) }
    return .success
  }

  /// Whether strict tasks catch up to today (`TODOTXT_RECUR_CATCHUP=1`).
  static func catchesUp(_ context: CommandContext) -> Bool {
    context.settings.value("TODOTXT_RECUR_CATCHUP") == "1"
  }

  /// The task that follows `task` (just marked done) under the name `todo`, or `nil`.
  static func nextTask(after task: Task, context: CommandContext) -> Task? {
    task.nextOccurrence(completedOn: context.today, catchUp: catchesUp(context))
  }

  /// The dates of the next `count` occurrences, each occurrence done on its own due date (or
  /// threshold), the first done today.
  static func preview(_ task: Task, count: Int, context: CommandContext) -> [String] {
    var lines: [String] = []
    var current = task
    var doneOn = context.today
    for _ in 0..<count {
      guard let next = current.nextOccurrence(completedOn: doneOn, catchUp: catchesUp(context)) else { break }
      var parts: [String] = []
      if let due = next.dueDate { parts.append("\(TagMeaning.due.key):\(due) (\(AgendaCommand.dayName(due, short: true)))") }
      if let threshold = next.thresholdDate { parts.append("\(TagMeaning.threshold.key):\(threshold)") }
      lines.append(parts.joined(separator: " "))
      doneOn = next.dueDate ?? next.thresholdDate ?? doneOn
      current = next
    }
    return lines
  }

  /// `every 2 weeks after it is done`, `every month after the due date`.
  static func describe(_ recurrence: Recurrence) -> String {
    let names: [Recurrence.Unit: String] = [
      .day: "day", .week: "week", .month: "month", .year: "year", .businessDay: "business day",
    ]
    let name = names[recurrence.unit] ?? "day"
    let every = recurrence.count == 1 ? "every \(name)" : "every \(recurrence.count) \(name)s"
    return every + (recurrence.isStrict ? " after the due date" : " after it is done")
  }
}
