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
    arguments: [.taskNumbers], argumentsWhenGiven: [(OptionSpec.selectQuery.name, [.taskNumbers.optional])],
    // todo.sh marks the tasks before a bad number done and stops there.
    options: OptionSpec.selecting, taskState: .open, checksWordsInTurn: true
  ) { context, arguments throws(TodoError) in
    let selection = try QuerySelection.selection(context: context, question: "Mark as done")
    var items = try arguments.eachTask(0)
    let file = context.settings.todoFile
    let native = context.settings.policy.readsTasksByGrammar
    // One task named twice would be changed once and then reported as an error after the
    // write; refused before anything is read (todo.sh's own behaviour is kept under its name).
    if context.settings.policy.validatesWholeLine, let twice = QuerySelection.namedTwice(items) { throw .taskNamedTwice(twice) }
    var status = ExitStatus.success
    var failure: TodoError?
    let terminal = context.console.destination
    let label = selection?.label("do") ?? "do \(taskNumberWords(arguments.words).joined(separator: " "))"
    // A query's tasks are asked about before the change: read and asked without the lock.
    try context.change(file, label: label, asking: selection?.mayAsk(context) ?? false) { list in
      if let selection { items = try selection.references(in: list, context: context, terminal: terminal) + items }
      for entry in items {
        do throws(TodoError) {
          let reference = try entry.get()
          let item = reference.typed
          var task = try reference.task(in: list, file: file, mode: context.settings.mode)
          guard native ? !task.isCompleted : !task.bytes.starts(with: bytes("x ")) else {
            context.console.errorLine("TODO: \(item) is already marked done.")
            status = .failure
            continue
          }
          if native {
            // Only the priority the parser reads moves: `(a) text` keeps its `(a)`.
            task.complete(on: context.today, priorityStyle: .tag)
          } else {
            let body = reference.todoShSeesPriority(task, in: list) ? task.bytes.dropFirst(4) : task.bytes
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
        let completed = items.compactMap { try? $0.get().number }.compactMap { list.task(number: $0) }.filter(\.isCompleted)
        for (number, task) in Dependencies.freed(by: completed, in: list) {
          context.console.line("\(context.todoPrefix): \(number) no longer waits for anything:")
          context.echo(String(number), task.bytes)
        }
      }
    }
    if let failure { throw failure }
    if context.settings.autoArchives {
      let archived = try context.runAction(ArchiveCommand.spec.name)
      if archived != .success { status = archived }
    }
    return status
  }
}
