import TodoTxt

enum PrependCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "prepend", aliases: ["prep"], usage: "NR \"TEXT TO PREPEND\"",
    abstract: "Add text to the start of a task, after its priority and creation date.",
    arguments: [.taskNumber, .taskText], options: [TypedInput.verbatimOption]
  ) { context, parsed throws(TodoError) in
    let arguments = parsed.words
    return try ReplaceCommand.replaceOrPrepend(context, arguments, prepend: true, spec: spec)
  }
}
