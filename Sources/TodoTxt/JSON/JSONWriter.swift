/// Writes JSON text into a byte buffer, a token at a time: what ``JSONStreamEncoder`` writes
/// records with, and what the commands whose output is no record (`stats`, `info`) write
/// their objects with.
///
/// Strings are escaped so that any task gives valid JSON that every reader takes whole:
/// control characters, DEL and the two line separators JavaScript treats as line breaks
/// (U+2028, U+2029) become `\uXXXX` (`\n`, `\t` and the other short escapes where JSON has
/// one); invalid UTF-8 has become U+FFFD before it gets here (Swift strings hold none).
package struct JSONWriter {
  /// The text written so far.
  package var bytes: [UInt8] = []

  package init() {}

  /// Appends `text` as it is: punctuation and member names known to need no escape.
  package mutating func raw(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// Appends a number.
  package mutating func number(_ value: Int) { bytes.append(contentsOf: String(value).utf8) }

  /// Appends `true` or `false`.
  package mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

  /// Appends `text` as a JSON string, in quotes and escaped.
  package mutating func string(_ text: String) {
    var text = text
    text.withUTF8 { escaped($0) }
  }

  /// Appends bytes as a JSON string; invalid UTF-8 becomes U+FFFD.
  package mutating func string(bytes line: some Collection<UInt8>) { string(String(decoding: line, as: UTF8.self)) }

  /// Appends `text` as a string, or `null`.
  package mutating func optional(_ text: String?) {
    if let text { string(text) } else { raw("null") }
  }

  /// Appends an array of strings.
  package mutating func strings(_ texts: [String]) {
    bytes.append(UInt8(ascii: "["))
    for (index, text) in texts.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      string(text)
    }
    bytes.append(UInt8(ascii: "]"))
  }

  /// The quoted, escaped form of valid UTF-8. Runs of bytes that need no escape are copied
  /// whole; a task's text is mostly such a run.
  private mutating func escaped(_ utf8: UnsafeBufferPointer<UInt8>) {
    bytes.append(UInt8(ascii: "\""))
    var start = 0
    var index = 0
    let count = utf8.count
    while index < count {
      let byte = utf8[index]
      // Everything from the space up is itself, but the quote, the backslash, DEL and the
      // first byte of U+2028/U+2029 (E2 80 A8/A9), which is looked at more closely.
      if byte >= 0x20, byte != 0x22, byte != 0x5C, byte != 0x7F, byte != 0xE2 {
        index += 1
        continue
      }
      var width = 1
      if byte == 0xE2 {
        guard index + 2 < count, utf8[index + 1] == 0x80, utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9 else {
          index += 1
          continue
        }
        width = 3
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
      switch byte {
      case 0x22: raw("\\\"")
      case 0x5C: raw("\\\\")
      case 0x0A: raw("\\n")
      case 0x0D: raw("\\r")
      case 0x09: raw("\\t")
      case 0x08: raw("\\b")
      case 0x0C: raw("\\f")
      case 0xE2: utf8[index + 2] == 0xA8 ? raw("\\u2028") : raw("\\u2029")
      default: unicodeEscape(byte)
      }
      index += width
      start = index
    }
    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<count]))
    bytes.append(UInt8(ascii: "\""))
  }

  /// `\u00XX` in lower-case hexadecimal, for a control character or DEL.
  private mutating func unicodeEscape(_ byte: UInt8) {
    let digits: StaticString = "0123456789abcdef"
    raw("\\u00")
    digits.withUTF8Buffer { hex in
      bytes.append(hex[Int(byte >> 4)])
      bytes.append(hex[Int(byte & 0x0F)])
    }
  }
}
