import TodoTxt

enum PriorityCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "pri", aliases: ["p"], usage: "NR PRIORITY [NR PRIORITY ...]",
    abstract: "Set the priority of one or more tasks.",
    discussion: """
      PRIORITY is a letter from A (highest) to Z; it replaces any priority the task had. Under \
      the name todo, high, medium and low (or h, m, l) stand for A, B and C.
      """,
    arguments: [.taskNumber, .priority], argumentsWhenGiven: [(OptionSpec.selectQuery.name, [.priority])],
    // todo.sh sets the pairs in turn and stops at the first bad one, keeping the ones before
    // (under the name todo the whole line is checked first: ``NativeValidation``).
    options: OptionSpec.selecting, argumentsRepeat: true, checksWordsInTurn: true,
    // The usage names the letters a priority may be; under the name todo the words too.
    errorUsage: "pri NR PRIORITY [NR PRIORITY ...]\nnote: PRIORITY is a letter from A to Z, or high, medium or low (h, m, l).",
    todoShUsage: "pri NR PRIORITY [NR PRIORITY ...]\nnote: PRIORITY must be anywhere from A to Z."
  ) { context, arguments throws(TodoError) in
    let selection = try QuerySelection.selection(context: context, question: "Set the priority of")
    let file = context.settings.todoFile
    var status = ExitStatus.success
    var failure: TodoError?
    let terminal = context.console.destination
    let label = selection?.label("pri") ?? "pri \(arguments.words.joined(separator: " "))"
    // A query's tasks are asked about before the change: read and asked without the lock.
    try context.change(file, label: label, asking: selection?.mayAsk(context) ?? false) { list in
      // Each pair, read in turn: a task the query selects with the one priority given (at 0),
      // or the typed number at `index` with the priority after it.
      let pairs: [(selected: TaskReference?, index: Int)]
      if let selection {
        pairs = try selection.numbers(in: list, context: context, terminal: terminal).map { (TaskReference(number: $0), 0) }
      } else {
        pairs = stride(from: 0, to: arguments.placeCount, by: 2).map { (nil, $0) }
      }
      for (selected, index) in pairs {
        do throws(TodoError) {
          let reference: TaskReference
          let typedPriority: Priority
          if let selected {
            reference = selected
            typedPriority = try arguments.priority(0)
          } else {
            // todo.sh reads the priority first: a bad one is named before a bad number.
            typedPriority = try arguments.priority(index + 1)
            reference = try arguments.task(index)
          }
          let item = reference.typed
          let priority = typedPriority.byte
          let letter = typedPriority.description
          var task = try reference.task(in: list, file: file, mode: context.settings.mode)
          let old: UInt8?
          if context.settings.policy.readsTasksByGrammar {
            // The parser's priority: `(a)` is text, and a done task stays done (its
            // priority is the kept `pri:` tag, or the one written after the `x`).
            old = task.priority?.byte
            if old != priority, let letter = Priority(priority) {
              task.setPriority(letter)
              list.replace(number: reference.number, with: task)
            }
          } else {
            old = reference.todoShSeesPriority(task, in: list) ? task.bytes[task.bytes.startIndex + 1] : nil
            if old != priority {
              let body = reference.todoShSeesPriority(task, in: list) ? task.bytes.dropFirst(4) : task.bytes
              task.setLine([UInt8(ascii: "("), priority, UInt8(ascii: ")"), UInt8(ascii: " ")] + body)
              list.replace(number: reference.number, with: task)
            }
          }
          if context.verbose {
            context.echo(item, task.bytes)
            if let old, old != priority {
              context.console.write(bytes("TODO: \(item) re-prioritized from (") + [old] + bytes(") to (\(letter)).\n"))
            } else if old == nil {
              context.console.line("TODO: \(item) prioritized (\(letter)).")
            }
          }
          if old == priority {
            context.console.errorLine("TODO: \(item) already prioritized (\(letter)).")
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
