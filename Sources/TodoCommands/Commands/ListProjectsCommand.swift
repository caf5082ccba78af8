import TodoTxt

enum ListProjectsCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "listproj", aliases: ["lsprj"], usage: "[TERM...]",
    abstract: "List the +projects used in todo.txt (of the tasks matching every TERM).",
    arguments: [.term], termsAreWords: true
  ) { context, parsed throws(TodoError) in
    let arguments = try parsed.text(0)
    try WordsWithSigil.list(UInt8(ascii: "+"), terms: arguments, context: context)
    return .success
  }
}
