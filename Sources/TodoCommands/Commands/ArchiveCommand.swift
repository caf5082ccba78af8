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
    // The file is asked by line bytes (no task parsed but the moved ones), and the moved
    // lines are shown from done.txt's new list, not kept a second time: a million-line file
    // is archived in little more than the memory of the file and its line slots.
    let (doneList, firstMoved): (TodoList, Int) = try context.storing {
      try context.store.update([todoFile, doneFile], label: "archive") { lists in
        let mark = bytes("x ")
        let firstMoved = lists[1].count
        do {
          let todo = lists[0]
          for index in todo.indices where todo.lineBytes(at: index).starts(with: mark) {
            lists[1].append(Task(bytes: todo.lineBytes(at: index)))
          }
        }
        if lists[1].count > firstMoved {
          lists[0].removeAllLines(where: { $0.isEmpty || $0.starts(with: mark) })
        } else {
          lists[0].removeAllLines(where: { $0.isEmpty })
        }
        return (lists[1], firstMoved)
      }
    }
    guard context.verbose else { return .success }
    if doneList.count == firstMoved {
      context.console.line("TODO: \(todoFile) does not contain any done tasks.")
    } else {
      for index in firstMoved..<doneList.count { context.console.line(Array(doneList.lineBytes(at: index))) }
      context.console.line("TODO: \(todoFile) archived.")
    }
    return .success
  }
}
