import TodoTxt
import TodoStore

/// `undo`, `redo` and `log`: step back and forth through the changes made to todo.txt and
/// done.txt, kept by the store as line patches.
enum UndoCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "undo", usage: "[N]",
    abstract: "Undo the last change (or the last N changes) to todo.txt and done.txt.",
    discussion: """
      Each change is undone line by line, so it still applies when other lines were edited \
      since; a line that itself changed since is not overwritten, and nothing is undone.
      """,
    // Patches apply by content and number no line, so a list holding merge conflict markers
    // can be stepped back (undoing a `resolve` puts the markers back).
    arguments: [.text.counting(1...Int.max).optional], nativeOnly: true, toleratesConflictMarkers: true
  ) { context, arguments throws(TodoError) in
    try step(context, count: arguments.number(0) ?? 1, undoing: true)
  }

  static func step(_ context: CommandContext, count: Int, undoing: Bool) throws(TodoError) -> ExitStatus {
    let files = context.undoFiles
    let entries = try context.storing {
      undoing ? try context.store.undo(count, files: files) : try context.store.redo(count, files: files)
    }
    // Each line put back is shown with the task number it has now, found in the file as it
    // is after the step (a line that is there more than once takes the next free number).
    // The numbers of every line put back in a file are found in one pass over it: a search
    // of the file for each line took minutes for a change of thousands of lines.
    var wanted: [String: Set<[UInt8]>] = [:]
    for entry in entries {
      for change in entry.changes {
        for line in undoing ? change.removed : change.added { wanted[change.path, default: []].insert(Array(line.utf8)) }
      }
    }
    // For each file, each wanted line's numbers not yet shown, the last first.
    var free: [String: [[UInt8]: [Int]]] = [:]
    func number(of line: String, in path: String) -> Int? {
      if free[path] == nil {
        free[path] = UndoCommand.numbers(of: wanted[path] ?? [], in: (try? context.store.read(path)) ?? TodoList())
      }
      return free[path]?[Array(line.utf8)]?.popLast()
    }
    for entry in entries {
      context.console.line("\(undoing ? "Undone" : "Redone"): \(entry.label)")
      for change in entry.changes {
        let name = Posix.basename(change.path)
        // Undoing puts back what the change removed and takes away what it added.
        let (gone, back) = undoing ? (change.added, change.removed) : (change.removed, change.added)
        for line in gone { context.console.write(bytes("  \(name) - ") + context.display(bytes(line)) + [0x0A]) }
        for line in back {
          let shown = number(of: line, in: change.path).map { "\($0) " } ?? ""
          context.console.write(bytes("  \(name) + \(shown)") + context.display(bytes(line)) + [0x0A])
        }
      }
    }
    return .success
  }

  /// The task numbers of the lines of `list` that are one of `lines`, for each of them from the
  /// last to the first (so that the next to take is the last), in one pass over the list.
  static func numbers(of lines: Set<[UInt8]>, in list: TodoList) -> [[UInt8]: [Int]] {
    guard !lines.isEmpty else { return [:] }
    let lengths = Set(lines.map(\.count))
    var found: [[UInt8]: [Int]] = [:]
    for index in list.indices.reversed() {
      let bytes = list.lineBytes(at: index)
      guard lengths.contains(bytes.count) else { continue }
      let line = Array(bytes)
      if lines.contains(line) { found[line, default: []].append(index + 1) }
    }
    return found
  }
}

enum RedoCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "redo", usage: "[N]",
    abstract: "Redo the last undone change (or the last N).",
    arguments: [.text.counting(1...Int.max).optional], nativeOnly: true, toleratesConflictMarkers: true
  ) { context, arguments throws(TodoError) in
    try UndoCommand.step(context, count: arguments.number(0) ?? 1, undoing: false)
  }
}

enum LogCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "log", usage: "[N]",
    abstract: "Show the changes that can be undone (and redone), newest first.",
    discussion: "Shows the last N changes (default 20), with how many lines each removed and added.",
    arguments: [.text.counting(1...Int.max).optional], nativeOnly: true
  ) { context, arguments throws(TodoError) in
    let limit = try arguments.number(0) ?? 20
    let entries = context.store.history(files: context.undoFiles)
    if entries.isEmpty {
      if context.verbose { context.console.line("TODO: No changes to undo.") }
      return .success
    }
    for (position, entry) in entries.prefix(limit).enumerated() {
      let when = Clock(seconds: Int(entry.time), utcOffset: context.clock.utcOffset).timestamp
      let counts = entry.changes.map { "\(Posix.basename($0.path)) -\($0.removed.count) +\($0.added.count)" }
      var state = entry.isUndone ? " (undone)" : ""
      if !entry.isRecorded { state += " (too large to undo)" }
      context.console.line("\(position + 1)  \(when)  \(entry.label)  [\(counts.joined(separator: ", "))]\(state)")
    }
    return .success
  }
}

extension CommandContext {
  /// The files whose changes `undo`, `redo` and `log` work on.
  var undoFiles: [String] { [settings.todoFile, settings.doneFile] }
}
