import TodoStore

#if canImport(Glibc)
  import Glibc
#endif

/// The one-shot command line: `todo [OPTIONS] ACTION [ARGUMENTS]`.
///
/// Follows todo.sh's order of work: options, configuration, sanity checks, then the action,
/// looked up first among add-ons (unless it is `command`), then among the built-in commands.
package enum TodoCLI {
  /// Runs one command line and returns the exit status.
  ///
  /// - Parameters:
  ///   - arguments: the full argument vector; `arguments[0]` is the name the tool was invoked
  ///     as, which chooses the ``Mode`` (`todo.sh` follows todo.sh exactly).
  ///   - environment: the process environment.
  ///   - shell: opens the interactive shell, for `shell` and for no action on a terminal;
  ///     `nil` where no shell can be opened (inside the shell itself).
  ///   - cache: what the shell keeps between its lines (settings, files read); `nil` loads
  ///     and reads everything afresh.
  package static func run(
    arguments: [String], environment: [String: String], console: Console, input: InputSource,
    shell: ShellLauncher? = nil, cache: SessionCache? = nil
  ) -> ExitStatus {
    let programPath = arguments.first ?? "todo"
    let mode = Mode(programPath: programPath)
    var programName = Posix.basename(programPath)
    do {
      let options: GlobalOptions
      do {
        options = try GlobalOptions.parse(Array(arguments.dropFirst()), mode: mode)
      } catch {
        throw mode.policy.namesMistakes ? error : .usage
      }
      if options.showVersion {
        console.write(Array(versionText(mode: mode).utf8))
        if mode.policy.explainsWhereTheListLives { writePaths(options, environment: environment, programPath: programPath, console: console) }
        return .success
      }
      var remaining = options.showShortHelp ? ["shorthelp"] : options.remaining
      let settings: Settings
      do {
        settings = try loadSettings(
          options, mode: mode, programPath: programPath, environment: environment, console: console, cache: cache)
      } catch {
        throw Fatal(error: error, action: remaining.first)
      }
      programName = settings.programName
      if mode.policy.readableListing { try TerminalLayout.check(settings) }
      let clock = Clock.current(environment: environment)
      let store = try makeStore(environment, clock: clock)
      // A new store for every line (its warnings and its clock are the line's), sharing the
      // files the shell's earlier lines read.
      store.readCache = cache?.reads
      let context = CommandContext(
        CommandContext(
          settings: settings, console: console, clock: clock, store: store, input: input,
          shownTasks: cache?.shownTasks ?? [:]),
        shellRequest: shell.map {
          ShellCommand.Request(launcher: $0, programPath: programPath, options: options.words, environment: environment)
        })

      // Under the name `todo`, no action on a terminal opens the shell (the view with
      // `TODO_UI=1`).
      if remaining.isEmpty, shell != nil, mode.policy.opensShellWithoutAction, input.isTerminal, console.isTerminal,
        settings.value("TODOTXT_DEFAULT_ACTION").isEmpty
      {
        remaining = [settings.value("TODO_UI") == "1" ? FullScreenCommand.spec.name : ShellCommand.spec.name]
      }
      var isDefaultAction = false
      if remaining.isEmpty {
        let defaultAction = settings.value("TODOTXT_DEFAULT_ACTION")
        guard !defaultAction.isEmpty else { throw TodoError.usage }
        remaining = [defaultAction]
        isDefaultAction = true
      }
      // Completing a command line must not create the files that running it would.
      let prepared =
        remaining[0] == CompleteCommand.spec.name ? context : try prepare(context, action: remaining[0])
      return try dispatch(prepared, remaining, isDefaultAction: isDefaultAction)
    } catch let fatal as Fatal {
      if fatal.action?.lowercased() == "help" || fatal.action?.lowercased() == "shorthelp" {
        // todo.sh shows the help it was asked for on standard error before a fatal error.
        let scratch = CapturingConsole()
        _ = HelpCommand.shortHelp(programName: programName, addons: [], console: scratch)
        console.writeError(scratch.output)
      }
      report(fatal.error, programName: programName, mode: mode, console: console)
      return .failure
    } catch let error as TodoError {
      report(error, programName: programName, mode: mode, console: console)
      return .failure
    } catch {
      console.errorLine("\(programName): \(error)")
      return .failure
    }
  }

  /// The settings of a command line (its third step): the configuration files read in
  /// todo.sh's order under the options before the action, or, in the shell, what an earlier
  /// line read when none of the files it consulted has changed since.
  static func loadSettings(
    _ options: GlobalOptions, mode: Mode, programPath: String, environment: [String: String], console: Console,
    cache: SessionCache?
  ) throws(TodoError) -> Settings {
    var loader = ConfigurationLoader(
      environment: environment, mode: mode, programPath: programPath, runner: ProcessRunner(),
      outputIsTerminal: console.isTerminal)
    loader.errorOutput = { console.writeError($0) }
    var loaded: Settings
    let key = cache.map { _ in
      SessionCache.Key(
        programPath: programPath, mode: mode, options: options.words, environment: environment,
        outputIsTerminal: console.isTerminal)
    }
    if let cache, let key, let kept = cache.settings(for: key) {
      loaded = kept
    } else {
      let consulted = cache.map { ConsultedFiles(window: $0.settleWindow) }
      loader.consulted = consulted
      loaded = try loader.load(options)
      if let cache, let key, let consulted { cache.keep(loaded, for: key, consulted: consulted) }
    }
    loaded.expectedTask = options.ifMatch
    return loaded
  }

  /// The store for this run: the undo log lives in `$XDG_STATE_HOME/todo` (else
  /// `~/.local/state/todo`), entries are stamped with the tool's clock, and another process's
  /// lock is waited for `TODO_LOCK_TIMEOUT` seconds (default 10).
  ///
  /// A `TODO_LOCK_TIMEOUT` that is not a number of seconds from 0 to a day (`abc`, `nan`,
  /// `inf`, `1e400`) is an error: it would otherwise wait for ever or silently mean 10.
  static func makeStore(_ environment: [String: String], clock: Clock) throws(TodoError) -> TodoStore {
    let stateDirectory = stateDirectory(environment)
    var timeout = 10.0
    if let text = environment["TODO_LOCK_TIMEOUT"], !text.isEmpty {
      guard let value = Double(text), value.isFinite, (0...86_400).contains(value)
      else { throw .badLockTimeout(text) }
      timeout = value
    }
    let seconds = Int64(clock.seconds)
    #if DEBUG
      // Failures and kills at chosen system calls, for the end-to-end tests: compiled into
      // debug builds only, so a shipped (release) binary never reads `TODO_FAULT`.
      let faults = environment["TODO_FAULT"].flatMap(faultInjection)
    #else
      let faults: FaultInjection? = nil
    #endif
    return TodoStore(
      lockTimeout: timeout, stateDirectory: stateDirectory, now: { seconds }, faults: faults)
  }

  /// Where the undo log and the other state of the store live: `$XDG_STATE_HOME/todo` (an
  /// absolute one), else `~/.local/state/todo`; `nil` without either.
  static func stateDirectory(_ environment: [String: String]) -> String? {
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/todo" }
    if let home = environment["HOME"], !home.isEmpty { return home + "/.local/state/todo" }
    return nil
  }

  /// `--version` under the name todo: after the version block, the paths `info` shows, so
  /// that the one thing users try first also says where the list is. The first line stays
  /// as it is (scripts read it); a configuration that cannot be read leaves the paths out.
  static func writePaths(
    _ options: GlobalOptions, environment: [String: String], programPath: String, console: Console
  ) {
    var loader = ConfigurationLoader(
      environment: environment, mode: .native, programPath: programPath, runner: ProcessRunner(),
      outputIsTerminal: false)
    loader.errorOutput = { _ in }
    guard let settings = try? loader.load(options) else { return }
    let entries = InfoCommand.entries(settings: settings, stateDirectory: stateDirectory(environment))
    console.write(Array("\nPaths (todo info):\n".utf8))
    for line in InfoCommand.lines(entries.filter { $0.name != "version" }) {
      console.line("  " + line)
    }
  }

  /// `TODO_FAULT=CALL:ERRNO[:PATH-PART]` makes the store's CALL (open, read, write, fsync,
  /// rename, unlink, flock, ftruncate, fchmod, mkdir) fail with ERRNO (a name such as ENOSPC,
  /// EROFS, EACCES, EIO, or a number) on paths containing PATH-PART. It exists so that tests
  /// can show what a full disk or a read-only file system does to the tool.
  ///
  /// `KILL@N` in place of ERRNO kills the process (SIGKILL) just before the Nth such call, to
  /// show what a crash at that instant leaves for the next run.
  static func faultInjection(_ text: String) -> FaultInjection? {
    let parts = text.split(separator: ":", maxSplits: 2).map(String.init)
    guard parts.count >= 2, let call = SystemCall(rawValue: parts[0]) else { return nil }
    if parts[1].hasPrefix("KILL@"), let n = Int(parts[1].dropFirst(5)), n > 0 {
      let part = parts.count > 2 ? parts[2] : ""
      let calls = CallCounter()
      return FaultInjection { failing, path in
        if failing == call, part.isEmpty || path.contains(part), calls.next() == n { kill(getpid(), SIGKILL) }
        return nil
      }
    }
    let names: [String: Int32] = ["ENOSPC": 28, "EROFS": 30, "EACCES": 13, "EIO": 5, "EPERM": 1, "EDQUOT": 122]
    guard let code = names[parts[1]] ?? Int32(parts[1]) else { return nil }
    let part = parts.count > 2 ? parts[2] : ""
    return FaultInjection { failing, path in
      failing == call && (part.isEmpty || path.contains(part)) ? code : nil
    }
  }

  /// A configuration error, which todo.sh reports after the help when help was asked for.
  struct Fatal: Error {
    var error: TodoError
    var action: String?
  }

  /// Writes an error where it belongs: on standard error, but todo.sh's usage, which todo.sh
  /// prints on standard output (under its name only: under the name todo a command line
  /// without an action is a mistake like any other, and a script piping the output must not
  /// read the usage as tasks).
  static func report(_ error: TodoError, programName: String, mode: Mode, console: Console) {
    let text = error.message(programName: programName)
    if error.goesToStandardOutput, !mode.policy.namesMistakes {
      console.line(text)
    } else {
      console.errorLine(text)
    }
  }

  /// The checks and file set-up todo.sh does before every action.
  ///
  /// - Returns: the context with the settings the action runs with (the files' paths filled
  ///   in, the colours a plain listing has none of emptied).
  static func prepare(_ context: CommandContext, action: String) throws -> CommandContext {
    var settings = context.settings
    let directory = settings.todoDirectory
    if settings.policy.createsFilesOnEveryRun {
      if !Posix.isDirectory(directory), !Posix.makeDirectories(directory) {
        throw Fatal(error: .notADirectory(directory), action: action)
      }
    }
    let priority = settings.priorityOnAdd
    if !priority.isEmpty, !(priority.utf8.count == 1 && priority.utf8.allSatisfy { (65...90).contains($0) }) {
      throw TodoError.badPriorityOnAdd(priority)
    }
    if settings.todoFile.isEmpty { settings["TODO_FILE"] = directory + "/todo.txt" }
    if settings.doneFile.isEmpty { settings["DONE_FILE"] = directory + "/done.txt" }
    if settings.reportFile.isEmpty { settings["REPORT_FILE"] = directory + "/report.txt" }
    if settings.policy.createsFilesOnEveryRun {
      for path in [settings.todoFile, settings.doneFile, settings.reportFile] {
        try context.storing { try context.store.createIfMissing(path) }
      }
    }
    if settings.isPlain {
      for name in settings.variables.keys where name.hasPrefix("PRI_") { settings[name] = "" }
      for name in [
        "DEFAULT", "COLOR_DONE", "COLOR_PROJECT", "COLOR_CONTEXT", "COLOR_DATE", "COLOR_NUMBER", "COLOR_META",
      ] {
        settings[name] = ""
      }
    }
    if !settings.value("HIDE_PROJECTS_SUBSTITUTION").isEmpty { settings["COLOR_PROJECT"] = "" }
    if !settings.value("HIDE_CONTEXTS_SUBSTITUTION").isEmpty { settings["COLOR_CONTEXT"] = "" }
    // An add-on or an unknown action reads the list like any other command.
    let spec = CommandRegistry.command(named: action.lowercased(), mode: settings.mode)
    context.store.refusesConflictMarkers = settings.policy.refusesConflictMarkers && !(spec?.toleratesConflictMarkers ?? false)
    return CommandContext(context, settings: settings)
  }

  /// Runs the action: an add-on when one of that name exists (unless the action is
  /// `command`), else the default action's words, else a built-in command.
  static func dispatch(_ context: CommandContext, _ words: [String], isDefaultAction: Bool) throws -> ExitStatus {
    var words = words
    var action = words[0].lowercased()
    if CommandRegistry.command(named: action, mode: context.settings.mode)?.nestsAction == true {
      words.removeFirst()
      action = words.first?.lowercased() ?? ""
      if context.settings.policy.parsesLongOptions, action == "--help" || action == "-h" {
        let help = HelpCommand.commandHelp(CommandCommand.spec, as: "command", programName: context.programName)
        context.console.write(bytes(help))
        return .success
      }
    } else if let addon = try Addons.find(action, in: context.settings.actionsDirectory) {
      return Addons.run(addon, arguments: words, context: context)
    } else if isDefaultAction {
      let defaultWords = try ShellWords.split(context.settings.value("TODOTXT_DEFAULT_ACTION"), context: context)
      let exported = context.settings.variables
      return run(
        arguments: [context.settings.programPath] + defaultWords, environment: exported, console: context.console,
        input: context.input)
    }
    guard var spec = CommandRegistry.command(named: action, mode: context.settings.mode) else {
      if context.settings.policy.namesMistakes, !action.isEmpty {
        throw TodoError.unknownAction(action, suggestion: CommandRegistry.suggestion(for: action, mode: .native))
      }
      throw TodoError.usage
    }
    var arguments = Array(words.dropFirst())
    var parsed = Invocation()
    if context.settings.policy.parsesLongOptions, !spec.hidden {
      // A subcommand is chosen by the first word and parsed with its own declaration.
      while !spec.subcommands.isEmpty, let first = arguments.first, !first.hasPrefix("-") {
        guard let chosen = spec.subcommand(named: first) else {
          throw TodoError.unknownSubcommand(
            action: action, word: first, choices: spec.subcommands.map(\.name),
            suggestion: CommandRegistry.nearest(first.lowercased(), among: spec.subcommands.flatMap(\.names)))
        }
        spec = chosen
        action += " " + chosen.name
        arguments.removeFirst()
      }
      let invocation = try Invocation.parse(arguments, for: spec, as: action)
      if invocation.wantsHelp {
        context.console.write(bytes(HelpCommand.commandHelp(spec, as: action, programName: context.programName)))
        return .success
      }
      parsed = invocation
      arguments = invocation.positionals
      // A command made of subcommands runs alone only if it says so (`resolve` lists).
      if !spec.subcommands.isEmpty, !(spec.argumentsOptional && arguments.isEmpty) { throw spec.usageError }
      // A command declared with no arguments takes no words: `todo archive 3` must not
      // archive every done task as if the 3 were not there.
      if spec.arguments.isEmpty, spec.usage.isEmpty, spec.subcommands.isEmpty, !spec.nestsAction, !arguments.isEmpty {
        throw spec.usageError
      }
    }
    let parsedContext = CommandContext(context, invocation: parsed)
    var check = try NativeValidation.check(spec, arguments, context: parsedContext)
    if let expected = context.settings.expectedTask {
      let matching = try matchCheck(expected, spec: spec, arguments: arguments, context: parsedContext)
      if spec.numbersNameTodoTasks {
        // Judged on the snapshot the command acts on, with its task numbers: one read.
        let numbers = check
        check = { list throws(TodoError) in
          try numbers?(list)
          try matching(list)
        }
      } else {
        // `mv NR FROM TO`: the command reads its own source file, so todo.txt is read here.
        let file = context.settings.todoFile
        try matching(parsedContext.readList(file))
      }
    }
    let commandContext = CommandContext(parsedContext, snapshotCheck: .some(check))
    return try commandContext.checkingSnapshots { () throws(TodoError) -> ExitStatus in try spec.call(commandContext, arguments) }
  }

  /// `--if-match`: the task the action names (its first task number) must have this exact
  /// line, body text or content hash (at least six leading hex digits), or nothing runs.
  ///
  /// - Returns: the check of a snapshot of todo.txt; what can be judged without the list (the
  ///   action names a task, the number is well formed) is judged here, before any read.
  static func matchCheck(
    _ expected: String, spec: CommandSpec, arguments: [String], context: CommandContext
  ) throws(TodoError) -> NativeValidation.ListCheck {
    guard let first = spec.arguments.first, first == .taskNumber || first == .taskNumbers,
      let item = taskNumberWords(Array(arguments.prefix(1))).first
    else { throw .nothingToMatch(spec.name) }
    let file = context.settings.todoFile
    let mode = context.settings.mode
    let reference = try TaskReference(item, usage: spec.usageError)
    let lowered = expected.lowercased()
    let isHash = lowered.count >= 6 && lowered.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    return { list throws(TodoError) in
      let task = try reference.task(in: list, file: file, mode: mode)
      let matches = task.line == expected || task.text == expected || (isHash && task.contentHash.hasPrefix(lowered))
      guard matches else { throw .taskMismatch(item: item, expected: expected, actual: task.line) }
    }
  }

  static func versionText(mode: Mode) -> String {
    """
    TODO.TXT Command Line Interface v\(TodoVersion.current)

    A todo.txt tool compatible with todo.sh, with an interactive shell.
    Format: https://github.com/todotxt/todo.txt
    Manual: man todo, man 5 todo.txt

    """
  }
}

