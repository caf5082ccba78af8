/// Why bytes are not an iCalendar object this tool reads, typed where the parser raises it and
/// worded once, in `description`, as a one-line message for the person.
///
/// Whatever is not one of these is read without loss: a line inside a component that is no
/// content line is kept as it came (see ``ICalendarComponent/Item/verbatim(_:)``).
public enum ICalendarError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The object is larger than the limit the reader was given.
  case tooLarge(size: Int, limit: Int)
  /// More content lines than the limit (each costs memory: a flood of tiny lines is refused
  /// before it is held).
  case tooManyLines(limit: Int)
  /// Components nest deeper than the limit (a nesting bomb) at this line (1-based, physical).
  case tooDeep(line: Int, limit: Int)
  /// A `BEGIN:` or `END:` line without a component name.
  case unnamedComponent(line: Int)
  /// An `END:` that closes another component than the one open (or none).
  case mismatchedEnd(line: Int, expected: String?, found: String)
  /// The bytes end while a component is still open.
  case unterminated(component: String)
  /// Text outside any component.
  case outsideComponent(line: Int)
  /// No component at all.
  case empty

  public var description: String {
    switch self {
    case .tooLarge(let size, let limit): return "the calendar object is \(size) bytes, more than the limit of \(limit)"
    case .tooManyLines(let limit): return "the calendar object has more than \(limit) lines"
    case .tooDeep(let line, let limit): return "line \(line): components nest deeper than \(limit) levels"
    case .unnamedComponent(let line): return "line \(line): BEGIN or END without a component name"
    case .mismatchedEnd(let line, let expected, let found):
      return "line \(line): END:\(ICalendarError.shown(found)) closes "
        + (expected.map { "BEGIN:\(ICalendarError.shown($0))" } ?? "no open component")
    case .unterminated(let component): return "the calendar object ends inside \(ICalendarError.shown(component))"
    case .outsideComponent(let line): return "line \(line): text outside BEGIN and END"
    case .empty: return "the calendar object holds no component"
    }
  }

  /// A name from the input, safe to print: at most 40 characters, controls shown as `?`.
  static func shown(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.prefix(40).map {
      $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "?" : $0
    }))
  }
}
