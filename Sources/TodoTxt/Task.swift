/// One line of a todo.txt file, kept exactly as written, with the meaning read from it.
///
/// A task stores its bytes (without the line ending) and the position of its parts; every
/// derived value (projects, contexts, tags, dates) is read from those bytes. An edit rewrites
/// only the bytes it must (see `Task+Editing.swift`), so a line nobody touched is written
/// back unchanged and an edited line differs only where the edit is.
///
/// Parsing never fails: a line that is not a well-formed task is a task whose body is the
/// whole line. Invalid UTF-8 is kept as bytes; ``text`` shows it with replacement characters.
public struct Task: Sendable {
  /// The line's bytes, without its line ending.
  public internal(set) var bytes: ArraySlice<UInt8>

  /// The line starts with `x` and a space.
  public internal(set) var isCompleted = false
  /// The date after `x `, when there is one.
  public internal(set) var completionDate: TaskDate?
  /// The creation date: the date after the priority (or first on the line), or on a
  /// completed task the second date.
  public internal(set) var creationDate: TaskDate?
  /// The priority written in the head of the line, in any of the placements seen in the wild.
  public internal(set) var headPriority: Priority?
  /// Where ``headPriority`` stands, so that edits can move or remove it.
  public internal(set) var priorityPlacement = PriorityPlacement.none
  /// Offset of the body from `bytes.startIndex`.
  public internal(set) var bodyOffset = 0

  /// Where a priority sits in the head of a line.
  public enum PriorityPlacement: Sendable {
    case none
    /// `(A) 2026-01-02 text`: the only form for an open task.
    case leading
    /// `x (A) 2026-01-05 2026-01-02 text`: the order drawn in the format's diagram.
    case afterMark
    /// `x 2026-01-05 (A) 2026-01-02 text`: Simpletask's way of keeping it.
    case afterCompletionDate
  }

  /// Parses a line (without its line ending).
  public init(bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
    parseHead()
  }

  /// Reads a line (without its ending); never fails, keeps every byte.
  public init(bytes: [UInt8]) { self.init(bytes: bytes[...]) }

  /// Parses a line of text; a line ending inside `line` stays part of the text.
  public init(parsing line: some StringProtocol) { self.init(bytes: Array(line.utf8)) }

  // MARK: Views of the line

  /// The whole line as text (invalid UTF-8 shown as U+FFFD).
  public var line: String { String(decoding: bytes, as: UTF8.self) }

  /// The body: everything after the completion mark, dates and priority.
  public var bodyBytes: ArraySlice<UInt8> { bytes[(bytes.startIndex + bodyOffset)...] }

  /// The body as text.
  public var text: String { String(decoding: bodyBytes, as: UTF8.self) }

  /// A blank line (nothing but spaces and tabs) holds a line number but is no task.
  public var isBlank: Bool { bytes.allSatisfy(\.isTaskWhitespace) }

  /// The priority that counts: the head priority, or for a completed task without one the
  /// `pri:` tag the spec recommends for keeping it.
  public var priority: Priority? {
    if let headPriority { return headPriority }
    return isCompleted ? keptPriority : nil
  }
}

extension Task: Hashable {
  /// Two tasks are equal when their lines are byte for byte the same.
  public static func == (lhs: Task, rhs: Task) -> Bool { lhs.bytes.elementsEqual(rhs.bytes) }
  public func hash(into hasher: inout Hasher) {
    bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
  }
}

extension Task: CustomStringConvertible {
  public var description: String { line }
}

extension UInt8 {
  static let space = UInt8(ascii: " ")
  static let tab = UInt8(ascii: "\t")
  static let lf = UInt8(ascii: "\n")
  static let cr = UInt8(ascii: "\r")
  static let colon = UInt8(ascii: ":")
  static let plus = UInt8(ascii: "+")
  static let at = UInt8(ascii: "@")
  static let slash = UInt8(ascii: "/")
  static let dash = UInt8(ascii: "-")
  static let openParen = UInt8(ascii: "(")
  static let closeParen = UInt8(ascii: ")")
  static let lowercaseX = UInt8(ascii: "x")

  /// Token separators inside a body: space, horizontal tab, and a carriage return that is not
  /// part of a CRLF line ending (a stray one must not end up inside a `+project` name).
  /// A no-break space is text.
  @inline(__always) package var isTaskWhitespace: Bool { self == .space || self == .tab || self == .cr }
}
