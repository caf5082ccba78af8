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
    let native = context.settings.policy.readsTasksByGrammar
    // The file is asked by line bytes (no task parsed but the moved ones), and the moved
    // lines are shown from done.txt's new list, not kept a second time: a million-line file
    // is archived in little more than the memory of the file and its line slots.
    let (doneList, firstMoved): (TodoList, Int) = try context.storing {
      try context.store.update([todoFile, doneFile], label: "archive") { lists in
        let mark = bytes("x ")
        let firstMoved = lists[1].count
        let todo = lists[0]
        // Under the name todo the moved lines end as done.txt's lines do, or, when it has none
        // yet, as todo.txt's; todo.sh copies each line with its own ending (`grep >>`).
        let ending = lists[1].isEmpty ? todo.preferredLineEnding : lists[1].preferredLineEnding
        for index in todo.indices where todo.lineBytes(at: index).starts(with: mark) {
          let own = todo.lineEnding(at: index)
          lists[1].append(Task(bytes: todo.lineBytes(at: index)), ending: native ? ending : own == .none ? .lf : own)
        }
        let moves = lists[1].count > firstMoved
        // todo.sh deletes only lines with no character at all (`sed '/./!d'`), and to it the CR
        // of a CR LF blank line is one; to todo.txt(5) that line is empty.
        lists[0].removeAllLines { index, line in
          (line.isEmpty && (native || todo.lineEnding(at: index) != .crlf)) || (moves && line.starts(with: mark))
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
