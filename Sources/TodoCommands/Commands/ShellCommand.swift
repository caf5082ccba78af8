/// What the interactive shell starts from: the context of the command line that opened it,
/// and the words to put in front of every line it runs.
package struct ShellLaunch {
  /// The settings, console, clock, store and input of the opening command line.
  package let context: CommandContext
  /// `arguments[0]` of the opening command line, which chooses the mode of every line.
  package let programPath: String
  /// The options given before `shell` (`-d FILE`, `-p`), applied to every line.
  package let options: [String]
  /// The process environment, read again by every line.
  package let environment: [String: String]

  package init(
    context: CommandContext, programPath: String, options: [String], environment: [String: String]
  ) {
    self.context = context
    self.programPath = programPath
    self.options = options
    self.environment = environment
  }
}

/// Runs the interactive shell and returns the status to exit with.
///
/// The shell lives above this layer (it needs a line editor), so the executable hands it in.
package typealias ShellLauncher = (ShellLaunch) -> ExitStatus

/// `shell`: reads actions from a prompt, one per line, until `quit`, `exit` or end of input.
enum ShellCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "shell",
    abstract: "Start the interactive shell.",
    discussion:
      "Each line is one command line without the program name. Without a terminal, lines are read in batch mode.",
    nativeOnly: true, toleratesConflictMarkers: true
  ) { context, arguments throws(TodoError) in
    guard arguments.isEmpty else { throw spec.usageError }
    guard let request = context.shellRequest else {
      throw .message("\(context.programName): the interactive shell is already running")
    }
    context.shellRequest = nil
    return request.launcher(
      ShellLaunch(
        context: context, programPath: request.programPath, options: request.options,
        environment: request.environment))
  }

  /// Everything `shell` needs beyond the context, kept by the command line that may open it.
  struct Request {
    var launcher: ShellLauncher
    var programPath: String
    var options: [String]
    var environment: [String: String]
  }
}
