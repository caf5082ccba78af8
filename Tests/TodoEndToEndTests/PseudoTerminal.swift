import Foundation
import Testing

/// A pseudo-terminal: the tool runs with its secondary side as standard input, output and
/// error, and the test types into and reads from the primary side, as a person at a terminal
/// would.
final class PseudoTerminal {
  let primary: Int32
  let secondary: Int32
  /// Everything read from the terminal so far.
  private(set) var transcript: [UInt8] = []
  /// How much of ``transcript`` earlier ``read(until:timeout:)`` calls have consumed.
  private var cursor = 0

  /// Opens a pair with an 80×24 window. The C function is `openpty`.
  init() throws {
    var primary: Int32 = -1
    var secondary: Int32 = -1
    var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
    guard openpty(&primary, &secondary, nil, nil, &size) == 0 else {
      throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
    self.primary = primary
    self.secondary = secondary
  }

  deinit {
    close(primary)
    close(secondary)
  }

  /// The secondary side, for a child's standard streams.
  var handle: FileHandle { FileHandle(fileDescriptor: secondary, closeOnDealloc: false) }

  /// Types `text` (control characters included: `\t` is TAB, `\r` Enter, `\u{03}` Ctrl-C).
  func send(_ text: String) {
    let bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
      let result = bytes[written...].withUnsafeBytes {
        Glibc.write(primary, $0.baseAddress, $0.count)
      }
      if result < 0, errno == EINTR { continue }
      guard result > 0 else { return }
      written += result
    }
  }

  /// Reads until `needle` appears in what has not been consumed yet, or `timeout` passes.
  ///
  /// - Returns: the text up to and including `needle` (which is then consumed), or `nil` on
  ///   timeout, when nothing is consumed.
  func read(until needle: String, timeout: Duration = .seconds(10)) -> String? {
    let target = Array(needle.utf8)
    let deadline = ContinuousClock.now + timeout
    while true {
      if let range = find(target) {
        let text = String(decoding: transcript[cursor..<range.upperBound], as: UTF8.self)
        cursor = range.upperBound
        return text
      }
      let left = deadline - ContinuousClock.now
      guard left > .zero else { return nil }
      var descriptor = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
      let milliseconds = min(
        100,
        Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
          + 1)
      guard poll(&descriptor, 1, milliseconds) > 0 else { continue }
      var buffer = [UInt8](repeating: 0, count: 4096)
      let count = buffer.withUnsafeMutableBytes { Glibc.read(primary, $0.baseAddress, $0.count) }
      if count > 0 {
        transcript += buffer[..<count]
      } else {
        usleep(10_000)  // the other side is closed; wait out the deadline without spinning
      }
    }
  }

  /// Everything not consumed yet, as text.
  var unread: String { String(decoding: transcript[cursor...], as: UTF8.self) }

  private func find(_ target: [UInt8]) -> Range<Int>? {
    guard !target.isEmpty, transcript.count - cursor >= target.count else { return nil }
    var start = cursor
    while start + target.count <= transcript.count {
      if transcript[start..<(start + target.count)].elementsEqual(target) {
        return start..<(start + target.count)
      }
      start += 1
    }
    return nil
  }
}

extension Sandbox {
  /// Runs `todo ARGS` with a pseudo-terminal (80 columns) as its standard streams, as from a
  /// person's shell; what the terminal received, with the terminal's CR before each newline
  /// taken out.
  func onTerminal(_ arguments: [String], environment extra: [String: String] = [:]) throws -> String {
    let terminal = try PseudoTerminal()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    let command = ([path("bin/todo")] + arguments).map { "'\($0)'" }.joined(separator: " ")
    process.arguments = ["-c", "\(command); echo END-OF-RUN"]
    process.currentDirectoryURL = home
    process.environment = environment.merging(["TERM": "xterm"]) { $1 }.merging(extra) { $1 }
    process.standardInput = terminal.handle
    process.standardOutput = terminal.handle
    process.standardError = terminal.handle
    try process.run()
    let text = terminal.read(until: "END-OF-RUN")
    process.waitUntilExit()
    #expect(text != nil, "\(arguments) did not finish")
    return (text ?? "").replacingOccurrences(of: "\r\n", with: "\n")
  }
}
