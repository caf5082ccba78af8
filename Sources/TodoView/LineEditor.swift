/// The one-line editor of the view's prompts (add, edit, filter, due date, command line):
/// the keys of readline's emacs mode that people type without thinking (Ctrl-A, Ctrl-E,
/// Ctrl-U, Ctrl-W, arrows, Home, End) and Tab completion of the word before the cursor.
package struct LineEditor: Sendable, Equatable {
  /// The text, as characters (a cursor never lands inside one).
  package private(set) var characters: [Character]
  /// Where the cursor is: before `characters[cursor]`.
  package private(set) var cursor: Int

  package init(_ text: String = "") {
    characters = Array(text)
    cursor = characters.count
  }

  package var text: String { String(characters) }

  /// What a key did to the line.
  package enum Outcome: Equatable {
    case edited, submitted, cancelled, ignored
  }

  /// Applies a key; `complete` gives the words that may finish the word before the cursor.
  package mutating func handle(_ key: Key, complete: (String) -> [String] = { _ in [] }) -> Outcome {
    switch key {
    case .enter: return .submitted
    case .escape, .control("c"), .control("g"): return .cancelled
    case .character(let character):
      characters.insert(character, at: cursor)
      cursor += 1
    case .backspace:
      guard cursor > 0 else { return .ignored }
      characters.remove(at: cursor - 1)
      cursor -= 1
    case .delete, .control("d"):
      guard cursor < characters.count else { return .ignored }
      characters.remove(at: cursor)
    case .left, .control("b"): cursor = max(0, cursor - 1)
    case .right, .control("f"): cursor = min(characters.count, cursor + 1)
    case .home, .control("a"): cursor = 0
    case .end, .control("e"): cursor = characters.count
    case .control("u"):
      characters.removeSubrange(0..<cursor)
      cursor = 0
    case .control("k"): characters.removeSubrange(cursor...)
    case .control("w"):
      var start = cursor
      while start > 0, characters[start - 1] == " " { start -= 1 }
      while start > 0, characters[start - 1] != " " { start -= 1 }
      characters.removeSubrange(start..<cursor)
      cursor = start
    case .tab:
      return completeWord(complete) ? .edited : .ignored
    case .paste(let text):
      // A task is one line: pasted line breaks and tabs become spaces, controls are left out.
      let cleaned = text.unicodeScalars.compactMap { scalar -> Character? in
        if scalar == "\n" || scalar == "\r" || scalar == "\t" { return " " }
        if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) { return nil }
        return Character(scalar)
      }
      characters.insert(contentsOf: cleaned, at: cursor)
      cursor += cleaned.count
    default: return .ignored
    }
    return .edited
  }

  /// The word before the cursor.
  package var currentWord: String {
    var start = cursor
    while start > 0, characters[start - 1] != " " { start -= 1 }
    return String(characters[start..<cursor])
  }

  /// Finishes the word before the cursor: with the one candidate (and a space), or with what
  /// all candidates share.
  private mutating func completeWord(_ complete: (String) -> [String]) -> Bool {
    let word = currentWord
    let candidates = complete(word).filter { $0.hasPrefix(word) }
    guard let first = candidates.first else { return false }
    var shared = first
    for candidate in candidates.dropFirst() {
      shared = String(zip(shared, candidate).prefix { $0 == $1 }.map(\.0))
    }
    var addition = Array(shared.dropFirst(word.count))
    if candidates.count == 1 { addition.append(" ") }
    guard !addition.isEmpty else { return false }
    characters.insert(contentsOf: addition, at: cursor)
    cursor += addition.count
    return true
  }
}
