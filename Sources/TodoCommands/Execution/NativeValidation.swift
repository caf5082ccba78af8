import TodoTxt

/// Under the name `todo`, a command line is checked as a whole before anything is written:
/// every task number must name a task and every priority must be one, so that a list with
/// one bad member changes nothing. (todo.sh works through its list and stops at the bad
/// member, keeping the earlier changes; under the name `todo.sh` that stays so.)
enum NativeValidation {
  /// Commands whose text argument is a task's text (and so must not be empty).
  static let textCommands: Set<String> = ["add", "addm", "addto", "append", "prepend", "replace"]
  static let priorityWords: Set<String> = ["high", "medium", "low", "h", "m", "l"]

  static func check(_ spec: CommandSpec, _ arguments: [String], context: CommandContext) throws(TodoError) {
    guard context.settings.mode == .native else { return }
    // A query names its tasks itself.
    // A query or an input option names the tasks or the text itself.
    if spec.options.contains(where: { $0.replacesArguments && context.invocation.has($0.name) }) { return }
    let kinds = spec.arguments
    let file = context.settings.todoFile
    // The list is read once, however many numbers the line names.
    var list: TodoList?
    func existing(_ word: String, usage: TodoError) throws(TodoError) {
      let reference = try TaskReference(word, usage: usage)
      if list == nil { list = try context.readList(file) }
      _ = try reference.task(in: list ?? TodoList(), file: file)
    }
    if kinds.first == .taskNumbers {
      // A list that leads other arguments (`tag NR NR KEY VALUE`) ends at the first non-number.
      let numbers = kinds.count > 1 ? Array(arguments.prefix(while: CommandSpec.looksLikeTaskNumbers)) : arguments
      let words = taskNumberWords(numbers)
      guard !words.isEmpty else { throw spec.usageError }
      for word in words { try existing(word, usage: spec.usageError) }
    } else if kinds.starts(with: [.taskNumber, .priority]) {
      let usage = PriorityCommand.usage
      guard !arguments.isEmpty, arguments.count % 2 == 0 else { throw usage }
      for pair in stride(from: 0, to: arguments.count, by: 2) {
        try existing(arguments[pair], usage: usage)
        let priority = arguments[pair + 1]
        let isLetter = priority.utf8.count == 1 && priority.utf8.allSatisfy { (65...90).contains($0 & ~0x20) }
        guard isLetter || priorityWords.contains(priority.lowercased()) else { throw usage }
      }
    } else if kinds.first == .taskNumber, spec.fullName != "move" {
      if let word = arguments.first {
        try existing(word, usage: spec.usageError)
      } else if !spec.argumentsOptional {
        throw spec.usageError
      }
    }
    if kinds.contains(.term), spec.fullName != "find", spec.fullName != "view" {
      // Only the search terms are grep expressions; option values (a -q query) are not.
      for term in arguments {
        let pattern = term.hasPrefix("-") ? String(term.dropFirst()) : term
        guard TermMatcher.isValid(pattern) else { throw .badSearchTerm(term) }
      }
    }
    guard textCommands.contains(spec.fullName) else { return }
    let leading = kinds.prefix { $0 != .text }.count
    let text = arguments.dropFirst(leading).joined(separator: " ")
    if text.isEmpty {
      // A terminal gets asked for the text; anything else has nobody to ask.
      if context.input.isTerminal, !context.settings.isForced { return }
      throw spec.usageError
    }
    if text.allSatisfy({ $0 == " " || $0 == "\t" }) { throw .emptyText(spec.name) }
    if spec.fullName != "addm", text.contains(where: { $0 == "\n" || $0 == "\r" }) { throw .lineBreakInText(spec.name) }
  }
}
