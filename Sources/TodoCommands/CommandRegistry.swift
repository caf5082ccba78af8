/// The single table of commands, used by the command line, the interactive shell, help,
/// completion and the man-page checks.
package enum CommandRegistry {
  package static let all: [CommandSpec] = [
    AddCommand.spec, AddMultipleCommand.spec, AddToCommand.spec, AppendCommand.spec, ArchiveCommand.spec,
    CommandCommand.spec, CompletionsCommand.spec, DeduplicateCommand.spec, DeleteCommand.spec, DeprioritizeCommand.spec,
    DoCommand.spec, HelpCommand.spec, ListCommand.spec, ListAllCommand.spec, ListAddonsCommand.spec,
    ListContextsCommand.spec, ListFileCommand.spec, ListPriorityCommand.spec, ListProjectsCommand.spec,
    MoveCommand.spec, PrependCommand.spec, PriorityCommand.spec, ReplaceCommand.spec, ReportCommand.spec,
    ShortHelpCommand.spec, CompleteCommand.spec, DumpCommand.spec,
    // Native only: the task model (dates, recurrence, notes, attachments, order).
    AgendaCommand.spec, AttachCommand.spec, AttachmentsCommand.spec, NoteCommand.spec, OpenCommand.spec,
    PostponeCommand.spec, RecurrenceCommand.spec, ReopenCommand.spec, UnarchiveCommand.spec, ShowCommand.spec, ReorderCommand.spec, TagCommand.spec,
    UndoCommand.spec, RedoCommand.spec, LogCommand.spec, ShellCommand.spec, FullScreenCommand.spec, DependencyCommand.spec, EditCommand.spec,
    // Native only: queries, views and JSON import.
    FindCommand.spec, ViewCommand.spec, ImportCommand.spec, NextCommand.spec, NameCountsCommand.projectsSpec,
    NameCountsCommand.contextsSpec,
    // Native only: overviews (a month of due dates, counts per week).
    CalendarCommand.spec, StatsCommand.spec,
    // Native only: checking the files and where they are.
    DoctorCommand.spec, InfoCommand.spec,
    // Native only: the same lists on several machines (git, conflicted copies).
    MergeCommand.spec, GitSetupCommand.spec, SyncCommand.spec, ConflictsCommand.spec, ResolveCommand.spec,
    CalDAVCommand.spec,
  ]

  /// The commands by what a person wants to do, for the short help under the name `todo`
  /// (todo.sh's name keeps its flat list of usage lines). Every listed command is in one
  /// group; a test holds the table to that.
  package static let groups: [(title: String, names: [String])] = [
    ("Add and change tasks", [
      "add", "addm", "addto", "append", "prepend", "replace", "edit", "pri", "depri", "tag", "postpone",
      "rec", "dep", "note", "attach", "do", "undo-done", "del", "move", "reorder", "deduplicate", "import",
    ]),
    ("List and look", [
      "list", "listall", "listpri", "listproj", "listcon", "listfile", "show", "find", "view", "next", "agenda", "cal",
      "projects", "contexts", "attachments", "open", "stats", "report",
    ]),
    ("Keep the files", ["archive", "unarchive", "undo", "redo", "log", "doctor", "info"]),
    ("Several machines", ["sync", "git-setup", "conflicts", "resolve", "merge", "caldav"]),
    ("Help, shell and scripts", ["help", "shorthelp", "shell", "ui", "completions", "command", "listaddons"]),
  ]

  /// The command with this name or alias (already lower-cased), available in `mode`.
  package static func command(named name: String, mode: Mode) -> CommandSpec? {
    all.first { $0.names.contains(name) && (mode.policy.offersNativeCommands || !$0.nativeOnly) }
  }

  /// The known name closest to `name`, for "did you mean" hints: first the command that does
  /// what another todo tool's verb of that name does (``otherToolsVerbs``), then the nearest
  /// spelling.
  package static func suggestion(for name: String, mode: Mode) -> String? {
    let listed = all.filter { $0.isListed(in: mode) }.flatMap(\.names)
    if let targets = otherToolsVerbs[name], let target = targets.first(where: listed.contains) { return target }
    return nearest(name, among: listed)
  }

  /// Verbs of other todo tools (todo.txt apps, task managers) and the commands of ours that do
  /// the same, best first. A command that is not registered (yet) is skipped, so the table may
  /// name commands that are still to come.
  static let otherToolsVerbs: [String: [String]] = [
    "summary": ["stats", "report"], "burndown": ["stats", "report"], "history": ["log", "report"],
    "statistics": ["stats", "report"], "month": ["cal", "agenda"],
    "ready": ["next", "ls"], "active": ["next", "ls"], "upcoming": ["agenda"],
    "modify": ["tag", "replace"], "mod": ["tag", "replace"], "annotate": ["note", "append"],
    "purge": ["archive"], "clean": ["archive"], "revert": ["undo"],
    "wait": ["postpone"], "defer": ["postpone"], "snooze": ["postpone"],
    "done": ["do"], "complete": ["do"], "finish": ["do"], "undone": ["reopen"], "uncomplete": ["reopen"],
    "remove": ["del"], "delete": ["del"], "change": ["edit", "replace"],
    "project": ["projects", "lsprj"], "context": ["contexts", "lsc"],
    "lscon": ["lsc"], "depends": ["dep"], "lint": ["doctor"], "check": ["doctor"], "fsck": ["doctor"],
    "diagnostics": ["info", "doctor"], "version": ["info"], "where": ["info"], "paths": ["info"],
    "search": ["find", "ls"], "query": ["find"], "export": ["ls"], "prompt": ["shell"], "repl": ["shell"],
  ]

  /// The candidate closest to a mistyped `name`, when it is close enough to be what was meant
  /// (at most two edits, or half the word's letters for a long word; leading dashes of an
  /// option do not count): actions, subcommands and options are suggested by the same rule.
  static func nearest(_ name: String, among candidates: [String]) -> String? {
    let scored = candidates.map { ($0, editDistance($0, name)) }.min { $0.1 < $1.1 }
    let letters = name.drop { $0 == "-" }.count
    guard let (best, distance) = scored, distance <= max(2, letters / 2) else { return nil }
    return best
  }

  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.utf8)
    let b = Array(b.utf8)
    var previous = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
      var current = [i] + [Int](repeating: 0, count: b.count)
      for j in 1...max(b.count, 1) where !b.isEmpty {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return a.isEmpty ? b.count : previous[b.count]
  }
}
