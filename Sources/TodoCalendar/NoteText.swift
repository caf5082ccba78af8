/// A note's text as both sides compare it: a note file beside the list (`note:` names it)
/// and a VTODO's DESCRIPTION.
///
/// The two spell one text differently: a file ends with a line break and may use CR LF, a
/// DESCRIPTION has neither; a phone may put control characters in a DESCRIPTION that the
/// note command refuses in a file (an ESC would reach the terminal of `note --show`). Both
/// sides are read into this one form, so a text that only differs in spelling is no change,
/// and what is written into a file is that form with a final line break.
public enum NoteText {
  /// The text in the compared form: line breaks as LF, other control characters but TAB as
  /// U+FFFD, no line breaks or spaces at the end; nil for a text of only white space.
  public static func normalized(_ text: String) -> String? {
    // The common text (no CR, no control character) only loses its end, found in its bytes:
    // a note of megabytes is read on every sync.
    let clean = text.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
      var index = 0
      while index < bytes.count {
        let byte = bytes[index]
        if byte < 0x20, byte != 0x09, byte != 0x0A { return nil }
        if byte == 0x7F || (byte == 0xC2 && index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1])) {
          return nil
        }
        index += 1
      }
      var end = bytes.count
      while end > 0, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
      return end
    }
    if let clean, let end = clean {
      guard end > 0 else { return nil }
      return end == text.utf8.count ? text : String(decoding: text.utf8.prefix(end), as: UTF8.self)
    }
    return normalizedScalarByScalar(text)
  }

  /// ``normalized(_:)`` the long way, for text with a CR or a control character.
  static func normalizedScalarByScalar(_ text: String) -> String? {
    var scalars = String.UnicodeScalarView()
    var previousWasCR = false
    for scalar in text.unicodeScalars {
      defer { previousWasCR = scalar == "\r" }
      switch scalar {
      case "\r": scalars.append("\n")
      case "\n": if !previousWasCR { scalars.append("\n") }
      case "\t": scalars.append(scalar)
      default: scalars.append(ICalendarText.isControl(scalar) ? "\u{FFFD}" : scalar)
      }
    }
    while let last = scalars.last, last == "\n" || last == " " || last == "\t" { scalars.removeLast() }
    return scalars.isEmpty ? nil : String(scalars)
  }

  /// A note file's bytes in the compared form (invalid UTF-8 reads as U+FFFD).
  public static func normalized(file bytes: [UInt8]) -> String? {
    normalized(String(decoding: bytes, as: UTF8.self))
  }

  /// The bytes of a note file holding `text` (in the compared form): the text and a line break.
  public static func fileBytes(_ text: String) -> [UInt8] { Array(text.utf8) + [0x0A] }
}
