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
    var target = LineSet(bytes: edited)
    if (0..<target.count).allSatisfy(target.isBlank) {
      guard ask("\(name) is now empty: write it") else { throw .editDeclined }
      target = LineSet(bytes: [])
    }
    let alignment = LineAlignment(LineSet(list), target)
    // Only new and changed lines are checked, and stored as checked.
    var stored: [Int: [UInt8]] = [:]
    var problems: [String] = []
    for index in 0..<target.count where alignment.sourceOfTarget[index] == nil {
      let (text, problem) = check(target.line(index))
      stored[index] = text
      if let problem { problems.append("line \(index + 1): \(problem)") }
    }
    if !problems.isEmpty {
      for problem in problems { terminal.errorLine(problem) }
      guard ask("Write it anyway") else { throw .editDeclined }
    }
    let (changed, added, removed) = alignment.apply(to: &list) { stored[$0] ?? target.line($0) }
    guard changed + added + removed > 0 else { return .unchanged }
    return .changed("\(changed) changed, \(added) added, \(removed) removed.")
  }

  /// A changed or added line as it will be stored, and what is wrong with it, if anything.
  func check(_ line: [UInt8]) -> (text: [UInt8], problem: String?) {
    // The check every input gets (C0 but tab, DEL, and C1 too).
    if let bad = controlCharacter(in: line) {
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

/// The lines of a file as bounds in its bytes: compared and hashed without a copy per line.
struct LineSet {
  let bytes: [UInt8]
  let starts: [Int]
  let ends: [Int]

  init(_ list: TodoList) { (bytes, starts, ends) = list.lineBounds(raw: false) }

  init(bytes: [UInt8]) {
    self.bytes = bytes
    (starts, ends) = TodoList.lineBounds(in: bytes, raw: false)
  }

  var count: Int { starts.count }
  subscript(index: Int) -> ArraySlice<UInt8> { bytes[starts[index]..<ends[index]] }
  func line(_ index: Int) -> [UInt8] { Array(self[index]) }
  func isBlank(_ index: Int) -> Bool { self[index].allSatisfy { $0 == 0x20 || $0 == 0x09 } }

  func hash(_ index: Int) -> Int {
    var hasher = Hasher()
    bytes.withUnsafeBytes { raw in hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw[starts[index]..<ends[index]])) }
    return hasher.finalize()
  }
}

/// Which lines of an edited copy are lines of the original, so that an edit keeps every
/// untouched line where it was and changes only what the editor changed.
///
/// The common beginning and end are set aside; in what is left, lines that occur once on each
/// side are paired in the longest run that keeps their order (so a million-line file with a
/// thousand lines deleted is a thousand deletions, not a rewrite), and the stretches between
/// those pairs, when small, are aligned by a longest common subsequence of whole lines.
struct LineAlignment {
  /// For each line of the target, the index of the original line it is, or `nil` when it is
  /// new or changed.
  private(set) var sourceOfTarget: [Int?]
  private let baseCount: Int

  /// Stretches with more line pairs than this are not aligned line by line (only their unique
  /// lines pair up).
  static let limit = 4_000_000

  init(_ base: LineSet, _ target: LineSet) {
    baseCount = base.count
    sourceOfTarget = Array(repeating: nil, count: target.count)
    align(base, 0..<base.count, target, 0..<target.count)
  }

