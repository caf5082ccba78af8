import TodoTxt

enum PriorityCommand {
  /// todo.sh's two-line usage of pri, which names the letters a priority may be.
  static let usage = TodoError.actionUsage("pri NR PRIORITY [NR PRIORITY ...]\nnote: PRIORITY must be anywhere from A to Z.")

  /// The usage under `mode`: under the name todo its note names the priority words too.
  static func usage(in mode: Mode) -> TodoError {
    guard mode.policy.resolvesTypedValues else { return usage }
    return .actionUsage(
      "pri NR PRIORITY [NR PRIORITY ...]\nnote: PRIORITY is a letter from A to Z, or high, medium or low (h, m, l).")
  }

  static let spec: CommandSpec = CommandSpec(
    name: "pri", aliases: ["p"], usage: "NR PRIORITY [NR PRIORITY ...]",
    abstract: "Set the priority of one or more tasks.",
    discussion: """
      PRIORITY is a letter from A (highest) to Z; it replaces any priority the task had. Under \
      the name todo, high, medium and low (or h, m, l) stand for A, B and C.
      """,
    arguments: [.taskNumber, .priority], options: OptionSpec.selecting, argumentsRepeat: true
  ) { context, arguments throws(TodoError) in
    let selection = try QuerySelection.selection(arguments, context: context, question: "Set the priority of")
    let usage = PriorityCommand.usage(in: context.settings.mode)
    let file = context.settings.todoFile
    var status = ExitStatus.success
    var failure: TodoError?
    let terminal = context.console
    let label = selection?.label("pri") ?? "pri \(arguments.joined(separator: " "))"
    // A query's tasks are asked about before the change: read and asked without the lock.
    try context.change(file, label: label, asking: selection?.mayAsk(context) ?? false) { list in
      var rest = arguments[...]
      if let selection {
        guard selection.rest.count == 1 else { throw usage }
        rest = try selection.arguments(in: list, context: context, terminal: terminal, pairing: true)[...]
      }
      while !rest.isEmpty {
        do throws(TodoError) {
          guard rest.count >= 2 else { throw usage }
          let item = rest[rest.startIndex]
          let typed = rest[rest.startIndex + 1]
          let letter = TypedInput.priorityLetter(typed, mode: context.settings.mode).uppercased()
          guard letter.utf8.count == 1, let priority = letter.utf8.first, (65...90).contains(priority) else {
            throw context.settings.policy.resolvesTypedValues ? .notAPriority(typed) : usage
          }
          let reference = try TaskReference(item, usage: usage)
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
          rest = rest.dropFirst(2)
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
