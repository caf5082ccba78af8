import TodoTxt

/// `do NR [NR ...]`: mark tasks done.
enum DoCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "do", aliases: ["done"], usage: "NR [NR ...]",
    abstract: "Mark one or more tasks as done.",
    discussion: """
      Each task gets an x and today's date in front. As todo.sh, the name todo.sh then moves \
      every done task to done.txt (turn it off with -a); the name todo leaves them in place \
      until you run archive, so task numbers stay put, and keeps a priority as a pri: tag; \
      a task with a rec: tag then comes back as a new task (see rec).
      """,
    arguments: [.taskNumbers]
  ) { context, arguments throws(TodoError) in
    let arguments = try QuerySelection.arguments(arguments, context: context, question: "Mark as done") ?? arguments
    let items = taskNumberWords(arguments)
    guard !items.isEmpty else { throw spec.usageError }
    let file = context.settings.todoFile
    let native = context.settings.mode == .native
    var status = ExitStatus.success
    var failure: TodoError?
    try context.storing {
      try context.store.update(file, label: "do \(items.joined(separator: " "))") { list in
        for item in items {
          do throws(TodoError) {
            let reference = try TaskReference(item, usage: spec.usageError)
            var task = try reference.task(in: list, file: file)
            guard !task.bytes.starts(with: bytes("x ")) else {
              context.console.errorLine("TODO: \(item) is already marked done.")
              status = .failure
              continue
            }
            if native, task.headPriority != nil {
              task.complete(on: context.today, priorityStyle: .tag)
            } else {
              let body = hasAnyPriorityPrefix(task.bytes) ? task.bytes.dropFirst(4) : task.bytes
              task.setLine(bytes("x \(context.today) ") + body)
            }
            list.replace(number: reference.number, with: task)
            if context.verbose {
              context.echo(item, task.bytes)
              context.console.line("TODO: \(item) marked as done.")
            }
            if native, let next = RecurrenceCommand.nextTask(after: task, context: context) {
              let number = list.append(next)
              if context.verbose {
                context.echo(String(number), next.bytes)
                context.console.line("\(context.todoPrefix): \(number) added.")
              }
            }
          } catch {
            failure = error
            return
          }
        }
        if native, context.verbose {
          let completed = items.compactMap { Int($0) }.compactMap { list.task(number: $0) }.filter(\.isCompleted)
          for (number, task) in Dependencies.freed(by: completed, in: list) {
            context.console.line("\(context.todoPrefix): \(number) no longer waits for anything:")
            context.echo(String(number), task.bytes)
          }
        }
      }
    }
    if let failure { throw failure }
    if context.settings.autoArchives {
      let archived = try context.runAction("archive")
      if archived != .success { status = archived }
    }
    return status
  }
}

/// `archive`: move done tasks from todo.txt to done.txt.
enum ArchiveCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "archive",
    abstract: "Move all done tasks from todo.txt to done.txt and remove empty lines.",
    discussion: "Task numbers change: the remaining tasks close up."
  ) { context, _ throws(TodoError) in
    let todoFile = context.settings.todoFile
    let doneFile = context.settings.doneFile
    let done: [[UInt8]] = try context.storing {
      try context.store.update([todoFile, doneFile], label: "archive") { lists in
        lists[0].removeAll { $0.bytes.isEmpty }
        var moved: [[UInt8]] = []
        for task in lists[0] where task.bytes.starts(with: bytes("x ")) { moved.append(Array(task.bytes)) }
        guard !moved.isEmpty else { return moved }
        lists[0].removeAll { $0.bytes.starts(with: bytes("x ")) }
        for line in moved { lists[1].append(Task(bytes: line)) }
        return moved
      }
    }
    guard context.verbose else { return .success }
    if done.isEmpty {
      context.console.line("TODO: \(todoFile) does not contain any done tasks.")
    } else {
      for line in done { context.console.line(line) }
      context.console.line("TODO: \(todoFile) archived.")
    }
    return .success
  }
}

