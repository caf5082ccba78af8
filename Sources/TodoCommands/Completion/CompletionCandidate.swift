/// One word that completion offers, with an optional note to show beside it (the task text
/// beside a task number, the date a relative date stands for).
package struct CompletionCandidate: Hashable, Sendable {
  /// The whole word, as it replaces the word under the cursor.
  package var value: String
  /// A short note for shells that show one (zsh, fish); never part of the word.
  package var description: String?

  package init(value: String, description: String? = nil) {
    self.value = value
    self.description = description
  }

  /// The line `todo __complete` prints: `value`, or `value<TAB>description`.
  ///
  /// Tabs, newlines and other C0 controls inside either part become spaces, so one candidate
  /// is always exactly one line with at most one tab. C1 controls and the bidirectional
  /// controls become `<U+XXXX>`: the shells print a candidate's note in their menu as it is,
  /// and task text from the file must not move the cursor or turn the text around there.
  package var line: String {
    guard let description, !description.isEmpty else { return CompletionCandidate.flatten(value) }
    return CompletionCandidate.flatten(value) + "\t" + CompletionCandidate.flatten(description)
  }

  static func flatten(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isHidden) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if scalar.value < 0x20 || scalar.value == 0x7F {
        out.append(" ")
      } else if isHidden(scalar) {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        out.append(contentsOf: "<U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex)>".unicodeScalars)
      } else {
        out.append(scalar)
      }
    }
    return String(out)
  }

  /// C0, DEL, C1 and the bidirectional controls (U+061C, U+200E, U+200F, U+202A to U+202E,
  /// U+2066 to U+2069): what the terminal filter shows instead of passing.
  static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }
}
