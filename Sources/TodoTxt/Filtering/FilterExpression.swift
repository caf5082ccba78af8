/// The query language, read into a ``TaskFilter``.
///
/// ```
/// query    = [ or-expr ]
/// or-expr  = and-expr { "or" and-expr }
/// and-expr = unary { [ "and" ] unary }          juxtaposition means and
/// unary    = ( "not" | "-" ) unary | primary
/// primary  = "(" or-expr ")" | test
/// test     = "done" | "open" | +project | @context | "quoted words" | /regex/[i]
///          | field op value | has:key | key:value | word
/// op       = ":" | "=" | "<" | "<=" | ">" | ">=" | ":<" | ":<=" | ":>" | ":>="
/// ```
///
/// Fields with meaning: `pri` (`A`…`Z`, `A-C`, `none`, `any`; `>` means more important),
/// `due`, `t`, `created`, `completed` (`YYYY-MM-DD`, `YYYY-MM`, `YYYY`, a relative date such as
/// `today`, `fri`, `+3d`, `-2w`, `eom`, or `none`/`any`). Any other `key:value` tests the tags
/// with that key. Plain words and quoted phrases look in the text after the head of the line
/// and ignore case unless they hold a capital letter; `+project` and `@context` name a whole
/// project or context with the same rule. `/regex/` is a POSIX extended regular expression
/// over the whole line, case-sensitive unless followed by `i`.
public enum FilterExpression {
  /// Parses `text` into a filter, or throws where it stops making sense.
  public static func parse(_ text: String) throws(FilterError) -> TaskFilter {
    var parser = Parser(text: text)
    return try parser.parseQuery()
  }

  /// Parses several command-line words as one query (joined with spaces, each word that
  /// holds a space quoted as a phrase when it is not already an expression).
  public static func parse(words: [String]) throws(FilterError) -> TaskFilter {
    try parse(words.joined(separator: " "))
  }
}

/// Where and why a query could not be read.
public struct FilterError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The query as given.
  public var expression: String
  /// 1-based column (in characters) where the problem is.
  public var position: Int
  /// What is wrong there, in words.
  public var message: String

  /// `query error at 7: expected ')'`.
  public var description: String { "query error at \(position): \(message)" }

  /// The query and a caret under the column, for a second and third line of a message.
  public var pointer: String {
    expression + "\n" + String(repeating: " ", count: max(0, position - 1)) + "^"
  }
}

private struct Parser {
  enum Kind: Equatable {
    case open
    case close
    case minus
    case word(String)
    case quoted(String)
    case regex(String, ignoringCase: Bool)
    case end
  }

  struct Token {
    var kind: Kind
    /// Byte offset in the query.
    var offset: Int
  }

  let text: String
  let bytes: [UInt8]
  var tokens: [Token] = []
  var index = 0

  init(text: String) {
    self.text = text
    bytes = Array(text.utf8)
  }

  func error(_ message: String, at offset: Int) -> FilterError {
    let column = String(decoding: bytes[..<min(offset, bytes.count)], as: UTF8.self).count + 1
    return FilterError(expression: text, position: column, message: message)
  }

  // MARK: Lexing

  mutating func lex() throws(FilterError) {
    var i = 0
    let n = bytes.count
    func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
    while i < n {
      let byte = bytes[i]
      if isSpace(byte) {
        i += 1
        continue
      }
      let start = i
      switch byte {
      case UInt8(ascii: "("):
        tokens.append(Token(kind: .open, offset: i))
        i += 1
      case UInt8(ascii: ")"):
        tokens.append(Token(kind: .close, offset: i))
        i += 1
      case UInt8(ascii: "-"):
        guard i + 1 < n, !isSpace(bytes[i + 1]), bytes[i + 1] != UInt8(ascii: ")") else {
          throw error("expected something to exclude after '-'", at: i + 1)
        }
        tokens.append(Token(kind: .minus, offset: i))
        i += 1
      case UInt8(ascii: "\""):
        i += 1
        var phrase: [UInt8] = []
        while i < n, bytes[i] != UInt8(ascii: "\"") {
          if bytes[i] == UInt8(ascii: "\\"), i + 1 < n { i += 1 }
          phrase.append(bytes[i])
          i += 1
        }
        guard i < n else { throw error("unterminated quotation: expected '\"'", at: start) }
        i += 1
        tokens.append(Token(kind: .quoted(String(decoding: phrase, as: UTF8.self)), offset: start))
      case UInt8(ascii: "/"):
        i += 1
        var pattern: [UInt8] = []
        while i < n, bytes[i] != UInt8(ascii: "/") {
          if bytes[i] == UInt8(ascii: "\\"), i + 1 < n, bytes[i + 1] == UInt8(ascii: "/") { i += 1 }
          pattern.append(bytes[i])
          i += 1
        }
        guard i < n else { throw error("unterminated regular expression: expected '/'", at: start) }
        i += 1
        var ignoringCase = false
        if i < n, bytes[i] == UInt8(ascii: "i"), i + 1 == n || isSpace(bytes[i + 1]) || bytes[i + 1] == 0x29 {
          ignoringCase = true
          i += 1
        }
        guard i == n || isSpace(bytes[i]) || bytes[i] == 0x29 || bytes[i] == 0x28 else {
          throw error("expected a space after the regular expression", at: i)
        }
        tokens.append(
          Token(kind: .regex(String(decoding: pattern, as: UTF8.self), ignoringCase: ignoringCase), offset: start))
      default:
        while i < n, !isSpace(bytes[i]), bytes[i] != UInt8(ascii: "("), bytes[i] != UInt8(ascii: ")") { i += 1 }
        tokens.append(Token(kind: .word(String(decoding: bytes[start..<i], as: UTF8.self)), offset: start))
      }
    }
    tokens.append(Token(kind: .end, offset: n))
  }