  private mutating func align(_ base: LineSet, _ old: Range<Int>, _ target: LineSet, _ new: Range<Int>) {
    var old = old
    var new = new
    while !old.isEmpty, !new.isEmpty, base[old.lowerBound] == target[new.lowerBound] {
      sourceOfTarget[new.lowerBound] = old.lowerBound
      old = (old.lowerBound + 1)..<old.upperBound
      new = (new.lowerBound + 1)..<new.upperBound
    }
    while !old.isEmpty, !new.isEmpty, base[old.upperBound - 1] == target[new.upperBound - 1] {
      sourceOfTarget[new.upperBound - 1] = old.upperBound - 1
      old = old.lowerBound..<(old.upperBound - 1)
      new = new.lowerBound..<(new.upperBound - 1)
    }
    guard !old.isEmpty, !new.isEmpty else { return }
    if old.count * new.count <= LineAlignment.limit {
      return commonSubsequence(base, old, target, new)
    }
    // Lines found once on each side, in target order, paired with their original index.
    var oldSeen: [Int: (count: Int, index: Int)] = [:]
    oldSeen.reserveCapacity(old.count)
    for index in old {
      let key = base.hash(index)
      oldSeen[key] = (count: (oldSeen[key]?.count ?? 0) + 1, index: index)
    }
    var newCounts: [Int: Int] = [:]
    newCounts.reserveCapacity(new.count)
    for index in new { newCounts[target.hash(index), default: 0] += 1 }
    var pairs: [(old: Int, new: Int)] = []
    for index in new {
      let key = target.hash(index)
      guard newCounts[key] == 1, let seen = oldSeen[key], seen.count == 1, base[seen.index] == target[index] else { continue }
      pairs.append((seen.index, index))
    }
    // The longest run of pairs whose original indices increase (patience sorting).
    var tails: [Int] = []
    var previous = [Int](repeating: -1, count: pairs.count)
    for (position, pair) in pairs.enumerated() {
      var low = 0
      var high = tails.count
      while low < high {
        let middle = (low + high) / 2
        if pairs[tails[middle]].old < pair.old { low = middle + 1 } else { high = middle }
      }
      if low > 0 { previous[position] = tails[low - 1] }
      if low == tails.count { tails.append(position) } else { tails[low] = position }
    }
    var anchors: [(old: Int, new: Int)] = []
    var cursor = tails.last ?? -1
    while cursor >= 0 {
      anchors.append(pairs[cursor])
      cursor = previous[cursor]
    }
    anchors.reverse()
    guard !anchors.isEmpty else { return }
    var oldStart = old.lowerBound
    var newStart = new.lowerBound
    for anchor in anchors {
      sourceOfTarget[anchor.new] = anchor.old
      align(base, oldStart..<anchor.old, target, newStart..<anchor.new)
      oldStart = anchor.old + 1
      newStart = anchor.new + 1
    }
    align(base, oldStart..<old.upperBound, target, newStart..<new.upperBound)
  }

  private mutating func commonSubsequence(_ base: LineSet, _ old: Range<Int>, _ target: LineSet, _ new: Range<Int>) {
    // lengths[i][j]: the longest common subsequence of the stretches from i and j on.
    let width = new.count + 1
    var lengths = [Int32](repeating: 0, count: (old.count + 1) * width)
    for i in stride(from: old.count - 1, through: 0, by: -1) {
      for j in stride(from: new.count - 1, through: 0, by: -1) {
        lengths[i * width + j] =
          base[old.lowerBound + i] == target[new.lowerBound + j]
          ? lengths[(i + 1) * width + j + 1] + 1 : max(lengths[(i + 1) * width + j], lengths[i * width + j + 1])
      }
    }
    var i = 0
    var j = 0
    while i < old.count, j < new.count {
      if base[old.lowerBound + i] == target[new.lowerBound + j] {
        sourceOfTarget[new.lowerBound + j] = old.lowerBound + i
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
  /// - Parameter line: the target's line at an index, as it is to be stored.
  /// - Returns: how many lines were changed, added and removed.
  func apply(to list: inout TodoList, line: (Int) -> [UInt8]) -> (changed: Int, added: Int, removed: Int) {
    var changed = 0
    var added = 0
    var removed = 0
    // Stretches between kept lines, from the end, so earlier indices stay valid.
    var targetEnd = sourceOfTarget.count
    var baseEnd = baseCount
    var index = sourceOfTarget.count - 1
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
      for offset in 0..<common { list.replace(at: baseStart + offset, with: Task(bytes: line(targetStart + offset))) }
      changed += common
      if old > new {
        for _ in 0..<(old - new) { list.remove(at: baseStart + common) }
        removed += old - new
      } else if new > old {
        for offset in common..<new { list.insert(Task(bytes: line(targetStart + offset)), at: baseStart + offset) }
        added += new - old
      }
      targetEnd = index
      baseEnd = kept ?? 0
      index -= 1
    }
    return (changed, added, removed)
  }
}
