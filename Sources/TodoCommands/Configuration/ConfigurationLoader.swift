import TodoStore
/// Builds the ``Settings`` the way todo.sh does: environment, then options, then the
/// configuration file (a bash script, so bash reads it), then the saved environment and
/// option values written back over it.
struct ConfigurationLoader {
  var environment: [String: String]
  var mode: Mode
  /// The path the tool was invoked as (`$0`).
  var programPath: String
  var runner: ProcessRunner
  /// Standard output is a terminal (native colour default).
  var outputIsTerminal: Bool
  /// Where the configuration file's own error output goes.
  var errorOutput: ([UInt8]) -> Void = { _ in }
  /// Notes every file and directory the settings depend on (for the shell's cache).
  var consulted: ConsultedFiles?

  /// The variables whose environment value survives the configuration file.
  static let overridable = [
    "TODOTXT_AUTO_ARCHIVE", "TODOTXT_FORCE", "TODOTXT_PRESERVE_LINE_NUMBERS", "TODOTXT_PLAIN",
    "TODOTXT_DATE_ON_ADD", "TODOTXT_PRIORITY_ON_ADD", "TODOTXT_DISABLE_FILTER", "TODOTXT_VERBOSE",
    "TODOTXT_DEFAULT_ACTION", "TODOTXT_SORT_COMMAND", "TODOTXT_FINAL_FILTER",
  ]

  static let defaultSortCommand = "env LC_COLLATE=C sort -f -k2"

  /// todo.sh's colour names and their values (a doubled backslash, as todo.sh stores them;
  /// the list renderer turns backslashes + `033` into ESC).
  static let colorMap: [(String, String)] = [
    ("NONE", ""), ("BLACK", "\\\\033[0;30m"), ("RED", "\\\\033[0;31m"), ("GREEN", "\\\\033[0;32m"),
    ("BROWN", "\\\\033[0;33m"), ("BLUE", "\\\\033[0;34m"), ("PURPLE", "\\\\033[0;35m"),
    ("CYAN", "\\\\033[0;36m"), ("LIGHT_GREY", "\\\\033[0;37m"), ("DARK_GREY", "\\\\033[1;30m"),
    ("LIGHT_RED", "\\\\033[1;31m"), ("LIGHT_GREEN", "\\\\033[1;32m"), ("YELLOW", "\\\\033[1;33m"),
    ("LIGHT_BLUE", "\\\\033[1;34m"), ("LIGHT_PURPLE", "\\\\033[1;35m"), ("LIGHT_CYAN", "\\\\033[1;36m"),
    ("WHITE", "\\\\033[1;37m"), ("DEFAULT", "\\\\033[0m"),
  ]

