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
    // One pass over the file, and the moved lines kept as views of the bytes read (not a
    // copy of each): a million-line file is archived in the memory of the file and its slots.
    let done: [Task] = try context.storing {
      try context.store.update([todoFile, doneFile], label: "archive") { lists in
        let mark = bytes("x ")
        var moved: [Task] = []
        lists[0].removeAllLines(where: { line in
          if line.isEmpty { return true }
          guard line.starts(with: mark) else { return false }
          moved.append(Task(bytes: line))
          return true
        })
        for task in moved { lists[1].append(task) }
        return moved
      }
    }
    guard context.verbose else { return .success }
    if done.isEmpty {
      context.console.line("TODO: \(todoFile) does not contain any done tasks.")
    } else {
      for task in done { context.console.line(Array(task.bytes)) }
      context.console.line("TODO: \(todoFile) archived.")
    }
    return .success
  }
}
