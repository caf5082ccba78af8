import TodoStore
import TodoTxt

/// `listaddons`: the add-ons in the actions directory.
enum ListAddonsCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "listaddons",
    abstract: "List the add-on actions found in the actions directory.", toleratesConflictMarkers: true,
    extraWords: .ignoredUnderTodoSh
  ) { context, _ throws(TodoError) in
    let directory = context.settings.actionsDirectory
    guard Posix.isDirectory(directory) else { throw .actionsDirectoryMissing(directory) }
    let addons = Addons.list(in: directory)
    guard !addons.isEmpty else { throw .noValidActions(directory) }
    for addon in addons { context.console.line(addon.name) }
    if context.verbose {
      context.summary(["TODO: \(addons.count) valid addon actions found."])
    }
    return .success
  }
}
