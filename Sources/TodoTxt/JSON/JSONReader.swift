/// A small JSON reader for `todo import`: one document, or several one after another (JSON
/// lines), each a value; errors name the line and column.
///
/// Strict where JSON is (no trailing commas, no comments, no control characters in strings)
/// and bounded where input may be hostile: values nest at most 64 deep, so a line of a
/// million `[` is an error, not a stack overflow.
package struct JSONReader {
  /// Where the text stops being JSON, and why.
  package struct Failure: Error {
    /// The 1-based line of the failure.
    package var line: Int
    /// The 1-based column, counted in characters (UTF-8 sequences), not bytes.
    package var column: Int
    /// What was expected or found, in lower case without a trailing period.
    package var message: String
  }

  private let bytes: [UInt8]
  private var position = 0
  private var depth = 0

  private init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// Every top-level value in the input, in order.
  package static func values(_ bytes: [UInt8]) throws(Failure) -> [JSONValue] {
    var reader = JSONReader(bytes)
    var values: [JSONValue] = []
    reader.skipSpace()
    while reader.position < bytes.count {
      values.append(try reader.value())
      reader.skipSpace()
    }
    return values
  }

  private func failure(_ message: String) -> Failure {
    var line = 1
    var column = 1
    for byte in bytes[..<min(position, bytes.count)] {
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return Failure(line: line, column: column, message: message)
  }

  private mutating func skipSpace() {
    while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
  }

  private mutating func expect(_ literal: String, _ value: JSONValue) throws(Failure) -> JSONValue {
    let utf8 = Array(literal.utf8)
    guard position + utf8.count <= bytes.count, Array(bytes[position..<(position + utf8.count)]) == utf8 else {
      throw failure("expected a JSON value")
    }
    position += utf8.count
    return value
  }

  private mutating func value() throws(Failure) -> JSONValue {
    skipSpace()
    guard position < bytes.count else { throw failure("expected a JSON value, found the end") }
    switch bytes[position] {
    case UInt8(ascii: "{"): return try object()
    case UInt8(ascii: "["): return try array()
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): return try expect("true", .bool(true))
    case UInt8(ascii: "f"): return try expect("false", .bool(false))
    case UInt8(ascii: "n"): return try expect("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    default: throw failure("expected a JSON value")
    }
  }

  private mutating func nested<T>(_ body: (inout JSONReader) throws(Failure) -> T) throws(Failure) -> T {
    depth += 1
    defer { depth -= 1 }
    guard depth <= 64 else { throw failure("nested too deeply") }
    return try body(&self)
  }

  private mutating func object() throws(Failure) -> JSONValue {
    try nested { reader throws(Failure) in
      reader.position += 1
      var members: [(String, JSONValue)] = []
      var names = Set<String>()
      reader.skipSpace()
      if reader.position < reader.bytes.count, reader.bytes[reader.position] == UInt8(ascii: "}") {
        reader.position += 1
        return .object(members)
      }
      while true {
        reader.skipSpace()
        guard reader.position < reader.bytes.count, reader.bytes[reader.position] == UInt8(ascii: "\"") else {
          throw reader.failure("expected a member name in quotes")
        }
        let nameStart = reader.position
        let name = try reader.string()
        // A repeated name is refused: which of the two values was meant is not known, and
        // taking one would drop the other without a word.
        guard names.insert(name).inserted else {
          reader.position = nameStart
          let shown = name.unicodeScalars.count <= 40 && name.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
          throw reader.failure(shown ? "'\(name)' is given twice in one object" : "a member name is given twice in one object")
        }
        reader.skipSpace()
        guard reader.position < reader.bytes.count, reader.bytes[reader.position] == UInt8(ascii: ":") else {
          throw reader.failure("expected ':'")
        }
        reader.position += 1
        members.append((name, try reader.value()))
        reader.skipSpace()
        guard reader.position < reader.bytes.count else { throw reader.failure("expected ',' or '}'") }
        let byte = reader.bytes[reader.position]
        reader.position += 1
        if byte == UInt8(ascii: "}") { return .object(members) }
        guard byte == UInt8(ascii: ",") else {
          reader.position -= 1
          throw reader.failure("expected ',' or '}'")
        }
      }
    }
  }

  private mutating func array() throws(Failure) -> JSONValue {
    try nested { reader throws(Failure) in
      reader.position += 1
      var elements: [JSONValue] = []
      reader.skipSpace()
      if reader.position < reader.bytes.count, reader.bytes[reader.position] == UInt8(ascii: "]") {
        reader.position += 1
        return .array(elements)
      }
      while true {
        elements.append(try reader.value())
        reader.skipSpace()
        guard reader.position < reader.bytes.count else { throw reader.failure("expected ',' or ']'") }
        let byte = reader.bytes[reader.position]
        reader.position += 1
        if byte == UInt8(ascii: "]") { return .array(elements) }
        guard byte == UInt8(ascii: ",") else {
          reader.position -= 1
          throw reader.failure("expected ',' or ']'")
        }
      }
    }
  }

  private mutating func number() throws(Failure) -> JSONValue {
    let start = position
    if bytes[position] == UInt8(ascii: "-") { position += 1 }
    let digits: (UInt8) -> Bool = { (48...57).contains($0) }
    guard position < bytes.count, digits(bytes[position]) else { throw failure("expected a digit") }
    while position < bytes.count, digits(bytes[position]) { position += 1 }
    if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
      position += 1
      guard position < bytes.count, digits(bytes[position]) else { throw failure("expected a digit") }
      while position < bytes.count, digits(bytes[position]) { position += 1 }
    }
    if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
      position += 1
      if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
        position += 1
      }
      guard position < bytes.count, digits(bytes[position]) else { throw failure("expected a digit") }
      while position < bytes.count, digits(bytes[position]) { position += 1 }
    }
    return .number(String(decoding: bytes[start..<position], as: UTF8.self))
  }

  private mutating func hex4() throws(Failure) -> UInt32 {
    guard position + 4 <= bytes.count else { throw failure("expected four hexadecimal digits") }
    var value: UInt32 = 0
    for byte in bytes[position..<(position + 4)] {
      let digit: UInt32
      switch byte {
      case 48...57: digit = UInt32(byte - 48)
      case 65...70: digit = UInt32(byte - 55)
      case 97...102: digit = UInt32(byte - 87)
      default: throw failure("expected four hexadecimal digits")
      }
      value = value << 4 | digit
    }
    position += 4
    return value
  }

  private mutating func string() throws(Failure) -> String {
    let start = position
    position += 1
    var result: [UInt8] = []
    while true {
      guard position < bytes.count else { throw failure("unterminated string") }
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        position += 1
        // Bytes that are not UTF-8 are refused, not replaced: an import must not change text
        // it was given without saying so.
        guard let text = String(validating: result, as: UTF8.self) else {
          position = start
          throw failure("string is not valid UTF-8")
        }
        return text
      }
      if byte < 0x20 { throw failure("control character in a string (write it as \\u00XX)") }
      guard byte == UInt8(ascii: "\\") else {
        result.append(byte)
        position += 1
        continue
      }
      position += 1
      guard position < bytes.count else { throw failure("unterminated string") }
      let escape = bytes[position]
      position += 1
      switch escape {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): result.append(escape)
      case UInt8(ascii: "b"): result.append(0x08)
      case UInt8(ascii: "f"): result.append(0x0C)
      case UInt8(ascii: "n"): result.append(0x0A)
      case UInt8(ascii: "r"): result.append(0x0D)
      case UInt8(ascii: "t"): result.append(0x09)
      case UInt8(ascii: "u"):
        let escapeStart = position - 2
        var code = try hex4()
        // Half of a surrogate pair alone is no character: an error, not U+FFFD.
        let lone = "lone surrogate '\\u\(String(code, radix: 16))' (half of a pair, not a character)"
        if (0xDC00...0xDFFF).contains(code) {
          position = escapeStart
          throw failure(lone)
        }
        if (0xD800...0xDBFF).contains(code) {
          guard position + 6 <= bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
          else {
            position = escapeStart
            throw failure(lone)
          }
          position += 2
          let low = try hex4()
          guard (0xDC00...0xDFFF).contains(low) else {
            position = escapeStart
            throw failure(lone)
          }
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(code) else {
          position = escapeStart
          throw failure(lone)
        }
        result.append(contentsOf: String(scalar).utf8)
      default:
        position -= 1
        throw failure("unknown escape '\\\(String(decoding: [escape], as: UTF8.self))'")
      }
    }
  }
}
