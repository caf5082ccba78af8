import TodoTxt

enum ListPriorityCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "listpri", aliases: ["lsp"], usage: "[PRIORITIES] [TERM...]",
    abstract: "List the tasks with a priority, or with the given priorities (A, A-C, ABR-Y).",
    nativeDiscussion: "PRIORITIES may also be high, medium or low, or a range of them (high-medium).",
    arguments: [.priorities.optional, .term], options: OptionSpec.listing, termsAreWords: true
  ) { context, parsed throws(TodoError) in
    // The first word is a priority selection only if it reads as one; else it is a term.
    let arguments = parsed.words
    let options = context.settings.policy.readableListing ? ListOptions(context.invocation, terms: arguments) : nil
    var terms = arguments
    var priorities = "A-Z"
    if let first = terms.first, let words = TypedInput.prioritySelection(first, mode: context.settings.mode) {
      priorities = words
      terms.removeFirst()
    } else if let first = terms.first, isPrioritySelection(first) {
      priorities = first.uppercased()
      terms.removeFirst()
    }
    let pattern = "^ *[0-9]\\+ ([\(priorities)]) "
    // todo.sh's grep over the numbered line (`  12 (A) text`): its number and one blank are
    // always there, so it asks of the task text whether it starts with one of the priorities.
    let regex = BasicRegex("^([\(priorities)]) ")
    let post = ListEngine.PostFilter(
      command: "grep '\(pattern)'",
      keepingText: { text in
        // Only a text that starts with a parenthesis can match; the others are not copied.
        guard let regex, text.first == UInt8(ascii: "(") else { return false }
        return regex.matches(Array(text))
      })
    try ListCommand.listFile(context.settings.todoFile, terms: terms, post: post, options: options, context: context)
    return .success
  }

  /// One letter, a range `x-y` (either case), or upper-case letters and dashes that start and
  /// end with a letter.
  static func isPrioritySelection(_ text: String) -> Bool {
    let b = Array(text.utf8)
    let isLetter: (UInt8) -> Bool = { (65...90).contains($0) || (97...122).contains($0) }
    let isUpper: (UInt8) -> Bool = { (65...90).contains($0) }
    if b.count == 1 { return isLetter(b[0]) }
    if b.count == 3, isLetter(b[0]), b[1] == UInt8(ascii: "-"), isLetter(b[2]) { return true }
    guard b.count >= 2, let first = b.first, let last = b.last, isUpper(first), isUpper(last) else { return false }
    return b.allSatisfy { isUpper($0) || $0 == UInt8(ascii: "-") }
  }
}
