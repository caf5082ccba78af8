import TodoTxt

enum AddMultipleCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "addm", usage: "\"TODO ITEM\"",
    abstract: "Add several tasks at once, one per line of the text.",
    discussion: "Empty lines are skipped; each line is added as by add.",
    arguments: [.taskText], options: [TypedInput.verbatimOption], acceptsLineBreaks: true
  ) { context, arguments throws(TodoError) in
    let input = try AddCommand.readText(context, arguments.text(0), prompt: "Add: ", usage: spec.usageError)
    let lines = input.split(separator: 0x0A, omittingEmptySubsequences: true).map(Array.init)
    if !lines.isEmpty { try AddCommand.add(lines, to: context.settings.todoFile, context: context) }
    return .success
  }
}
