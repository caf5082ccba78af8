import TodoTxt

/// `command ACTION [ARGUMENTS]`: run a built-in action even when an add-on overrides it.
enum CommandCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "command", usage: "[ACTIONS]",
    abstract: "Run a built-in action, bypassing any add-on of the same name.",
    arguments: [.action], nestsAction: true
  ) { _, _ throws(TodoError) in
    // Dispatch handles `command` before looking up commands; reaching here means no action.
    throw .usage
  }
}
