import TodoStore
import TodoTxt

/// `info [--format json]`: the files and folders this run uses, so that a user who did not
/// choose them (no configuration) can find the list, and a script can too.
enum InfoCommand {
  static let formatOption = OptionSpec.reportFormat(help: "Print text (name: value lines) or json (one object).")

  static let spec: CommandSpec = CommandSpec(
    name: "info",
    abstract: "Show the version, the configuration file read, and the paths of the files and folders in use.",
    discussion: """
      One name: value line each: version, mode, the configuration file read (none when \
      there is none), the todo directory, todo.txt, done.txt, the report file, the notes, \
      attachments and add-on folders, and the state directory with the undo log, the key \
      that guards interrupted writes and the shell's history. A path is shown whether or not \
      anything is there yet. --format json prints the same as one object.
      """,
    options: [formatOption], nativeOnly: true, toleratesConflictMarkers: true
  ) { context, _ throws(TodoError) in
    let entries = entries(settings: context.settings, stateDirectory: context.store.stateDirectory)
    if ReportFormat(context.invocation) == .json {
      var writer = JSONWriter()
      writer.raw("{")
      for (index, entry) in entries.enumerated() {
        if index > 0 { writer.raw(", ") }
        writer.string(entry.name)
        writer.raw(": ")
        writer.string(entry.value)
      }
      writer.raw("}")
      context.console.line(writer.bytes)
    } else {
      for line in lines(entries) { context.console.line(context.display(Array(line.utf8))) }
    }
    return .success
  }

  /// The names and values, in the order they are shown; a missing file's default path is
  /// filled in as the run would use it.
  static func entries(settings: Settings, stateDirectory: String?) -> [(name: String, value: String)] {
    let directory = settings.todoDirectory
    func file(_ value: String, _ name: String) -> String { value.isEmpty ? directory + "/" + name : value }
    let state = stateDirectory ?? ""
    func inState(_ name: String) -> String { state.isEmpty ? "none" : state + "/" + name }
    return [
      ("version", TodoVersion.current),
      ("mode", settings.mode == .native ? "native" : "todo.sh"),
      ("config", configurationRead(settings) ?? "none"),
      ("todo_dir", directory),
      ("todo_file", file(settings.todoFile, "todo.txt")),
      ("done_file", file(settings.doneFile, "done.txt")),
      ("report_file", file(settings.reportFile, "report.txt")),
      ("notes_dir", NoteCommand.directory(settings)),
      ("attachments_dir", AttachCommand.directory(settings)),
      ("actions_dir", settings.actionsDirectory),
      ("state_dir", state.isEmpty ? "none" : state),
      ("undo_log", inState("undo")),
      ("journal_key", inState("journal.key")),
      // The interactive shell keeps its history here (TodoREPL's HistoryFile).
      ("history", inState("history")),
    ]
  }

  /// The configuration file that was read, if any.
  static func configurationRead(_ settings: Settings) -> String? {
    let path = settings.value("TODOTXT_CFG_FILE")
    return !path.isEmpty && Posix.isRegularFile(path) && Posix.isReadable(path) ? path : nil
  }

  /// `name:  value`, the values aligned.
  static func lines(_ entries: [(name: String, value: String)]) -> [String] {
    let width = entries.map(\.name.count).max() ?? 0
    return entries.map { $0.name + ":" + String(repeating: " ", count: width - $0.name.count + 1) + $0.value }
  }
}
