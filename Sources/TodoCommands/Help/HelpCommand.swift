/// `help [ACTION...]` and `shorthelp`, generated from the command table.
enum HelpCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "help", usage: "[ACTION...]",
    abstract: "Show the full help, or the help of the named actions.",
    discussion: "An add-on's help is what it prints when run with the single argument usage.",
    arguments: [.action], toleratesConflictMarkers: true
  ) { context, parsed throws(TodoError) in
    let arguments = try parsed.text(0)
    let addons = Addons.list(in: context.settings.actionsDirectory)
    if arguments.isEmpty {
      // A few hundred lines: through a pager on a terminal.
      context.page(try context.capturingOutput { fullHelp(context: context, addons: addons) })
      return .success
    }
    for name in arguments {
      if let addon = addons.first(where: { $0.name == name }) {
        context.console.write(Addons.usage(addon.path, context: context))
      } else if let spec = CommandRegistry.all.first(where: {
        $0.names.contains(name) && $0.isListed(in: context.settings.mode)
      }) {
        context.console.write(bytes(block(spec, as: name, mode: context.settings.mode)))
        context.console.line("")
      } else {
        throw .noSuchAction(name)
      }
    }
    return .success
  }

  static func oneLineUsage(_ programName: String) -> String {
    "\(programName) [-fhpantvV] [-d todo_config] action [task_number] [task_description]"
  }

  /// An action's help block: its usage line, then the description indented by six spaces.
  ///
  /// Under the name todo, the block ends with the command's options, one per line.
  static func block(_ spec: CommandSpec, as name: String, mode: Mode) -> String {
    var text = "    \(name)\(spec.usage.isEmpty ? "" : " " + spec.usage)\n"
    for line in wrap(spec.description(in: mode), width: 72) { text += "      \(line)\n" }
    if mode.policy.describesOptions {
      for option in spec.options { text += optionLines(option, indent: 6) }
    }
    return text
  }

  /// `todo ACTION --help`: the usage line, the description and every option with its values.
  static func commandHelp(_ spec: CommandSpec, as name: String, programName: String) -> String {
    let options = spec.options.isEmpty ? "" : " [OPTIONS]"
    var text = "Usage: \(programName) \(name)\(options)\(spec.usage.isEmpty ? "" : " " + spec.usage)\n"
    if !spec.aliases.isEmpty {
      text += "Also: \(spec.names.filter { $0 != name }.joined(separator: ", "))\n"
    }
    text += "\n"
    // `ACTION --help` exists only under the name todo.
    for line in wrap(spec.description(in: .native), width: 76) { text += "\(line)\n" }
    if !spec.subcommands.isEmpty {
      text += "\nSubcommands:\n"
      for subcommand in spec.subcommands {
        text += "  \(subcommand.name) \(subcommand.usage)\n"
        for line in wrap(subcommand.abstract, width: 70) { text += "      \(line)\n" }
      }
      text += "See '\(programName) \(name) SUBCOMMAND --help'.\n"
    }
    text += "\nOptions:\n"
    for option in spec.options + [.help] { text += optionLines(option, indent: 2) }
    return text
  }

  /// An option's label, then its help and the values it takes, indented below it.
  static func optionLines(_ option: OptionSpec, indent: Int) -> String {
    let pad = String(repeating: " ", count: indent)
    var text = "\(pad)\(option.label)\n"
    for line in wrap(optionHelpText(option), width: 76 - indent - 4) { text += "\(pad)    \(line)\n" }
    return text
  }

  /// An option's help sentence and, when the values are a fixed set, the values.
  static func optionHelpText(_ option: OptionSpec) -> String {
    switch option.value {
    case .oneOf(let words), .listOf(let words):
      return option.help + " \(option.valueName): \(words.joined(separator: ", "))."
    case .number(let range):
      return option.help + " \(option.valueName): \(range.lowerBound) to \(range.upperBound)."
    case .none, .text, .suggested, .date, .priority, .query:
      return option.help
    }
  }

  /// Words wrapped to lines of at most `width` characters.
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var current = ""
    for word in text.split(separator: " ") {
      if !current.isEmpty, current.count + 1 + word.count > width {
        lines.append(current)
        current = ""
      }
      current += (current.isEmpty ? "" : " ") + word
    }
    if !current.isEmpty { lines.append(current) }
    return lines
  }

  static let environmentHelp: [(String, String)] = [
    ("TODO_DIR", "The directory of todo.txt, done.txt and report.txt."),
    ("TODO_FILE, DONE_FILE, REPORT_FILE", "The files themselves."),
    ("TODOTXT_AUTO_ARCHIVE", "1: move done tasks to done.txt on do (-A); 0: leave them (-a)."),
    ("TODOTXT_CFG_FILE", "The configuration file (-d)."),
    ("TODOTXT_DATE_ON_ADD", "1: date added tasks (-t)."),
    ("TODOTXT_DEFAULT_ACTION", "The action (with arguments) to run when none is given."),
    ("TODOTXT_DISABLE_FILTER", "1: skip TODOTXT_FINAL_FILTER (-x)."),
    ("TODOTXT_FINAL_FILTER", "A shell command that listings pass through last."),
    ("TODOTXT_FORCE", "1: never ask (-f)."),
    ("TODOTXT_PLAIN", "1: no colours (-p)."),
    ("TODOTXT_PRESERVE_LINE_NUMBERS", "0: remove empty lines on del and move (-n)."),
    ("TODOTXT_PRIORITY_ON_ADD", "A priority letter given to added tasks without one."),
    ("TODOTXT_SORT_COMMAND", "The shell command that sorts listings."),
    ("TODOTXT_VERBOSE", "0: quiet; 1: normal; 2: debugging lines."),
    ("TODO_TEST_TIME", "Seconds since 1970 to use as the current time."),
  ]

  static func fullHelp(context: CommandContext, addons: [(name: String, path: String)]) {
    let console = context.console
    let native = context.settings.policy.explainsWhereTheListLives
    console.line("  Usage: \(oneLineUsage(context.programName))")
    console.line("")
    console.line("  Options:")
    for entry in GlobalOptionSpec.helpEntries(mode: context.settings.mode) {
      console.line("    \(entry.label)")
      for line in wrap(entry.help, width: 72) { console.line("      \(line)") }
      if entry.option.effect == .configFile, entry.option.letter.map({ "-" + String($0) }) == entry.name {
        console.line("      Without it, the first of these that exists is read:")
        let loader = ConfigurationLoader(
          environment: context.settings.variables, mode: context.settings.mode,
          programPath: context.settings.programPath, runner: context.runner, outputIsTerminal: false)
        for candidate in loader.configurationCandidates(context.settings.variables) {
          console.line("        \(candidate)")
        }
        if native {
          // Only under the name todo: todo.sh's help stays as todo.sh prints it.
          console.line("      Without one (or one that sets no TODO_DIR), the list lives in")
          console.line("        ${XDG_DATA_HOME:-~/.local/share}/todo")
          console.line("      ('\(context.programName) info' prints the paths in use).")
        }
      }
    }
    console.line("")
    if context.settings.verbosity > 1 {
      console.line("  Environment variables:")
      for (name, text) in environmentHelp {
        console.line("    \(name)")
        for line in wrap(text, width: 72) { console.line("      \(line)") }
      }
      console.line("")
    }
    console.line("  Built-in Actions:")
    for spec in CommandRegistry.all where spec.isListed(in: context.settings.mode) {
      console.write(bytes(block(spec, as: spec.names.joined(separator: "|"), mode: context.settings.mode)))
      console.line("")
    }
    if !addons.isEmpty {
      console.line("  Add-on Actions:")
      for addon in addons { console.write(Addons.usage(addon.path, context: context)) }
    }
  }

  /// The short help: usage, one line per action, add-on summaries.
  @discardableResult
  static func shortHelp(
    programName: String, addons: [(name: String, path: String)], console: Console,
    context: CommandContext? = nil
  ) -> ExitStatus {
    console.line("  Usage: \(oneLineUsage(programName))")
    let mode = context?.settings.mode ?? .todoSh
    if mode.policy.offersNativeCommands {
      groupedActions(mode: mode, console: console)
    } else {
      console.line("")
      console.line("  Actions:")
      for spec in CommandRegistry.all where spec.isListed(in: mode) {
        console.line("    \(spec.names.joined(separator: "|"))\(spec.usage.isEmpty ? "" : " " + spec.usage)")
      }
    }
    console.line("")
    console.line("  Add or replace actions with executables in the actions directory")
    console.line("  (see \"help\" for where it is).")
    if let context, !addons.isEmpty {
      console.line("")
      console.line("  Add-on Actions:")
      for addon in addons {
        let usage = Addons.usage(addon.path, context: context)
        for line in usage.split(separator: 0x0A, omittingEmptySubsequences: false) {
          // Only an add-on's usage lines (four spaces and a letter) belong in the summary.
          if line.count > 4, line.prefix(4).allSatisfy({ $0 == 0x20 }),
            let first = line.dropFirst(4).first, (65...90).contains(first) || (97...122).contains(first)
          {
            console.line(Array(line))
          }
        }
      }
    }
    console.line("")
    console.line("  See \"help\" for more details.")
    return .success
  }
}

