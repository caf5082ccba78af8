import TodoREPL

/// Hands out a fixed list of lines, as a person would type them, and records the prompts and
/// the history.
final class ScriptedLineReader: LineReader {
  private var lines: [String]
  private(set) var prompts: [String] = []
  private(set) var history: [String]

  init(_ lines: [String], history: [String] = []) {
    self.lines = lines
    self.history = history
  }

  func readLine(prompt: String) -> String? {
    prompts.append(prompt)
    return lines.isEmpty ? nil : lines.removeFirst()
  }

  func addHistory(_ line: String) { history.append(line) }

  var lastHistoryEntry: String? { history.last }
}
