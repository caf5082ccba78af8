import TodoTxt

/// `del NR [NR ...]` (todo.sh: `del NR [TERM]`): delete tasks, or remove words from one.
enum DeleteCommand {
  /// `--words WORDS`: the explicit, literal way to take words out of a task under `todo`.
  static let wordsOption = OptionSpec(
    ["--words"], value: .text, valueName: "WORDS",
    help: "Remove these whole words from the task (literally; a tag only when written whole) instead of deleting it.")

  static let spec: CommandSpec = CommandSpec(
    name: "del", aliases: ["rm"], usage: "NR [NR ...]",
    abstract: "Delete tasks, or only some words of one.",
    discussion: """
      Each task's line is emptied, after confirmation unless -f is given; the line stays, so \
      other task numbers do not change (with -n every empty line is removed). With --words, \
      those whole words are removed from the task, literally: a tag goes only when written \
      whole, and a task is never left empty. Under the name todo.sh, 'del NR TERM' removes \
      every match of TERM (a basic regular expression) from the task, as todo.sh does.
      """,
    arguments: [.taskNumbers],
    argumentsWhenGiven: [(OptionSpec.selectQuery.name, []), (wordsOption.name, [.taskNumber])],
    // todo.sh's usage line and arguments, which its name keeps (its own suite compares them).
    options: OptionSpec.selecting + [wordsOption], extraWords: .ignoredUnderTodoSh, todoShUsage: "del NR [TERM]",
    todoShArguments: [.taskNumber, .term.oneWord.optional]
  ) { context, arguments throws(TodoError) in
    if let status = try QuerySelection.delete(context: context) { return status }
    if context.settings.policy.readsTasksByGrammar { return try deleteNative(arguments, context: context) }
    let file = context.settings.todoFile
    let reference = try arguments.task(0)
    var old = Task(bytes: [])
    let term = try arguments.optionalWord(1) ?? ""
    if term.isEmpty {
      let preserve = context.settings.preservesLineNumbers
      // The question is asked without the list's lock, and the task deleted only if it is
      // still what the question showed (see `CommandContext.change`); a "no" writes nothing.
      let terminal = context.console.destination
      try context.change(file, label: "del \(reference.typed)", asking: !context.settings.isForced) { list in
        old = try reference.task(in: list, file: file, mode: context.settings.mode)
        guard context.confirm("Delete '\(String(decoding: old.bytes, as: UTF8.self))'", on: terminal) else {
          throw TodoError.noTasksDeleted
        }
        list.replace(number: reference.number, with: Task(bytes: []))
        if !preserve { list.removeAll { $0.bytes.isEmpty } }
      }
      if context.verbose {
        context.echo(reference.typed, old.bytes)
        context.console.line("TODO: \(reference.typed) deleted.")
      }
      return .success
    }
    let updated = try context.editTask(reference, in: file, label: "del") { task in
      old = task
      task.setLine(removing(term, from: Array(task.bytes)))
    }
    if updated.bytes.elementsEqual(old.bytes) {
      if context.verbose { context.echo(reference.typed, old.bytes) }
      throw .termNotFound(term)
    }
    if context.verbose {
      context.echo(reference.typed, old.bytes)
      context.console.line("TODO: Removed '\(term)' from task.")
      context.echo(reference.typed, updated.bytes)
    }
    return .success
  }

  /// Under the name `todo`: `del NR [NR ...]` deletes each task (numbers as `do` takes
  /// them), `del NR --words WORDS` removes whole words from one. A word that is no number is
  /// refused rather than read as an expression: `del 6 7` means tasks 6 and 7.
  static func deleteNative(_ arguments: ParsedArguments, context: CommandContext) throws(TodoError) -> ExitStatus {
    let file = context.settings.todoFile
    if let words = context.invocation.value(wordsOption.name) {
      return try removeWords(words, from: arguments.task(0), context: context)
    }
    let references = try arguments.tasks(0)
    let items = references.map(\.typed)
    if let twice = Dictionary(grouping: references, by: \.number).first(where: { $0.value.count > 1 }) {
      throw .taskNamedTwice(twice.value[0].typed)
    }
    let preserve = context.settings.preservesLineNumbers
    let terminal = context.console.destination
    var deleted: [(TaskReference, Task)] = []
    // Asked without the lock; each task is deleted only if it is still what its question
    // showed (see `CommandContext.change`).
    try context.change(file, label: "del \(items.joined(separator: " "))", asking: !context.settings.isForced) { list in
      for reference in references {
        let old = try reference.task(in: list, file: file, mode: context.settings.mode)
        guard context.confirm("Delete '\(String(decoding: old.bytes, as: UTF8.self))'", on: terminal) else { continue }
        deleted.append((reference, old))
        list.replace(number: reference.number, with: Task(bytes: []))
      }
      guard !deleted.isEmpty else { throw TodoError.noTasksDeleted }
      if !preserve { list.removeAll { $0.bytes.isEmpty } }
    }
    if context.verbose {
      for (reference, old) in deleted {
        context.echo(reference.typed, old.bytes)
        context.console.line("TODO: \(reference.typed) deleted.")
      }
    }
    return .success
  }

  /// Removes each of `words` (whitespace-separated, compared byte for byte with the task's
  /// words) from the task; a word not there is an error, as is a task left with no text.
  static func removeWords(_ words: String, from reference: TaskReference, context: CommandContext)
    throws(TodoError) -> ExitStatus
  {
    let file = context.settings.todoFile
    let wanted = words.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    guard !wanted.isEmpty else { throw spec.usageError }
    var old = Task(bytes: [])
    let updated = try context.editTask(reference, in: file, label: "del") { task throws(TodoError) in
      old = task
      do throws(Task.ModelError) { try task.removeWords(wanted) } catch {
        switch error {
        case .wordNotFound(let word): throw .termNotFound(word)
        case .wouldLeaveNoText:
          throw .message(
            "\(context.programName): that would leave task \(reference.typed) with no text; delete it with '\(context.programName) del \(reference.typed)'")
        default:
          throw .message(
            "\(context.programName): without those words task \(reference.typed) would read as done, prioritised or dated; nothing removed")
        }
      }
    }
    if context.verbose {
      context.echo(reference.typed, old.bytes)
      context.console.line("TODO: Removed '\(words)' from task.")
      context.echo(reference.typed, updated.bytes)
    }
    return .success
  }

  /// todo.sh's five substitutions for removing TERM, which also tidy the spaces around it and
  /// keep a priority in front. A TERM that sed could not use (it contains `/`, or is not a
  /// valid expression) removes nothing.
  static func removing(_ term: String, from line: [UInt8]) -> [UInt8] {
    guard !term.contains("/") else { return line }
    let steps: [(String, String)] = [
      ("^\\((.) \\)\\{0,1\\} *\(term) *", "\\1"),
      (" *\(term) *$", ""),
      ("  *\(term) *", " "),
      (" *\(term)  *", " "),
      (term, ""),
    ]
    var result = line
    for (pattern, replacement) in steps {
      guard let regex = BasicRegex(pattern) else { return line }
      result = regex.replacingAll(in: result, with: bytes(replacement))
    }
    return result
  }
}
