import TodoStore
import TodoTxt

enum ListFileCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "listfile", aliases: ["lf"], usage: "[SRC [TERM...]]",
    abstract: "List the files of the todo directory, or the tasks of one of them.",
    arguments: [.fileName.optional, .term], termsAreWords: true
  ) { context, arguments throws(TodoError) in
    let directory = context.settings.todoDirectory
    guard let name = try arguments.optionalWord(0) else {
      if context.verbose { context.console.line("Files in the todo.txt directory:") }
      for file in Posix.listDirectory(directory) ?? [] where file.hasSuffix(".txt") && !file.hasPrefix(".") {
        context.console.line(file)
      }
      return .success
    }
    let path: String
    if name.hasPrefix("/"), Posix.isRegularFile(name) {
      path = name
    } else if Posix.isRegularFile(directory + "/" + name) {
      path = directory + "/" + name
    } else if Posix.isRegularFile(name) {
      path = name
    } else if Posix.isRegularFile(directory + "/" + name + ".txt") {
      path = directory + "/" + name + ".txt"
    } else {
      throw .fileMissing(name)
    }
    try ListCommand.listFile(path, terms: arguments.text(1), context: context)
    return .success
  }
}
