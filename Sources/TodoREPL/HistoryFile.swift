import Glibc

/// Where the shell's history is kept: `$XDG_STATE_HOME/todo/history`, else
/// `~/.local/state/todo/history` (next to the undo log).
enum HistoryFile {
  /// How many lines the history keeps, in memory and on disk.
  static let limit = 1000

  /// The history file's path, or `nil` when neither `XDG_STATE_HOME` (absolute) nor `HOME`
  /// is set.
  static func path(environment: [String: String]) -> String? {
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
      return state + "/todo/history"
    }
    if let home = environment["HOME"], !home.isEmpty { return home + "/.local/state/todo/history" }
    return nil
  }

  /// Creates the file, and the directories above it, when missing; only its owner may read it.
  ///
  /// - Returns: whether the file exists now. The C functions are `mkdir` and `open`.
  @discardableResult
  static func create(_ path: String) -> Bool {
    var directory = ""
    let components = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
    for (index, component) in components.enumerated() {
      directory += index == 0 ? String(component) : "/" + component
      if !directory.isEmpty { _ = mkdir(directory, 0o700) }
    }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return false }
    close(descriptor)
    return true
  }
}
