/// The single table of commands, used by the command line, the interactive shell, help,
/// completion and the man-page checks.
public enum CommandRegistry {
  public static let all: [CommandSpec] = [
    AddCommand.spec, AddMultipleCommand.spec, AddToCommand.spec, AppendCommand.spec, ArchiveCommand.spec,
    CommandCommand.spec, CompletionsCommand.spec, DeduplicateCommand.spec, DeleteCommand.spec, DeprioritizeCommand.spec,
    DoCommand.spec, HelpCommand.spec, ListCommand.spec, ListAllCommand.spec, ListAddonsCommand.spec,
    ListContextsCommand.spec, ListFileCommand.spec, ListPriorityCommand.spec, ListProjectsCommand.spec,
    MoveCommand.spec, PrependCommand.spec, PriorityCommand.spec, ReplaceCommand.spec, ReportCommand.spec,
    ShortHelpCommand.spec, CompleteCommand.spec, DumpCommand.spec,
    // Native only: the task model (dates, recurrence, notes, attachments, order).
    AgendaCommand.spec, AttachCommand.spec, AttachmentsCommand.spec, NoteCommand.spec, OpenCommand.spec,
    PostponeCommand.spec, RecurrenceCommand.spec, ReopenCommand.spec, ReorderCommand.spec, TagCommand.spec,
    UndoCommand.spec, RedoCommand.spec, LogCommand.spec, ShellCommand.spec, DependencyCommand.spec,
    // Native only: queries, views and JSON import.
    FindCommand.spec, ViewCommand.spec, ImportCommand.spec, NextCommand.spec, NameCountsCommand.projectsSpec,
    NameCountsCommand.contextsSpec,
    // Native only: the same lists on several machines (git, conflicted copies).
    MergeCommand.spec, GitSetupCommand.spec, SyncCommand.spec, ConflictsCommand.spec,
  ]

  /// The command with this name or alias (already lower-cased), available in `mode`.
  public static func command(named name: String, mode: Mode) -> CommandSpec? {
    all.first { $0.names.contains(name) && (mode == .native || !$0.nativeOnly) }
  }

  /// The known name closest to `name`, for "did you mean" hints.
  public static func suggestion(for name: String, mode: Mode) -> String? {
    nearest(name, among: all.filter { $0.isListed(in: mode) }.flatMap(\.names))
  }

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
