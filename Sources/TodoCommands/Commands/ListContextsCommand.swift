import TodoTxt

enum ListContextsCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "listcon", aliases: ["lsc"], usage: "[TERM...]",
    abstract: "List the @contexts used in todo.txt (of the tasks matching every TERM).",
    arguments: [.term], termsAreWords: true
  ) { context, parsed throws(TodoError) in
    let arguments = try parsed.text(0)
    try WordsWithSigil.list(UInt8(ascii: "@"), terms: arguments, context: context)
    return .success
  }
}