extension HelpCommand {
  /// The actions under a heading each, a line each: the names and what the action does (its
  /// abstract's first sentence), in columns.
  static func groupedActions(mode: Mode, console: Console) {
    let listed = CommandRegistry.all.filter { $0.isListed(in: mode) }
    let rows: [(title: String, rows: [(names: String, summary: String)])] = CommandRegistry.groups.map { group in
      (
        group.title,
        group.names.compactMap { name in
          listed.first { $0.name == name }.map { spec in
            (spec.names.joined(separator: ", "), firstSentence(spec.abstract))
          }
        }
      )
    }
    let width = rows.flatMap(\.rows).map(\.names.count).max() ?? 0
    for (title, group) in rows where !group.isEmpty {
      console.line("")
      console.line("  \(title):")
      for (names, summary) in group {
        console.line("    " + names + String(repeating: " ", count: width - names.count + 2) + summary)
      }
    }
  }

  /// `Show the tasks.` of `Show the tasks. Numbers ...`.
  static func firstSentence(_ text: String) -> String {
    var previous: Character = " "
    for index in text.indices {
      if previous == ".", text[index] == " " { return String(text[..<index]) }
      previous = text[index]
    }
    return text
  }
}

enum ShortHelpCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "shorthelp",
    abstract: "List the usage line of every built-in and add-on action.", toleratesConflictMarkers: true,
    extraWords: .ignoredUnderTodoSh
  ) { context, _ throws(TodoError) in
    HelpCommand.shortHelp(
      programName: context.programName, addons: Addons.list(in: context.settings.actionsDirectory),
      console: context.console, context: context)
  }
}
