import TodoTxt

/// Under the name `todo`, a command line is checked as a whole before anything is written:
/// every task number must name a task and every priority must be one, so that a list with
/// one bad member changes nothing. (todo.sh works through its list and stops at the bad
/// member, keeping the earlier changes; under the name `todo.sh` that stays so.)
enum NativeValidation {
  /// Checks what can be checked without the list, and returns the check of the task numbers,
  /// which runs on every snapshot of todo.txt the command reads or changes (see
  /// ``CommandContext/snapshotCheck``): the one the command acts on, under its lock, and never
  /// a separate read of the file.
  static func check(_ spec: CommandSpec, _ arguments: [String], context: CommandContext) throws(TodoError)
    -> ListCheck?
  {
    guard context.settings.policy.validatesWholeLine else { return nil }
    try checkControls(spec, arguments, context.invocation)
    // A query or an input option names the tasks or the text itself.
    if spec.options.contains(where: { $0.replacesArguments && context.invocation.has($0.name) }) { return nil }
    let kinds = spec.arguments
    let file = context.settings.todoFile
    var numbers: [String] = []
    var usage = spec.usageError
    if kinds.first == .taskNumbers {
      // A list that leads other arguments (`tag NR NR KEY VALUE`) ends at the first non-number.
      let leading = kinds.count > 1 ? Array(arguments.prefix(spec.leadingTaskNumberCount(arguments, whole: true))) : arguments
      numbers = taskNumberWords(leading)
      guard !numbers.isEmpty else { throw spec.usageError }
    } else if kinds.starts(with: [.taskNumber, .priority]) {
      usage = spec.usageError(in: context.settings.mode)
      guard !arguments.isEmpty, arguments.count % 2 == 0 else { throw usage }
      for pair in stride(from: 0, to: arguments.count, by: 2) {
        numbers.append(arguments[pair])
        // A letter in either case, or a word that names one (``Priority/init(word:)``).
        guard Priority(word: arguments[pair + 1]) != nil else { throw .notAPriority(arguments[pair + 1]) }
      }
    } else if kinds.first == .taskNumber, spec.numbersNameTodoTasks {
      if let word = arguments.first {
        numbers = [word]
      } else if !spec.argumentsOptional {
        throw spec.usageError
      }
    }
    // Malformed numbers are a usage error before anything is read.
    let references = try numbers.map { word throws(TodoError) in try TaskReference(word, usage: usage) }
    try checkWords(spec, arguments, asksForText: context.input.isTerminal && !context.settings.isForced)
    guard !references.isEmpty else { return nil }
    let shown = context.shownTasks
    return { list throws(TodoError) in
      for reference in references {
        let task = try reference.task(in: list, file: file)
        // In the shell, a number names the task the listing showed: another program may
        // have moved the lines since, even after the shell last looked.
        if let seen = shown[reference.number], !task.bytes.elementsEqual(seen) {
          throw .changedSinceShown(reference.typed, line: String(decoding: seen, as: UTF8.self))
        }
      }
    }
  }

  /// Refuses a control character (C0 but tab, DEL, C1) in any positional word of the command
  /// line: it could split or add a line, or carry a command to the terminal of whoever lists
  /// the task. A task's text may hold line breaks only where the command takes several lines
  /// (`addm`); elsewhere they are refused below, with their own message. An option's value
  /// was refused by the parser already, before it was typed (``Invocation/parse(_:for:as:)``).
  static func checkControls(_ spec: CommandSpec, _ arguments: [String], _ invocation: Invocation) throws(TodoError) {
    for (position, word) in arguments.enumerated() {
      var bytes = Array(word.utf8)
      if spec.kind(ofPositional: position, among: arguments) == .taskText {
        bytes.removeAll { $0 == 0x0A || $0 == 0x0D }
      }
      if let scalar = controlCharacter(in: bytes) {
        throw .controlCharacter(what: "argument \(position + 1)", scalar: scalar)
      }
    }
  }

  /// A check of a snapshot of todo.txt.
  typealias ListCheck = (TodoList) throws(TodoError) -> Void

  /// The checks of the words themselves: search terms, the text of a task.
  static func checkWords(_ spec: CommandSpec, _ arguments: [String], asksForText: Bool) throws(TodoError) {
    let kinds = spec.arguments
    if kinds.contains(.term), !spec.termsAreWords {
      // Only the search terms are grep expressions; option values (a -q query) are not.
      for term in arguments {
        let pattern = term.hasPrefix("-") ? String(term.dropFirst()) : term
        guard TermMatcher.isValid(pattern) else { throw .badSearchTerm(term) }
      }
    }
    guard kinds.contains(.taskText) else { return }
    let leading = kinds.prefix { $0 != .taskText }.count
    let text = arguments.dropFirst(leading).joined(separator: " ")
    if text.isEmpty {
      // A terminal gets asked for the text; anything else has nobody to ask.
      if asksForText { return }
      throw spec.usageError
    }
    if text.allSatisfy({ $0 == " " || $0 == "\t" }) { throw .emptyText(spec.name) }
    if !spec.acceptsLineBreaks, text.contains(where: { $0 == "\n" || $0 == "\r" }) { throw .lineBreakInText(spec.name) }
  }
}
