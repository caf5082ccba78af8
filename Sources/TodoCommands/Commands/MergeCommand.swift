@preconcurrency import Glibc
import TodoStore
import TodoTxt

/// `merge BASE OURS THEIRS`: the three-way merge of todo.txt files by task, in the shape of a
/// git merge driver (the result replaces OURS; exit 1 leaves conflict markers in it).
enum MergeCommand {
  static let unionOption = OptionSpec(["--union"], help: "Keep every line of both sides once (for done.txt).")
  static let pathOption = OptionSpec(
    ["--path"], value: .text, valueName: "PATH",
    help: "As git's merge driver: the path of the file merged, from the top of the work tree.")
  static let todoOption = OptionSpec(
    ["--todo-file"], value: .text, valueName: "PATH",
    help: "With --path: the todo.txt that goes with it, from the top of the work tree.")
  static let doneOption = OptionSpec(
    ["--done-file"], value: .text, valueName: "PATH",
    help: "With --path: the done.txt that goes with it, from the top of the work tree.")

  static let spec: CommandSpec = CommandSpec(
    name: "merge", usage: "BASE OURS THEIRS",
    abstract: "Merge two versions of a todo.txt file task by task, writing the result to OURS.",
    discussion: """
      BASE is the version both were made from. Tasks are matched by their text, not their line \
      numbers: a task added on both sides is kept once, a task completed on one side and edited \
      on the other ends up edited and completed, and a task deleted on one side and left alone \
      on the other is deleted. When both sides changed the priority, a tag or the text of a \
      task differently, both versions are written between <<<<<<< and >>>>>>> markers and the \
      exit status is 1. With --union (for done.txt), every line of both sides is kept once. \
      'git-setup' registers this command as git's merge driver, with --path, --todo-file and \
      --done-file: then the other list file's versions are read from the commits git is \
      merging, when they can be found for sure, so that a task archived on one side is merged \
      with its line in done.txt. Git runs no driver on a file only one side changed: when \
      that keeps in done.txt a task the other side deleted, todo.txt's merge shows it as a \
      conflict, whose marker names the done line for 'resolve'.
      """,
    arguments: [.fileName, .fileName, .fileName], options: [unionOption, pathOption, todoOption, doneOption],
    nativeOnly: true, toleratesConflictMarkers: true
  ) { context, parsed throws(TodoError) in
    let arguments = [try parsed.word(0), try parsed.word(1), try parsed.word(2)]
    let union = context.invocation.has(unionOption.name)
    let result: MergeResult
    if union {
      _ = try read(arguments[0])  // unused, but it must be there, as for a merge
      result = TodoMerge.union(ours: try read(arguments[1]), theirs: try read(arguments[2]))
    } else if let pair = pairedFile(context, files: (arguments[0], arguments[1], arguments[2])) {
      result = try mappedMerge(arguments[0], arguments[1], arguments[2]) { base, ours, theirs in
        // Git runs this driver on the other file only when both sides changed it; otherwise
        // it takes one side's as it is, and what that keeps is carried here.
        TodoMerge.merge(
          base: base, ours: ours, theirs: theirs, as: pair.isTodo ? .todo : .done,
          other: pair.other, otherMergedBy: .git)
      }
    } else {
      result = try mappedMerge(arguments[0], arguments[1], arguments[2]) { base, ours, theirs in
        TodoMerge.merge(base: base, ours: ours, theirs: theirs)
      }
    }
    try write(result.list, to: arguments[1], store: context.store)
    guard result.isClean else {
      throw .mergeConflicts(path: arguments[1], count: result.conflicts.count)
    }
    return .success
  }

  /// As git's merge driver: whether the file is todo.txt or done.txt, and the other one's
  /// versions in the commits being merged; `nil` when they cannot be found for sure.
  static func pairedFile(
    _ context: CommandContext, files: (base: String, ours: String, theirs: String)
  ) -> (isTodo: Bool, other: MergeVersions)? {
    let invocation = context.invocation
    guard let path = invocation.value(pathOption.name), let todo = invocation.value(todoOption.name),
      let done = invocation.value(doneOption.name), todo != done, path == todo || path == done
    else { return nil }
    let git = GitRepository(directory: ".", context: context)
    guard
      let sides = GitMergeSides.find(
        git, path: path, files: files, environment: context.settings.variables),
      let other = sides.versions(git, path: path == todo ? done : todo)
    else { return nil }
    return (path == todo, other)
  }

  /// The merge of three files mapped, not read (see ``Posix/mapLines(_:)``): a large file's
  /// versions are then not held whole in memory. A file changed while it was merged is one
  /// the result may not match: that is an error, and OURS is left as it was.
  static func mappedMerge(
    _ base: String, _ ours: String, _ theirs: String,
    _ merge: (LineBuffer, LineBuffer, LineBuffer) -> MergeResult
  ) throws(TodoError) -> MergeResult {
    var files: [(path: String, status: stat)] = []
    func map(_ path: String) throws(TodoError) -> LineBuffer {
      guard let (lines, status) = Posix.mapLines(path) else { throw .cannotReadFile(path) }
      files.append((path, status))
      return lines
    }
    let result = merge(try map(base), try map(ours), try map(theirs))
    for file in files where !Posix.isUnchanged(file.path, since: file.status) {
      throw .cannotReadFile(file.path)
    }
    return result
  }

  static func read(_ path: String) throws(TodoError) -> TodoList {
    guard let bytes = Posix.readFile(path) else { throw .cannotReadFile(path) }
    return TodoList(bytes: bytes)
  }

  /// Replaces a file's contents through the store (a temporary file beside it, fsync and a
  /// rename, so that it is never half-written), keeping its permissions.
  static func write(_ bytes: [UInt8], to path: String, store: TodoStore) throws(TodoError) {
    do { try store.replaceWhole(path, with: bytes) } catch { throw .cannotWriteFile(path) }
  }

  /// The same with a list's bytes, a block at a time: a large merged file is never held
  /// whole a second time.
  static func write(_ list: TodoList, to path: String, store: TodoStore) throws(TodoError) {
    do { try store.replaceWhole(path, with: list) } catch { throw .cannotWriteFile(path) }
  }
}
