import TodoStore
import TodoTxt

/// Completes a command line from the command table, the configuration and the files in
/// force: options and their values, actions (add-ons included), then each argument by its
/// ``CommandSpec/ArgumentKind``.
///
/// One engine answers both `todo __complete` (for the bash, zsh and fish scripts) and TAB in
/// the interactive shell, so every front end offers the same words.
package struct CompletionEngine {
  let context: CommandContext

  package init(context: CommandContext) {
    self.context = context
  }

  /// The candidates for the last word of `words`.
  ///
  /// - Parameter words: the words after the program name; the last one is the word under the
  ///   cursor and may be empty. An empty array counts as one empty word.
  /// - Returns: the candidates whose value starts with the word under the cursor, each once,
  ///   task numbers in file order and everything else sorted.
  package func complete(_ words: [String]) -> [CompletionCandidate] {
    let current = words.last ?? ""
    let before = Array(words.dropLast())
    let leading = LeadingWords(before, mode: settings.mode)
    // A configuration file is a path; the text of --if-match is the user's own.
    if let option = leading.pendingValue { return CompletionEngine.valueIsPath(option) ? paths(matching: current) : [] }
    guard let index = leading.action else {
      if !leading.optionsEnded, current.hasPrefix("-") { return options(matching: current) }
      return actions(matching: current, addons: true)
    }

    var action = before[index].lowercased()
    var arguments = Array(before[(index + 1)...])
    var builtIn = false
    if CommandRegistry.command(named: action, mode: settings.mode)?.nestsAction == true {
      guard let next = arguments.first else { return actions(matching: current, addons: false) }
      action = next.lowercased()
      arguments.removeFirst()
      builtIn = true
    }
    let isAddon = !builtIn && (try? Addons.find(action, in: settings.actionsDirectory)) != nil
    guard !isAddon, var spec = CommandRegistry.command(named: action, mode: settings.mode) else {
      return textWords(matching: current)
    }
    if spec.name == ViewCommand.spec.name, arguments.isEmpty {
      let views = ViewCommand.views(settings).map { CompletionCandidate(value: $0.name, description: $0.query) }
      return CompletionEngine.filter(views, current)
    }
    // A subcommand's name first, then what it declares.
    while !spec.subcommands.isEmpty {
      guard let first = arguments.first else {
        let names = spec.subcommands.flatMap { sub in sub.names.map { CompletionCandidate(value: $0, description: sub.abstract) } }
        return CompletionEngine.filter(names, current)
      }
      guard let chosen = spec.subcommand(named: first) else { return [] }
      spec = chosen
      arguments.removeFirst()
    }
    // Under the name todo, the declared options may stand anywhere before `--`: complete an
    // option, an option's value, or the positional the other words leave next.
    let (indices, pending, optionsOpen) = spec.scan(arguments, mode: settings.mode)
    let positionals = indices.map { arguments[$0] }
    if let option = pending { return optionValues(option, matching: current) }
    if optionsOpen, current.hasPrefix("--"), let equals = current.firstIndex(of: "="),
      case .one(.command(let option), _) = spec.matchLongOption(String(current[..<equals]))
    {
      let prefix = String(current[...equals])
      return optionValues(option, matching: String(current[current.index(after: equals)...])).map {
        CompletionCandidate(value: prefix + $0.value, description: $0.description)
      }
    }
    if optionsOpen, current.hasPrefix("--"), current.contains("="),
      case .one(.global, _) = spec.matchLongOption(String(current.prefix { $0 != "=" }))
    {
      return options(matching: current)
    }
    if optionsOpen, current.hasPrefix("--") || (current == "-" && !spec.options.isEmpty) {
      let options = spec.options + [.help]
      var candidates = options.flatMap { option in
        option.names.map { CompletionCandidate(value: $0, description: option.help) }
      }
      // The tool's own long options may follow the action too (`ls --color=always`).
      if current.hasPrefix("--") {
        let declared = Set(candidates.map(\.value))
        for entry in GlobalOptionSpec.helpEntries(mode: settings.mode) where entry.name.hasPrefix("--") {
          guard !declared.contains(entry.name) else { continue }
          candidates.append(
            CompletionCandidate(value: entry.name + (entry.option.valueAfterEquals ? "=" : ""), description: entry.help))
        }
      }
      return CompletionEngine.filter(candidates.sorted { $0.value < $1.value }, current)
    }
    guard let kind = spec.kind(ofPositional: positionals.count, among: positionals + [current]) else { return [] }
    if kind == .tagValue { return tagCommandValues(matching: current, after: positionals, spec: spec) }
    return complete(current, as: kind, after: positionals, state: spec.taskState)
  }

  /// The values an option takes that start with `current`; for a comma-separated list, the
  /// next key after the ones already typed.
  private func optionValues(_ option: OptionSpec, matching current: String) -> [CompletionCandidate] {
    switch option.value {
    case .listOf(let words):
      let typed = current.lastIndex(of: ",").map { String(current[...$0]) } ?? ""
      let last = String(current.dropFirst(typed.count))
      let sign = last.hasPrefix("-") ? "-" : ""
      let candidates = words.map { CompletionCandidate(value: typed + sign + $0) }
      return CompletionEngine.filter(candidates, current)
    case .oneOf, .suggested, .priority:
      return CompletionEngine.filter(option.value.words.map { CompletionCandidate(value: $0) }, current)
    case .date:
      let today = context.today
      return CompletionEngine.filter(
        option.value.words.map {
          CompletionCandidate(value: $0, description: RelativeDate.resolve($0, today: today)?.description)
        }, current)
    case .none, .text, .number, .query:
      return []
    }
  }

  private var settings: Settings { context.settings }

  private func complete(
    _ current: String, as kind: CommandSpec.ArgumentKind, after arguments: [String], state: CommandSpec.TaskState
  ) -> [CompletionCandidate] {
    switch kind {
    case .taskNumber:
      return taskNumbers(matching: current, excluding: [], state: state)
    case .taskNumbers:
      return taskNumbers(matching: current, excluding: Set(arguments), state: state)
    case .tagKey:
      return tagKeys(matching: current)
    case .path:
      return paths(matching: current)
    case .priority:
      return priorities(matching: current, words: settings.policy.resolvesTypedValues)
    case .priorities:
      if current.hasPrefix("+") || current.hasPrefix("@") { return textWords(matching: current) }
      return priorities(matching: current, words: settings.policy.resolvesTypedValues)
    case .text, .taskText, .term, .query, .tagValue:
      return textWords(matching: current)
    case .fileName:
      return todoDirectoryFiles(matching: current)
    case .action:
      return actions(matching: current, addons: true)
    case .choice(let choices):
      return CompletionEngine.filter(choices.map { CompletionCandidate(value: $0) }, current)
    case .dateOrDuration:
      // The first word of a date or duration; later words are the user's.
      guard arguments.last.map(CommandSpec.looksLikeTaskNumbers) ?? true else { return [] }
      let today = context.today
      let words = OptionSpec.Value.dateWords + ["1d", "1w", "1m"]
      return CompletionEngine.filter(
        words.map { CompletionCandidate(value: $0, description: RelativeDate.resolve($0, today: today)?.description) },
        current)
    }
  }

  // MARK: Options

  /// ``GlobalOptionSpec/takesSeparateValue(_:mode:)``.
  /// The options before the action (``GlobalOptionSpec/all``), or the value after a long
  /// option's `=`.
  /// Whether the value that follows `word` (an option before the action) is a path.
  static func valueIsPath(_ word: String) -> Bool {
    if word.hasPrefix("--") { return GlobalOptionSpec.option(long: word)?.valueIsPath == true }
    return word.dropFirst().contains { GlobalOptionSpec.option(letter: $0)?.valueIsPath == true }
  }

  private func options(matching current: String) -> [CompletionCandidate] {
    let mode = settings.mode
    if mode.policy.parsesLongOptions, let equals = current.firstIndex(of: "=") {
      let name = String(current[..<equals])
      guard let option = GlobalOptionSpec.option(long: name) else { return [] }
      let typed = String(current[current.index(after: equals)...])
      let values: [CompletionCandidate]
      if option.valueIsPath {
        values = paths(matching: typed)
      } else {
        let words = option.value.words
        values = words.indices.map {
          CompletionCandidate(value: words[$0], description: $0 < option.valueHelp.count ? option.valueHelp[$0] : nil)
        }
      }
      return CompletionEngine.filter(
        values.map { CompletionCandidate(value: name + "=" + $0.value, description: $0.description) }, current)
    }
    let candidates = GlobalOptionSpec.helpEntries(mode: mode).map { entry in
      CompletionCandidate(value: entry.name + (entry.option.valueAfterEquals ? "=" : ""), description: entry.help)
    }
    return CompletionEngine.filter(candidates, current)
  }

  /// Paths for an option's file value, relative to the working directory; directories end in
  /// `/` so that completing can go on inside them.
  private func paths(matching current: String) -> [CompletionCandidate] {
    let slash = current.lastIndex(of: "/")
    let directoryPart = slash.map { String(current[...$0]) } ?? ""
    let directory = directoryPart.isEmpty ? "." : directoryPart
    guard let names = Posix.listDirectory(directory) else { return [] }
    let namePrefix = slash.map { String(current[current.index(after: $0)...]) } ?? current
    var candidates: [CompletionCandidate] = []
    for name in names
    where name.hasPrefix(namePrefix) && (namePrefix.hasPrefix(".") || !name.hasPrefix(".")) {
      let isDirectory = Posix.isDirectory(directory + "/" + name)
      candidates.append(CompletionCandidate(value: directoryPart + name + (isDirectory ? "/" : "")))
    }
    return candidates.sorted { $0.value < $1.value }
  }

  // MARK: Actions

  /// Built-in actions and their aliases (as listed in help), and add-ons unless `addons` is
  /// false (after `command`, which runs only built-ins).
  private func actions(matching current: String, addons: Bool) -> [CompletionCandidate] {
    var byName: [String: CompletionCandidate] = [:]
    for spec in CommandRegistry.all where spec.isListed(in: settings.mode) {
      for name in spec.names {
        byName[name] = CompletionCandidate(value: name, description: spec.abstract)
      }
    }
    if addons {
      for addon in Addons.list(in: settings.actionsDirectory) {
        byName[addon.name] = CompletionCandidate(value: addon.name, description: "add-on")
      }
    }
    return CompletionEngine.filter(byName.values.sorted { $0.value < $1.value }, current)
  }

  // MARK: Task data

  private var todoFile: String {
    settings.todoFile.isEmpty ? settings.todoDirectory + "/todo.txt" : settings.todoFile
  }

  private var doneFile: String {
    settings.doneFile.isEmpty ? settings.todoDirectory + "/done.txt" : settings.doneFile
  }

  private func list(_ path: String) -> TodoList {
    (try? context.readList(path)) ?? TodoList()
  }

  /// The numbers of the tasks in the todo file, with the task as description.
  private func taskNumbers(matching current: String, excluding taken: Set<String>, state: CommandSpec.TaskState)
    -> [CompletionCandidate]
  {
    let list = list(todoFile)
    var candidates: [CompletionCandidate] = []
    // Under the name todo.sh, every task, as todo.sh's own completion offers.
    let state = settings.policy.completesByTaskState ? state : .any
    for index in 0..<list.count {
      let task = list[index]
      let number = String(index + 1)
      guard !task.isBlank, number.hasPrefix(current), !taken.contains(number) else { continue }
      if state == .open, task.isCompleted { continue }
      if state == .done, !task.isCompleted { continue }
      candidates.append(CompletionCandidate(value: number, description: task.line))
    }
    return candidates
  }

  /// The letters A to Z, and under the name `todo` (`words`) the words that name A, B and C.
  private func priorities(matching current: String, words: Bool = false) -> [CompletionCandidate] {
    let letters = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) }
    let typed = current.uppercased()
    let named = words
      ? Priority.Level.allCases.filter { $0.rawValue.hasPrefix(current.lowercased()) }.map {
        CompletionCandidate(value: $0.rawValue, description: $0.priority.description)
      } : []
    return letters.filter { $0.hasPrefix(typed) }.map { CompletionCandidate(value: $0) } + named
  }

  /// Files in the todo directory, for the actions that name one (`addto`, `move`, `listfile`).
  private func todoDirectoryFiles(matching current: String) -> [CompletionCandidate] {
    let directory = settings.todoDirectory
    guard let names = Posix.listDirectory(directory) else { return [] }
    let files = names.filter { !$0.hasPrefix(".") && Posix.isRegularFile(directory + "/" + $0) }
    return CompletionEngine.filter(files.sorted().map { CompletionCandidate(value: $0) }, current)
  }

  // MARK: Words inside task text

  /// The tag keys with a meaning to this tool, with what completion shows beside them.
  static let knownKeys: [(String, String)] = TagMeaning.all.map { ($0.key, $0.summary) }

  /// A word of task text or of a search term: `+project`, `@context`, `key:` or `key:value`.
  private func textWords(matching current: String) -> [CompletionCandidate] {
    if current.hasPrefix("+") || current.hasPrefix("@") {
      var names = Set<String>()
      for path in [todoFile, doneFile] {
        let index = TodoIndex(list(path))
        names.formUnion(current.hasPrefix("+") ? index.projects.keys : index.contexts.keys)
      }
      let sigil = String(current.prefix(1))
      return CompletionEngine.filter(
        names.sorted().map { CompletionCandidate(value: sigil + $0) }, current)
    }
    if let colon = current.firstIndex(of: ":") {
      return tagValues(
        key: String(current[..<colon]), typed: String(current[current.index(after: colon)...]))
    }
    guard !current.isEmpty else { return [] }
    var keys: [String: String?] = [:]
    for (key, description) in CompletionEngine.knownKeys { keys[key] = description }
    for path in [todoFile, doneFile] {
      for key in TodoIndex(list(path)).tagKeys.keys where keys[key] == nil {
        keys[key] = .some(nil)
      }
    }
    let candidates = keys.map { CompletionCandidate(value: $0.key + ":", description: $0.value) }
    return CompletionEngine.filter(candidates.sorted { $0.value < $1.value }, current)
  }

  /// Tag keys alone, for the KEY of `tag NR KEY VALUE`: the keys with a meaning and those
  /// the lists use.
  private func tagKeys(matching current: String) -> [CompletionCandidate] {
    var keys: [String: String?] = [:]
    for (key, description) in CompletionEngine.knownKeys { keys[key] = description }
    for path in [todoFile, doneFile] {
      for key in TodoIndex(list(path)).tagKeys.keys where keys[key] == nil { keys[key] = .some(nil) }
    }
    let candidates = keys.map { CompletionCandidate(value: $0.key, description: $0.value) }
    return CompletionEngine.filter(candidates.sorted { $0.value < $1.value }, current)
  }

  private func tagValues(key: String, typed: String) -> [CompletionCandidate] {
    let today = context.today
    guard let meaning = TagMeaning.named(key)?.value else { return [] }
    if meaning == .date {
      // A complete relative date turns into the date it stands for, as the file stores it.
      let extended = dateWords.filter { $0.value.hasPrefix(typed) && $0.value != typed }
      // Under the name todo.sh, as todo.sh's words were before phrases: one word.
      let resolved =
        settings.policy.resolvesTypedValues
        ? RelativeDate.resolve(typed, today: today) : RelativeDate.oneWord(typed.lowercased(), today: today)
      if extended.isEmpty, TaskDate(typed) == nil, let date = resolved {
        return [CompletionCandidate(value: key + ":" + date.description, description: typed)]
      }
    }
    // In the text of a task a priority word stays a word: only the letters are offered.
    let values = meaning == .priority ? priorities(matching: "") : tagValueCandidates(meaning, typed: typed)
    let prefixed = values.map {
      CompletionCandidate(value: key + ":" + $0.value, description: $0.description)
    }
    return CompletionEngine.filter(prefixed, key + ":" + typed)
  }

  /// The words a date is offered as, with the date each stands for today.
  private var dateWords: [CompletionCandidate] {
    let today = context.today
    // The phrases glued into one word are read only under the name todo.
    let phrases = settings.policy.resolvesTypedValues ? ["next-week", "weekend"] : []
    let words = ["today", "tomorrow"] + Weekday.allCases.map(\.name) + phrases + ["+1d", "+1w", "+1m", "eow", "eom"]
    return words.map { CompletionCandidate(value: $0, description: RelativeDate.resolve($0, today: today)?.description) }
  }

  /// The values a tag of this meaning takes, as completion offers them (not yet filtered by
  /// what is typed, but for a recurrence, whose count is taken from it).
  private func tagValueCandidates(_ meaning: TagMeaning.Value, typed: String) -> [CompletionCandidate] {
    switch meaning {
    case .date:
      return dateWords
    case .recurrence:
      let units: [(String, String)] = [
        ("d", "days"), ("w", "weeks"), ("m", "months"), ("y", "years"), ("b", "business days"),
      ]
      let strict = typed.hasPrefix("+")
      let digits = strict ? typed.dropFirst() : Substring(typed)
      let count =
        digits.allSatisfy({ $0.isASCII && $0.isNumber }) && !digits.isEmpty ? String(digits) : "1"
      let from = strict ? "after the due date" : "after completion"
      return units.map { unit, name in
        CompletionCandidate(
          value: (strict ? "+" : "") + count + unit,
          description: "\(count) \(count == "1" ? String(name.dropLast()) : name) \(from)")
      }
    case .priority:
      return priorities(matching: "", words: settings.policy.resolvesTypedValues)
    case .flag:
      return [CompletionCandidate(value: "1", description: "hide the task from listings")]
    default:
      return []
    }
  }

  /// The VALUE of `tag NR KEY VALUE`, by what the key means: dates, priorities (with their
  /// words under the name todo), recurrences. Only its first word: a date phrase's next
  /// words are the user's.
  private func tagCommandValues(matching current: String, after positionals: [String], spec: CommandSpec) -> [CompletionCandidate] {
    let leading = spec.leadingTaskNumberCount(positionals, whole: false)
    guard positionals.count == leading + 1, let meaning = TagMeaning.named(positionals[leading])?.value else { return [] }
    return CompletionEngine.filter(tagValueCandidates(meaning, typed: current), current)
  }

  /// The candidates that start with `current`, each value once, in the given order.
  static func filter(_ candidates: [CompletionCandidate], _ current: String)
    -> [CompletionCandidate]
  {
    var seen = Set<String>()
    return candidates.filter { $0.value.hasPrefix(current) && seen.insert($0.value).inserted }
  }
}
