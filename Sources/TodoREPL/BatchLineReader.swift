import TodoCommands

/// Reads lines from standard input when it is not a terminal: no prompt, no echo, no history.
///
/// It reads through the same ``InputSource`` as the commands, a byte at a time, so that a
/// command's question (`Delete '…'? (y/n)`) takes its answer from the next line of the script.
package final class BatchLineReader: LineReader {
  private let input: InputSource

  package private(set) var lastLineBytes: [UInt8]?

  package init(input: InputSource) { self.input = input }

  package func readLine(prompt: String) -> String? {
    guard var bytes = input.readLine() else { return nil }
    if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
    lastLineBytes = bytes
    return String(decoding: bytes, as: UTF8.self)
  }

  package func addHistory(_ line: String) {}

  package var lastHistoryEntry: String? { nil }
}
