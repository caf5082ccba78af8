import TodoStore
import TodoTxt

enum AddToCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "addto", usage: "DEST \"TODO ITEM\"",
    abstract: "Add a task to another file in the todo directory.",
    discussion: "DEST is a file name inside the todo directory, such as someday.txt; it must exist.",
    arguments: [.fileName.nonEmpty, .taskText.nonEmpty], options: [TypedInput.verbatimOption]
  ) { context, arguments throws(TodoError) in
    let destination = context.settings.todoDirectory + "/" + (try arguments.word(0))
    guard Posix.isRegularFile(destination) else { throw .destinationMissing(destination) }
    try AddCommand.add([RawArguments.joined(try arguments.text(1))], to: destination, context: context)
    return .success
  }
}