/// `move NR DEST [SRC]`: move a task between files of the todo directory.
enum MoveCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "move", aliases: ["mv"], usage: "NR DEST [SRC]",
    abstract: "Move a task from one file of the todo directory to another.",
    discussion: "SRC defaults to todo.txt. Asks for confirmation unless -f is given.",
    arguments: [.taskNumber, .fileName, .fileName]
  ) { context, arguments throws(TodoError) in
    let usage = TodoError.actionUsage("mv NR DEST [SRC]")
    let directory = context.settings.todoDirectory
    let destination = directory + "/" + (arguments.count > 1 ? arguments[1] : "")
    let source =
      arguments.count > 2 && !arguments[2].isEmpty ? directory + "/" + arguments[2] : context.settings.todoFile
    guard Posix.isRegularFile(source) else { throw .sourceMissing(source) }
    guard Posix.isRegularFile(destination) else { throw .destinationMissing(destination) }
    let reference = try TaskReference(arguments.first, usage: usage)
    let task = try reference.task(in: context.readList(source), file: source)
    let text = String(decoding: task.bytes, as: UTF8.self)
    let sourcePrefix = CommandContext.prefix(of: source)
    guard context.confirm("Move '\(text)' from \(source) to \(destination)") else {
      throw .noTasksMoved(prefix: sourcePrefix)
    }
    let preserve = context.settings.preservesLineNumbers
    let newNumber: Int = try context.storing {
      try context.store.update([source, destination], label: "move \(reference.typed)") { lists in
        let current = try reference.task(in: lists[0], file: source)
        lists[0].replace(number: reference.number, with: Task(bytes: []))
        if !preserve { lists[0].removeAll { $0.bytes.isEmpty } }
        return lists[1].append(current)
      }
    }
    if context.verbose {
      context.echo(reference.typed, task.bytes)
      context.console.line(
        "\(sourcePrefix): \(reference.typed) moved to \(newNumber) in \(CommandContext.prefix(of: destination)).")
    }
    return .success
  }
}

/// `deduplicate`: remove repeated identical lines.
enum DeduplicateCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "deduplicate",
    abstract: "Remove lines that repeat an earlier line exactly.",
    discussion: "The first copy stays. Removed copies leave an empty line unless -n is given."
  ) { context, _ throws(TodoError) in
    let file = context.settings.todoFile
    let preserve = context.settings.preservesLineNumbers
    let removed: Int = try context.storing {
      try context.store.update(file, label: "deduplicate") { list in
        var seen = Set<[UInt8]>()
        var duplicates: [Int] = []
        for (index, task) in list.enumerated() {
          let line = Array(task.bytes)
          if !seen.insert(line).inserted { duplicates.append(index) }
        }
        let before = list.filter { !$0.bytes.isEmpty }.count
        if preserve {
          for index in duplicates where !list[index].bytes.isEmpty { list.replace(at: index, with: Task(bytes: [])) }
        } else {
          for index in duplicates.reversed() { list.remove(at: index) }
        }
        let after = list.filter { !$0.bytes.isEmpty }.count
        return before - after
      }
    }
    guard removed > 0 else { throw .noDuplicates }
    context.console.line("TODO: \(removed) duplicate task(s) removed")
    return .success
  }
}

/// `report`: archive, then record the open and done counts in report.txt.
enum ReportCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "report",
    abstract: "Archive, then append the number of open and done tasks to report.txt.",
    discussion: "Nothing is appended when the counts equal those of the last report line."
  ) { context, _ throws(TodoError) in
    _ = try context.runAction("archive")
    let todo = try context.readList(context.settings.todoFile)
    let done = try context.readList(context.settings.doneFile)
    let reportFile = context.settings.reportFile
    let newData = "\(todo.count) \(done.count)"
    let report = try context.readList(reportFile)
    let lastReport = report.last.map { Array($0.bytes) } ?? []
    var lastData = lastReport
    if let space = lastData.firstIndex(of: UInt8(ascii: " ")) { lastData.removeSubrange(...space) }
    if lastData == bytes(newData) {
      context.console.line(lastReport)
      if context.verbose { context.console.line("TODO: Report file is up-to-date.") }
    } else {
      let line = "\(context.clock.timestamp) \(newData)"
      _ = try context.storing { try context.store.append([bytes(line)], to: reportFile, label: "report") }
      context.console.line(line)
      if context.verbose { context.console.line("TODO: Report file updated.") }
    }
    // todo.sh ends on its verbosity test, so it exits 1 when quiet; scripts may rely on it.
    return !context.verbose && context.settings.mode == .todoSh ? .failure : .success
  }
}

/// `listaddons`: the add-ons in the actions directory.
enum ListAddonsCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "listaddons",
    abstract: "List the add-on actions found in the actions directory."
  ) { context, _ throws(TodoError) in
    let directory = context.settings.actionsDirectory
    guard Posix.isDirectory(directory) else { throw .actionsDirectoryMissing(directory) }
    let addons = Addons.list(in: directory)
    guard !addons.isEmpty else { throw .noValidActions(directory) }
    for addon in addons { context.console.line(addon.name) }
    if context.verbose {
      context.console.line("--")
      context.console.line("TODO: \(addons.count) valid addon actions found.")
    }
    return .success
  }
}

/// `command ACTION [ARGUMENTS]`: run a built-in action even when an add-on overrides it.
enum CommandCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "command", usage: "[ACTIONS]",
    abstract: "Run a built-in action, bypassing any add-on of the same name.",
    arguments: [.action]
  ) { _, _ throws(TodoError) in
    // Dispatch handles `command` before looking up commands; reaching here means no action.
    throw .usage
  }
}
