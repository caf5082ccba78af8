import TodoTxt

/// `next [TERM...] [--limit N] [--explain]`: what to do next, as one listing of `ls` sorted
/// by ``Urgency``, most urgent first.
///
/// It is `ls --sort urgency` with the done tasks left out (and at most N tasks), so it looks
/// and is coloured like `ls` and hides what `ls` hides: tasks waiting for an open task, `h:1`,
/// and a `t:` date still ahead.
enum NextCommand {
  static let limitOption = OptionSpec(
    ["--limit", "-n"], value: .number(1...1_000_000), valueName: "N", help: "Show only the N most urgent tasks.")
  static let explainOption = OptionSpec(
    ["--explain"], help: "Under each task, show the terms its urgency is the sum of.")

  static let spec: CommandSpec = CommandSpec(
    name: "next", usage: "[TERM...]",
    abstract: "List the open tasks to do next, the most urgent first.",
    discussion: """
      Urgency is a sum of four terms: the due date (overdue highest, growing for each day late; \
      due today next; due soon above due later), the priority (A highest), the age since the \
      creation date, and how many open tasks wait for the task (dep add). Done tasks, tasks \
      waiting for an open task, h:1 and a t: date still ahead are left out. Equal scores keep \
      the order of the file. TERMs filter as with ls.
      """,
    arguments: [.term], options: [limitOption, explainOption], nativeOnly: true, termsAreWords: true
  ) { context, parsed throws(TodoError) in
    let arguments = try parsed.text(0)
    var options = ListOptions()
    options.sort = TaskOrder([TaskOrder.Term(.urgency)])
    options.terms = arguments
    options.hidesDone = true
    let limit = context.invocation.number(limitOption.name)
    let file = context.settings.todoFile
    guard context.invocation.has(explainOption.name) else {
      let post = limit.map { selection(limit: $0) }
      try ListCommand.listFile(file, terms: arguments, post: post, options: options, context: context)
      return .success
    }
    let lines = Lines(bytes: try context.readBytes(file), raw: false)
    let post = limit.map { selection(limit: $0) }
    try explain(lines, file: file, terms: arguments, post: post, options: options, context: context)
    return .success
  }

  /// `--limit N`: the first `limit` rows of the listing, whose order is the tasks' urgency
  /// (equal scores by line), so the most urgent.
  static func selection(limit: Int) -> ListEngine.PostFilter {
    ListEngine.PostFilter(command: "next --limit \(limit)", keepingFirst: limit)
  }

  /// `--explain`: the listing as `next` prints it, each task followed by its urgency's terms.
  static func explain(
    _ lines: Lines, file: String, terms: [String], post: ListEngine.PostFilter?, options: ListOptions,
    context: CommandContext
  ) throws(TodoError) {
    let engine = ListEngine(context: context)
    let native = try NativeListing(options, lines: lines, context: context)
    let output = engine.format(
      lines, padding: String(lines.count).count - (lines.isEmpty ? 1 : 0), terms: terms, post: post, native: native,
      adaptsText: false)
    let counts = Dependencies.waitingCounts(in: lines)
    // Under the task's text when the terminal layout drew it, else under its number.
    let column = output.indent ?? (String(lines.count).count + 1)
    let indent = Array(String(repeating: " ", count: column).utf8) + Array("urgency ".utf8)
    let rows = output.listedRows
    engine.printAdapted(indent: output.indent) { emit in
      for row in 0..<(rows?.count ?? 0) {
        emit(.row(rows?.line(row) ?? [], indent: output.indent))
        guard let index = rows?.index(row), index < lines.count else { continue }
        let task = lines.task(index)
        let urgency = Urgency(task, today: context.today, waiting: Urgency.waiting(for: task, counts: counts))
        emit(.row(indent + Array(urgency.explanation.utf8), indent: output.indent.map { $0 + 8 }))
      }
    }
    if context.verbose {
      context.summary(["\(CommandContext.prefix(of: file)): \(output.count) of \(output.total) tasks shown"])
    }
  }
}
