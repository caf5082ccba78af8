import TodoStore
import TodoTxt

#if canImport(Glibc)
  import Glibc
#endif

/// `edit [NR]`: the user's editor on one task's line, or on the whole of todo.txt.
///
/// The editor runs inside one store update, so it holds the list's lock the whole time (the
/// tool's other processes and the shell wait rather than write underneath it) and the result
/// is one change with one undo entry. The edited text is laid onto the list as line edits
/// (a line diff against what the editor was given), so that when another program (a sync
/// client, an editor of its own) changed the file meanwhile, the store applies these edits to
/// the same tasks found by content, as every other write does, instead of writing the
/// editor's copy over the other program's change.
///
/// Lines the editor changed or added are checked as typed text is: a `due:`/`t:` date
/// expression becomes its date, and a line that is no task (a date that is not one, a control
/// character, a conflict marker), an emptied task or an emptied file is named and asked about
/// before anything is written; declined, nothing changes and the exit status is 1.
enum EditCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "edit", usage: "[NR]",
    abstract: "Edit task NR, or the whole of todo.txt, in $VISUAL or $EDITOR.",
    discussion: """
      The editor works on a private copy while the list is locked; what it saved is written \
      as one change (todo undo takes it back), merged with any change another program made \
      to the file meanwhile. A changed line whose due: or t: is a date word (fri, +3d) gets \
      the date; a line that is not a task, an emptied task or an emptied file is shown and \
      asked about first. Without VISUAL and EDITOR, vi is used.
      """,
    arguments: [.taskNumber], nativeOnly: true, toleratesConflictMarkers: true, argumentsOptional: true
  ) { context, arguments throws(TodoError) in
    guard arguments.count <= 1 else { throw spec.usageError }
    let file = context.settings.todoFile
    let reference = try arguments.first.map { text throws(TodoError) in try TaskReference(text, usage: spec.usageError) }
    let editor = EditCommand.editor(context.settings)
    // Prompts must reach the person while the change is held back (see `storing`).
    let terminal = context.console
    let outcome: Outcome = try context.storing {
      try context.store.update(file, label: reference.map { "edit \($0.typed)" } ?? "edit") { list -> Outcome in
        let session = EditSession(context: context, terminal: terminal, editor: editor)
        if let reference {
          let task = try reference.task(in: list, file: file, mode: context.settings.mode)
          return try session.editLine(reference, task: task, in: &list)
        }
        return try session.editFile(&list, name: Posix.basename(file))
      }
    }
    switch outcome {
    case .unchanged: context.console.line("\(context.todoPrefix): nothing changed.")
    case .changed(let summary): context.console.line("\(context.todoPrefix): \(summary)")
    }
    return .success
  }

  /// What an edit did, for the closing line.
  enum Outcome {
    case unchanged
    case changed(String)
  }

  /// `$VISUAL`, else `$EDITOR`, else `vi`: a command line for the shell, so `code -w` works.
  static func editor(_ settings: Settings) -> String {
    for name in ["VISUAL", "EDITOR"] {
      if let value = settings.variables[name], !value.trimmingSpaces().isEmpty { return value }
    }
    return "vi"
  }
}

/// One run of the editor, inside the store's update.
private struct EditSession {
  let context: CommandContext
  let terminal: Console
  let editor: String

  func editLine(_ reference: TaskReference, task: Task, in list: inout TodoList) throws(TodoError) -> EditCommand.Outcome {
    let edited = try runEditor(on: Array(task.bytes) + [0x0A], name: "task-\(reference.number).txt")
    var lines = TodoList(bytes: edited).map { Array($0.bytes) }
    while let last = lines.last, last.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { lines.removeLast() }
    guard lines != [Array(task.bytes)] else { return .unchanged }
    if lines.isEmpty {
      guard ask("Task \(reference.typed) is now empty: delete it") else { throw .editDeclined }
      list.replace(number: reference.number, with: Task(bytes: []))
      return .changed("\(reference.typed) deleted.")
    }
    var checked: [[UInt8]] = []
    var problems: [String] = []
    for (offset, line) in lines.enumerated() {
      let (text, problem) = check(line)
      checked.append(text)
      if let problem { problems.append("line \(offset + 1): \(problem)") }
    }
    if lines.count > 1 { problems.append("task \(reference.typed) became \(lines.count) lines") }
    if !problems.isEmpty {
      for problem in problems { terminal.errorLine(problem) }
      guard ask("Write it anyway") else { throw .editDeclined }
    }
    list.replace(number: reference.number, with: Task(bytes: checked[0]))
    for (offset, line) in checked.dropFirst().enumerated() { list.insert(Task(bytes: line), at: reference.number + offset) }
    let shown = context.display(checked[0])
    return .changed("\(reference.typed) \(String(decoding: shown, as: UTF8.self))")
  }

