/// Splits a line of the interactive shell into words with a POSIX shell's quoting rules, and
/// nothing else: no variables, globs, tildes or command substitution, so `$5` and `*` are
/// plain text.
///
/// Blanks (space, tab, newline) separate words. A backslash keeps the next character as it
/// is. Single quotes keep everything up to the next single quote. Double quotes keep
/// everything up to the next double quote, where a backslash escapes only `"`, `\`, `$` and
/// `` ` `` (elsewhere it stays). `''` and `""` make an empty word.
public enum ShellWords {
  /// Why a line could not be split.
  public enum Failure: Error, Equatable {
    /// A quote that is never closed, with the quote character.
    case unterminatedQuote(Character)

    /// The message for the user, lowercase, without a trailing period.
    public var message: String {
      switch self {
      case .unterminatedQuote(let quote):
        return "unterminated \(quote == "'" ? "single" : "double") quote"
      }
    }
  }

  /// The words of `line`.
  ///
  /// - Throws: ``Failure/unterminatedQuote(_:)`` when a quote is left open.
  public static func split(_ line: String) throws(Failure) -> [String] {
    let scan = scan(line)
    if let quote = scan.openQuote { throw .unterminatedQuote(quote) }
    return scan.words
  }

  /// The words of a line that may end inside a word or a quote, as it is while being typed.
  ///
  /// The last word is included when the line ends inside it (`openQuote` says whether a quote
  /// is still open); a line that ends in blanks ends with a finished word.
  public static func scan(_ line: String) -> (words: [String], openQuote: Character?) {
    var words: [String] = []
    var word = ""
    var inWord = false
    var quote: Character?
    var characters = line.makeIterator()
    while let character = characters.next() {
      switch quote {
      case "'":
        if character == "'" { quote = nil } else { word.append(character) }
      case "\"":
        if character == "\"" {
          quote = nil
        } else if character == "\\" {
          guard let next = characters.next() else {
            word.append(character)
            break
          }
          if !"\"\\$`".contains(next) { word.append(character) }
          if next != "\n" { word.append(next) }
        } else {
          word.append(character)
        }
      default:
        if character == " " || character == "\t" || character == "\n" || character == "\r\n" {
          if inWord { words.append(word) }
          word = ""
          inWord = false
          continue
        }
        inWord = true
        if character == "'" || character == "\"" {
          quote = character
        } else if character == "\\" {
          // A final backslash has nothing to escape and stays as it is.
          guard let next = characters.next() else {
            word.append(character)
            break
          }
          if next != "\n" { word.append(next) }
        } else {
          word.append(character)
        }
      }
    }
    if inWord { words.append(word) }
    return (words, quote)
  }

  /// The words of a line given as bytes, by the rules of ``split(_:)`` (every byte they look
  /// at is ASCII, so each word is the bytes of the word ``split(_:)`` returns, before any
  /// repair of bytes that are not UTF-8); `nil` when a quote is left open.
  public static func split(bytes line: [UInt8]) -> [[UInt8]]? {
    let space: UInt8 = 0x20, tab: UInt8 = 0x09, newline: UInt8 = 0x0A, cr: UInt8 = 0x0D
    let single: UInt8 = 0x27, double: UInt8 = 0x22, backslash: UInt8 = 0x5C
    var words: [[UInt8]] = []
    var word: [UInt8] = []
    var inWord = false
    var quote: UInt8?
    var index = 0
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
          guard index < line.count else {
            word.append(byte)
            break
          }
          let next = line[index]
          index += 1
          if ![double, backslash, 0x24, 0x60].contains(next) { word.append(byte) }
          if next != newline { word.append(next) }
        } else {
          word.append(byte)
        }
      default:
        // CR LF is one blank, as the pair is one character to ``split(_:)``.
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
          guard index < line.count else {
            word.append(byte)
            break
          }
          let next = line[index]
          index += 1
          if next != newline { word.append(next) }
        } else {
          word.append(byte)
        }
      }
    }
    if quote != nil { return nil }
    if inWord { words.append(word) }
    return words
  }

  /// `word` written so that ``split(_:)`` reads it back as one word: unchanged when it holds
  /// nothing special, else with a backslash before each blank, quote and backslash.
  public static func quote(_ word: String) -> String {
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
