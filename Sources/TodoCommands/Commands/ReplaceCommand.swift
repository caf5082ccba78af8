import TodoTxt

enum ReplaceCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "replace", usage: "NR \"UPDATED ITEM\"",
    abstract: "Replace the text of a task, keeping its priority and creation date.",
    discussion: """
      A priority or a date at the start of the new text replaces the old one; otherwise the \
      old priority and creation date stay.
      """,
    arguments: [.taskNumber, .taskText], options: [TypedInput.verbatimOption, allOption]
  ) { context, arguments throws(TodoError) in
    try replaceOrPrepend(context, arguments.task(0), with: arguments.text(1), prepend: false)
  }

  /// `--all`: replace the tags with meaning too.
  static let allOption = OptionSpec(
    ["--all"], help: "Replace everything: do not keep the task's due:, t:, rec:, note:, att:, id:, p: and other tags with meaning that the new text leaves out.")

  /// The priority (`(X) `, any byte) and creation date (`NN-NN-NN ` to `NNNN-NN-NN `) at the
  /// start of a line, as todo.sh's replace and prepend read them.
  static func headParts(_ line: [UInt8]) -> (priority: [UInt8], date: [UInt8]) {
    var index = 0
    var priority: [UInt8] = []
    if hasAnyPriorityPrefix(line) {
      priority = Array(line[0..<4])
      index = 4
    }
    var date: [UInt8] = []
    let isDigit: (UInt8) -> Bool = { (48...57).contains($0) }
    var digits = 0
    while index + digits < line.count, digits < 4, isDigit(line[index + digits]) { digits += 1 }
    let rest = index + digits
    if digits >= 2, rest + 7 <= line.count, line[rest] == UInt8(ascii: "-"), isDigit(line[rest + 1]),
      isDigit(line[rest + 2]), line[rest + 3] == UInt8(ascii: "-"), isDigit(line[rest + 4]), isDigit(line[rest + 5]),
      line[rest + 6] == UInt8(ascii: " ")
    {
      date = Array(line[index..<(rest + 7)])
    }
    return (priority, date)
  }

  static func replaceOrPrepend(
    _ context: CommandContext, _ reference: TaskReference, with rest: [String], prepend: Bool
  ) throws(TodoError) -> ExitStatus {
    let file = context.settings.todoFile
    // Asked only about a task that exists, and without the lock: the task is changed only if
    // it is still as it was when asked about.
    let asks = rest.first?.isEmpty ?? true && !context.settings.isForced
    let terminal = context.console.destination
    var old = Task(bytes: [])
    var replaced: [Task.RepeatedTag] = []
    var keptTags: [Tag] = []
    let updated = try context.editTask(reference, in: file, label: prepend ? "prepend" : "replace", asking: asks) {
      task throws(TodoError) in
      old = task
      var input = asks ? context.ask(prepend ? "Prepend: " : "Replacement: ", on: terminal) : RawArguments.joined(rest)
      if prepend, context.settings.policy.readsTasksByGrammar {
        // After the whole head, as todo(1) says: a done task's `x DATE` stays in front.
        let text: [UInt8]
        (text, replaced) = try context.settingRepeatedTags(of: try context.storedText(cleanInput(input)), on: &task)
        if !text.isEmpty || replaced.isEmpty { task.prependText(bytes: text) }
        return
      }
      let line = Array(task.bytes)
      let original = headParts(line)
      var priority = original.priority
      var date = original.date
      if !prepend {
        let replacement = headParts(input)
        if !replacement.date.isEmpty { date = replacement.date }
        if !replacement.priority.isEmpty { priority = replacement.priority }
        input.removeFirst(replacement.priority.count + replacement.date.count)
      }
      let body = line.dropFirst(original.priority.count + original.date.count)
      let text = try context.storedText(cleanInput(input))
      task.setLine(priority + date + text + (prepend ? [UInt8(ascii: " ")] + body : []))
      // Under the name todo, what the new text leaves out of the task's note, attachments,
      // dates and dependencies stays, unless --all says to replace everything.
      if !prepend, context.settings.policy.readsTasksByGrammar, !context.invocation.has(allOption.name) {
        keptTags = task.keepTagsWithMeaning(of: old)
      }
    }
    context.reportReplaced(replaced)
    if context.verbose {
      if !prepend {
        context.echo(reference.typed, old.bytes)
        context.console.line("TODO: Replaced task with:")
      }
      context.echo(reference.typed, updated.bytes)
      if !keptTags.isEmpty {
        let list = keptTags.map { $0.key + ":" + $0.value }.joined(separator: " ")
        context.console.line("TODO: Kept \(list) ('replace --all' replaces them too).")
      }
    }
    return .success
  }
}