  func editFile(_ list: inout TodoList, name: String) throws(TodoError) -> EditCommand.Outcome {
    let original = list.serialized()
    let edited = try runEditor(on: original, name: name)
    guard edited != original else { return .unchanged }
    let base = list.map { Array($0.bytes) }
    var target = TodoList(bytes: edited).map { Array($0.bytes) }
    if target.allSatisfy({ $0.allSatisfy { $0 == 0x20 || $0 == 0x09 } }) {
      guard ask("\(name) is now empty: write it") else { throw .editDeclined }
      target = []
    }
    let alignment = LineAlignment(base, target)
    var problems: [String] = []
    for index in target.indices where alignment.sourceOfTarget[index] == nil {
      let (text, problem) = check(target[index])
      target[index] = text
      if let problem { problems.append("line \(index + 1): \(problem)") }
    }
    if !problems.isEmpty {
      for problem in problems { terminal.errorLine(problem) }
      guard ask("Write it anyway") else { throw .editDeclined }
    }
    let (changed, added, removed) = alignment.apply(target, to: &list)
    guard changed + added + removed > 0 else { return .unchanged }
    return .changed("\(changed) changed, \(added) added, \(removed) removed.")
  }

  /// A changed or added line as it will be stored, and what is wrong with it, if anything.
  func check(_ line: [UInt8]) -> (text: [UInt8], problem: String?) {
    if let bad = line.first(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
      let code = String(bad, radix: 16, uppercase: true)
      return (line, "control character U+\(String(repeating: "0", count: 4 - code.count) + code) in the line")
    }
    for marker in ["<<<<<<<", "=======", ">>>>>>>"] where line.starts(with: marker.utf8) {
      return (line, "a merge conflict marker (\(marker))")
    }
    do {
      return (try TypedInput.resolvingDates(in: line, today: context.today), nil)
    } catch {
      let message = error.message(programName: context.programName)
      let prefix = context.programName + ": "
      return (line, message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message)
    }
  }

  /// Yes or no, on the terminal even while the change's own output is held back; `--force`
  /// says yes, no answer (end of input) says no.
  func ask(_ question: String) -> Bool {
    if context.settings.isForced { return true }
    if context.input.isTerminal { terminal.writeError(Array("\(question)? (y/n) ".utf8)) }
    let answer = context.input.readCharacter()
    if context.input.isTerminal { terminal.writeError([0x0A]) }
    return answer == [UInt8(ascii: "y")] || answer == [UInt8(ascii: "Y")]
  }

  /// Writes `bytes` to a private file, runs the editor on it and reads what it saved.
  func runEditor(on bytes: [UInt8], name: String) throws(TodoError) -> [UInt8] {
    let base = context.settings.variables["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
    var template = Array((base + "/todo-edit-XXXXXX").utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw .cannotCreateDirectory(base + "/todo-edit-XXXXXX", errno: errno)
    }
    let directory = String(cString: made)
    let path = directory + "/" + name
    defer {
      unlink(path)
      rmdir(directory)
    }
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw .cannotCreateDirectory(path, errno: errno) }
    let failed = Posix.writeAll(fd, bytes)
    close(fd)
    guard failed == 0 else { throw .cannotCreateDirectory(path, errno: failed) }
    terminal.flush()
    let status = context.runner.run(
      ["/bin/sh", "-c", editor + " \"$1\"", "sh", path], environment: context.childEnvironment).status
    guard status == 0 else { throw .editorFailed(editor: editor, status: status) }
    guard let edited = Posix.readFile(path) else { throw .editorFailed(editor: editor, status: -1) }
    return edited
  }
}

