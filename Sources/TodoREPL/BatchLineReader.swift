import TodoCommands

/// Reads lines from standard input when it is not a terminal: no prompt, no echo, no history.
///
/// It reads through the same ``InputSource`` as the commands, a byte at a time, so that a
/// command's question (`Delete '…'? (y/n)`) takes its answer from the next line of the script.
public final class BatchLineReader: LineReader {
  private let input: InputSource

  public private(set) var lastLineBytes: [UInt8]?

  public init(input: InputSource) { self.input = input }

  public func readLine(prompt: String) -> String? {
    guard var bytes = input.readLine() else { return nil }
    if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
    lastLineBytes = bytes
    return String(decoding: bytes, as: UTF8.self)
  }

  public func addHistory(_ line: String) {}

  public var lastHistoryEntry: String? { nil }
}
