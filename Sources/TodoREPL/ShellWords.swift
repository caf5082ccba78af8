/// Splits a line of the interactive shell into words with a POSIX shell's quoting rules, and
/// nothing else: no variables, globs, tildes or command substitution, so `$5` and `*` are
/// plain text.
///
/// Blanks (space, tab, newline) separate words. A backslash keeps the next character as it
/// is. Single quotes keep everything up to the next single quote. Double quotes keep
/// everything up to the next double quote, where a backslash escapes only `"`, `\`, `$` and
/// `` ` `` (elsewhere it stays). `''` and `""` make an empty word.
package enum ShellWords {
  /// Why a line could not be split.
  package enum Failure: Error, Equatable {
    /// A quote that is never closed, with the quote character.
    case unterminatedQuote(Character)

    /// The message for the user, lowercase, without a trailing period.
    package var message: String {
      switch self {
      case .unterminatedQuote(let quote):
        return "unterminated \(quote == "'" ? "single" : "double") quote"
      }
    }
  }

  /// The words of `line`.
  ///
  /// - Throws: ``Failure/unterminatedQuote(_:)`` when a quote is left open.
  package static func split(_ line: String) throws(Failure) -> [String] {
    let scan = scan(line)
    if let quote = scan.openQuote { throw .unterminatedQuote(quote) }
    return scan.words
  }

  /// The words of a line that may end inside a word or a quote, as it is while being typed.
  ///
  /// The last word is included when the line ends inside it (`openQuote` says whether a quote
  /// is still open); a line that ends in blanks ends with a finished word.
  package static func scan(_ line: String) -> (words: [String], openQuote: Character?) {
    let scan = scan(bytes: Array(line.utf8))
    return (scan.words.map { String(decoding: $0, as: UTF8.self) }, scan.openQuote.map { Character(Unicode.Scalar($0)) })
  }

  /// The words of a line given as bytes (a line that is not UTF-8 keeps its bytes); `nil`
  /// when a quote is left open.
  package static func split(bytes line: [UInt8]) -> [[UInt8]]? {
    let scan = scan(bytes: line)
    return scan.openQuote == nil ? scan.words : nil
  }

  /// The one scanner. Every byte the rules look at is ASCII, so a line is read a byte at a
  /// time: the bytes of a multi-byte character are plain text wherever they are, and a
  /// backslash keeps the byte after it (the rest of that character follows as plain text).
  static func scan(bytes line: [UInt8]) -> (words: [[UInt8]], openQuote: UInt8?) {
    let space: UInt8 = 0x20, tab: UInt8 = 0x09, newline: UInt8 = 0x0A, cr: UInt8 = 0x0D
    let single: UInt8 = 0x27, double: UInt8 = 0x22, backslash: UInt8 = 0x5C
    /// What a backslash escapes inside double quotes: `"`, `\`, `$` and `` ` ``.
    let escapedInDouble: Set<UInt8> = [double, backslash, 0x24, 0x60]
    var words: [[UInt8]] = []
    var word: [UInt8] = []
    var inWord = false
    var quote: UInt8?
    var index = 0
    /// The byte after a backslash, or `nil` when the line ends there (the backslash stays).
    func escaped() -> UInt8? {
      guard index < line.count else { return nil }
      index += 1
      return line[index - 1]
    }
    while index < line.count {
      let byte = line[index]
      index += 1
      switch quote {
      case single?:
        if byte == single { quote = nil } else { word.append(byte) }
      case double?:
        if byte == double {
          quote = nil
        } else if byte == backslash {
          guard let next = escaped() else {
            word.append(byte)
            break
          }
          if !escapedInDouble.contains(next) { word.append(byte) }
          if next != newline { word.append(next) }
        } else {
          word.append(byte)
        }
      default:
        // CR LF is one blank, as it is one character of text.
        let isCRLF = byte == cr && index < line.count && line[index] == newline
        if byte == space || byte == tab || byte == newline || isCRLF {
          if isCRLF { index += 1 }
          if inWord { words.append(word) }
          word = []
          inWord = false
          continue
        }
        inWord = true
        if byte == single || byte == double {
          quote = byte
        } else if byte == backslash {
          guard let next = escaped() else {
            word.append(byte)
            break
          }
          if next != newline { word.append(next) }
        } else {
          word.append(byte)
        }
      }
    }
    if inWord { words.append(word) }
    return (words, quote)
  }

  /// `word` written so that ``split(_:)`` reads it back as one word: unchanged when it holds
  /// nothing special, else with a backslash before each blank, quote and backslash.
  package static func quote(_ word: String) -> String {
    if word.isEmpty { return "''" }
    guard word.contains(where: isSpecial) else { return word }
    // A backslash before a newline would join the lines; single quotes keep it.
    if word.contains("\n") { return "'" + word.replacingAll("'", with: "'\\''") + "'" }
    var quoted = ""
    for character in word {
      if isSpecial(character) { quoted.append("\\") }
      quoted.append(character)
    }
    return quoted
  }

  private static func isSpecial(_ character: Character) -> Bool {
    character == " " || character == "\t" || character == "\n" || character == "'"
      || character == "\""
      || character == "\\"
  }
}

extension String {
  fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
    var result = ""
    for character in self {
      if character == target { result += replacement } else { result.append(character) }
    }
    return result
  }
}
