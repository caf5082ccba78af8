/// Reads the plain configuration files most people have (`export TODO_DIR="$HOME/todo"`,
/// todo.sh's shipped `: ${TODO_FILE:="$TODO_DIR/todo.txt"}`) without starting bash, which
/// saves a few milliseconds on every run.
///
/// Only a small, exactly understood part of the shell language is accepted: assignments
/// (with `export`), `export NAME…`, `: ${NAME:=VALUE}`, `shopt` lines, comments and blank
/// lines; values made of plain characters, `~` at the start, `$NAME`, `${NAME}`,
/// `${NAME:-WORD}`, `${NAME:=WORD}`, and single or double quotes. Anything else — a command,
/// a command substitution, a backslash, a glob, `$0` — returns `nil` and the file goes to
/// bash, so the result is always what bash would give.
struct SimpleShellConfiguration {
  /// The variables after running `text` with `variables` as the environment, or `nil` when
  /// the file needs a real shell.
  static func evaluate(_ text: String, variables: [String: String]) -> [String: String]? {
    var vars = variables
    for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var line = Substring(rawLine)
      if line.hasSuffix("\r") { return nil }
      line = line.drop { $0 == " " || $0 == "\t" }
      while line.last == " " || line.last == "\t" { line.removeLast() }
      if line.isEmpty || line.hasPrefix("#") { continue }
      if line.hasPrefix("shopt ") {
        // Shell options change how later lines are read, never a variable's value; the
        // accepted grammar is read the same way under any of them.
        continue
      }
      if line.hasPrefix(": ") {
        // `: ${NAME:=VALUE}` assigns a default; `: ${NAME:-VALUE}` does nothing.
        let rest = line.dropFirst(2).drop { $0 == " " }
        guard var parser = Parser(rest, vars), parser.expandWord(), parser.atEnd else { return nil }
        vars = parser.vars
        continue
      }
      var words = line
      var exported = false
      if words.hasPrefix("export ") {
        exported = true
        words = words.dropFirst(7).drop { $0 == " " }
      }
      // Either NAME=VALUE (one assignment) or, after export, a list of names.
      guard let equals = words.firstIndex(of: "=") else {
        guard exported else { return nil }
        let names = words.split(separator: " ")
        guard names.allSatisfy(isName) else { return nil }
        continue
      }
      let name = words[..<equals]
      guard isName(name) else { return nil }
      guard var parser = Parser(words[words.index(after: equals)...], vars) else { return nil }
      guard let value = parser.value(), parser.atEnd else { return nil }
      vars = parser.vars
      vars[String(name)] = value
    }
    return vars
  }

  static func isName(_ text: Substring) -> Bool {
    guard let first = text.first, first == "_" || first.isASCII && first.isLetter else { return false }
    return text.allSatisfy { $0 == "_" || $0.isASCII && ($0.isLetter || $0.isNumber) }
  }

  /// Reads one shell word and expands it.
  struct Parser {
    var text: [Character]
    var index = 0
    var vars: [String: String]

    init?(_ text: Substring, _ vars: [String: String]) {
      self.text = Array(text)
      self.vars = vars
    }

    var atEnd: Bool { index == text.count }

    static let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:@%+,=-")

    /// The value of a word that must fill the rest of the line.
    mutating func value() -> String? {
      var result = ""
      if index < text.count, text[index] == "~" {
        let next = index + 1
        guard next == text.count || text[next] == "/" else { return nil }
        result += vars["HOME"] ?? ""
        index += 1
      }
      while index < text.count {
        let character = text[index]
        if character == "'" {
          guard let close = text[(index + 1)...].firstIndex(of: "'") else { return nil }
          result += String(text[(index + 1)..<close])
          index = close + 1
        } else if character == "\"" {
          index += 1
          while index < text.count, text[index] != "\"" {
            if text[index] == "$" {
              guard let expansion = expansion() else { return nil }
              result += expansion
            } else if text[index] == "\\" || text[index] == "`" {
              return nil
            } else {
              result.append(text[index])
              index += 1
            }
          }
          guard index < text.count else { return nil }
          index += 1
        } else if character == "$" {
          guard let expansion = expansion() else { return nil }
          result += expansion
        } else if Parser.plain.contains(character) {
          result.append(character)
          index += 1
        } else {
          return nil
        }
      }
      return result
    }

    /// A word that is only an expansion, for `: ${NAME:=VALUE}`.
    mutating func expandWord() -> Bool {
      guard index < text.count, text[index] == "$" else { return false }
      return expansion() != nil
    }

    /// `$NAME`, `${NAME}`, `${NAME:-WORD}` or `${NAME:=WORD}` at `index`.
    mutating func expansion() -> String? {
      index += 1
      guard index < text.count else { return nil }
      if text[index] != "{" {
        let start = index
        while index < text.count, text[index] == "_" || text[index].isASCII && (text[index].isLetter || text[index].isNumber) {
          index += 1
        }
        let name = String(text[start..<index])
        guard isName(Substring(name)) else { return nil }
        return vars[name] ?? ""
      }
      index += 1
      let start = index
      while index < text.count, text[index] == "_" || text[index].isASCII && (text[index].isLetter || text[index].isNumber) {
        index += 1
      }
      let name = String(text[start..<index])
      guard isName(Substring(name)), index < text.count else { return nil }
      if text[index] == "}" {
        index += 1
        return vars[name] ?? ""
      }
      guard index + 1 < text.count, text[index] == ":", text[index + 1] == "-" || text[index + 1] == "=" else {
        return nil
      }
      let assigns = text[index + 1] == "="
      index += 2
      // The default word runs to the matching brace; it may itself hold quotes and expansions.
      var word = ""
      while index < text.count, text[index] != "}" {
        let character = text[index]
        if character == "$" {
          guard let inner = expansion() else { return nil }
          word += inner
        } else if character == "\"" {
          index += 1
          while index < text.count, text[index] != "\"" {
            if text[index] == "$" {
              guard let inner = expansion() else { return nil }
              word += inner
            } else if text[index] == "\\" || text[index] == "`" {
              return nil
            } else {
              word.append(text[index])
              index += 1
            }
          }
          guard index < text.count else { return nil }
          index += 1
        } else if Parser.plain.contains(character) || character == " " {
          word.append(character)
          index += 1
        } else {
          return nil
        }
      }
      guard index < text.count else { return nil }
      index += 1
      let current = vars[name] ?? ""
      if !current.isEmpty { return current }
      if assigns { vars[name] = word }
      return word
    }

    func isName(_ text: Substring) -> Bool { SimpleShellConfiguration.isName(text) }
  }
}
