import TodoTxt

/// `archive`: move done tasks from todo.txt to done.txt.
enum ArchiveCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "archive",
    abstract: "Move all done tasks from todo.txt to done.txt and remove empty lines.",
    discussion: "Task numbers change: the remaining tasks close up.",
    // todo.sh leaves words after the action alone; the name todo refuses them.
    extraWords: .ignoredUnderTodoSh
  ) { context, _ throws(TodoError) in
    let todoFile = context.settings.todoFile
    let doneFile = context.settings.doneFile
    let native = context.settings.policy.readsTasksByGrammar
    // The file is asked by line bytes (no task parsed but the moved ones), and the moved
    // lines are shown from done.txt's new list, not kept a second time: a million-line file
    // is archived in little more than the memory of the file and its line slots.
    let (doneList, firstMoved): (TodoList, Int) = try context.storing {
      try context.store.update([todoFile, doneFile], label: "archive") { lists in
        // done.txt's list is taken out while todo.txt's lines are read, so that the moved
        // lines can go to it in the same pass; todo.txt's list is never copied (a copy alive
        // during the removal would make it copy every slot, 16 MB at a million lines).
        var done = TodoList()
        swap(&done, &lists[1])
        // Under the name todo the moved lines end as done.txt's lines do; todo.sh copies each
        // line with its own ending (`grep >>`).
        let firstMoved = lists[0].archiveCompleted(into: &done, rules: native ? .todoTxt : .lineTool)
        swap(&done, &lists[1])
        return (lists[1], firstMoved)
      }
    }
    guard context.verbose else { return .success }
    if doneList.count == firstMoved {
      context.console.line("TODO: \(todoFile) does not contain any done tasks.")
    } else {
      // A block at a time: a line each would be two arrays per line for 100,000 lines.
      var block: [UInt8] = []
      for index in firstMoved..<doneList.count {
        block += doneList.lineBytes(at: index)
        block.append(0x0A)
        if block.count >= 1 << 16 {
          context.console.write(block)
          block.removeAll(keepingCapacity: true)
        }
      }
      if !block.isEmpty { context.console.write(block) }
      context.console.line("TODO: \(todoFile) archived.")
    }
    return .success
  }
}
