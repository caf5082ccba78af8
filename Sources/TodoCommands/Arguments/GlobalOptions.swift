/// The options that come before the action: todo.sh's `-fhpcnNaAtTvVx+@Pd:` (bundled or
/// separate, `--` ends them), and under the name `todo` also long options.
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

  /// The long options of the native command line (before the action), as help lists them.
  static let longNames: Set<String> = Set(
    HelpCommand.nativeOptionHelp.map { String($0.0.prefix { $0 != " " && $0 != "=" }) } + ["--colour"])

  /// Parses the options at the start of `arguments` (the program name already removed).
  static func parse(_ arguments: [String], mode: Mode) throws(TodoError) -> GlobalOptions {
    var options = GlobalOptions()
    var index = 0
    scan: while index < arguments.count {
      let argument = arguments[index]
      if argument == "--" {
        index += 1
        break
      }
      if mode == .native, argument.hasPrefix("--") {
        index += 1
        let (name, inlineValue) = splitLongOption(argument)
        /// The option's value: after `=`, or the next argument.
        func value() throws(TodoError) -> String {
          if let inlineValue { return inlineValue }
          guard index < arguments.count else { throw .missingOptionValue(name) }
          index += 1
          return arguments[index - 1]
        }
        switch name {
        case "--help":
          options.showShortHelp = true
          options.remaining = []
          return options
        case "--version": options.showVersion = true
        case "--plain": options.overrides["TODOTXT_PLAIN"] = "1"
        case "--force": options.overrides["TODOTXT_FORCE"] = "1"
        case "--verbose": options.verboseIncrements += 1
        case "--config": options.configFile = try value()
        case "--if-match": options.ifMatch = try value()
        case "--color", "--colour":
          let value = inlineValue ?? "always"
          guard let choice = ColorChoice(rawValue: value) else { throw .badOptionValue("--color", value) }
          options.color = choice
        default:
          throw .unknownOption(argument)
        }
        continue
      }
      guard argument.hasPrefix("-"), argument.count > 1 else { break }
      index += 1
      var letters = Substring(argument.dropFirst())
      while let letter = letters.first {
        letters.removeFirst()
        switch letter {
        case "@": options.hideContexts += 1
        case "+": options.hideProjects += 1
        case "P": options.hidePriorities += 1
        case "a": options.overrides["TODOTXT_AUTO_ARCHIVE"] = "0"
        case "A": options.overrides["TODOTXT_AUTO_ARCHIVE"] = "1"
        case "c": options.overrides["TODOTXT_PLAIN"] = "0"
        case "p": options.overrides["TODOTXT_PLAIN"] = "1"
        case "f": options.overrides["TODOTXT_FORCE"] = "1"
        case "n": options.overrides["TODOTXT_PRESERVE_LINE_NUMBERS"] = "0"
        case "N": options.overrides["TODOTXT_PRESERVE_LINE_NUMBERS"] = "1"
        case "t": options.overrides["TODOTXT_DATE_ON_ADD"] = "1"
        case "T": options.overrides["TODOTXT_DATE_ON_ADD"] = "0"
        case "x": options.overrides["TODOTXT_DISABLE_FILTER"] = "1"
        case "v": options.verboseIncrements += 1
        case "V":
          // todo.sh prints the version the moment it sees -V.
          options.showVersion = true
          return options
        case "h":
          // -h stops option parsing; everything after it is ignored.
          options.showShortHelp = true
          options.remaining = []
          return options
        case "d":
          if !letters.isEmpty {
            options.configFile = String(letters)
            letters = ""
          } else if index < arguments.count {
            options.configFile = arguments[index]
            index += 1
          } else {
            throw .missingOptionValue("-d")
          }
        default:
          throw .unknownOption("-" + String(letter))
        }
      }
      continue scan
    }
    options.remaining = Array(arguments[index...])
    return options
  }

  private static func splitLongOption(_ argument: String) -> (String, String?) {
    guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }
}
