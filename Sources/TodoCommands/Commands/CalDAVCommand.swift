import TodoStore

/// `caldav setup|sync`: the list on a phone, through a CalDAV task collection.
///
/// The network lives in a helper executable, `todo-caldav`, as git keeps its transports in
/// remote helpers: the HTTP and TLS libraries stay out of `todo`, whose every other command
/// must start in a few milliseconds. This declaration is what help, completion and the man
/// page read; running it finds the helper and hands it the subcommand, the options, the
/// environment and the list's resolved paths (`TODO_FILE`, `DONE_FILE`, `TODOTXT_CFG_FILE`).
enum CalDAVCommand {
  static let helperName = "todo-caldav"

  static let spec: CommandSpec = CommandSpec(
    name: "caldav", usage: "setup URL [--user NAME] | sync [--dry-run] [--yes]",
    abstract: "Sync the list both ways with a CalDAV task collection (a phone's reminders or tasks).",
    discussion: """
      'caldav setup URL' finds the task collection at URL (a server, an account or the \
      collection itself) and keeps its address and the user name in the configuration \
      file, never the password: it comes from TODO_CALDAV_PASSWORD_COMMAND, a netrc file or \
      a prompt. 'caldav sync' merges changes field by field: a change made on one side only \
      is taken, the same field changed differently on both keeps the server's value and \
      reports the list's (undo brings it back, the next sync sends it). Each task gets a \
      uid: tag. Exit status: 0 synced, 1 synced with conflicts or items left to report, 2 a \
      usage or configuration error, 3 the server failed, 4 the list or the sync state could \
      not be read or written, 5 refused: the sync would empty a side (--yes confirms).
      """,
    subcommands: [setupSpec, syncSpec], nativeOnly: true,
    run: CommandSpec.runningSubcommands { CalDAVCommand.spec })

  static let userOption = OptionSpec(
    ["--user"], value: .text, valueName: "NAME", help: "The account's user name (else the one in URL, if any).")
  static let dryRunOption = OptionSpec(
    ["--dry-run", "-n"], help: "Show what would change on each side and change nothing.")
  static let yesOption = OptionSpec(
    ["--yes", "-y"], help: "Go on when the sync would delete every task of one side.")

  static let setupSpec: CommandSpec = CommandSpec(
    name: "setup", usage: "URL [--user NAME]",
    abstract: "Find the task collection at URL and keep it in the configuration.",
    arguments: [.text], options: [userOption], parent: "caldav", nativeOnly: true
  ) { context, parsed throws(TodoError) in
    let arguments = parsed.words
    guard arguments.count == 1 else { throw setupSpec.usageError }
    var words = ["setup", arguments[0]]
    if let user = context.invocation.value(userOption.name) { words += ["--user", user] }
    return try runHelper(words, context: context)
  }

  static let syncSpec: CommandSpec = CommandSpec(
    name: "sync", usage: "[--dry-run] [--yes]", abstract: "Sync the list with the collection kept by setup.",
    options: [dryRunOption, yesOption], parent: "caldav", nativeOnly: true
  ) { context, parsed throws(TodoError) in
    let arguments = parsed.words
    guard arguments.isEmpty else { throw syncSpec.usageError }
    var words = ["sync"]
    if context.invocation.has(dryRunOption.name) { words.append("--dry-run") }
    if context.invocation.has(yesOption.name) { words.append("--yes") }
    return try runHelper(words, context: context)
  }

  /// Runs the helper; its exit status is the command's.
  static func runHelper(_ words: [String], context: CommandContext) throws(TodoError) -> ExitStatus {
    guard let helper = findHelper(path: context.settings.variables["PATH"] ?? "") else {
      throw .message(
        "\(context.programName): caldav needs its helper \(helperName) beside \(context.programName) or on PATH; "
          + "it was not found (make install puts it there)")
    }
    context.console.flush()
    let result = context.runner.run([helper] + words, environment: context.childEnvironment)
    return ExitStatus(rawValue: result.status)
  }

  /// The helper beside the running binary (links resolved), else the first on PATH.
  static func findHelper(path: String) -> String? {
    let running = Posix.realPath("/proc/self/exe")
    if running != "/proc/self/exe" {
      let beside = Posix.dirname(running) + "/" + helperName
      if Posix.isExecutable(beside), !Posix.isDirectory(beside) { return beside }
    }
    return ProcessRunner.which(helperName, path: path)
  }
}
