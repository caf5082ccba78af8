import TodoStore
@preconcurrency import Glibc

/// Where a command's output goes. Everything is bytes: task text may be invalid UTF-8.
package protocol Console: AnyObject {
  /// Normal output (standard output).
  func write(_ bytes: [UInt8])
  /// Normal output from memory the caller keeps (a listing's block, filled again after).
  func write(contentsOf bytes: UnsafeBufferPointer<UInt8>)
  /// Errors and prompts (standard error).
  func writeError(_ bytes: [UInt8])
  /// Pushes buffered output out, before a child process writes to the same place.
  func flush()
  /// Standard output is a terminal.
  var isTerminal: Bool { get }
  /// How many columns wide the terminal is, when output goes to one that says (long listing
  /// lines are wrapped to it); `nil` otherwise.
  var columns: Int? { get }
}

extension Console {
  package var columns: Int? { nil }

  package func write(contentsOf bytes: UnsafeBufferPointer<UInt8>) { write(Array(bytes)) }

  /// Writes a line of text to standard output.
  package func line(_ text: String) { write(Array(text.utf8) + [0x0A]) }
  /// Writes a line of bytes to standard output.
  package func line(_ bytes: [UInt8]) { write(bytes + [0x0A]) }
  /// Writes a line of text to standard error.
  package func errorLine(_ text: String) { writeError(Array(text.utf8) + [0x0A]) }
}

