import TodoTxt

enum DeprioritizeCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "depri", aliases: ["dp"], usage: "NR [NR ...]",
    abstract: "Remove the priority of one or more tasks.",
    arguments: [.taskNumbers], argumentsWhenGiven: [(OptionSpec.selectQuery.name, [.taskNumbers.optional])],
    // todo.sh takes the priority off the tasks before a bad number and stops there.
    options: OptionSpec.selecting, checksWordsInTurn: true
  ) { context, arguments throws(TodoError) in
    let selection = try QuerySelection.selection(context: context, question: "Remove the priority of")
    var items = try arguments.eachTask(0)
    let file = context.settings.todoFile
    var status = ExitStatus.success
    var failure: TodoError?
    let terminal = context.console.destination
    let label = selection?.label("depri") ?? "depri \(taskNumberWords(arguments.words).joined(separator: " "))"
    // A query's tasks are asked about before the change: read and asked without the lock.
    try context.change(file, label: label, asking: selection?.mayAsk(context) ?? false) { list in
      if let selection { items = try selection.references(in: list, context: context, terminal: terminal) + items }
      for entry in items {
        do throws(TodoError) {
          let reference = try entry.get()
          let item = reference.typed
          var task = try reference.task(in: list, file: file, mode: context.settings.mode)
          let native = context.settings.policy.readsTasksByGrammar
          if native ? task.priority != nil : reference.todoShSeesPriority(task, in: list) {
            if native {
              // `(A) x text` is an open task whose text starts with `x `: without the
              // priority the line would read as done.
              if task.headPriority != nil, !task.isCompleted, task.bodyBytes.starts(with: bytes("x ")) {
                throw .deprioritizingWouldComplete(item)
              }
              task.setPriority(nil)
            } else {
              task.setLine(task.bytes.dropFirst(4))
            }
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
    if let failure { throw failure }
    return status
  }
}
