/// The options that come before the action, parsed as ``GlobalOptionSpec`` declares them:
/// todo.sh's letters (bundled or separate, `--` ends them), and under the name `todo` also
/// long options.
struct GlobalOptions: Sendable {
  /// Values that override both the environment and the configuration file (`OVR_*` in
  /// todo.sh), keyed by variable name.
  var overrides: [String: String] = [:]
  /// `-d FILE` / `--config FILE`.
  var configFile: String?
  /// How many times `-v` was given (added to the live verbosity before the config is read).
  var verboseIncrements = 0
  /// `-@`, `-+`, `-P` toggles: an odd count hides.
  var hideContexts = 0
  var hideProjects = 0
  var hidePriorities = 0
  /// `-V` / `--version`.
  var showVersion = false
  /// `-h` / `--help`: short help, ignoring everything after it.
  var showShortHelp = false
  /// `--color=always|never|auto` (native only).
  var color: ColorChoice?
  /// `--if-match TEXT-OR-HASH` (native only): the task the action names must be this one.
  var ifMatch: String?
  /// The action and its arguments.
  var remaining: [String] = []
  /// Every word that was an option of the tool or its value, before the action and after
  /// it, in order: what the shell passes on to each of its lines, and what the settings of a
  /// run depend on.
  var words: [String] = []

  enum ColorChoice: String, Sendable { case always, never, auto }

  /// Parses the options at the start of `arguments` (the program name already removed), as
  /// ``GlobalOptionSpec/all`` declares them; under the name `todo`, also the long ones after
  /// the action (``takeOptionsAfterAction(mode:)``), and a long option may be a prefix that
  /// names only it (`--col=never`).
  static func parse(_ arguments: [String], mode: Mode) throws(TodoError) -> GlobalOptions {
    var options = GlobalOptions()
    var index = 0
    scan: while index < arguments.count {
      let argument = arguments[index]
      if argument == "--" {
        index += 1
        options.words.append(argument)
        break
      }
      if mode.policy.parsesLongOptions, argument.hasPrefix("--") {
        let start = index
        index += 1
        let (typed, inlineValue) = splitLongOption(argument)
        let candidates = GlobalOptionSpec.all.filter { !$0.longNames.isEmpty }.map { ($0, $0.longNames) }
        let option: GlobalOptionSpec
        switch LongOptionMatch.match(typed, among: candidates) {
        case .one(let matched, _): option = matched
        case .ambiguous(let names): throw .ambiguousOption(option: typed, candidates: names, action: nil)
        case .none: throw .unknownOption(argument)
        }
        let value = try value(of: option, typed: typed, inline: inlineValue, next: arguments, at: &index)
        options.words += arguments[start..<index]
        if options.apply(option.effect, value: value) { return options }
        continue
      }
      guard argument.hasPrefix("-"), argument.count > 1 else { break }
      index += 1
      options.words.append(argument)
      var letters = Substring(argument.dropFirst())
      while let letter = letters.first {
        letters.removeFirst()
        guard let option = GlobalOptionSpec.option(letter: letter) else {
          throw .unknownOption("-" + String(letter))
        }
        var value: String?
        if option.takesValue {
          // The rest of the word (`-dFILE`), or else the next word.
          if !letters.isEmpty {
            value = String(letters)
            letters = ""
          } else if index < arguments.count {
            value = arguments[index]
            options.words.append(arguments[index])
            index += 1
          } else {
            throw .missingOptionValue("-" + String(letter))
          }
        }
        if options.apply(option.effect, value: value) { return options }
        // todo.sh prints the version the moment it sees -V.
        if option.effect == .version { return options }
      }
      continue scan
    }
    options.remaining = Array(arguments[index...])
    if mode.policy.parsesLongOptions { try options.takeOptionsAfterAction(mode: mode) }
    return options
  }