/// The process's standard output and error.
///
/// Standard output is buffered for speed and flushed before every write to standard error,
/// so that both keep their order when they go to one file (`2>&1`), as scripts expect.
package final class StandardConsole: Console {
  private var buffer: [UInt8] = []
  package let isTerminal: Bool
  /// The `errno` of the first write to standard output that failed (`ls > /dev/full`); from
  /// then on output is dropped, and ``TodoCLI/main(shell:)`` reports it and fails.
  package private(set) var outputError: Int32 = 0

  /// Standard output and standard error go to a terminal and the tool runs as `todo`: every
  /// byte is passed through ``TerminalSafety/escape(_:)`` (see there). Under the name
  /// `todo.sh`, and into pipes and files, bytes go out as they are.
  private let escapesOutput: Bool
  private let escapesErrors: Bool

  /// The terminal's width, asked once (a listing is drawn for the size it had when it began);
  /// `COLUMNS` in the environment wins, as with other tools.
  package private(set) lazy var columns: Int? = {
    guard isTerminal else { return nil }
    if let text = getenv("COLUMNS").map({ String(cString: $0) }), let value = Int(text), value > 0 { return value }
    return Posix.terminalColumns(STDOUT_FILENO)
  }()

  package init() {
    isTerminal = Posix.isTerminal(STDOUT_FILENO)
    let escapes = Mode(programPath: CommandLine.arguments.first ?? "todo").policy.escapesControlsOnTerminal
    escapesOutput = escapes && isTerminal
    escapesErrors = escapes && Posix.isTerminal(STDERR_FILENO)
    buffer.reserveCapacity(1 << 16)
  }

  package func write(_ input: [UInt8]) {
    let bytes = escapesOutput ? TerminalSafety.escape(input) : input
    // A large block (a listing's megabyte) goes out as it is, not through the buffer.
    if bytes.count >= 1 << 16 {
      flush()
      send(bytes)
      return
    }
    buffer.append(contentsOf: bytes)
    if buffer.count >= 1 << 16 { flush() }
  }

  /// A large block goes out from where it is, without a copy (unless it is escaped).
  package func write(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
    guard !escapesOutput, bytes.count >= 1 << 16 else { return write(Array(bytes)) }
    flush()
    guard outputError == 0 else { return }
    outputError = Posix.writeAll(STDOUT_FILENO, bytes)
  }

  package func writeError(_ bytes: [UInt8]) {
    flush()
    Posix.writeAll(STDERR_FILENO, escapesErrors ? TerminalSafety.escape(bytes) : bytes)
  }

  package func flush() {
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
package final class CapturingConsole: Console {
  package private(set) var output: [UInt8] = []
  package private(set) var errors: [UInt8] = []
  /// Both streams in the order written, as a terminal or `2>&1` would show them.
  package private(set) var combined: [UInt8] = []
  package var isTerminal: Bool
  package var columns: Int?

  package init(isTerminal: Bool = false, columns: Int? = nil) {
    self.isTerminal = isTerminal
    self.columns = columns
  }

  package func write(_ bytes: [UInt8]) {
    output += bytes
    combined += bytes
  }

  package func writeError(_ bytes: [UInt8]) {
    errors += bytes
    combined += bytes
  }

  package func flush() {}

  package var outputText: String { String(decoding: output, as: UTF8.self) }
  package var errorText: String { String(decoding: errors, as: UTF8.self) }
  package var combinedText: String { String(decoding: combined, as: UTF8.self) }
}

/// The one place where bytes bound for a terminal are made harmless: whatever path task text
/// takes to the screen (a listing, a heading, a template, an error message), it passes here.
package enum TerminalSafety {
  /// `bytes` with every control shown, the ESC of a colour too (`^[[31m`): for text that is
  /// not this tool's own output (a task's text, a name from the file) on its way to a
  /// terminal by a path of its own, such as the shell's TAB listing.
  package static func visible(_ bytes: [UInt8]) -> [UInt8] { escape(caret(bytes, keepingNewlines: true)) }

  /// C0 controls but tab (and newline, when kept) as `^X`, DEL as `^?`: how task text is shown
  /// on a terminal (``CommandContext/display(_:)``) and the first step of ``visible(_:)``.
  static func caret(_ bytes: [UInt8], keepingNewlines: Bool) -> [UInt8] {
    guard bytes.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else { return bytes }
    var shown: [UInt8] = []
    shown.reserveCapacity(bytes.count + 8)
    for byte in bytes {
      if byte == 0x7F {
        shown += [UInt8(ascii: "^"), UInt8(ascii: "?")]
      } else if byte < 0x20, byte != 0x09, !(keepingNewlines && byte == 0x0A) {
        shown += [UInt8(ascii: "^"), byte + 0x40]
      } else {
        shown.append(byte)
      }
    }
    return shown
  }

  /// `bytes` with every control a terminal would act on written visibly instead: C0 but tab
  /// and newline as `^X`, DEL as `^?`, C1 (U+0080 to U+009F) and the bidirectional controls
  /// (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069) as `<U+XXXX>`, and a byte
  /// 0x80 to 0x9F that is no part of a UTF-8 character (an 8-bit C1 control) as `<0x9B>`. An ESC that
  /// starts a colour (SGR: `ESC [` digits and `;` then `m`) is kept, as that is how the tool
  /// colours its own output; no other escape sequence (OSC 52 clipboard writes, titles,
  /// clearing the screen, cursor moves) gets through.
  package static func escape(_ bytes: [UInt8]) -> [UInt8] {
    guard bytes.contains(where: { $0 < 0x20 || $0 == 0x7F || (0x80...0x9F).contains($0) || $0 == 0xC2 || $0 == 0xD8 }) else {
      return bytes
    }
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count + 16)
    var index = 0
    func scalar(_ value: String) { result += Array("<U+\(value)>".utf8) }
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case 0x1B:
        var end = index + 1
        if end < bytes.count, bytes[end] == UInt8(ascii: "[") {
          end += 1
          while end < bytes.count, (0x30...0x39).contains(bytes[end]) || bytes[end] == 0x3B { end += 1 }
          if end < bytes.count, bytes[end] == UInt8(ascii: "m") {
            result += bytes[index...end]
            index = end + 1
            continue
          }
        }
        result += [UInt8(ascii: "^"), UInt8(ascii: "[")]
        index += 1
      case 0x09, 0x0A:
        result.append(byte)
        index += 1
      case 0x00..<0x20:
        result += [UInt8(ascii: "^"), byte + 0x40]
        index += 1
      case 0x7F:
        result += [UInt8(ascii: "^"), UInt8(ascii: "?")]
        index += 1
      case 0xC2 where index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]):
        scalar("00" + String(bytes[index + 1], radix: 16, uppercase: true))
        index += 2
      case 0xD8 where index + 1 < bytes.count && bytes[index + 1] == 0x9C:
        scalar("061C")
        index += 2
      case 0xE2 where index + 2 < bytes.count && TerminalSafety.isBidi(bytes[index + 1], bytes[index + 2]):
        let value = (UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)) | 0x2000
        scalar(String(value, radix: 16, uppercase: true))
        index += 3
      case 0xC2...0xF4:
        // A whole UTF-8 character is copied as it is; a lead byte without its continuation
        // bytes is copied alone (a terminal shows it as a bad character, nothing more).
        let length = byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
        let valid =
          index + length <= bytes.count && (1..<length).allSatisfy { (0x80...0xBF).contains(bytes[index + $0]) }
        let end = valid ? index + length : index + 1
        result += bytes[index..<end]
        index = end
      case 0x80...0x9F:
        // A byte of C1's range that is no part of a UTF-8 character: a terminal reading
        // 8-bit controls takes 0x9B for CSI. Shown as its value.
        result += Array("<0x\(String(byte, radix: 16, uppercase: true))>".utf8)
        index += 1
      default:
        result.append(byte)
        index += 1
      }
    }
    return result
  }

  /// The second and third bytes of U+200E, U+200F, U+202A to U+202E or U+2066 to U+2069.
  static func isBidi(_ second: UInt8, _ third: UInt8) -> Bool {
    (second == 0x80 && (third == 0x8E || third == 0x8F || (0xAA...0xAE).contains(third)))
      || (second == 0x81 && (0xA6...0xA9).contains(third))
  }
}
