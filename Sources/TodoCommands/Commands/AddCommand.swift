import TodoStore
import TodoTxt

/// `add`, `addm` and `addto`: new lines at the end of a file.
enum AddCommand {
  static let jsonOption = OptionSpec(
    ["--json"], help: "Read tasks as JSON from standard input, as import does, instead of TEXT.",
    replacesArguments: true)

  /// `add --due DATE TEXT`.
  static let dueOption = OptionSpec(
    ["--due"], value: .date, valueName: "DATE",
    help: "Give the new task this due date: 2026-05-01, fri, next monday, in 3 days, dec 10 (no quotes needed).")

  static let spec: CommandSpec = CommandSpec(
    name: "add", aliases: ["a"], usage: "\"TODO ITEM\"",
    abstract: "Add a task at the end of todo.txt.",
    discussion: """
      The words are joined with single spaces. +project, @context and key:value tags may stand \
      anywhere in the text. With -t (or TODOTXT_DATE_ON_ADD=1) today's date is put in front, \
      after a priority such as (A). Under the name todo, --priority high|medium|low (or a \
      letter) sets the priority, and due: and t: take dates such as fri, +2w or eom.
      """,
    nativeDiscussion: """
      --due sets the due date, said in words if you like (next monday, in 3 days, dec 10); in \
      the text a due: or t: date is one word (next-monday, dec10).
      """,
    arguments: [.taskText], argumentsWhenGiven: [(jsonOption.name, [])],
    options: [TypedInput.priorityOption, dueOption, jsonOption, TypedInput.verbatimOption]
  ) { context, arguments throws(TodoError) in
    if context.invocation.has(jsonOption.name) {
      // The records on standard input hold the priorities and dates.
      guard !context.invocation.has(TypedInput.priorityOption.name),
        !context.invocation.has(dueOption.name)
      else { throw spec.usageError }
      return try ImportCommand.run(context)
    }
    let priority = context.invocation.priority(TypedInput.priorityOption.name)
    let due = try context.invocation.value(dueOption.name).map { text throws(TodoError) in
      try TypedInput.date(text, today: context.today)
    }
    var input = try readText(context, arguments.text(0), prompt: "Add: ", usage: spec.usageError)
    if let priority { input = TypedInput.prioritized(input, priority) }
    if let due {
      guard Task(parsing: String(decoding: input, as: UTF8.self)).tagValue(TagMeaning.due.key) == nil else {
        throw .dueGivenTwice
      }
      input += Array(" \(TagMeaning.due.key):\(due)".utf8)
    }
    try add([input], to: context.settings.todoFile, context: context)
    return .success
  }

  /// The text to add: the arguments joined with spaces, or when there are none and the
  /// command is not forced, a line read from standard input.
  static func readText(
    _ context: CommandContext, _ arguments: [String], prompt: String, usage: TodoError
  ) throws(TodoError) -> [UInt8] {
    if arguments.first?.isEmpty ?? true {
      guard !context.settings.isForced else { throw usage }
      return context.ask(prompt)
    }
    return RawArguments.joined(arguments)
  }

  /// Prepares typed text as todo.sh's `_addto` does: one line, `(a)` → `(A)`, today's date
  /// when configured, the default priority when configured.
  static func prepare(_ raw: [UInt8], context: CommandContext) throws(TodoError) -> [UInt8] {
    var line = try context.storedText(cleanInput(raw))
    if line.count >= 3, line[0] == UInt8(ascii: "("), (97...122).contains(line[1]), line[2] == UInt8(ascii: ")") {
      line[1] -= 32
    }
    let startsWithPriority =
      line.count >= 3 && line[0] == UInt8(ascii: "(") && (65...90).contains(line[1]) && line[2] == UInt8(ascii: ")")
    if context.settings.datesOnAdd {
      let at = startsWithPriority && line.count >= 4 && line[3] == UInt8(ascii: " ") ? 4 : 0
      line.insert(contentsOf: context.today.utf8 + [UInt8(ascii: " ")], at: at)
    }
    let priority = context.settings.priorityOnAdd
    if !priority.isEmpty, !startsWithPriority {
      line.insert(contentsOf: bytes("(\(priority)) "), at: 0)
    }
    return line
  }

  /// The undo log's name for an add: the action and the start of the first new line.
  static func addLabel(_ lines: [[UInt8]]) -> String {
    let text = String(decoding: lines.first?.prefix(60) ?? [], as: UTF8.self)
    return lines.count > 1 ? "add \(text) (+\(lines.count - 1) more)" : "add \(text)"
  }

  /// Appends prepared lines to `file` and reports each as `N text` / `PREFIX: N added.`
  static func add(_ inputs: [[UInt8]], to file: String, context: CommandContext) throws(TodoError) {
    let lines = try inputs.map { input throws(TodoError) in try prepare(input, context: context) }
    let isNewList = !Posix.exists(file)
    try context.ensureDirectory(for: file)
    let numbers = try context.storing {
      try context.store.append(lines, to: file, label: addLabel(lines))
    }
    if isNewList { context.announceNewList(file) }
    guard context.verbose else { return }
    let prefix = CommandContext.prefix(of: file)
    for (number, line) in zip(numbers, lines) {
      context.echo(String(number), line)
      context.console.line("\(prefix): \(number) added.")
    }
  }
}

extension CommandContext {
  /// Under the name todo with no configuration file, the first write says where the list
  /// now is (on standard error, so that scripts reading the output see what they always
  /// did): the user chose no place, and should not have to guess it.
  func announceNewList(_ file: String) {
    guard settings.policy.explainsWhereTheListLives, InfoCommand.configurationRead(settings) == nil else { return }
    let text = "\(programName): started a new list in \(file) ('\(programName) info' shows every path)"
    console.writeError(display(Array(text.utf8)) + [0x0A])
  }

  /// Creates the directory of a file about to be written (native mode creates the todo
  /// directory on the first write, not on every run).
  func ensureDirectory(for file: String) throws(TodoError) {
    let directory = Posix.dirname(file)
    if !Posix.isDirectory(directory), !Posix.makeDirectories(directory) { throw .notADirectory(directory) }
  }
}
