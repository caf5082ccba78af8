import TodoStore
import TodoTxt

enum AddToCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "addto", usage: "DEST \"TODO ITEM\"",
    abstract: "Add a task to another file in the todo directory.",
    discussion: "DEST is a file name inside the todo directory, such as someday.txt; it must exist.",
    arguments: [.fileName, .taskText], options: [TypedInput.verbatimOption]
  ) { context, arguments throws(TodoError) in
    guard let name = arguments.first, !name.isEmpty, arguments.count >= 2, !arguments[1].isEmpty else {
      throw spec.usageError
    }
    let destination = context.settings.todoDirectory + "/" + name
    guard Posix.isRegularFile(destination) else { throw .destinationMissing(destination) }
    try AddCommand.add([RawArguments.joined(arguments.dropFirst())], to: destination, context: context)
    return .success
  }
}
