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
    arguments: [.taskNumber, .term]
  ) { context, arguments throws(TodoError) in
    if let status = try QuerySelection.delete(arguments, context: context, usage: spec.usageError) { return status }
    let file = context.settings.todoFile
    let reference = try TaskReference(arguments.first, usage: spec.usageError)
    let old = try reference.task(in: context.readList(file), file: file)
    if arguments.count < 2 || arguments[1].isEmpty {
      guard context.confirm("Delete '\(String(decoding: old.bytes, as: UTF8.self))'") else { throw .noTasksDeleted }
      let preserve = context.settings.preservesLineNumbers
      try context.storing {
        try context.store.update(file, label: "del \(reference.typed)") { list in
          _ = try reference.task(in: list, file: file)
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

enum DeprioritizeCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "depri", aliases: ["dp"], usage: "NR [NR ...]",
    abstract: "Remove the priority of one or more tasks.",
    arguments: [.taskNumbers]
  ) { context, arguments throws(TodoError) in
    let arguments = try QuerySelection.arguments(arguments, context: context, question: "Remove the priority of") ?? arguments
    let items = taskNumberWords(arguments)
    guard !items.isEmpty else { throw spec.usageError }
    let file = context.settings.todoFile
    var status = ExitStatus.success
    var failure: TodoError?
    try context.storing {
      try context.store.update(file, label: "depri \(items.joined(separator: " "))") { list in
        for item in items {
          do throws(TodoError) {
            let reference = try TaskReference(item, usage: spec.usageError)
            var task = try reference.task(in: list, file: file)
            if hasAnyPriorityPrefix(task.bytes) {
              task.setLine(task.bytes.dropFirst(4))
              list.replace(number: reference.number, with: task)
              if context.verbose {
                context.echo(item, task.bytes)
                context.console.line("TODO: \(item) deprioritized.")
              }
            } else {
              context.console.errorLine("TODO: \(item) is not prioritized.")
              status = .failure
            }
          } catch {
            failure = error
            return
          }
        }
      }
    }
    if let failure { throw failure }
    return status
  }
}

enum PriorityCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "pri", aliases: ["p"], usage: "NR PRIORITY [NR PRIORITY ...]",
    abstract: "Set the priority of one or more tasks.",
    discussion: "PRIORITY is a letter from A (highest) to Z; it replaces any priority the task had.",
    arguments: [.taskNumber, .priority]
  ) { context, arguments throws(TodoError) in
    let arguments =
      try QuerySelection.arguments(arguments, context: context, question: "Set the priority of", pairing: true) ?? arguments
    let usage = TodoError.actionUsage("pri NR PRIORITY [NR PRIORITY ...]\nnote: PRIORITY must be anywhere from A to Z.")
    let file = context.settings.todoFile
    var status = ExitStatus.success
    var failure: TodoError?
    try context.storing {
      try context.store.update(file, label: "pri \(arguments.joined(separator: " "))") { list in
        var rest = arguments[...]
        while !rest.isEmpty {
          do throws(TodoError) {
            guard rest.count >= 2 else { throw usage }
            let item = rest[rest.startIndex]
            let letter = TypedInput.priorityLetter(rest[rest.startIndex + 1], mode: context.settings.mode).uppercased()
            guard letter.utf8.count == 1, let priority = letter.utf8.first, (65...90).contains(priority) else {
              throw usage
            }
            let reference = try TaskReference(item, usage: usage)
            var task = try reference.task(in: list, file: file)
            let old: UInt8? = hasAnyPriorityPrefix(task.bytes) ? task.bytes[task.bytes.startIndex + 1] : nil
            if old != priority {
              let body = hasAnyPriorityPrefix(task.bytes) ? task.bytes.dropFirst(4) : task.bytes
              task.setLine([UInt8(ascii: "("), priority, UInt8(ascii: ")"), UInt8(ascii: " ")] + body)
              list.replace(number: reference.number, with: task)
            }
            if context.verbose {
              context.echo(item, task.bytes)
              if let old, old != priority {
                context.console.write(bytes("TODO: \(item) re-prioritized from (") + [old] + bytes(") to (\(letter)).\n"))
              } else if old == nil {
                context.console.line("TODO: \(item) prioritized (\(letter)).")
              }
            }
            if old == priority {
              context.console.errorLine("TODO: \(item) already prioritized (\(letter)).")
              status = .failure
            }
            rest = rest.dropFirst(2)
          } catch {
            failure = error
            return
          }
        }
      }
    }
    if let failure { throw failure }
    return status
  }
}