/// The version of this tool.
package enum TodoVersion {
  package static let current = "1.0.0"
}

extension TodoCLI {
  /// Runs the process's own command line and returns its exit status.
  ///
  /// - Parameter shell: opens the interactive shell, as in
  ///   ``run(arguments:environment:console:input:shell:)``.
  package static func main(shell: ShellLauncher? = nil) -> ExitStatus {
    // A write past `ulimit -f` then fails with EFBIG and is reported like any failed write,
    // instead of the signal killing the process without a word.
    signal(SIGXFSZ, SIG_IGN)
    // Search terms that are not UTF-8 are looked for as the bytes they were given as.
    RawArguments.record(RawArguments.processArguments())
    let console = StandardConsole()
    let status = run(
      arguments: CommandLine.arguments, environment: Posix.environment(), console: console,
      input: StandardInput(), shell: shell)
    console.flush()
    if console.outputError != 0, console.outputError != EPIPE {
      let name = Posix.basename(CommandLine.arguments.first ?? "todo")
      let mode = Mode(programPath: CommandLine.arguments.first ?? "todo")
      report(.cannotWriteOutput(console.outputError), programName: name, mode: mode, console: console)
      return status == .success ? .failure : status
    }
    return status
  }
}

/// How many matching calls a `KILL@N` fault has seen (one process, one thread at a time).
private final class CallCounter: @unchecked Sendable {
  private var count = 0
  func next() -> Int {
    count += 1
    return count
  }
}