/// Which lines of an edited copy are lines of the original, by a longest common subsequence
/// of whole lines (after the common beginning and end are set aside), so that an edit keeps
/// every untouched line where it was and changes only what the editor changed.
struct LineAlignment {
  /// For each line of the target, the index of the original line it is, or `nil` when it is
  /// new or changed.
  private(set) var sourceOfTarget: [Int?]
  private let baseCount: Int

  /// Middles larger than this many line pairs are not searched for common lines (a rewrite
  /// that large is taken as a replacement of the whole middle).
  static let limit = 16_000_000

  init(_ base: [[UInt8]], _ target: [[UInt8]]) {
    baseCount = base.count
    sourceOfTarget = Array(repeating: nil, count: target.count)
    var prefix = 0
    while prefix < base.count, prefix < target.count, base[prefix] == target[prefix] {
      sourceOfTarget[prefix] = prefix
      prefix += 1
    }
    var suffix = 0
    while suffix < base.count - prefix, suffix < target.count - prefix,
      base[base.count - 1 - suffix] == target[target.count - 1 - suffix]
    {
      sourceOfTarget[target.count - 1 - suffix] = base.count - 1 - suffix
      suffix += 1
    }
    let old = Array(base[prefix..<(base.count - suffix)])
    let new = Array(target[prefix..<(target.count - suffix)])
    guard !old.isEmpty, !new.isEmpty, old.count * new.count <= LineAlignment.limit else { return }
    // lengths[i][j]: the longest common subsequence of old[i...] and new[j...].
    let width = new.count + 1
    var lengths = [Int32](repeating: 0, count: (old.count + 1) * width)
    for i in stride(from: old.count - 1, through: 0, by: -1) {
      for j in stride(from: new.count - 1, through: 0, by: -1) {
        lengths[i * width + j] =
          old[i] == new[j] ? lengths[(i + 1) * width + j + 1] + 1 : max(lengths[(i + 1) * width + j], lengths[i * width + j + 1])
      }
    }
    var i = 0
    var j = 0
    while i < old.count, j < new.count {
      if old[i] == new[j] {
        sourceOfTarget[prefix + j] = prefix + i
        i += 1
        j += 1
      } else if lengths[(i + 1) * width + j] >= lengths[i * width + j + 1] {
        i += 1
      } else {
        j += 1
      }
    }
  }

  /// Edits `list` (the original) into `target`: between two kept lines, the original lines
  /// are replaced one for one by the new ones, and the rest removed or inserted.
  ///
  /// - Returns: how many lines were changed, added and removed.
  func apply(_ target: [[UInt8]], to list: inout TodoList) -> (changed: Int, added: Int, removed: Int) {
    var changed = 0
    var added = 0
    var removed = 0
    // Stretches between kept lines, from the end, so earlier indices stay valid.
    var targetEnd = target.count
    var baseEnd = baseCount
    var index = target.count - 1
    while index >= -1 {
      let kept = index >= 0 ? sourceOfTarget[index] : -1
      if index >= 0, kept == nil {
        index -= 1
        continue
      }
      let baseStart = (kept ?? -1) + 1
      let targetStart = index + 1
      let old = baseEnd - baseStart
      let new = targetEnd - targetStart
      let common = min(old, new)
      for offset in 0..<common {
        list.replace(at: baseStart + offset, with: Task(bytes: target[targetStart + offset]))
      }
      changed += common
      if old > new {
        for _ in 0..<(old - new) { list.remove(at: baseStart + common) }
        removed += old - new
      } else if new > old {
        for offset in common..<new { list.insert(Task(bytes: target[targetStart + offset]), at: baseStart + offset) }
        added += new - old
      }
      targetEnd = index
      baseEnd = kept ?? 0
      index -= 1
    }
    return (changed, added, removed)
  }
}
