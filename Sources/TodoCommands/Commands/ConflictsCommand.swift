@preconcurrency import Glibc
import TodoStore
import TodoTxt

/// `conflicts`: merges the copies that file-syncing services leave when two machines changed
/// a file at once, then moves them out of the way.
enum ConflictsCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "conflicts",
    abstract: "Merge the conflicted copies Dropbox or Syncthing left beside todo.txt and done.txt.",
    discussion: """
      Finds copies named like 'todo (conflicted copy 2026-03-01).txt', \
      "todo (Sam's conflicted copy 2026-03-01).txt" or \
      'todo.sync-conflict-20260301-101500-ABCDEFG.txt' next to todo.txt and done.txt, merges \
      each into its file task by task (see 'merge'), and moves it into the hidden folder \
      .todo-conflicts beside the file. The version of the file before the changes in the \
      undo log serves as the common base; without one, a task found on one side only is \
      kept. A task changed on both sides in ways that do not fit is kept in both versions, \
      one after the other. done.txt is merged the same way. The merge can be undone.
      """,
    nativeOnly: true, toleratesConflictMarkers: true
  ) { context, arguments throws(TodoError) in
    guard arguments.isEmpty else { throw spec.usageError }
    var merged = 0
    // done.txt is merged like todo.txt: a union would bring back a task moved out of it.
    for file in [context.settings.todoFile, context.settings.doneFile] {
      for copy in copies(of: file) {
        try mergeCopy(copy, into: file, context: context)
        merged += 1
      }
    }
    if merged == 0, context.verbose { context.console.line("TODO: No conflicted copies found.") }
    return .success
  }

  /// The folder beside a file that merged copies are moved to.
  static let folder = ".todo-conflicts"

  /// Conflicted copies of `file` in its directory, by name.
  ///
  /// Dropbox: `STEM (… conflicted copy …)EXT`; Syncthing: `STEM.sync-conflict-…EXT`, where
  /// STEM and EXT are the file's name before and from its last dot.
  static func copies(of file: String) -> [String] {
    let directory = Posix.dirname(file)
    let name = Posix.basename(file)
    let dot = name.lastIndex(of: ".") ?? name.endIndex
    let stem = String(name[..<dot])
    let suffix = String(name[dot...])
    let names = Posix.listDirectory(directory) ?? []
    return names.filter { candidate in
      guard candidate != name, candidate.hasSuffix(suffix) else { return false }
      let middle = candidate.dropLast(suffix.count)
      let dropbox =
        middle.hasPrefix(stem + " (") && middle.hasSuffix(")")
        && middle.lowercased().contains("conflicted copy")
      let syncthing = middle.hasPrefix(stem + ".sync-conflict-")
      return dropbox || syncthing
    }
    .map { directory + "/" + $0 }
    .filter(Posix.isRegularFile)
  }

  static func mergeCopy(_ copy: String, into file: String, context: CommandContext)
    throws(TodoError)
  {
    guard let bytes = Posix.readFile(copy) else { throw .cannotReadFile(copy) }
    let theirs = TodoList(bytes: bytes)
    let history = context.store.history(files: [file])
    let resolved = GitRepository.realPath(file)
    let label = "conflicts \(Posix.basename(copy))"
    let result = try context.storing {
      try context.store.update(file, label: label) { list -> MergeResult in
        let result = TodoMerge.merge(
            base: base(from: history, path: resolved, ours: list, theirs: theirs)?.base,
            ours: list, theirs: theirs, conflictStyle: .keepBoth)
        list = result.list
        return result
      }
    }
    let moved = try moveAside(copy)
    let name = Posix.basename(file)
    context.console.line("Merged '\(Posix.basename(copy))' into \(name); the copy is now \(moved).")
    if !result.conflicts.isEmpty {
      context.console.line(
        "\(name) holds both versions of \(result.conflicts.count) task\(result.conflicts.count == 1 ? "" : "s") "
          + "changed on both sides; delete the one you do not want:")
      for conflict in result.conflicts {
        for task in [conflict.ours, conflict.theirs].compactMap({ $0 }) {
          context.console.write(Array("  ".utf8) + context.display(Array(task.bytes)) + [0x0A])
        }
      }
    }
  }

  /// The version both files descend from, and which file is this machine's: `nil` when
  /// the undo log cannot tell (then nothing counts as deleted, and both sides are kept).
  ///
  /// The undo log describes this machine's file, whichever of the two that is: a file-syncing
  /// service may have renamed it to the copy and put the other machine's version in its
  /// place. The log is replayed backwards from each file; only a file it describes (every
  /// line a change added is there to take away) is this machine's. Of the versions on the
  /// way back, the base is the one sharing the most lines with the other file, the oldest of
  /// equals: a newer one would hold changes made here after the copy left, which the merge
  /// would then read as deleted by the other machine.
  static func base(from history: [UndoEntry], path: String, ours: TodoList, theirs: TodoList)
    -> (base: TodoList, oursIsLocal: Bool)?
  {
    let recorded = history.filter { !$0.isUndone }.prefix { $0.isRecorded }
    guard !recorded.isEmpty else { return nil }
    for (local, other, oursIsLocal) in [(ours, theirs, true), (theirs, ours, false)] {
      if let base = base(replaying: recorded, path: path, from: local, toward: other) {
        return (base, oursIsLocal)
      }
    }
    return nil
  }

  /// The best base on the way back from `local`, or `nil` when the log does not describe it.
  private static func base(
    replaying history: ArraySlice<UndoEntry>, path: String, from local: TodoList,
    toward other: TodoList
  ) -> TodoList? {
    var lines = local.map { Array($0.bytes) }
    let wanted = multiset(other.map { Array($0.bytes) })
    func score(_ lines: [[UInt8]]) -> Int {
      var have = multiset(lines)
      var score = 0
      for (line, count) in wanted {
        score += min(count, have[line] ?? 0)
        have[line] = nil
      }
      return score
    }
    var best = (score: score(lines), lines: lines)
    for entry in history {
      for change in entry.changes where change.path == path {
        for line in change.added {
          guard let index = lines.firstIndex(of: Array(line.utf8)) else { return nil }
          lines.remove(at: index)
        }
        lines += change.removed.map { Array($0.utf8) }
      }
      let points = score(lines)
      if points >= best.score { best = (points, lines) }
    }
    return TodoList(bytes: best.lines.flatMap { $0 + [0x0A] })
  }

  private static func multiset(_ lines: [[UInt8]]) -> [[UInt8]: Int] {
    var counts: [[UInt8]: Int] = [:]
    for line in lines { counts[line, default: 0] += 1 }
    return counts
  }

  /// Moves a merged copy into the hidden folder beside it (never over another file there);
  /// returns where it went, relative to the file's directory.
  static func moveAside(_ copy: String) throws(TodoError) -> String {
    let folder = Posix.dirname(copy) + "/" + ConflictsCommand.folder
    guard Posix.makeDirectories(folder) else { throw .cannotWriteFile(folder) }
    let name = Posix.basename(copy)
    var target = name
    var number = 1
    while Posix.exists(folder + "/" + target) {
      number += 1
      target = "\(number)-\(name)"
    }
    guard rename(copy, folder + "/" + target) == 0 else {
      throw .cannotWriteFile(folder + "/" + target)
    }
    return ConflictsCommand.folder + "/" + target
  }
}
