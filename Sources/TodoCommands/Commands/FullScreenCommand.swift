/// `ui`: the full-screen view of the list, for moving through tasks with the arrow keys and
/// changing them with one key.
///
/// The view itself lives above this layer (it draws a screen and reads keys), so this
/// declaration only hands the context over, as `shell` does; the keys are documented here
/// once and shown by the view's `?` from its own table.
enum FullScreenCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "ui",
    abstract: "Open the full-screen view of the list.",
    discussion: """
      Arrow keys or j and k move, x completes or reopens, a adds, e edits the text, d deletes, \
      p cycles the priority, t sets the due date, / filters with the query language, Enter \
      opens the details (note, dependencies, recurrence, attachments), u undoes, : runs a \
      command line, ? lists every key, q quits. The view follows changes other programs make \
      to the files while it is open. With TODO_UI=1, todo without an action on a terminal \
      opens the view instead of the shell.
      """,
    nativeOnly: true
  ) { context, _ throws(TodoError) in
    guard context.input.isTerminal, context.console.isTerminal else {
      throw .message("\(context.programName): ui needs a terminal for input and output")
    }
    return try ShellCommand.start(.fullScreen, context)
  }
}
