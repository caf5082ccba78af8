import TodoTxt

/// `unarchive NR [NR ...]`: bring archived tasks back from done.txt, open again.
enum UnarchiveCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "unarchive", usage: "NR [NR ...]",
    abstract: "Move tasks back from done.txt to the end of todo.txt, open again.",
    discussion: """
      The numbers are done.txt's own, as 'listfile done.txt' shows them. Each task is \
      reopened (the x and completion date go, a kept priority comes back) and added at the \
      end of todo.txt; the new task numbers are shown. Both files change in one step.
      """,
    // done.txt's numbers: not todo.txt's task numbers, which are checked against todo.txt.
    arguments: [.text.taskNumbers], nativeOnly: true
  ) { context, arguments throws(TodoError) in
    let references = try arguments.tasks(0)
    let items = references.map(\.typed)
    let todoFile = context.settings.todoFile
    let doneFile = context.settings.doneFile
    let moved = try context.storing {
      try context.store.update([todoFile, doneFile], label: "unarchive \(items.joined(separator: " "))") {
        lists throws(TodoError) -> [(TaskReference, Int, Task)] in
        var result: [(TaskReference, Int, Task)] = []
        var taken = Set<Int>()
        for reference in references {
          let task = try reference.task(in: lists[1], file: doneFile, mode: context.settings.mode)
          guard taken.insert(reference.number).inserted else { continue }
          var open = task
          if open.isCompleted { open.reopen() }
          let number = lists[0].append(open)
          result.append((reference, number, open))
        }
        // From the bottom up, so that the numbers still to remove stay where they were.
        for number in taken.sorted(by: >) { lists[1].remove(at: number - 1) }
        return result
      }
    }
    guard context.verbose else { return .success }
    for (reference, number, task) in moved {
      context.echo(String(number), task.bytes)
      context.console.line("TODO: \(reference.typed) of done.txt is back as task \(number).")
    }
    return .success
  }
}
