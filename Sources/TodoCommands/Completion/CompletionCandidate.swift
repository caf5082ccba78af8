/// One word that completion offers, with an optional note to show beside it (the task text
/// beside a task number, the date a relative date stands for).
public struct CompletionCandidate: Hashable, Sendable {
  /// The whole word, as it replaces the word under the cursor.
  public var value: String
  /// A short note for shells that show one (zsh, fish); never part of the word.
  public var description: String?

  public init(value: String, description: String? = nil) {
    self.value = value
    self.description = description
  }

  /// The line `todo __complete` prints: `value`, or `value<TAB>description`.
  ///
  /// Tabs, newlines and other control characters inside either part become spaces, so one
  /// candidate is always exactly one line with at most one tab.
  public var line: String {
    guard let description, !description.isEmpty else { return CompletionCandidate.flatten(value) }
    return CompletionCandidate.flatten(value) + "\t" + CompletionCandidate.flatten(description)
  }

  static func flatten(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
      return text
    }
    return String(
      String.UnicodeScalarView(
        text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
  }
}