  // MARK: Grammar

  var current: Token { tokens[index] }

  func isKeyword(_ token: Token, _ names: String...) -> Bool {
    if case .word(let word) = token.kind { return names.contains(word) }
    return false
  }

  mutating func parseQuery() throws(FilterError) -> TaskFilter {
    try lex()
    if current.kind == .end { return .always }
    let filter = try parseOr()
    switch current.kind {
    case .end: return filter
    case .close: throw error("unmatched ')'", at: current.offset)
    default: throw error("unexpected '\(spelling(current))'", at: current.offset)
    }
  }

  mutating func parseOr() throws(FilterError) -> TaskFilter {
    var parts = [try parseAnd()]
    while isKeyword(current, "or", "OR") {
      index += 1
      try expectOperand(after: "or")
      parts.append(try parseAnd())
    }
    return parts.count == 1 ? parts[0] : .any(parts)
  }

  mutating func parseAnd() throws(FilterError) -> TaskFilter {
    var parts = [try parseUnary()]
    while true {
      if isKeyword(current, "and", "AND") {
        index += 1
        try expectOperand(after: "and")
        parts.append(try parseUnary())
        continue
      }
      switch current.kind {
      case .end, .close: break
      case .word where isKeyword(current, "or", "OR"): break
      default:
        parts.append(try parseUnary())
        continue
      }
      break
    }
    return parts.count == 1 ? parts[0] : .all(parts)
  }

  /// How deeply the operand being parsed is nested (brackets and negations).
  var depth = 0
  /// Deeper queries are refused: parsing and matching recurse once per level, and a query
  /// thousands of levels deep would overflow the stack instead of being an error.
  static let maximumDepth = 200

  mutating func parseUnary() throws(FilterError) -> TaskFilter {
    depth += 1
    defer { depth -= 1 }
    guard depth <= Parser.maximumDepth else {
      throw error("the query nests deeper than \(Parser.maximumDepth) levels of brackets and negations", at: current.offset)
    }
    if current.kind == .minus || isKeyword(current, "not", "NOT") {
      let word = current.kind == .minus ? "-" : "not"
      index += 1
      try expectOperand(after: word)
      return .not(try parseUnary())
    }
    return try parsePrimary()
  }

  /// Throws when the next token cannot start an operand.
  func expectOperand(after word: String) throws(FilterError) {
    switch current.kind {
    case .end: throw error("expected a test after '\(word)'", at: current.offset)
    case .close: throw error("expected a test after '\(word)', found ')'", at: current.offset)
    default:
      if isKeyword(current, "or", "OR", "and", "AND") {
        throw error("expected a test after '\(word)', found '\(spelling(current))'", at: current.offset)
      }
    }
  }

  mutating func parsePrimary() throws(FilterError) -> TaskFilter {
    let token = current
    switch token.kind {
    case .open:
      index += 1
      if current.kind == .close { throw error("expected a test inside '()'", at: current.offset) }
      let inner = try parseOr()
      guard current.kind == .close else { throw error("expected ')'", at: current.offset) }
      index += 1
      return inner
    case .close: throw error("unmatched ')'", at: token.offset)
    case .end: throw error("expected a test", at: token.offset)
    case .minus: throw error("unexpected '-'", at: token.offset)
    case .quoted(let phrase):
      index += 1
      return .text(TextPattern(phrase, smartCase: false))
    case .regex(let pattern, let ignoringCase):
      index += 1
      do {
        return .regex(try RegularExpression(pattern, ignoringCase: ignoringCase))
      } catch {
        throw self.error("bad regular expression: \(error.message)", at: token.offset)
      }
    case .word(let word):
      if isKeyword(token, "or", "OR", "and", "AND") {
        throw error("expected a test before '\(word)'", at: token.offset)
      }
      index += 1
      return try test(word, at: token.offset)
    }
  }

  func spelling(_ token: Token) -> String {
    switch token.kind {
    case .open: "("
    case .close: ")"
    case .minus: "-"
    case .word(let word): word
    case .quoted(let phrase): "\"\(phrase)\""
    case .regex(let pattern, _): "/\(pattern)/"
    case .end: "end of query"
    }
  }

