import TodoCommands

/// The `shell` action: line editing with history and completion on a terminal, batch mode
/// (lines from standard input, no prompt) otherwise.
package enum InteractiveShell {
  /// Runs the shell and returns the status to exit with; fits ``ShellLauncher``.
  package static func run(_ launch: ShellLaunch) -> ExitStatus {
    let context = launch.context
    guard context.input.isTerminal else {
      return REPLSession(
        launch: launch, reader: BatchLineReader(input: context.input), interactive: false
      ).run()
    }
    let completer = ShellCompleter(context: context)
    let reader = ReadlineLineReader(
      programName: context.settings.programName,
      historyFile: HistoryFile.path(environment: launch.environment),
      historyLimit: HistoryFile.limit, completer: completer.complete)
    return REPLSession(launch: launch, reader: reader, interactive: true).run()
  }
}
