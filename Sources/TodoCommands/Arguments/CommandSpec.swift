import TodoStore
import TodoTxt

/// One command, declared once: the parser, help, completion and man-page checks all read it.
package struct CommandSpec: Sendable {
  /// What a positional argument is, for completion and help.
  package enum ArgumentKind: Sendable, Equatable {
    case taskNumber
    case taskNumbers
    case priority
    case text
    /// The text of a task line (`add`, `append`, `replace` …): it must not be empty or span
    /// lines, and its date words become dates.
    case taskText
    case term
    /// Words of the query language (`find`, `view`), not grep terms.
    case query
    case fileName
    case action
    case priorities
    /// One of a fixed set of words (`bash`, `zsh`, `fish`).
    case choice([String])
    /// A tag key without its colon (`tag 3 due fri`).
    case tagKey
    /// A path anywhere on the file system (`attach 3 ~/scan.pdf`).
    case path
    /// A date or a duration, in one word or several (`postpone 3 next monday`, `3 days`).
    case dateOrDuration
    /// The value of the tag the word before names (`tag 3 due fri`, `tag 3 pri high`); a date
    /// may take several words.
    case tagValue
  }

  /// Which tasks a command's task numbers may name, for completion: `do` offers open tasks,
  /// `reopen` done ones.
  package enum TaskState: Sendable, Equatable { case any, open, done }

  package var name: String
  package var aliases: [String]
  /// The arguments as todo.sh's usage line shows them (`NR "TEXT TO APPEND"`).
  package var usage: String
  /// One line, in this project's own words.
  package var abstract: String
  /// More detail, in this project's own words (may be empty).
  package var discussion: String
  /// More detail that holds only under the name `todo` (priority words, date words): help
  /// shows it after the discussion there, and never under the name todo.sh, whose help
  /// stays as it was.
  package var nativeDiscussion: String
  /// The positional arguments, in order: what each is, what the parser makes of it, whether
  /// it may be left out.
  package var positionals: [Positional]
  /// What the positionals are, for completion and help.
  package var arguments: [ArgumentKind] { positionals.map(\.kind) }
  /// The positionals when one of these options is given, instead of ``positionals`` (`rec NR
  /// --preview [K]`, `do --query EXPR` with no task numbers); the first option given wins.
  package var argumentsWhenGiven: [(option: String, positionals: [Positional])]
  /// Its words are checked where the command comes to each, not all before it runs: todo.sh
  /// looks for `mv`'s files before it reads the task number, and says which is missing first.
  package var checksWordsInTurn: Bool
  /// The positionals under the name todo.sh, when they differ (`del NR [TERM]`).
  package var todoShPositionals: [Positional]?
  /// What words after the declared positionals are (``ParsedArguments/words`` keeps them).
  package var extraWords: ExtraWords

  /// What words after the declared positionals are.
  package enum ExtraWords: Sendable, Equatable {
    /// A usage error.
    case refused
    /// Left alone under the name todo.sh, as todo.sh leaves them; a usage error under the
    /// name `todo`.
    case ignoredUnderTodoSh
    /// Left alone under either name (`mv NR DEST SRC MORE`, as todo.sh; `__complete`, whose
    /// words are a command line of their own).
    case ignored
  }
  /// The options after the action (native mode; `--help` is every command's and not listed).
  package var options: [OptionSpec]
  /// The tasks completion offers for the task numbers.
  package var taskState: TaskState
  /// Commands of their own under this one (`dep add`, `dep rm`, `dep ls`), chosen by the
  /// first word after the action: each has its own arguments, options, help and run.
  package var subcommands: [CommandSpec]
  /// The command a subcommand belongs to (`dep` for `dep add`).
  package var parent: String?
  /// Runs on a list that holds merge conflict markers (it settles the conflict, or does not
  /// read the list); every other native command refuses such a list rather than number the
  /// marker lines as tasks (see ``TodoStore/refusesConflictMarkers``).
  package var toleratesConflictMarkers: Bool
  /// Its task numbers name tasks of todo.txt, and are checked on its snapshot (`move`'s name a
  /// line of another file, which the command checks itself).
  package var numbersNameTodoTasks: Bool
  /// Under the name `todo` its search terms are words found in the task text
  /// (``WordMatcher``), which any text is; elsewhere, and under the name todo.sh, a term is a
  /// grep expression, which can be malformed.
  package var termsAreWords: Bool
  /// Its task text may hold several lines, a task each (`addm`).
  package var acceptsLineBreaks: Bool
  /// Its arguments are another command line, run as a built-in action (`command`).
  package var nestsAction: Bool
  /// The positionals may all be left out (`edit` alone edits the whole file; `edit 3` one
  /// task): the check of the command line asks for them only when some are given.
  package var argumentsOptional: Bool
  /// The whole list of arguments repeats (`pri NR PRIORITY [NR PRIORITY ...]`), not only
  /// the last one: completion and the shell's renumbering read the arity from here, never
  /// from the usage text.
  package var argumentsRepeat: Bool
  /// Exists only under the name `todo` (todo.sh has no such action).
  package var nativeOnly: Bool
  /// Left out of help, short help and suggestions (`__complete`, which the completion
  /// scripts call).
  package var hidden: Bool
  /// What the command does with its typed arguments.
  package var run: @Sendable (CommandContext, ParsedArguments) throws(TodoError) -> ExitStatus
  /// The usage line of the usage error, when it is not the name and ``usage`` (`mv NR DEST
  /// [SRC]`, as todo.sh words it under either name).
  package var errorUsage: String?
  /// The usage line of the usage error under the name todo.sh, when it is todo.sh's own
  /// (`del NR [TERM]`).
  package var todoShUsage: String?

  package init(
    name: String, aliases: [String] = [], usage: String = "", abstract: String, discussion: String = "",
    nativeDiscussion: String = "",
    arguments: [Positional] = [], argumentsWhenGiven: [(option: String, positionals: [Positional])] = [], options: [OptionSpec] = [], taskState: TaskState = .any,
    subcommands: [CommandSpec] = [], parent: String? = nil, nativeOnly: Bool = false, hidden: Bool = false,
    toleratesConflictMarkers: Bool = false, argumentsOptional: Bool = false, numbersNameTodoTasks: Bool = true,
    nestsAction: Bool = false, acceptsLineBreaks: Bool = false, termsAreWords: Bool = false,
    argumentsRepeat: Bool = false, checksWordsInTurn: Bool = false, extraWords: ExtraWords = .refused,
    errorUsage: String? = nil, todoShUsage: String? = nil, todoShArguments: [Positional]? = nil,
    run: @escaping @Sendable (CommandContext, ParsedArguments) throws(TodoError) -> ExitStatus
  ) {
    self.name = name
    self.aliases = aliases
    self.usage = usage
    self.abstract = abstract
    self.discussion = discussion
    self.nativeDiscussion = nativeDiscussion
    self.positionals = arguments
    self.argumentsWhenGiven = argumentsWhenGiven
    self.checksWordsInTurn = checksWordsInTurn
    self.extraWords = extraWords
    self.errorUsage = errorUsage
    self.todoShUsage = todoShUsage
    self.todoShPositionals = todoShArguments
    self.options = options
    self.taskState = taskState
    self.subcommands = subcommands
    self.parent = parent
    self.toleratesConflictMarkers = toleratesConflictMarkers
    self.argumentsOptional = argumentsOptional
    self.numbersNameTodoTasks = numbersNameTodoTasks
    self.nestsAction = nestsAction
    self.acceptsLineBreaks = acceptsLineBreaks
    self.termsAreWords = termsAreWords
    self.argumentsRepeat = argumentsRepeat
    self.nativeOnly = nativeOnly
    self.hidden = hidden
    self.run = run
  }

  /// `usage: todo.sh <name> <usage>` as an error value.
  var usageError: TodoError { .actionUsage(usage.isEmpty ? fullName : "\(fullName) \(usage)") }

  /// The usage error under `mode`: todo.sh's own line under its name, where it differs.
  func usageError(in mode: Mode) -> TodoError {
    if let todoShUsage, !mode.policy.parsesLongOptions { return .actionUsage(todoShUsage) }
    return errorUsage.map { .actionUsage($0) } ?? usageError
  }

  /// The positionals declared for a command line with `invocation`'s options under `mode`.
  func positionals(given invocation: Invocation, mode: Mode) -> [Positional] {
    if let todoShPositionals, !mode.policy.parsesLongOptions { return todoShPositionals }
    return argumentsWhenGiven.first { invocation.has($0.option) }?.positionals ?? positionals
  }

  /// Reads `words` against the declaration and runs the command with the typed arguments.
  func call(_ context: CommandContext, _ words: [String]) throws(TodoError) -> ExitStatus {
    let arguments = try ParsedArguments.parse(
      words, for: self, invocation: context.invocation, mode: context.settings.mode, today: context.today)
    return try run(context, arguments)
  }

  /// The words that call the command: its name, after its parent's for a subcommand.
  package var fullName: String { parent.map { "\($0) \(name)" } ?? name }

  /// What the positional argument at `position` (0 for the first after the action) is, or
  /// `nil` when the command takes no more: the one rule that completion and the shell's
  /// renumbering both follow.
  ///
  /// A final text, term, task-number list or action list repeats; a command declared with
  /// ``argumentsRepeat`` (`NR PRIORITY [NR PRIORITY ...]`) repeats the whole list.
  package func kind(ofPositional position: Int) -> ArgumentKind? {
    guard let last = arguments.last else { return nil }
    if position < arguments.count { return arguments[position] }
    switch last {
    case .taskNumbers, .text, .taskText, .term, .query, .action, .dateOrDuration, .tagValue: return last
    default: return argumentsRepeat ? arguments[position % arguments.count] : nil
    }
  }

  /// What the positional at `position` is, given the positionals typed so far (`words`,
  /// which may include the one at `position`): a list of task numbers that leads other
  /// arguments (`tag NR [NR ...] KEY VALUE`) lasts as long as the words are numbers.
  package func kind(ofPositional position: Int, among words: [String]) -> ArgumentKind? {
    kind(ofPositional: position, leading: leadingTaskNumberCount(words, whole: false))
  }

  /// What the positional at `position` is when the leading list of task numbers has
  /// `leading` words.
  private func kind(ofPositional position: Int, leading: Int) -> ArgumentKind? {
    guard arguments.count > 1, arguments[0] == .taskNumbers else { return kind(ofPositional: position) }
    if position < leading { return .taskNumbers }
    return kind(ofPositional: position - max(leading, 1) + 1)
  }

  /// How many of the positionals `words` are the leading task numbers of a command that
  /// takes a list of them before other arguments: the words made of digits and commas.
  ///
  /// In a whole command line (`whole`), when a date or duration follows (`postpone`), the
  /// last of those words belongs to it if only with that word the rest reads as one:
  /// `postpone 3 2 weeks` moves task 3 by two weeks, `postpone 3 10 dec` to 10 December,
  /// `postpone 3 2` by two days. A line still being typed keeps its numbers.
  package func leadingTaskNumberCount(_ words: [String], whole: Bool) -> Int {
    guard arguments.count > 1, arguments[0] == .taskNumbers else { return 0 }
    let count = words.prefix(while: CommandSpec.looksLikeTaskNumbers).count
    guard whole, arguments[1] == .dateOrDuration, count >= 2, words[count - 1].utf8.allSatisfy({ (48...57).contains($0) }),
      !CommandSpec.readsAsDateOrDuration(words[count...].joined(separator: " ")),
      CommandSpec.readsAsDateOrDuration(words[(count - 1)...].joined(separator: " "))
    else { return count }
    return count - 1
  }

  /// Whether `text` reads as a date or a duration, on any day.
  static func readsAsDateOrDuration(_ text: String) -> Bool {
    let anyDay = TaskDate(year: 2000, month: 1, day: 1) ?? .earliest
    return (try? TypedInput.duration(text)) != nil || RelativeDate.resolve(text, today: anyDay) != nil
  }

  /// `3`, `3,4`: what a task-number word looks like before it is checked.
  static func looksLikeTaskNumbers(_ word: String) -> Bool {
    !word.isEmpty && word.utf8.allSatisfy { (48...57).contains($0) || $0 == UInt8(ascii: ",") }
  }

  /// The indices in `words` (the words after the action) of the positionals that are task
  /// numbers, skipping the declared options and their values under the name todo.
  package func taskNumberPositions(in words: [String], mode: Mode) -> [Int] {
    if let first = words.first, let chosen = subcommand(named: first) {
      return chosen.taskNumberPositions(in: Array(words.dropFirst()), mode: mode).map { $0 + 1 }
    }
    let indices = scan(words, mode: mode).positionals
    let typed = indices.map { words[$0] }
    let leading = leadingTaskNumberCount(typed, whole: true)
    return indices.enumerated().compactMap { position, index in
      let kind = kind(ofPositional: position, leading: leading)
      return kind == .taskNumber || kind == .taskNumbers ? index : nil
    }
  }

  /// Where the positionals of a line being typed stand, read leniently (nothing is refused, as
  /// the line may be half written): for completion and the shell's renumbering, which must
  /// split the words as ``Invocation/parse(_:for:as:)`` will.
  ///
  /// - Returns: the indices of the positionals in `words`; the option whose value the next
  ///   word would be; whether options may still come (no `--` yet, native mode).
  func scan(_ words: [String], mode: Mode) -> (positionals: [Int], pending: OptionSpec?, optionsOpen: Bool) {
    var positionals: [Int] = []
    var pending: OptionSpec?
    var skipsNext = false
    var optionsOpen = mode.policy.parsesLongOptions
    for (index, word) in words.enumerated() {
      if pending != nil || skipsNext {
        pending = nil
        skipsNext = false
      } else if optionsOpen, word == "--" {
        optionsOpen = false
      } else if optionsOpen, word.hasPrefix("--") {
        // A whole name or a prefix of one; the tool's own options may stand here too
        // (`ls --config FILE`); `--name=value` has its value in it.
        let (typed, inline) = GlobalOptions.splitLongOption(word)
        switch matchLongOption(typed) {
        case .one(.command(let option), _): pending = option.takesValue && inline == nil ? option : nil
        case .one(.global(let option), _): skipsNext = option.takesSeparateValue && inline == nil
        case .ambiguous, .none: break
        }
      } else if optionsOpen, let option = option(named: word) {
        pending = option.takesValue ? option : nil
      } else {
        positionals.append(index)
      }
    }
    return (positionals, pending, optionsOpen)
  }

  /// The subcommand named by `word`, if this command has one of that name.
  package func subcommand(named word: String) -> CommandSpec? {
    subcommands.first { $0.names.contains(word.lowercased()) }
  }

  /// Runs the subcommand the first word names: the run of a command made of subcommands.
  static func runningSubcommands(
    of spec: @escaping @Sendable () -> CommandSpec
  ) -> @Sendable (CommandContext, ParsedArguments) throws(TodoError) -> ExitStatus {
    { context, arguments throws(TodoError) in
      let parent = spec()
      guard let first = arguments.words.first, let chosen = parent.subcommand(named: first) else { throw parent.usageError }
      return try chosen.call(context, Array(arguments.words.dropFirst()))
    }
  }

  /// The option with this name (any of its names), if declared.
  func option(named name: String) -> OptionSpec? { options.first { $0.names.contains(name) } }

  /// The abstract and the discussion as help shows them under `mode`.
  package func description(in mode: Mode) -> String {
    var parts = [abstract, discussion]
    if mode.policy.describesOptions { parts.append(nativeDiscussion) }
    return parts.filter { !$0.isEmpty }.joined(separator: " ")
  }

  /// All names this command answers to.
  package var names: [String] { [name] + aliases }

  /// Shown in help and offered by completion under this mode.
  package func isListed(in mode: Mode) -> Bool { !hidden && (mode.policy.offersNativeCommands || !nativeOnly) }
}
