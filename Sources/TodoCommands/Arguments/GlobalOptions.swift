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

  enum ColorChoice: String, Sendable { case always, never, auto }

  /// Parses the options at the start of `arguments` (the program name already removed), as
  /// ``GlobalOptionSpec/all`` declares them.
  static func parse(_ arguments: [String], mode: Mode) throws(TodoError) -> GlobalOptions {
    var options = GlobalOptions()
    var index = 0
    scan: while index < arguments.count {
      let argument = arguments[index]
      if argument == "--" {
        index += 1
        break
      }
      if mode.policy.parsesLongOptions, argument.hasPrefix("--") {
        index += 1
        let (name, inlineValue) = splitLongOption(argument)
        guard let option = GlobalOptionSpec.option(long: name) else { throw .unknownOption(argument) }
        var value: String?
        if option.valueAfterEquals {
          value = inlineValue ?? option.defaultValue
          if let given = value, case .oneOf(let words) = option.value, !words.contains(given) {
            throw .badOptionValue(option.longNames[0], given)
          }
        } else if option.takesValue {
          if let inlineValue {
            value = inlineValue
          } else {
            guard index < arguments.count else { throw .missingOptionValue(name) }
            value = arguments[index]
            index += 1
          }
        }
        if options.apply(option.effect, value: value) { return options }
        continue
      }
      guard argument.hasPrefix("-"), argument.count > 1 else { break }
      index += 1
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
    return options
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

  private static func splitLongOption(_ argument: String) -> (String, String?) {
    guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }
}
