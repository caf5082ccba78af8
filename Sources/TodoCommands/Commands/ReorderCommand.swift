import TodoTxt

/// `reorder FROM TO`: move a task's line, the manual order other todo.txt apps show.
enum ReorderCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "reorder", usage: "FROM TO",
    abstract: "Move a task to another line of todo.txt; the tasks in between shift by one.",
    discussion: "Line order is the manual order: other todo.txt apps list tasks in it.",
    arguments: [.taskNumber, .taskNumber], nativeOnly: true
  ) { context, arguments throws(TodoError) in
    let from = try arguments.task(0)
    let to = try arguments.task(1)
    let file = context.settings.todoFile
    let task: Task = try context.storing {
      try context.store.update(file, label: "reorder \(from.typed) \(to.typed)") { list -> Task in
        let task = try from.task(in: list, file: file, mode: context.settings.mode)
        guard to.number >= 1, to.number <= list.count else { throw TodoError.noSuchPosition(to.typed) }
        if from.number != to.number { list.move(from: from.number - 1, to: to.number - 1) }
        return task
      }
    }
    guard context.verbose else { return .success }
    context.echo(String(to.number), task.bytes)
    let (low, high) = (min(from.number, to.number), max(from.number, to.number))
    if from.number == to.number {
      context.console.line("TODO: \(from.number) stays at \(to.number).")
    } else if from.number > to.number {
      context.console.line("TODO: \(from.number) moved to \(to.number); \(range(low, high - 1)) now \(range(low + 1, high)).")
    } else {
      context.console.line("TODO: \(from.number) moved to \(to.number); \(range(low + 1, high)) now \(range(low, high - 1)).")
    }
    return .success
  }

  /// `4` or `4-11`.
  static func range(_ low: Int, _ high: Int) -> String { low == high ? "\(low)" : "\(low)-\(high)" }
}
