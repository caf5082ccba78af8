/// How one line of a file ends. Kept per line, so a file with mixed endings stays mixed.
public enum LineEnding: UInt8, Sendable {
  /// The last line of a file that does not end with a newline.
  case none
  /// `\n`, as Unix writes lines.
  case lf
  /// `\r\n`, as Windows writes lines.
  case crlf

  /// How many bytes the ending takes.
  public var byteCount: Int { Int(rawValue) }

  /// The ending's bytes (none for ``none``).
  public var bytes: [UInt8] {
    switch self {
    case .none: []
    case .lf: [.lf]
    case .crlf: [.cr, .lf]
    }
  }
}
