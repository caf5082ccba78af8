import Foundation

/// Asks on the controlling terminal (`/dev/tty`) with echo off, so the password is neither
/// shown nor kept in a scrollback; nil when the process has no terminal.
public struct TerminalPasswordPrompt: PasswordPrompt {
  public init() {}

  public func password(user: String, host: String) -> String? {
    let tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard tty >= 0 else { return nil }
    defer { close(tty) }
    var saved = termios()
    guard tcgetattr(tty, &saved) == 0 else { return nil }
    var silent = saved
    silent.c_lflag &= ~tcflag_t(ECHO)
    silent.c_lflag |= tcflag_t(ECHONL)
    let question = Array("Password for \(user) at \(host): ".utf8)
    _ = question.withUnsafeBytes { write(tty, $0.baseAddress, $0.count) }
    guard tcsetattr(tty, TCSAFLUSH, &silent) == 0 else { return nil }
    defer { _ = tcsetattr(tty, TCSAFLUSH, &saved) }
    var line: [UInt8] = []
    var byte: UInt8 = 0
    while read(tty, &byte, 1) == 1, byte != 0x0A, byte != 0x0D {
      line.append(byte)
      if line.count > 4096 { return nil }
    }
    return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
  }
}
