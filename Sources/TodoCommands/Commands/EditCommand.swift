import TodoStore
import TodoTxt

#if canImport(Glibc)
  import Glibc
#endif

/// `edit [NR]`: the user's editor on one task's line, or on the whole of todo.txt.
///
/// The list is read, and the editor run, without the list's lock: a person may take as long
/// as they like, and the tool's other processes (a script's `add`) go on meanwhile. What the
/// editor saved is laid onto the list as line edits (a line diff against what the editor was
/// given) and written under the lock as one change with one undo entry, a line patch against
/// the version the editor was opened on: what another program or process changed meanwhile
/// stays (the edited tasks are found by content), and when it changed a line the editor
/// changed too, nothing is written.
///
/// Lines the editor changed or added are checked as typed text is: a `due:`/`t:` date
/// expression becomes its date, and a line that is no task (a date that is not one, a control
/// character, a conflict marker) is named. What the person wrote is never thrown away: a text
/// with problems is kept in the state directory's `edits` folder, and the person is asked to
/// edit again (the editor reopens on their text, a note above each line with a problem, the
/// notes removed again afterwards; see ``EditNotes``), to write it as it is, or to stop. A
/// text that is not written (stopped, or refused because of an outside change) is named by
/// its path and the exit status is 1. An emptied task or file is asked about first.
enum EditCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "edit", usage: "[NR]",
    abstract: "Edit task NR, or the whole of todo.txt, in $VISUAL or $EDITOR.",
    discussion: """
      The editor works on a private copy and the list is not locked meanwhile; what it saved \
      is written as one change (todo undo takes it back), merged with any change made to \
      other tasks meanwhile, and refused when the same task was changed. A changed line \
      whose due: or t: is a date word (fri, +3d) gets the date; a line that is not a task is \
      named, and you can edit again (the editor reopens with a #!todo-edit: note above each \
      such line, removed again before writing), write it as it is, or stop. Text that is \
      not written is kept in the edits folder of the state directory, and its path shown. \
      An emptied task or file is asked about first. Without VISUAL and EDITOR, vi is used.
      """,
    arguments: [.taskNumber.optional], nativeOnly: true, toleratesConflictMarkers: true, argumentsOptional: true
  ) { context, arguments throws(TodoError) in
    let file = context.settings.todoFile
    let reference = try arguments.optionalTask(0)
    let session = EditSession(
      context: context, editor: EditCommand.editor(context.settings), file: file,
      keptName: reference.map { "task-\($0.number).txt" } ?? Posix.basename(file))
    defer { session.removeCopy() }
    // Read without the lock, which is never held while a person edits.
    var list = try context.readList(file)
    let outcome: Outcome
    if let reference {
      let task = try reference.task(in: list, file: file, mode: context.settings.mode)
      outcome = try session.editLine(reference, task: task, in: &list)
    } else {
      outcome = try session.editFile(&list, name: Posix.basename(file))
    }
    switch outcome {
    case .unchanged:
      session.discardKept()
      context.console.line("\(context.todoPrefix): nothing changed.")
    case .changed(let summary):
      try session.write(list, label: reference.map { "edit \($0.typed)" } ?? "edit")
      context.console.line("\(context.todoPrefix): \(summary)")
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

/// A line of what the editor saved that is no task as it stands.
struct EditProblem: Equatable {
  /// The line (0-based, in the text without notes); `nil` for the text as a whole.
  var line: Int?
  var message: String
}

/// The notes `edit` writes into the text it reopens: above each line with a problem, one
/// naming it, and at the top the problems of the text as a whole and a line saying what the
/// notes are. Each starts with ``mark``.
///
/// Any line of todo.txt is a task, so no marking is one a task could never have: the notes
/// taken out again are exactly the lines that were put in (wherever the person moved them). A
/// note the person changed is no longer one of them; it stays, and is named as a problem (a
/// new line starting with the mark), so nothing the person typed is ever dropped unseen.
enum EditNotes {
  static let mark = "#!todo-edit:"

  /// `text` with the notes of `problems`, and the note lines put in (without line endings).
  static func annotate(_ text: [UInt8], _ problems: [EditProblem]) -> (bytes: [UInt8], notes: [[UInt8]]) {
    guard !problems.isEmpty else { return (text, []) }
    let list = TodoList(bytes: text)
    let ending = list.preferredLineEnding.bytes
    var notes: [[UInt8]] = []
    var out: [UInt8] = list.hasByteOrderMark ? TodoList.byteOrderMark : []
    func note(_ words: String) {
      let line = Array("\(mark) \(words)".utf8).map { $0 < 0x20 || $0 == 0x7F ? UInt8(ascii: "?") : $0 }
      notes.append(line)
      out += line + ending
    }
    for problem in problems where problem.line.map({ $0 >= list.count }) ?? true { note(problem.message) }
    note("each note like this one is removed before writing; fix the line below it, save and quit")
    for index in 0..<list.count {
      for problem in problems where problem.line == index { note("the next line: \(problem.message)") }
      out += list.lineBytes(at: index) + list.lineEnding(at: index).bytes
    }
    return (out, notes)
  }

  /// `saved` without the lines of `notes`, each taken out as often as it was put in.
  static func strip(_ notes: [[UInt8]], from saved: [UInt8]) -> [UInt8] {
    guard !notes.isEmpty else { return saved }
    var left: [[UInt8]: Int] = [:]
    for note in notes { left[note, default: 0] += 1 }
    var list = TodoList(bytes: saved)
    var removes = [Bool](repeating: false, count: list.count)
    for index in 0..<list.count {
      let line = Array(list.lineBytes(at: index))
      if let count = left[line], count > 0 {
        left[line] = count - 1
        removes[index] = true
      }
    }
    list.removeLines(marked: removes)
    return list.serialized()
  }
}

/// One run of `edit`: the editor, as many times as the person asks for it, on a private copy.
private final class EditSession {
  let context: CommandContext
  let editor: String
  let file: String
  /// What the person's text is called where it is kept (`todo.txt`, `task-3.txt`).
  let keptName: String
  /// The private folder of the editor's copy, made for the first run.
  private var directory: ConfinedFolder?
  /// The editor's copy, which stays when the text could be kept nowhere else.
  private var copy: String?
  private var leavesCopy = false
  /// Where the person's text is kept until it is written (see ``keep()``).
  private var kept: (folder: ConfinedFolder, name: String)?
  /// What the person last saved, the notes taken out.
  private var text: [UInt8] = []

  init(context: CommandContext, editor: String, file: String, keptName: String) {
    self.context = context
    self.editor = editor
    self.file = file
    self.keptName = keptName
  }

  func editLine(_ reference: TaskReference, task: Task, in list: inout TodoList) throws(TodoError) -> EditCommand.Outcome {
    let original = Array(task.bytes)
    var lines: [[UInt8]] = []
    var checked: [[UInt8]] = []
    _ = try edit(original + [0x0A], name: "task-\(reference.number).txt") { text in
      lines = TodoList(bytes: text).map { Array($0.bytes) }
      while let last = lines.last, last.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { lines.removeLast() }
      checked = []
      guard lines != [original], !lines.isEmpty else { return [] }
      var problems: [EditProblem] = []
      for (offset, line) in lines.enumerated() {
        let (stored, problem) = check(line)
        checked.append(stored)
        if let problem { problems.append(EditProblem(line: offset, message: problem)) }
      }
      if lines.count > 1 { problems.append(EditProblem(message: "task \(reference.typed) became \(lines.count) lines")) }
      return problems
    }
    guard lines != [original] else { return .unchanged }
    if lines.isEmpty {
      guard ask("Task \(reference.typed) is now empty: delete it") else { throw stopped() }
      list.replace(number: reference.number, with: Task(bytes: []))
      return .changed("\(reference.typed) deleted.")
    }
    list.replace(number: reference.number, with: Task(bytes: checked[0]))
    for (offset, line) in checked.dropFirst().enumerated() { list.insert(Task(bytes: line), at: reference.number + offset) }
    let shown = context.display(checked[0])
    return .changed("\(reference.typed) \(String(decoding: shown, as: UTF8.self))")
  }

  func editFile(_ list: inout TodoList, name: String) throws(TodoError) -> EditCommand.Outcome {
    // The file's lines, sharing the bytes the list was read from (a list as read is the
    // file): the text the editor is given, with no copy of it, and the side an edit is
    // aligned against.
    let source = LineSet(list)
    let original = source.bytes
    // The edited text's lines, made once it differs from the file.
    var target = LineSet(bytes: [])
    var alignment: LineAlignment?
    // Only new and changed lines are checked, and stored as checked.
    var stored: [Int: [UInt8]] = [:]
    let edited = try edit(original, name: name) { text in
      stored = [:]
      guard text != original else { return [] }
      target = LineSet(bytes: text)
      let aligned = LineAlignment(source, target)
      alignment = aligned
      var problems: [EditProblem] = []
      for index in 0..<target.count where aligned.sourceOfTarget[index] == nil {
        let (line, problem) = check(target.line(index))
        stored[index] = line
        if let problem { problems.append(EditProblem(line: index, message: problem)) }
      }
      return problems
    }
    guard edited != original else { return .unchanged }
    if (0..<target.count).allSatisfy(target.isBlank) {
      guard ask("\(name) is now empty: write it") else { throw stopped() }
      target = LineSet(bytes: [])
      alignment = nil
    }
    let lines = alignment ?? LineAlignment(source, target)
    let (changed, added, removed) = lines.apply(to: &list) { stored[$0] ?? target.line($0) }
    guard changed + added + removed > 0 else { return .unchanged }
    return .changed("\(changed) changed, \(added) added, \(removed) removed.")
  }

  /// Runs the editor on `original` until what it saves has no problem (`review` names them),
  /// the person says to write it as it is (or `--force` does), or stops (thrown, the text
  /// kept). Returns what was saved, notes taken out (`original` when nothing changed).
  func edit(_ original: [UInt8], name: String, review: ([UInt8]) -> [EditProblem]) throws(TodoError) -> [UInt8] {
    var given = original
    var problems: [EditProblem] = []
    var reopened = false
    while true {
      let (shown, notes) = EditNotes.annotate(given, problems)
      let saved: [UInt8]
      do {
        saved = try runEditor(on: shown, name: name)
      } catch {
        // What an earlier round saved is kept: say where.
        guard reopened, case .editorFailed = error else { throw error }
        throw .editKept(path: keptPath, why: reason(error))
      }
      text = EditNotes.strip(notes, from: saved)
      // Nobody at a terminal to fix it, and the editor changed nothing: asking again would
      // only go round.
      if reopened, text == given, !context.input.isTerminal { throw stopped() }
      problems = review(text)
      if problems.isEmpty { return text }
      for problem in problems {
        context.console.errorLine((problem.line.map { "line \($0 + 1): " } ?? "") + problem.message)
      }
      if context.settings.isForced { return text }
      keep()
      switch askAgain() {
      case .edit:
        given = text
        reopened = true
      case .write: return text
      case .stop: throw stopped()
      }
    }
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
    if line.starts(with: EditNotes.mark.utf8) {
      return (line, "it starts with \(EditNotes.mark) as the notes of edit do; remove it, or write it as it is")
    }
    do {
      return (try TypedInput.resolvingDates(in: line, today: context.today), nil)
    } catch {
      let message = error.message(programName: context.programName)
      let prefix = context.programName + ": "
      return (line, message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message)
    }
  }

  /// What to do with a text that has problems.
  enum Choice {
    case edit, write, stop
  }

  /// Edit again (`y`, or Enter at a terminal), write it as it is (`w`), or stop (`n`, any
  /// other answer, no answer).
  func askAgain() -> Choice {
    let terminal = context.input.isTerminal
    if terminal { context.console.writeError(Array("Edit again (Y), write it as it is (w), or stop (n)? ".utf8)) }
    let answer = context.input.readCharacter()
    if terminal { context.console.writeError([0x0A]) }
    switch answer {
    case [UInt8(ascii: "y")]?, [UInt8(ascii: "Y")]?: return .edit
    case [0x0A]? where terminal: return .edit
    case [UInt8(ascii: "w")]?, [UInt8(ascii: "W")]?: return .write
    default: return .stop
    }
  }

  /// Yes or no; `--force` says yes, no answer (end of input) says no.
  func ask(_ question: String) -> Bool {
    if context.settings.isForced { return true }
    if context.input.isTerminal { context.console.writeError(Array("\(question)? (y/n) ".utf8)) }
    let answer = context.input.readCharacter()
    if context.input.isTerminal { context.console.writeError([0x0A]) }
    return answer == [UInt8(ascii: "y")] || answer == [UInt8(ascii: "Y")]
  }

  /// Writes the edited list under the lock (see ``EditCommand``); when it cannot be written,
  /// the person's text is kept and named.
  func write(_ list: TodoList, label: String) throws(TodoError) {
    do {
      _ = try context.storing { try context.store.update([file], label: label, editedAfterReading: [list]) }
    } catch {
      keep()
      guard case .store(let stored) = error else { throw .editKept(path: keptPath, why: reason(error)) }
      switch stored.kind {
      case .conflict(let line, let was, let now?):
        throw .editKept(
          path: keptPath,
          why: "task \(line) was changed meanwhile by another program, as you changed it: "
            + "was '\(TodoError.oneLine(was))', now '\(TodoError.oneLine(now))'")
      case .conflict(let line, let was, nil):
        throw .editKept(
          path: keptPath,
          why: "task \(line) was removed meanwhile by another program, and you changed it: was '\(TodoError.oneLine(was))'")
      default:
        throw .editKept(path: keptPath, why: stored.description)
      }
    }
    discardKept()
  }

  // MARK: The person's text

  /// Keeps ``text`` until it is written: in the state directory's `edits` folder, else in a
  /// dot-file beside the list, else (neither can be written) in the editor's copy, left in
  /// place. Each is reached as a ``ConfinedFolder``, never through a link.
  func keep() {
    if let kept, (try? kept.folder.replace(kept.name, contents: text)) != nil { return }
    kept = nil
    let places: [(() throws -> ConfinedFolder?, String)] = [
      ({ try self.context.store.stateFolder("edits") }, "edited-" + keptName),
      ({ try self.context.store.folder(Posix.dirname(self.file)) }, ".edited-" + keptName),
    ]
    for (open, name) in places {
      guard let folder = (try? open()) ?? nil, let made = try? folder.create(preferring: name, contents: text) else {
        continue
      }
      kept = (folder, made)
      return
    }
    leavesCopy = true
  }

  /// Where the text is kept (see ``keep()``).
  var keptPath: String { kept.map { $0.folder.path(of: $0.name) } ?? copy ?? "" }

  /// The person's text went to the list, or the person left it as it was: it is kept no more.
  func discardKept() {
    if let kept { kept.folder.remove(kept.name) }
    kept = nil
  }

  /// An error's message without the program's name, `edit:` and "nothing changed" (which
  /// ``TodoError/editKept(path:why:)`` says).
  func reason(_ error: TodoError) -> String {
    var message = error.message(programName: context.programName)
    for prefix in ["\(context.programName): ", "edit: "] where message.hasPrefix(prefix) {
      message.removeFirst(prefix.count)
    }
    if message.hasSuffix("; nothing changed") { message.removeLast("; nothing changed".count) }
    return message
  }

  /// The person stopped, or declined: their text stays where it is kept, if anywhere yet.
  func stopped() -> TodoError { kept != nil || leavesCopy ? .editKept(path: keptPath, why: nil) : .editDeclined }

  // MARK: The editor

  /// Writes `bytes` to the private copy, runs the editor on it and reads what it saved.
  ///
  /// The copy is reached through the store's confined folder (no link followed, the store's
  /// system calls and faults), written whole before the editor starts.
  func runEditor(on bytes: [UInt8], name: String) throws(TodoError) -> [UInt8] {
    let folder = try privateDirectory()
    do { try folder.replace(name, contents: bytes) } catch { throw .store(error) }
    let path = folder.path(of: name)
    copy = path
    context.console.flush()
    let status = context.runner.run(
      ["/bin/sh", "-c", editor + " \"$1\"", "sh", path], environment: context.childEnvironment).status
    guard status == 0 else { throw .editorFailed(editor: editor, status: status) }
    guard let edited = try? folder.read(name) else { throw .editorFailed(editor: editor, status: -1) }
    return edited
  }

  private func privateDirectory() throws(TodoError) -> ConfinedFolder {
    if let directory { return directory }
    let base = context.settings.variables["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
    do {
      let made = try context.store.makePrivateFolder(in: base, prefix: "todo-edit")
      directory = made
      return made
    } catch {
      throw .store(error)
    }
  }

  /// Removes the private copy and its folder, unless the person's text is kept only there.
  func removeCopy() {
    guard let directory, !leavesCopy else { return }
    context.store.removePrivateFolder(directory, with: copy.map(Posix.basename))
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
