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
    let native = context.settings.mode == .native
    let done: [[UInt8]] = try context.storing {
      try context.store.update([todoFile, doneFile], label: "archive") { lists in
        // todo.sh deletes only lines with no character at all (`sed '/./!d'`), and to it the CR
        // of a CR LF blank line is one; to todo.txt(5) that line is empty.
        let todoList = lists[0]
        lists[0].removeAll { index, task in
          task.bytes.isEmpty && (native || todoList.lineEnding(at: index) != .crlf)
        }
        var moved: [[UInt8]] = []
        var endings: [LineEnding] = []
        for (index, task) in lists[0].enumerated() where task.bytes.starts(with: bytes("x ")) {
          moved.append(Array(task.bytes))
          endings.append(lists[0].lineEnding(at: index))
        }
        guard !moved.isEmpty else { return moved }
        lists[0].removeAll { $0.bytes.starts(with: bytes("x ")) }
        // Under the name todo the moved lines end as done.txt's lines do, or, when it has none
        // yet, as todo.txt's; todo.sh copies each line with its own ending (`grep >>`).
        let ending = lists[1].isEmpty ? lists[0].preferredLineEnding : lists[1].preferredLineEnding
        for (line, own) in zip(moved, endings) {
          lists[1].append(Task(bytes: line), ending: native ? ending : own == .none ? .lf : own)
        }
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
