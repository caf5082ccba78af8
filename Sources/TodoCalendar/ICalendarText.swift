/// The byte-level rules of RFC 5545 that every property shares: TEXT escaping, value lists and
/// line folding. Kept apart from the model so the parser, the writer and the mapping agree.
public enum ICalendarText {
  /// The longest line a writer may produce, in octets, without its CRLF (RFC 5545 3.1).
  public static let foldWidth = 75

  // MARK: TEXT values

  /// A TEXT value as written: backslash, semicolon and comma escaped, a line break (LF, CRLF
  /// or a lone CR) written `\n`.
  ///
  /// TEXT may hold no other control character than a tab; each of those (NUL, ESC, DEL, the
  /// C1 controls) becomes U+FFFD, so that what a client shows cannot drive its terminal and a
  /// strict server does not refuse the object. Reading it back gives U+FFFD where it was.
  public static func escape(_ text: String) -> String {
    // Over the UTF-8 bytes: a string built scalar by scalar costs a copy per append.
    let input = Array(text.utf8)
    var result: [UInt8] = []
    result.reserveCapacity(input.count + input.count / 8)
    let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
    var i = 0
    while i < input.count {
      let byte = input[i]
      switch byte {
      case UInt8(ascii: "\\"), UInt8(ascii: ";"), UInt8(ascii: ","): result += [UInt8(ascii: "\\"), byte]
      case 0x0D:
        result += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
        if i + 1 < input.count, input[i + 1] == 0x0A { i += 1 }
      case 0x0A: result += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
      case 0x09: result.append(byte)
      case 0xC2 where i + 1 < input.count && (0x80...0x9F).contains(input[i + 1]):
        // A C1 control, U+0080 to U+009F.
        result += replacement
        i += 1
      default:
        if byte < 0x20 || byte == 0x7F { result += replacement } else { result.append(byte) }
      }
      i += 1
    }
    return String(decoding: result, as: UTF8.self)
  }

  /// A TEXT value as it reads: `\\`, `\;`, `\,`, `\n` and `\N` undone. A backslash before
  /// anything else is kept with what follows (as clients write `\:` and the like); invalid
  /// UTF-8 reads as U+FFFD.
  public static func unescape(_ value: some Collection<UInt8>) -> String {
    String(decoding: unescapedBytes(value), as: UTF8.self)
  }

  static func unescapedBytes(_ value: some Collection<UInt8>) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(value.count)
    var escaped = false
    for byte in value {
      if escaped {
        switch byte {
        case UInt8(ascii: "n"), UInt8(ascii: "N"): result.append(0x0A)
        case UInt8(ascii: "\\"), UInt8(ascii: ";"), UInt8(ascii: ","): result.append(byte)
        default: result += [UInt8(ascii: "\\"), byte]
        }
        escaped = false
      } else if byte == UInt8(ascii: "\\") {
        escaped = true
      } else {
        result.append(byte)
      }
    }
    if escaped { result.append(UInt8(ascii: "\\")) }
    return result
  }

  /// The values of a TEXT list (CATEGORIES, RESOURCES): split at each comma not escaped,
  /// each value unescaped. An empty value yields an empty list.
  public static func unescapeList(_ value: some Collection<UInt8>) -> [String] {
    guard !value.isEmpty else { return [] }
    var parts: [String] = []
    var current: [UInt8] = []
    var escaped = false
    for byte in value {
      if escaped {
        current += [UInt8(ascii: "\\"), byte]
        escaped = false
      } else if byte == UInt8(ascii: "\\") {
        escaped = true
      } else if byte == UInt8(ascii: ",") {
        parts.append(unescape(current))
        current.removeAll(keepingCapacity: true)
      } else {
        current.append(byte)
      }
    }
    if escaped { current.append(UInt8(ascii: "\\")) }
    parts.append(unescape(current))
    return parts
  }

  /// A TEXT list written: each value escaped, joined by commas.
  public static func escapeList(_ values: [String]) -> String {
    values.map(escape).joined(separator: ",")
  }

  /// C0 controls but tab and line breaks, DEL and the C1 controls.
  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r")
      || (0x7F...0x9F).contains(scalar.value)
  }

  // MARK: Folding

  /// A content line (without line break) folded so that no physical line exceeds
  /// ``foldWidth`` octets: each continuation starts with one space, which counts. A fold
  /// never splits a UTF-8 sequence (invalid bytes are split anywhere). Every line ends in
  /// CRLF. Linear in the length.
  public static func fold(_ line: some Collection<UInt8>) -> [UInt8] {
    let bytes = Array(line)
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count + bytes.count / 36 + 2)
    var start = 0
    var limit = foldWidth
    while bytes.count - start > limit {
      var end = start + limit
      // Back up to the start of a UTF-8 sequence, at most three bytes (a longer run of
      // continuation bytes is not UTF-8 and may be cut).
      var backed = end
      while backed > start + 1, end - backed < 3, bytes[backed] & 0xC0 == 0x80 { backed -= 1 }
      if bytes[backed] & 0xC0 != 0x80, backed > start { end = backed }
      if start > 0 { result.append(0x20) }
      result += bytes[start..<end]
      result += [0x0D, 0x0A]
      start = end
      limit = foldWidth - 1
    }
    if start > 0 { result.append(0x20) }
    result += bytes[start...]
    result += [0x0D, 0x0A]
    return result
  }
}
