/// Splits a line of the interactive shell into words with a POSIX shell's quoting rules, and
/// nothing else: no variables, globs, tildes or command substitution, so `$5` and `*` are
/// plain text.
///
/// Blanks (space, tab, newline) separate words. A backslash keeps the next character as it
/// is. Single quotes keep everything up to the next single quote. Double quotes keep
/// everything up to the next double quote, where a backslash escapes only `"`, `\`, `$` and
/// `` ` `` (elsewhere it stays). `''` and `""` make an empty word.
///
/// One difference from `sh`, on purpose: people type English into the shell, so an
/// apostrophe inside a word is a letter. A single quote right after a letter or digit of the
/// same word (`Don't`, `students'`, `O'Brien`) is kept as typed and opens no quote; inside
/// single quotes, one between two letters or digits is kept too (`'Don't forget'` is one
/// word). Everywhere else a single quote quotes as in `sh`: at the start of a word
/// (`'two words'`), after `=` (`--query='a b'`), after another quote (`'it''s'`). A letter
/// here is an ASCII letter or digit or any character beyond ASCII.
package enum ShellWords {
  /// Why a line could not be split.
  package enum Failure: Error, Equatable {
    /// A quote that is never closed: the quote character and the column it stands in
    /// (1-based, counted in characters).
    case unterminatedQuote(Character, column: Int)

    /// The message for the user, lowercase, without a trailing period.
    package var message: String {
      switch self {
      case .unterminatedQuote(let quote, let column):
        let name = quote == "'" ? "single" : "double"
        return "unterminated \(name) quote: the \(quote) at column \(column) is never closed"
      }
    }
  }

  /// The words of `line`.
  ///
  /// - Throws: ``Failure/unterminatedQuote(_:column:)`` when a quote is left open.
  package static func split(_ line: String) throws(Failure) -> [String] {
    let bytes = Array(line.utf8)
    let scan = scan(bytes: bytes)
    if let quote = scan.openQuote, let offset = scan.openedAt {
      // The column in characters: the bytes before the quote, read back as text.
      let column = String(decoding: bytes[..<offset], as: UTF8.self).count + 1
      throw .unterminatedQuote(Character(Unicode.Scalar(quote)), column: column)
    }
    return scan.words.map { String(decoding: $0, as: UTF8.self) }
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
  static func scan(bytes line: [UInt8]) -> Scan {
    let space: UInt8 = 0x20, tab: UInt8 = 0x09, newline: UInt8 = 0x0A, cr: UInt8 = 0x0D
    let single: UInt8 = 0x27, double: UInt8 = 0x22, backslash: UInt8 = 0x5C
    /// What a backslash escapes inside double quotes: `"`, `\`, `$` and `` ` ``.
    let escapedInDouble: Set<UInt8> = [double, backslash, 0x24, 0x60]
    var words: [[UInt8]] = []
    var word: [UInt8] = []
    var inWord = false
    var quote: UInt8?
    var openedAt: Int?
    var apostrophes: [Int] = []
    var index = 0
    /// Whether the byte at `offset` is a letter or digit: ASCII, or a byte of a character
    /// beyond ASCII.
    func isLetter(at offset: Int) -> Bool {
      guard offset >= 0, offset < line.count else { return false }
      return ShellWords.isLetter(line[offset])
    }
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
        // `index - 1` is the quote's offset: between two letters it is an apostrophe.
        if byte != single {
          word.append(byte)
        } else if isLetter(at: index - 2) && isLetter(at: index) {
          word.append(byte)
          apostrophes.append(index - 1)
        } else {
          quote = nil
          openedAt = nil
        }
      case double?:
        if byte == double {
          quote = nil
          openedAt = nil
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
        if byte == single, isLetter(at: index - 2) {
          // An apostrophe: the byte before it is a letter of this very word (a blank would
          // have ended the word, and a quote or backslash is no letter).
          word.append(byte)
          apostrophes.append(index - 1)
        } else if byte == single || byte == double {
          quote = byte
          openedAt = index - 1
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
    return Scan(words: words, openQuote: quote, openedAt: openedAt, apostrophes: apostrophes)
  }

  /// What the scanner found in a line.
  struct Scan {
    var words: [[UInt8]]
    /// The quote left open at the end of the line, if any, and the offset of its byte.
    var openQuote: UInt8?
    var openedAt: Int?
    /// The offsets of the single quotes read as apostrophes (letters), where `sh` would have
    /// quoted: the one place the words differ from `sh`'s.
    var apostrophes: [Int]
  }

  /// An ASCII letter or digit, or a byte of a character beyond ASCII: what an apostrophe
  /// may follow.
  static func isLetter(_ byte: UInt8) -> Bool {
    byte >= 0x80 || (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte | 0x20)
  }

  /// `word` written so that ``split(_:)`` reads it back as one word: unchanged when it holds
  /// nothing special, else with a backslash before each blank, quote and backslash (an
  /// apostrophe after a letter is a letter, and stays as it is).
  package static func quote(_ word: String) -> String {
    if word.isEmpty { return "''" }
    var quoted = ""
    var previous: UInt8?
    for character in word {
      let isApostrophe = character == "'" && previous.map(isLetter) == true
      if !isApostrophe, isSpecial(character) { quoted.append("\\") }
      quoted.append(character)
      previous = character.utf8.last
    }
    // A backslash before a newline would join the lines; single quotes keep it.
    if word.contains("\n") { return "'" + word.replacingAll("'", with: "'\\''") + "'" }
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
