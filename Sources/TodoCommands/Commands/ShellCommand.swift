/// What the interactive shell (or the full-screen view) starts from: the context of the
/// command line that opened it, and the words to put in front of every line it runs.
package struct ShellLaunch {
  /// The two ways a person works with the list at a terminal.
  package enum FrontEnd: Sendable, Equatable {
    /// The line-by-line shell (`shell`, or no action on a terminal).
    case shell
    /// The full-screen view (`ui`, or no action with `TODO_UI=1`).
    case fullScreen
  }

  /// Which front end to open.
  package let frontEnd: FrontEnd
  /// The settings, console, clock, store and input of the opening command line.
  package let context: CommandContext
  /// `arguments[0]` of the opening command line, which chooses the mode of every line.
  package let programPath: String
  /// The options given before `shell` (`-d FILE`, `-p`), applied to every line.
  package let options: [String]
  /// The process environment, read again by every line.
  package let environment: [String: String]

  package init(
    context: CommandContext, programPath: String, options: [String], environment: [String: String],
    frontEnd: FrontEnd = .shell
  ) {
    self.frontEnd = frontEnd
    self.context = context
    self.programPath = programPath
    self.options = options
    self.environment = environment
  }
}

/// Runs the interactive shell or the full-screen view and returns the status to exit with.
///
/// Both live above this layer (they need a line editor, a screen), so the executable hands
/// them in.
package typealias ShellLauncher = (ShellLaunch) -> ExitStatus

/// `shell`: reads actions from a prompt, one per line, until `quit`, `exit` or end of input.
enum ShellCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "shell",
    abstract: "Start the interactive shell.",
    discussion:
      "Each line is one command line without the program name. Without a terminal, lines are read in batch mode.",
    nativeOnly: true, toleratesConflictMarkers: true
  ) { context, _ throws(TodoError) in
    return try start(.shell, context)
  }

  /// Hands the context to the front end the executable gave, once: inside the shell (or the
  /// view) there is none, and saying so beats opening one inside the other.
  static func start(_ frontEnd: ShellLaunch.FrontEnd, _ context: CommandContext) throws(TodoError) -> ExitStatus {
    guard let request = context.shellRequest else {
      throw .message(
        frontEnd == .shell
          ? "\(context.programName): the interactive shell is already running"
          : "\(context.programName): the view opens from the command line, not inside the shell or the view")
    }
    return request.launcher(
      ShellLaunch(
        context: CommandContext(context, shellRequest: .some(nil)), programPath: request.programPath, options: request.options,
        environment: request.environment, frontEnd: frontEnd))
  }

  /// Everything `shell` needs beyond the context, kept by the command line that may open it.
  struct Request {
    var launcher: ShellLauncher
    var programPath: String
    var options: [String]
    var environment: [String: String]
  }
}
