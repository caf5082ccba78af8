import TodoStore

/// What the shell keeps from one line to the next: the settings, and the files read.
///
/// Every line of the shell is a whole command line (see ``TodoCLI``), which would read the
/// configuration (running bash on a todo.sh-style file) and every list again. A line finds
/// here the settings the previous one loaded, as long as it passes the same options and
/// environment and none of the files and directories the loading looked at has changed;
/// and its reads find the files the previous lines read or wrote, as long as each file is
/// still that version (see ``ReadCache``).
///
/// A configuration is taken to depend only on its own file: one that sources other files,
/// or asks the clock, is evaluated again when its file changes, not on every line.
/// `TODO_SHELL_CACHE=0` in the environment turns the cache off (see ``make(environment:)``).
package final class SessionCache {
  /// The files read and written, for every store the shell's lines make.
  package let reads: ReadCache
  let settleWindow: Double
  private var kept: Kept?
  /// The text of each task number of the line about to run, as the file last showed it to
  /// the user (set by the shell before each line): the line's command refuses a number whose
  /// line no longer holds that text when it changes the file (see ``CommandContext/shownTasks``).
  package var shownTasks: [Int: [UInt8]] = [:]

  /// What a line's settings were loaded from, beyond the files.
  struct Key: Equatable {
    var programPath: String
    var mode: Mode
    /// The option words in front of the action (`-d FILE`, `-p`, `-@`…).
    var options: [String]
    var environment: [String: String]
    var outputIsTerminal: Bool
  }

  private struct Kept {
    var key: Key
    var consulted: ConsultedFiles
    var settings: Settings
  }

  /// - Parameter settleWindow: see ``FileStamp/isSettled(now:window:)``; the same rule holds
  ///   for the configuration files as for the lists.
  package init(reads: ReadCache = ReadCache(), settleWindow: Double = FileStamp.settleWindow) {
    self.reads = reads
    self.settleWindow = settleWindow
  }

  /// A cache for a shell started with `environment`, or `nil` when `TODO_SHELL_CACHE` is `0`
  /// (every line then reads everything afresh, as a separate command line does).
  package static func make(environment: [String: String]) -> SessionCache? {
    environment["TODO_SHELL_CACHE"] == "0" ? nil : SessionCache()
  }

  /// The settings loaded for `key`, if nothing they were loaded from has changed.
  func settings(for key: Key) -> Settings? {
    guard let kept, kept.key == key, kept.consulted.isUnchanged else { return nil }
    return kept.settings
  }

  /// Keeps settings loaded for `key`, when the files they came from allow it.
  func keep(_ settings: Settings, for key: Key, consulted: ConsultedFiles) {
    kept = consulted.isReusable ? Kept(key: key, consulted: consulted, settings: settings) : nil
  }

  /// Drops the settings kept (tests).
  package func forgetSettings() { kept = nil }
}

/// The files and directories a loading of the settings looked at, as they were then.
final class ConsultedFiles {
  private(set) var files: [(path: String, stamp: FileStamp?)] = []
  private(set) var directories: [(path: String, isDirectory: Bool)] = []
  /// Whether settings loaded from these may serve a later line: not when a file changed too
  /// recently for its stamp to show the next change, nor when the configuration said
  /// something on standard error.
  var isReusable = true
  let window: Double

  init(window: Double = FileStamp.settleWindow) { self.window = window }

  /// Notes a file, missing or not, as it is now.
  func file(_ path: String) {
    guard !path.isEmpty else { return }
    let stamp = FileStamp(path: path)
    if let stamp, !stamp.isSettled(now: FileStamp.wallClock(), window: window) { isReusable = false }
    files.append((path, stamp))
  }

  /// Notes whether `path` is a directory now.
  func directory(_ path: String) {
    guard !path.isEmpty else { return }
    directories.append((path, Posix.isDirectory(path)))
  }

  /// Every file has its stamp and every directory its kind still.
  var isUnchanged: Bool {
    files.allSatisfy { FileStamp(path: $0.path) == $0.stamp }
      && directories.allSatisfy { Posix.isDirectory($0.path) == $0.isDirectory }
  }
}