  /// The position of `needle` in `haystack`.
  static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard needle.count <= haystack.count else { return nil }
    for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
      if haystack[start..<(start + needle.count)].elementsEqual(needle) { return start }
    }
    return nil
  }

  /// Where todo.sh looks for a configuration file, in order.
  func configurationCandidates(_ variables: [String: String]) -> [String] {
    let home = variables["HOME"] ?? ""
    let xdg = variables["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
    return [
      home + "/.todo/config",
      home + "/todo.cfg",
      home + "/.todo.cfg",
      xdg + "/todo/config",
      Posix.dirname(programPath) + "/todo.cfg",
      variables["TODOTXT_GLOBAL_CFG_FILE"] ?? "/etc/todo/config",
    ]
  }

  /// The settings, or the error todo.sh would stop with.
  ///
  /// - Parameter action: the action about to run, for the help todo.sh prints before a fatal
  ///   configuration error.
  func load(_ options: GlobalOptions) throws(TodoError) -> Settings {
    var vars = environment
    vars["TODO_SH"] = Posix.basename(programPath)
    vars["TODO_FULL_SH"] = programPath

    var overrides: [String: String] = [:]
    for name in ConfigurationLoader.overridable {
      if let value = environment[name], !value.isEmpty { overrides[name] = value }
    }
    for (name, value) in options.overrides { overrides[name] = value }
    if options.verboseIncrements > 0 {
      vars["TODOTXT_VERBOSE"] = String((Int(vars["TODOTXT_VERBOSE"] ?? "") ?? 0) + options.verboseIncrements)
    }
    func toggle(_ count: Int, _ name: String, _ pattern: String) {
      guard count > 0 else { return }
      vars[name] = count % 2 == 1 ? pattern : nil
    }
    toggle(options.hideContexts, "HIDE_CONTEXTS_SUBSTITUTION", "[[:space:]]@[[:graph:]]\\{1,\\}")
    toggle(options.hideProjects, "HIDE_PROJECTS_SUBSTITUTION", "[[:space:]][+][[:graph:]]\\{1,\\}")
    toggle(options.hidePriorities, "HIDE_PRIORITY_SUBSTITUTION", "([A-Z])[[:space:]]")

    let policy = mode.policy
    var nativePlain = "0"
    if policy.colourFollowsTerminal {
      switch options.color {
      case .always?: nativePlain = "0"
      case .never?: nativePlain = "1"
      case .auto?, nil:
        let noColor = !(vars["NO_COLOR"] ?? "").isEmpty
        nativePlain = outputIsTerminal && !noColor && vars["TERM"] != "dumb" ? "0" : "1"
      }
      if options.color == .always { overrides["TODOTXT_PLAIN"] = overrides["TODOTXT_PLAIN"] ?? "0" }
      if options.color == .never { overrides["TODOTXT_PLAIN"] = "1" }
    }
    let defaults: [(String, String)] = [
      ("TODOTXT_VERBOSE", "1"), ("TODOTXT_PLAIN", policy.colourFollowsTerminal ? nativePlain : "0"), ("TODOTXT_FORCE", "0"),
      ("TODOTXT_PRESERVE_LINE_NUMBERS", "1"), ("TODOTXT_AUTO_ARCHIVE", policy.autoArchivesByDefault ? "1" : "0"),
      ("TODOTXT_DATE_ON_ADD", policy.datesNewTasksByDefault ? "1" : "0"), ("TODOTXT_PRIORITY_ON_ADD", ""), ("TODOTXT_DEFAULT_ACTION", ""),
      ("TODOTXT_SORT_COMMAND", ConfigurationLoader.defaultSortCommand), ("TODOTXT_DISABLE_FILTER", ""),
      ("TODOTXT_FINAL_FILTER", "cat"), ("TODOTXT_GLOBAL_CFG_FILE", "/etc/todo/config"),
      ("TODOTXT_SIGIL_BEFORE_PATTERN", ""), ("TODOTXT_SIGIL_VALID_PATTERN", ".*"), ("TODOTXT_SIGIL_AFTER_PATTERN", ""),
    ]
    for (name, value) in defaults where (vars[name] ?? "").isEmpty { vars[name] = value }
    for (name, value) in ConfigurationLoader.colorMap { vars[name] = value }
    vars["PRI_A"] = vars["YELLOW"]
    vars["PRI_B"] = vars["GREEN"]
    vars["PRI_C"] = vars["LIGHT_BLUE"]
    vars["PRI_X"] = vars["WHITE"]
    for name in ["COLOR_PROJECT", "COLOR_CONTEXT", "COLOR_DATE", "COLOR_NUMBER", "COLOR_META"] { vars[name] = "" }
    vars["COLOR_DONE"] = vars["LIGHT_GREY"]
    if policy.highlightsProjectsAndContexts {
      // Under the name todo: projects and contexts stand out, done tasks are faint.
      vars["COLOR_PROJECT"] = "\\\\033[0;36m"
      vars["COLOR_CONTEXT"] = "\\\\033[0;32m"
      vars["COLOR_DONE"] = "\\\\033[2m"
    }
    vars["SENTENCE_DELIMITERS"] = ",.:;"
    vars["GREP_OPTIONS"] = ""

    // The configuration file: the one named, if it exists; otherwise the first that exists.
    var configFile = options.configFile ?? vars["TODOTXT_CFG_FILE"] ?? ""
    if options.configFile != nil { vars["TODOTXT_CFG_FILE"] = configFile }
    let candidates = configurationCandidates(vars)
    if let consulted {
      for path in [configFile] + candidates { consulted.file(path) }
    }
    // Under the name todo a file named with -d is the one read: one that is not there is a
    // mistake to name (todo.sh reads the first of the others instead, and says nothing).
    if options.configFile != nil, policy.namesMistakes, !Posix.exists(configFile) {
      throw .cannotReadConfiguration(configFile)
    }
    if !Posix.exists(configFile) {
      if let found = candidates.first(where: Posix.exists) {
        configFile = found
        vars["TODOTXT_CFG_FILE"] = found
      }
    }

    resolveActionsDirectory(&vars)

    if Posix.exists(configFile), Posix.isReadable(configFile) {
      vars = try evaluate(configFile, with: vars)
    } else if !policy.worksWithoutConfiguration {
      throw .cannotReadConfiguration(configFile.isEmpty ? candidates[0] : configFile)
    }
    // Under the name todo, a configuration that names no TODO_DIR (one that only defines
    // views, say), or none at all, keeps the documented default place: an empty TODO_DIR
    // would put the list at /todo.txt.
    if policy.worksWithoutConfiguration, (vars["TODO_DIR"] ?? "").isEmpty {
      let home = vars["HOME"] ?? "."
      let data = vars["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/share"
      vars["TODO_DIR"] = data + "/todo"
    }

    for (name, value) in overrides { vars[name] = value }
    return Settings(mode: mode, variables: vars)
  }

  /// todo.sh's add-on directory rule, decided before the configuration (which may change it).
  private func resolveActionsDirectory(_ vars: inout [String: String]) {
    let home = vars["HOME"] ?? ""
    if let consulted {
      let xdg = vars["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
      let tried = [
        vars["TODO_ACTIONS_DIR"] ?? "", home + "/.todo/actions", home + "/.todo.actions.d", xdg + "/todo/actions",
      ]
      for path in tried { consulted.directory(path) }
    }
    if (vars["TODO_ACTIONS_DIR"] ?? "").isEmpty || !Posix.isDirectory(vars["TODO_ACTIONS_DIR"] ?? "") {
      vars["TODO_ACTIONS_DIR"] = home + "/.todo/actions"
    }
    if !Posix.isDirectory(vars["TODO_ACTIONS_DIR"] ?? "") {
      let xdg = vars["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
      for alternative in [home + "/.todo.actions.d", xdg + "/todo/actions"] where Posix.isDirectory(alternative) {
        vars["TODO_ACTIONS_DIR"] = alternative
        break
      }
    }
  }

  /// Runs the configuration file in bash with `vars` as its environment and returns the
  /// variables it leaves. Every assignment is exported (`set -a`), as sourcing it inside
  /// todo.sh would make it visible; the file's own output still reaches the user.
  ///
  /// Its error output is collected and passed on; under the name `todo` a file that fails (a
  /// syntax error, a command that is not found as its last step) stops the tool with the
  /// first line of bash's message, instead of running on half a configuration.
  private func evaluate(_ path: String, with vars: [String: String]) throws(TodoError) -> [String: String] {
    if mode.policy.strictConfiguration, !Posix.isRegularFile(path) {
      throw .configurationFailed(path: path, detail: "not a regular file")
    }
    if let bytes = Posix.readFile(path), bytes.count < 65_536,
      let text = String(validating: bytes, as: UTF8.self),
      let evaluated = SimpleShellConfiguration.evaluate(text, variables: vars)
    {
      return evaluated
    }
    let marker = "\u{0}\u{0}todo-configuration-status "
    let script = "set -a; . \"$1\" 2>&3; printf '\\0\\0todo-configuration-status %d\\0' \"$?\" >&3; env -0 >&3"
    let result = runner.run(
      ["bash", "-c", script, programPath, path], environment: vars, captureOutput: true, outputDescriptor: 3)
    let markerBytes = Array(marker.utf8)
    guard let split = ConfigurationLoader.find(markerBytes, in: result.output) else {
      throw .cannotEvaluateConfiguration(path)
    }
    let errors = Array(result.output[..<split])
    var rest = result.output[(split + markerBytes.count)...]
    let statusEnd = rest.firstIndex(of: 0) ?? rest.endIndex
    let status = Int(String(decoding: rest[..<statusEnd], as: UTF8.self)) ?? 0
    rest = rest[min(statusEnd + 1, rest.endIndex)...]
    if status != 0, mode.policy.strictConfiguration {
      let firstLine = errors.split(separator: 0x0A).first.map { String(decoding: $0, as: UTF8.self) }
      throw .configurationFailed(path: path, detail: firstLine ?? "it ended with status \(status)")
    }
    if !errors.isEmpty {
      errorOutput(errors)
      // A configuration that complains does so on every line, as on every command line.
      consulted?.isReusable = false
    }
    let output = Array(rest)
    var evaluated: [String: String] = [:]
    for entry in output.split(separator: 0) {
      guard let equals = entry.firstIndex(of: UInt8(ascii: "=")) else { continue }
      let name = String(decoding: entry[entry.startIndex..<equals], as: UTF8.self)
      // Bash's own bookkeeping is not configuration.
      if name == "_" || name == "SHLVL" || name.hasPrefix("BASH_FUNC_") {
        if let original = vars[name] { evaluated[name] = original }
        continue
      }
      evaluated[name] = String(decoding: entry[(equals + 1)...], as: UTF8.self)
    }
    return evaluated
  }
}
