import TodoStore
import TodoTxt

/// `resolve [ours|theirs|both [N ...]]`: shows the merge conflicts left between markers in
/// todo.txt and done.txt, or settles them by keeping one side or both.
///
/// While the lists hold markers every other native command refuses them, so this is the way
/// out that needs no editor: the conflicts are numbered across both files (todo.txt first),
/// and settling them is one change of the two files, undone by one `undo`.
enum ResolveCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "resolve", usage: "[ours|theirs|both [N ...]]",
    abstract: "Show the merge conflicts in todo.txt and done.txt, or settle them by keeping a side or both.",
    discussion: """
      Alone, lists each conflict a merge left between <<<<<<< and >>>>>>> lines, numbered \
      across todo.txt and done.txt, with the lines of each side. 'resolve ours' keeps our \
      lines of every conflict, 'resolve theirs' theirs, 'resolve both' both sides one after \
      the other; with numbers, only those conflicts are settled. The marker lines go, and \
      'sync' (or 'git add' and 'git commit' after a 'git pull') finishes the merge. When a \
      side moved the task to the other list file (archived it, or moved it back), its \
      marker names that line ('>>>>>>> theirs, moved to done.txt: x ...') and the list \
      shows it: keeping the other side removes it there, so the task is left once, where \
      the chosen side put it.
      """,
    subcommands: ConflictBlocks.Side.allCases.map(sideSpec), nativeOnly: true,
    toleratesConflictMarkers: true, argumentsOptional: true, numbersNameTodoTasks: false
  ) { context, _ throws(TodoError) in
    // The subcommand words are taken by the command line's parser; alone, it lists.
    return try show(context)
  }

  static func sideSpec(_ side: ConflictBlocks.Side) -> CommandSpec {
    let what: String =
      switch side {
      case .ours: "our lines"
      case .theirs: "their lines"
      case .both: "both sides' lines, ours first,"
      }
    return CommandSpec(
      name: side.rawValue, usage: "[N ...]",
      abstract: "Keep \(what) of every conflict, or of conflicts N.", arguments: [.text],
      parent: "resolve", nativeOnly: true, toleratesConflictMarkers: true, argumentsOptional: true,
      numbersNameTodoTasks: false
    ) { context, parsed throws(TodoError) in
      let numbers = parsed.words
      return try settle(context, side: side, numbers: numbers)
    }
  }

  /// The conflicts of one file.
  struct FileConflicts {
    var path: String
    var list: TodoList
    var blocks: [ConflictBlocks.Block]
  }

  static func files(_ context: CommandContext) -> [String] {
    [context.settings.todoFile, context.settings.doneFile]
  }

  /// The conflicts of `list`, or an error naming the marker line out of place.
  static func blocks(of list: TodoList, path: String) throws(TodoError) -> ConflictBlocks {
    do throws(ConflictBlocks.Malformed) {
      return try ConflictBlocks(list)
    } catch {
      throw .malformedConflict(path: path, line: error.line)
    }
  }

  static func show(_ context: CommandContext) throws(TodoError) -> ExitStatus {
    var found: [FileConflicts] = []
    for path in files(context) where Posix.exists(path) {
      let list = try context.storing { try context.store.read(path) }
      found.append(FileConflicts(path: path, list: list, blocks: try blocks(of: list, path: path).blocks))
    }
    let total = found.reduce(0) { $0 + $1.blocks.count }
    guard total > 0 else {
      context.console.line("No merge conflicts in \(names(context)).")
      return .success
    }
    var number = 0
    for file in found {
      for block in file.blocks {
        number += 1
        context.console.line(
          "\(number): \(Posix.basename(file.path)) line \(block.start + 1)")
        describe(block.ours, moved: block.oursMove, label: "ours", of: file.list, context: context)
        describe(
          block.theirs, moved: block.theirsMove, label: "theirs", of: file.list, context: context)
      }
    }
    context.console.line(
      "Keep a side with 'resolve ours', 'resolve theirs' or 'resolve both', followed by the numbers to settle only those.")
    return .success
  }

  /// One side of a conflict: its lines, indented under the label, and the line it moved to
  /// the other list file, or that it has none.
  static func describe(
    _ lines: Range<Int>, moved: ConflictBlocks.Move?, label: String, of list: TodoList,
    context: CommandContext
  ) {
    let head = Array("  \(label):".utf8) + Array(repeating: UInt8(ascii: " "), count: 8 - label.count)
    var shown: [[UInt8]] = lines.map { index in
      var bytes = Array(list.lineBytes(at: index))
      if bytes.last == 0x0D { bytes.removeLast() }
      return context.display(bytes)
    }
    if let moved {
      let file = Posix.basename(path(of: moved.file, context))
      shown.append(context.display(moved.line) + Array(" (moved to \(file))".utf8))
    }
    guard !shown.isEmpty else {
      context.console.line(head + Array("(no line: deleted on this side)".utf8))
      return
    }
    for (offset, line) in shown.enumerated() {
      let lead = offset == 0 ? head : Array(repeating: UInt8(ascii: " "), count: head.count)
      context.console.line(lead + line)
    }
  }

  /// The list file a merge's ``TodoMerge/ListFile`` names.
  static func path(of file: TodoMerge.ListFile, _ context: CommandContext) -> String {
    file == .todo ? context.settings.todoFile : context.settings.doneFile
  }

  static func settle(
    _ context: CommandContext, side: ConflictBlocks.Side, numbers: [String]
  ) throws(TodoError) -> ExitStatus {
    var wanted: Set<Int> = []
    for word in numbers {
      guard let number = Int(word), number > 0, word.utf8.allSatisfy({ (48...57).contains($0) }) else {
        throw .notAConflictNumber(word)
      }
      wanted.insert(number)
    }
    let paths = files(context)
    let label = (["resolve", side.rawValue] + numbers).joined(separator: " ")
    let (settled, total) = try context.storing {
      try context.store.update(paths, label: label) { lists throws -> (Int, Int) in
        // Numbered on the snapshot being changed, so the numbers mean what `resolve` showed
        // only if nothing changed in between; a number past the end is refused.
        var found: [ConflictBlocks] = []
        for (path, list) in zip(paths, lists) { found.append(try blocks(of: list, path: path)) }
        let total = found.reduce(0) { $0 + $1.blocks.count }
        guard total > 0 else { throw TodoError.noConflicts(names(context)) }
        if let past = wanted.first(where: { $0 > total }) {
          throw TodoError.noSuchConflict(past, count: total)
        }
        var number = 0
        var settled = 0
        var chosen = Array(repeating: [Int: ConflictBlocks.Side](), count: lists.count)
        for index in lists.indices {
          for block in found[index].blocks.indices {
            number += 1
            if wanted.isEmpty || wanted.contains(number) { chosen[index][block] = side }
          }
          settled += chosen[index].count
        }
        // `files` are todo.txt, then done.txt.
        let kinds: [TodoMerge.ListFile] = [.todo, .done]
        let removed = ConflictBlocks.linesRemoved(
          settling: chosen, in: lists.indices.map { (lists[$0], found[$0], kinds[$0]) })
        for index in lists.indices where !removed[index].isEmpty {
          lists[index].removeAllLines { line, _, _ in removed[index].contains(line) }
        }
        return (settled, total)
      }
    }
    let remaining = total - settled
    let plural = settled == 1 ? "" : "s"
    context.console.line(
      "Settled \(settled) conflict\(plural), keeping \(side == .both ? "both sides" : side.rawValue)"
        + (remaining > 0 ? "; \(remaining) left (see 'resolve')." : "."))
    return .success
  }

  static func names(_ context: CommandContext) -> String {
    files(context).map(Posix.basename).joined(separator: " or ")
  }
}