  // MARK: Tests

  func test(_ word: String, at offset: Int) throws(FilterError) -> TaskFilter {
    switch word {
    case "done": return .completed(true)
    case "open": return .completed(false)
    default: break
    }
    let utf8 = Array(word.utf8)
    if utf8.count >= 2, utf8[0] == UInt8(ascii: "+") { return .project(TextPattern(String(word.dropFirst()))) }
    if utf8.count >= 2, utf8[0] == UInt8(ascii: "@") { return .context(TextPattern(String(word.dropFirst()))) }
    guard let (key, comparison, valueStart) = splitField(utf8) else {
      return .text(TextPattern(word, smartCase: false))
    }
    let value = String(decoding: utf8[valueStart...], as: UTF8.self)
    let valueOffset = offset + valueStart
    switch key {
    case "pri", "priority":
      return .priority(try priorityTest(comparison, value, at: valueOffset))
    case "due", "t", "threshold", "created", "completed":
      let field: TaskFilter.DateField =
        switch key {
        case "due": .due
        case "created": .created
        case "completed": .completed
        default: .threshold
        }
      return .date(field, try dateTest(key, comparison, value, at: valueOffset))
    case "has":
      guard comparison == .equal, !value.isEmpty else { throw error("expected a name after 'has:'", at: valueOffset) }
      switch value {
      case "pri", "priority": return .has(.priority)
      case "project", "projects": return .has(.project)
      case "context", "contexts": return .has(.context)
      case "created": return .has(.creationDate)
      case "completed": return .has(.completionDate)
      default: return .has(.tag(value))
      }
    default:
      // `http://host` and `a:b:c` are text in a task, and so they are here.
      guard !value.isEmpty, !value.hasPrefix("//"), !value.contains(":") else {
        return .text(TextPattern(word, smartCase: false))
      }
      return .tag(key: key, comparison, TagOperand(value))
    }
  }

  /// `key`, the comparison and where the value starts, when `word` has the shape of a field
  /// test (a key without `:<>=`, then an operator).
  func splitField(_ utf8: [UInt8]) -> (String, TaskFilter.Comparison, Int)? {
    let operators: Set<UInt8> = [UInt8(ascii: ":"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "=")]
    guard let first = utf8.firstIndex(where: { operators.contains($0) }), first > 0 else { return nil }
    let key = String(decoding: utf8[..<first], as: UTF8.self)
    var position = first
    if utf8[position] == UInt8(ascii: ":") { position += 1 }
    var comparison = TaskFilter.Comparison.equal
    if position < utf8.count {
      switch utf8[position] {
      case UInt8(ascii: "<"):
        comparison = .less
        position += 1
      case UInt8(ascii: ">"):
        comparison = .greater
        position += 1
      case UInt8(ascii: "="):
        position += 1
        return (key, .equal, position)
      default: break
      }
    }
    if comparison != .equal, position < utf8.count, utf8[position] == UInt8(ascii: "=") {
      comparison = comparison == .less ? .lessOrEqual : .greaterOrEqual
      position += 1
    }
    if utf8[first] != UInt8(ascii: ":"), utf8[first] != UInt8(ascii: "="), comparison == .equal { return nil }
    return (key, comparison, position)
  }

  func priorityTest(_ comparison: TaskFilter.Comparison, _ value: String, at offset: Int) throws(FilterError)
    -> TaskFilter.PriorityTest
  {
    // A letter in either case, or a word (`high`, `medium`, `med`, `low`); `h`, `m` and `l`
    // stay letters here, as they always were in queries.
    func priority(_ text: Substring) -> Priority? {
      text.count > 1 ? Priority(word: text) : Priority(text.uppercased())
    }
    if comparison == .equal {
      if value == "none" { return .none }
      if value == "any" { return .any }
      let parts = value.split(separator: "-", omittingEmptySubsequences: false)
      if parts.count == 2, let low = priority(parts[0]), let high = priority(parts[1]) {
        return .range(min(low, high), max(low, high))
      }
    }
    guard let priority = priority(Substring(value)) else {
      throw error(
        "expected a priority (A to Z, high, medium, low, a range such as A-C, none or any), found '\(value)'",
        at: offset)
    }
    return .compare(comparison, priority)
  }

  func dateTest(_ key: String, _ comparison: TaskFilter.Comparison, _ value: String, at offset: Int)
    throws(FilterError) -> TaskFilter.DateTest
  {
    if comparison == .equal, value == "none" { return .absent }
    if comparison == .equal, value == "any" { return .present }
    guard !value.isEmpty else {
      throw error("expected a date after '\(key)\(comparison == .equal ? ":" : comparison.rawValue)'", at: offset)
    }
    guard let operand = DateOperand(value) else {
      throw error("'\(value)' is not a date (2026-11-30, 2026-11, today, fri, +3d, -2w, eom, none ...)", at: offset)
    }
    return .compare(comparison, operand)
  }
}
