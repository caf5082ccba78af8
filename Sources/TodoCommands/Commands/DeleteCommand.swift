import TodoTxt

/// `del NR [TERM]`: delete a task, or remove TERM from it.
enum DeleteCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "del", aliases: ["rm"], usage: "NR [TERM]",
    abstract: "Delete a task, or only the words matching TERM from it.",
    discussion: """
      Without TERM the task's line is emptied, after confirmation unless -f is given; the line \
      stays, so other task numbers do not change (with -n every empty line is removed). With \
      TERM, every match of TERM (a basic regular expression) is removed from the task.
      """,
    arguments: [.taskNumber, .term], options: OptionSpec.selecting
  ) { context, arguments throws(TodoError) in
    if let status = try QuerySelection.delete(arguments, context: context, usage: spec.usageError) { return status }
    let file = context.settings.todoFile
    let reference = try TaskReference(arguments.first, usage: spec.usageError)
    var old = Task(bytes: [])
    if arguments.count < 2 || arguments[1].isEmpty {
      let preserve = context.settings.preservesLineNumbers
      // The question shows the task as the snapshot being changed has it: the list is read
      // once, under the lock, and a "no" writes nothing.
      let terminal = context.console
      try context.storing {
        try context.store.update(file, label: "del \(reference.typed)") { list in
          old = try reference.task(in: list, file: file, mode: context.settings.mode)
          guard context.confirm("Delete '\(String(decoding: old.bytes, as: UTF8.self))'", on: terminal) else {
            throw TodoError.noTasksDeleted
          }
          list.replace(number: reference.number, with: Task(bytes: []))
          if !preserve { list.removeAll { $0.bytes.isEmpty } }
        }
      }
      if context.verbose {
        context.echo(reference.typed, old.bytes)
        context.console.line("TODO: \(reference.typed) deleted.")
      }
      return .success
    }
    let term = arguments[1]
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
