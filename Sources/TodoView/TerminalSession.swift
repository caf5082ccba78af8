@preconcurrency import Glibc

/// The terminal while the view owns it: raw input (no echo, no line buffering, Ctrl-C and
/// Ctrl-Z as keys), the alternate screen, the mouse reported, the cursor hidden; and the
/// terminal given back exactly as it was on every way out (quit, SIGTERM, SIGHUP, a crash,
/// a suspension for an editor), so the person's shell is never left in raw mode.
///
/// The settings to restore live in globals because a signal handler can reach nothing else;
/// the handlers only call async-signal-safe functions (`tcsetattr`, `write`, `raise`).
final class TerminalSession {
  let input: Int32 = STDIN_FILENO
  let output: Int32 = STDOUT_FILENO
  /// Written by the SIGWINCH handler: the loop polls it with the input.
  let wakeUp: (read: Int32, write: Int32)

  /// Enters the view's terminal modes; `nil` when standard input is no terminal.
  init?() {
    var saved = termios()
    guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { return nil }
    _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
    _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
    _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
    wakeUp = (fds[0], fds[1])
    terminalSaved = saved
    terminalWakeUp = fds[1]
    // Made now: a signal handler must not be the first to touch a lazily made global.
    _ = TerminalSession.leaveSequence.count
    TerminalSession.installHandlers()
    enter()
  }

  /// Raw mode and the view's screen.
  func enter() {
    var raw = terminalSaved
    raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
    raw.c_oflag &= ~tcflag_t(OPOST)
    raw.c_cflag |= tcflag_t(CS8)
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
    withUnsafeMutablePointer(to: &raw.c_cc) { pointer in
      pointer.withMemoryRebound(to: cc_t.self, capacity: Int(NCCS)) { cc in
        cc[Int(VMIN)] = 1
        cc[Int(VTIME)] = 0
      }
    }
    _ = tcsetattr(input, TCSAFLUSH, &raw)
    terminalActive = 1
    write(TerminalSession.enterSequence)
  }

  /// The terminal as the person had it (before an editor runs, and at the end).
  func leave() {
    write(TerminalSession.leaveSequence)
    _ = tcsetattr(input, TCSAFLUSH, &terminalSaved)
    terminalActive = 0
  }

  /// The alternate screen, the cursor hidden, SGR mouse reports of presses and the wheel,
  /// bracketed paste (a pasted line break must not act as Enter).
  static let enterSequence = Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1006h\u{1B}[?2004h\u{1B}[H\u{1B}[2J".utf8)
  static let leaveSequence = Array("\u{1B}[?2004l\u{1B}[?1006l\u{1B}[?1000l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)

  /// The window's size in cells (80 × 24 when the terminal does not say).
  var size: (columns: Int, rows: Int) {
    var window = winsize()
    guard ioctl(output, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return (80, 24) }
    return (Int(window.ws_col), Int(window.ws_row))
  }

  func write(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { Glibc.write(output, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        return
      }
      offset += written
    }
  }

  /// Reads what is there (at most 4 KiB); empty at end of input.
  func read() -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
    if count < 0 { return errno == EINTR || errno == EAGAIN ? [] : nil }
    return count == 0 ? nil : Array(buffer.prefix(count))
  }

  /// Takes what the SIGWINCH handler wrote; whether it wrote anything.
  func drainWakeUp() -> Bool {
    var buffer = [UInt8](repeating: 0, count: 64)
    var any = false
    while buffer.withUnsafeMutableBytes({ Glibc.read(wakeUp.read, $0.baseAddress, $0.count) }) > 0 { any = true }
    return any
  }

  private static func installHandlers() {
    signal(SIGWINCH) { _ in
      var byte: UInt8 = 1
      _ = Glibc.write(terminalWakeUp, &byte, 1)
    }
    for fatal in [SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT] {
      signal(fatal) { number in
        TerminalSession.restoreFromSignal()
        signal(number, SIG_DFL)
        raise(number)
      }
    }
  }

  /// Gives the terminal back from a signal handler (async-signal-safe calls only).
  static func restoreFromSignal() {
    guard terminalActive == 1 else { return }
    terminalActive = 0
    leaveSequence.withUnsafeBytes { _ = Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    _ = tcsetattr(STDIN_FILENO, TCSANOW, &terminalSaved)
  }
}

/// The terminal's settings when the view started, for the signal handlers.
nonisolated(unsafe) private var terminalSaved = termios()
/// 1 while the view's modes are on (a handler must not restore twice, or after an editor).
nonisolated(unsafe) private var terminalActive: Int32 = 0
/// The write end of the SIGWINCH pipe.
nonisolated(unsafe) private var terminalWakeUp: Int32 = -1