  /// The value of a long option typed as `typed`: after `=`, or the next word of `words`
  /// (moving `index` past it) when the option takes one there.
  private static func value(
    of option: GlobalOptionSpec, typed: String, inline: String?, next words: [String], at index: inout Int
  ) throws(TodoError) -> String? {
    if option.valueAfterEquals {
      let value = inline ?? option.defaultValue
      if let given = value, case .oneOf(let allowed) = option.value, !allowed.contains(given) {
        throw .badOptionValue(option.longNames[0], given)
      }
      return value
    }
    guard option.takesValue else {
      if inline != nil { throw .optionTakesNoValue(option.longNames.contains(typed) ? typed : option.longNames[0]) }
      return nil
    }
    if let inline { return inline }
    guard index < words.count else {
      throw .missingOptionValue(option.longNames.contains(typed) ? typed : option.longNames[0])
    }
    index += 1
    return words[index - 1]
  }

  /// Under the name `todo`, the tool's long options may also follow the action, where a
  /// person puts them (`todo ls --color=always`, `todo shell --plain`): they are taken out of
  /// ``remaining`` and applied as if they stood before it.
  ///
  /// Only the words of a built-in command are read, as its declaration parses them: an option
  /// the command declares is the command's (`del --force`), so are its values (`ls -q --plain`
  /// queries for `--plain`), a date option's words (`add --due next monday`) and everything
  /// after `--` (`add -- fix the --color flag` adds that text). An add-on, an unknown action
  /// and a hidden command get their words as typed; an ambiguous prefix is left for the
  /// command's parser to name.
  mutating func takeOptionsAfterAction(mode: Mode) throws(TodoError) {
    guard var spec = remaining.first.flatMap({ CommandRegistry.command(named: $0.lowercased(), mode: mode) }),
      !spec.hidden
    else { return }
    var index = 1
    // `command ls --plain`: the built-in action that `command` runs.
    if spec.nestsAction {
      guard index < remaining.count, let nested = CommandRegistry.command(named: remaining[index].lowercased(), mode: mode),
        !nested.hidden, !nested.nestsAction
      else { return }
      spec = nested
      index += 1
    }
    while !spec.subcommands.isEmpty, index < remaining.count, let chosen = spec.subcommand(named: remaining[index]) {
      spec = chosen
      index += 1
    }
    var kept = Array(remaining[..<index])
    while index < remaining.count {
      let word = remaining[index]
      index += 1
      if word == "--" {
        kept += remaining[(index - 1)...]
        break
      }
      kept.append(word)
      guard word.hasPrefix("-"), word.count > 1 else { continue }
      let (typed, inlineValue) = GlobalOptions.splitLongOption(word)
      if word.hasPrefix("--") {
        switch spec.matchLongOption(typed) {
        case .one(.global(let option), _):
          kept.removeLast()
          let start = index - 1
          let value = try GlobalOptions.value(of: option, typed: typed, inline: inlineValue, next: remaining, at: &index)
          words += remaining[start..<index]
          if apply(option.effect, value: value) {
            remaining = []
            return
          }
          continue
        case .one(.command(let option), _):
          index = skipValue(of: option, inline: inlineValue, from: index, into: &kept)
        case .ambiguous, .none:
          continue
        }
      } else if let option = spec.option(named: word) {
        index = skipValue(of: option, inline: nil, from: index, into: &kept)
      }
    }
    remaining = kept
  }

  /// The words of a command option's value after `index`, copied into `kept`; the index after
  /// them.
  private func skipValue(of option: OptionSpec, inline: String?, from index: Int, into kept: inout [String]) -> Int {
    guard option.takesValue, inline == nil, index < remaining.count else { return index }
    let count = option.value == .date ? Invocation.dateLength(remaining[index...]) : 1
    kept += remaining[index..<index + count]
    return index + count
  }

  /// Records what an option does; `true` when the options end here (`-h`, `--help`: short
  /// help, everything after it ignored).
  private mutating func apply(_ effect: GlobalOptionSpec.Effect, value: String?) -> Bool {
    switch effect {
    case .set(let variable, let setting): overrides[variable] = setting
    case .verbose: verboseIncrements += 1
    case .hideContexts: hideContexts += 1
    case .hideProjects: hideProjects += 1
    case .hidePriorities: hidePriorities += 1
    case .version: showVersion = true
    case .help:
      showShortHelp = true
      remaining = []
      return true
    case .configFile: configFile = value
    case .color: color = value.flatMap(ColorChoice.init(rawValue:))
    case .ifMatch: ifMatch = value
    }
    return false
  }

  static func splitLongOption(_ argument: String) -> (String, String?) {
    guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }
}
