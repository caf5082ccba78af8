/// Where the shell's lines come from: the line editor on a terminal, standard input in batch
/// mode, a fixed script in tests.
package protocol LineReader: AnyObject {
  /// Shows `prompt` (when the reader shows prompts) and returns the next line without its
  /// newline, or `nil` at end of input.
  func readLine(prompt: String) -> String?
  /// Records a line in the history, for recall and for the next session.
  func addHistory(_ line: String)
  /// The newest line of the history, so that a line is not recorded twice in a row.
  var lastHistoryEntry: String? { get }
  /// The bytes of the line ``readLine(prompt:)`` returned last, as they came (`nil` when the
  /// reader does not keep them): a line that is not UTF-8 reaches the returned text repaired,
  /// and the words of a task must keep the bytes typed, as on the command line.
  var lastLineBytes: [UInt8]? { get }
}

extension LineReader {
  package var lastLineBytes: [UInt8]? { nil }
}

/// One way to complete the word under the cursor.
package struct LineCompletion: Equatable, Sendable {
  /// The text that replaces the word under the cursor, quoted for the shell's line syntax.
  package var replacement: String
  /// The word itself, as listed.
  package var value: String
  /// Shown beside the word when candidates are listed (the text of a task), never inserted.
  package var description: String?
  /// A space follows a unique completion (not after `due:` or a directory's `/`).
  package var appendsSpace: Bool

  package init(
    replacement: String, value: String, description: String? = nil, appendsSpace: Bool = true
  ) {
    self.replacement = replacement
    self.value = value
    self.description = description
    self.appendsSpace = appendsSpace
  }
}

/// Completes the word under the cursor: `before` is the line up to the start of that word,
/// `word` the word as typed so far.
package typealias LineCompleter = (_ before: String, _ word: String) -> [LineCompletion]
