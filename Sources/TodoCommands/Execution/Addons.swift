import TodoStore
/// Add-ons: executables in the actions directory that add or override actions, run exactly as
/// todo.sh runs them (same arguments, environment and exit status).
enum Addons {
  /// The add-on for `action`: `DIR/action/action` first, then `DIR/action`.
  ///
  /// - Throws: ``TodoError/brokenActionLink(_:)`` for a symbolic link to nowhere, as todo.sh.
  static func find(_ action: String, in directory: String) throws(TodoError) -> String? {
    guard !action.isEmpty, !action.contains("/"), Posix.isDirectory(directory) else { return nil }
    let nested = directory + "/" + action
    if Posix.isDirectory(nested) {
      let path = nested + "/" + action
      if Posix.isExecutable(path) && !Posix.isDirectory(path) { return path }
      if Posix.isSymbolicLink(path), !Posix.exists(path) { throw .brokenActionLink(path) }
    }
    if Posix.isExecutable(nested), !Posix.isDirectory(nested) { return nested }
    if Posix.isSymbolicLink(nested), !Posix.exists(nested) { throw .brokenActionLink(nested) }
    return nil
  }

  /// Runs an add-on with the action name as its first argument; its exit status is ours.
  static func run(_ path: String, arguments: [String], context: CommandContext) -> ExitStatus {
    context.console.flush()
    let environment = context.childEnvironment.merging(AddonFunctions.environment(context.settings)) { $1 }
    let result = context.runner.run([path] + arguments, environment: environment)
    return ExitStatus(rawValue: result.status)
  }

  /// The add-ons in a directory, in glob order: executable files, and directories `D`
  /// holding an executable `D/D`.
  static func list(in directory: String) -> [(name: String, path: String)] {
    guard let names = Posix.listDirectory(directory) else { return [] }
    var result: [(String, String)] = []
    for name in names where !name.hasPrefix(".") {
      let path = directory + "/" + name
      if Posix.isRegularFile(path), Posix.isExecutable(path) {
        result.append((name, path))
      } else if Posix.isDirectory(path), Posix.isExecutable(path + "/" + name), !Posix.isDirectory(path + "/" + name) {
        result.append((name, path + "/" + name))
      }
    }
    return result
  }

  /// The output of `ADDON usage`.
  static func usage(_ path: String, context: CommandContext) -> [UInt8] {
    context.console.flush()
    return context.runner.run([path, "usage"], environment: context.childEnvironment, captureOutput: true).output
  }
}

/// Splits a string into words as the shell would (`TODOTXT_DEFAULT_ACTION`), with bash itself,
/// so that quoting, escapes and expansions behave exactly as in todo.sh.
enum ShellWords {
  static func split(_ text: String, context: CommandContext) throws(TodoError) -> [String] {
    let result = context.runner.run(
      ["bash", "-c", "eval \"set -- $1\" && printf '%s\\0' \"$@\"", context.settings.programPath, text],
      environment: context.childEnvironment, captureOutput: true)
    guard result.status == 0 else { throw .usage }
    return result.output.split(separator: 0, omittingEmptySubsequences: false).dropLast().map {
      String(decoding: $0, as: UTF8.self)
    }
  }
}
