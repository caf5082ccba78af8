import TodoTxt

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
