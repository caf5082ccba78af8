import TodoTxt

enum PrependCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "prepend", aliases: ["prep"], usage: "NR \"TEXT TO PREPEND\"",
    abstract: "Add text to the start of a task, after its priority and creation date.",
    arguments: [.taskNumber, .taskText], options: [TypedInput.verbatimOption]
  ) { context, arguments throws(TodoError) in
    try ReplaceCommand.replaceOrPrepend(context, arguments.task(0), with: arguments.text(1), prepend: true)
  }
}
