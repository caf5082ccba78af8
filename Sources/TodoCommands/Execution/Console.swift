@preconcurrency import Glibc

/// Where a command's output goes. Everything is bytes: task text may be invalid UTF-8.
public protocol Console: AnyObject {
  /// Normal output (standard output).
  func write(_ bytes: [UInt8])
  /// Errors and prompts (standard error).
  func writeError(_ bytes: [UInt8])
  /// Pushes buffered output out, before a child process writes to the same place.
  func flush()
  /// Standard output is a terminal.
  var isTerminal: Bool { get }
}

extension Console {
  /// Writes a line of text to standard output.
  public func line(_ text: String) { write(Array(text.utf8) + [0x0A]) }
  /// Writes a line of bytes to standard output.
  public func line(_ bytes: [UInt8]) { write(bytes + [0x0A]) }
  /// Writes a line of text to standard error.
  public func errorLine(_ text: String) { writeError(Array(text.utf8) + [0x0A]) }
}

/// The process's standard output and error.
///
/// Standard output is buffered for speed and flushed before every write to standard error,
/// so that both keep their order when they go to one file (`2>&1`), as scripts expect.
public final class StandardConsole: Console {
  private var buffer: [UInt8] = []
  public let isTerminal: Bool
  /// The `errno` of the first write to standard output that failed (`ls > /dev/full`); from
  /// then on output is dropped, and ``TodoCLI/main(shell:)`` reports it and fails.
  public private(set) var outputError: Int32 = 0

  public init() {
    isTerminal = Posix.isTerminal(STDOUT_FILENO)
    buffer.reserveCapacity(1 << 16)
  }

  public func write(_ bytes: [UInt8]) {
    // A large block (a listing's megabyte) goes out as it is, not through the buffer.
    if bytes.count >= 1 << 16 {
      flush()
      send(bytes)
      return
    }
    buffer.append(contentsOf: bytes)
    if buffer.count >= 1 << 16 { flush() }
  }

  public func writeError(_ bytes: [UInt8]) {
    flush()
    Posix.writeAll(STDERR_FILENO, bytes)
  }

  public func flush() {
    guard !buffer.isEmpty else { return }
    send(buffer)
    buffer.removeAll(keepingCapacity: true)
  }

  private func send(_ bytes: [UInt8]) {
    guard outputError == 0 else { return }
    outputError = Posix.writeAll(STDOUT_FILENO, bytes)
  }

  deinit { flush() }
}

/// A console that keeps everything written to it, for tests and for capturing a command's
/// output inside the tool.
public final class CapturingConsole: Console {
  public private(set) var output: [UInt8] = []
  public private(set) var errors: [UInt8] = []
  /// Both streams in the order written, as a terminal or `2>&1` would show them.
  public private(set) var combined: [UInt8] = []
  public var isTerminal: Bool

  public init(isTerminal: Bool = false) { self.isTerminal = isTerminal }

  public func write(_ bytes: [UInt8]) {
    output += bytes
    combined += bytes
  }

  public func writeError(_ bytes: [UInt8]) {
    errors += bytes
    combined += bytes
  }

  public func flush() {}

  public var outputText: String { String(decoding: output, as: UTF8.self) }
  public var errorText: String { String(decoding: errors, as: UTF8.self) }
  public var combinedText: String { String(decoding: combined, as: UTF8.self) }
}
