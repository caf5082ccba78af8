import Foundation
import Testing

/// A terminal a person would use, played by tmux: the built binary runs in a detached tmux
/// session of a given size, keys are sent with `send-keys` and the screen is read with
/// `capture-pane`, as a person would type and look.
///
/// The command runs inside `sh`, which records the terminal's settings (`stty -g`) before and
/// after it and its exit status, so a test can check the terminal was given back as it was.
final class TmuxScreen {
  let box: Sandbox
  let socket: String
  let name = "view"

  /// Starts `todo ARGUMENTS` in a window of `columns` × `rows`.
  init(
    _ box: Sandbox, _ arguments: [String] = ["ui"], columns: Int = 80, rows: Int = 24,
    environment extra: [String: String] = [:], jobControl: Bool = false
  ) throws {
    self.box = box
    socket = box.path("tmux.socket")
    var environment = box.environment.merging(["TERM": "xterm-256color"]) { $1 }
    environment.merge(extra) { $1 }
    let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(TmuxScreen.quoted($0.value))" }
    let command = arguments.map(TmuxScreen.quoted).joined(separator: " ")
    let script = """
      cd \(TmuxScreen.quoted(box.home.path)); stty -g > .stty-before; \
      env -i \(assignments.joined(separator: " ")) todo \(command); echo $? > .status; \
      stty -g > .stty-after; sleep 600
      """
    // With job control (an interactive bash) the command is a job of its own, which Ctrl-Z
    // stops; `sh -c` has none, as a script started from a file manager would.
    let shell = jobControl ? ["bash", "--norc", "--noprofile", "-i", "-c"] : ["sh", "-c"]
    try tmux(["-f", "/dev/null", "new-session", "-d", "-s", name, "-x", String(columns), "-y", String(rows)] + shell + [script])
  }

  deinit { _ = try? tmux(["kill-server"]) }

  static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

  /// Runs tmux with the session's socket; its standard output.
  ///
  /// Spawned and waited for directly: the server `new-session` starts is a child of the
  /// client that outlives it, which Foundation's `Process` does not wait well beside.
  @discardableResult
  func tmux(_ arguments: [String]) throws -> String {
    let outputPath = box.path(".tmux-output-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(atPath: outputPath) }
    var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    // Nothing else the test process has open goes to tmux: its server outlives the client,
    // and a file another test thread is writing at that moment (a script it is about to run)
    // would stay open for writing in the server, and "busy" to exec, for the server's life.
    TmuxScreen.closeFrom(3, in: &actions)
    let words = ["/usr/bin/tmux", "-S", socket] + arguments
    let environment = ["PATH=/usr/bin:/bin", "HOME=\(box.home.path)", "TERM=xterm-256color"]
    var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, "/usr/bin/tmux", &actions, nil, &argv, &envp)
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    return box.read(String(outputPath.dropFirst(box.home.path.count + 1)))
  }

  /// glibc's `posix_spawn_file_actions_addclosefrom_np`, which its headers declare only to
  /// C code that asks for GNU extensions; looked up by name.
  private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
  }()

  /// Closes every descriptor from `first` on in the child (each one open now, when glibc
  /// has no call for it).
  private static func closeFrom(_ first: Int32, in actions: inout posix_spawn_file_actions_t) {
    if let addCloseFrom {
      _ = addCloseFrom(&actions, first)
      return
    }
    let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    for fd in open.compactMap({ Int32($0) }) where fd >= first { posix_spawn_file_actions_addclose(&actions, fd) }
  }

  /// Presses keys by tmux's names (`j`, `Enter`, `C-c`, `Escape`, `Down`).
  func press(_ keys: String...) throws { try tmux(["send-keys", "-t", name] + keys) }

  /// Types text literally.
  func type(_ text: String) throws { try tmux(["send-keys", "-t", name, "-l", text]) }

  /// The screen, a line per row, trailing blanks removed.
  func screen(colours: Bool = false) throws -> [String] {
    let text = try tmux(["capture-pane", "-p", "-t", name] + (colours ? ["-e"] : []))
    return text.split(separator: "\n", omittingEmptySubsequences: false).map {
      String($0.reversed().drop { $0 == " " }.reversed())
    }
  }

  /// Waits until the screen shows `text` (a view redraws a moment after a key); fails the
  /// test with the screen as it was when it never does.
  @discardableResult
  func waitFor(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
    try waitUntil("the screen to show '\(text)'", sourceLocation: sourceLocation) { $0.joined(separator: "\n").contains(text) }
  }

  /// Waits until `condition` holds for the screen.
  @discardableResult
  func waitUntil(
    _ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ condition: ([String]) -> Bool
  ) throws -> [String] {
    var last: [String] = []
    for _ in 0..<200 {
      last = try screen()
      if condition(last) { return last }
      usleep(50_000)
    }
    Issue.record("waited for \(what); the screen:\n\(last.joined(separator: "\n"))", sourceLocation: sourceLocation)
    return last
  }

  /// Waits until the command ended; its exit status.
  func exitStatus(sourceLocation: SourceLocation = #_sourceLocation) throws -> Int32? {
    for _ in 0..<200 {
      // The shell makes the file before stty writes into it.
      if box.read(".stty-after").hasSuffix("\n"), let status = Int32(box.read(".status").trimmingCharacters(in: .whitespacesAndNewlines)) {
        return status
      }
      usleep(50_000)
    }
    Issue.record("the view did not end", sourceLocation: sourceLocation)
    return nil
  }

  /// Whether the terminal's settings after the command are those before it.
  var terminalRestored: Bool {
    box.read(".stty-after").hasSuffix("\n") && box.read(".stty-before") == box.read(".stty-after")
  }

  /// The process id of the running `todo`.
  func viewProcess() throws -> Int32? {
    let pane = try tmux(["list-panes", "-t", name, "-F", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    let children = (try? String(contentsOfFile: "/proc/\(pane)/task/\(pane)/children", encoding: .utf8)) ?? ""
    for child in children.split(separator: " ") {
      let environment = (try? String(contentsOfFile: "/proc/\(child)/cmdline", encoding: .utf8)) ?? ""
      if environment.contains("todo") { return Int32(child) }
      let grandchildren = (try? String(contentsOfFile: "/proc/\(child)/task/\(child)/children", encoding: .utf8)) ?? ""
      if let first = grandchildren.split(separator: " ").first { return Int32(first) }
    }
    return nil
  }

  func resize(columns: Int, rows: Int) throws {
    try tmux(["resize-window", "-t", name, "-x", String(columns), "-y", String(rows)])
  }
}
