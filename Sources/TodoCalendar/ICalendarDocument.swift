/// An iCalendar object (RFC 5545) read without loss: the components in order, each property
/// with the bytes it came as, so that writing it back gives the same bytes and a change
/// rewrites only the lines it touches.
///
/// Reading accepts CRLF or bare LF line breaks and unfolds continuation lines (a line that
/// starts with a space or a tab). It is linear in the size of the input and bounded by
/// ``Limits``: hostile input ends in an ``ICalendarError`` or in a document that writes back
/// the same bytes, never in a crash.
public struct ICalendarDocument: Equatable, Sendable {
  /// How much a reader takes before it refuses.
  public struct Limits: Equatable, Sendable {
    /// The largest object, in bytes.
    public var maximumBytes: Int
    /// The most content lines (after unfolding).
    public var maximumLines: Int
    /// The deepest nesting of components (`VCALENDAR` → `VTODO` → `VALARM` is three).
    public var maximumDepth: Int

    public init(maximumBytes: Int = 32 << 20, maximumLines: Int = 200_000, maximumDepth: Int = 16) {
      self.maximumBytes = maximumBytes
      self.maximumLines = maximumLines
      self.maximumDepth = maximumDepth
    }

    /// Room for a 10 MB description or attachment, for a calendar object of some thousand
    /// occurrences, and for no nesting bomb.
    public static let standard = Limits()
  }

  /// The top level: components (normally one `VCALENDAR`) and blank lines between them.
  public var items: [ICalendarComponent.Item]

  public init(items: [ICalendarComponent.Item]) { self.items = items }

  /// Reads an iCalendar object.
  public init(parsing input: some Collection<UInt8>, limits: Limits = .standard) throws(ICalendarError) {
    guard input.count <= limits.maximumBytes else { throw .tooLarge(size: input.count, limit: limits.maximumBytes) }
    let bytes = Array(input)
    var parser = Parser(limits: limits)
    try bytes.withUnsafeBufferPointer { (b: UnsafeBufferPointer<UInt8>) throws(ICalendarError) in
      try parser.run(b)
    }
    guard parser.top.contains(where: { if case .component = $0 { true } else { false } }) else { throw .empty }
    items = parser.top
  }

  /// The bytes of the object: every untouched line as it was read, changed and new ones as
  /// CRLF lines folded at 75 octets.
  public var bytes: [UInt8] {
    var result: [UInt8] = []
    for item in items {
      switch item {
      case .component(let component): component.write(into: &result)
      case .verbatim(let line): result += line
      case .property(let property): result += property.written
      }
    }
    return result
  }

  // MARK: Tasks

  /// Where a VTODO stands: the index of the top-level item, and the index inside it (nil for a
  /// VTODO at the top level, which some writers produce without a VCALENDAR).
  public struct TodoPosition: Hashable, Sendable {
    public var top: Int
    public var inner: Int?
  }

  /// Every VTODO, in order: a recurring task's overrides (same UID, a RECURRENCE-ID) and two
  /// VTODOs under one UID are each here, for the caller to see and decide.
  public var todoPositions: [TodoPosition] {
    var result: [TodoPosition] = []
    for (top, item) in items.enumerated() {
      guard case .component(let component) = item else { continue }
      if component.is("VTODO") {
        result.append(TodoPosition(top: top, inner: nil))
        continue
      }
      for (inner, child) in component.items.enumerated() {
        if case .component(let todo) = child, todo.is("VTODO") { result.append(TodoPosition(top: top, inner: inner)) }
      }
    }
    return result
  }

  /// Every VTODO, in order (see ``todoPositions``).
  public var todos: [ICalendarComponent] { todoPositions.compactMap { self[$0] } }

  /// The VTODO at `position`; setting it replaces it there.
  public subscript(position: TodoPosition) -> ICalendarComponent? {
    get {
      guard items.indices.contains(position.top), case .component(let outer) = items[position.top] else { return nil }
      guard let inner = position.inner else { return outer }
      guard outer.items.indices.contains(inner), case .component(let todo) = outer.items[inner] else { return nil }
      return todo
    }
    set {
      guard let newValue, items.indices.contains(position.top), case .component(var outer) = items[position.top] else {
        return
      }
      if let inner = position.inner {
        guard outer.items.indices.contains(inner) else { return }
        outer.items[inner] = .component(newValue)
        items[position.top] = .component(outer)
      } else {
        items[position.top] = .component(newValue)
      }
    }
  }
}

extension ICalendarComponent {
  /// `UID`, as text.
  public var uid: String? { property("UID")?.text }
  /// `RECURRENCE-ID` as written: set on an override of one occurrence of a recurring task.
  public var recurrenceID: String? { property("RECURRENCE-ID")?.valueString }
}

/// The reading of physical lines into content lines and of those into components.
private struct Parser {
  let limits: ICalendarDocument.Limits
  var top: [ICalendarComponent.Item] = []
  var stack: [ICalendarComponent] = []
  var contentLines = 0

  init(limits: ICalendarDocument.Limits) { self.limits = limits }

  /// Reads every logical line: a physical line and the continuation lines after it.
  mutating func run(_ b: UnsafeBufferPointer<UInt8>) throws(ICalendarError) {
    let n = b.count
    var i = 0
    var lineNumber = 1
    var content: [UInt8] = []
    while i < n {
      let start = i
      let firstLine = lineNumber
      content.removeAll(keepingCapacity: content.capacity < 1 << 16)
      var next = Parser.appendPhysicalLine(b, from: i, to: &content)
      lineNumber += 1
      while next < n, b[next] == 0x20 || b[next] == 0x09 {
        next = Parser.appendPhysicalLine(b, from: next + 1, to: &content)
        lineNumber += 1
      }
      contentLines += 1
      guard contentLines <= limits.maximumLines else { throw .tooManyLines(limit: limits.maximumLines) }
      try take(content, raw: Array(b[start..<next]), line: firstLine)
      i = next
    }
    if let open = stack.last { throw .unterminated(component: open.name) }
  }

  /// Appends the physical line at `from` (without CR LF or LF) to `content`; returns where the
  /// next one starts.
  static func appendPhysicalLine(_ b: UnsafeBufferPointer<UInt8>, from: Int, to content: inout [UInt8]) -> Int {
    var end = from
    let n = b.count
    while end < n, b[end] != 0x0A { end += 1 }
    let next = end < n ? end + 1 : n
    if end > from, b[end - 1] == 0x0D { end -= 1 }
    content.append(contentsOf: UnsafeBufferPointer(rebasing: b[from..<end]))
    return next
  }

  mutating func take(_ content: [UInt8], raw: [UInt8], line: Int) throws(ICalendarError) {
    guard let parsed = Parser.contentLine(content, raw: raw) else {
      if let index = stack.indices.last {
        stack[index].items.append(.verbatim(raw))
      } else if content.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
        top.append(.verbatim(raw))
      } else {
        throw .outsideComponent(line: line)
      }
      return
    }
    if parsed.is("BEGIN") {
      let name = parsed.valueString
      guard !name.isEmpty else { throw .unnamedComponent(line: line) }
      guard stack.count < limits.maximumDepth else { throw .tooDeep(line: line, limit: limits.maximumDepth) }
      stack.append(ICalendarComponent(name: name, beginRaw: raw))
    } else if parsed.is("END") {
      let name = parsed.valueString
      guard !name.isEmpty else { throw .unnamedComponent(line: line) }
      guard var closed = stack.popLast(), closed.is(name) else {
        throw .mismatchedEnd(line: line, expected: stack.last?.name, found: name)
      }
      closed.endRaw = raw
      if let index = stack.indices.last {
        stack[index].items.append(.component(closed))
      } else {
        top.append(.component(closed))
      }
    } else if let index = stack.indices.last {
      stack[index].items.append(.property(parsed))
    } else {
      throw .outsideComponent(line: line)
    }
  }

  /// `NAME *(";" param) ":" value`, or nil when the line is not one.
  static func contentLine(_ c: [UInt8], raw: [UInt8]) -> ICalendarProperty? {
    let n = c.count
    var i = 0
    func isNameByte(_ byte: UInt8) -> Bool {
      (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D
    }
    while i < n, isNameByte(c[i]) { i += 1 }
    guard i > 0, i < n else { return nil }
    let name = String(decoding: c[0..<i], as: UTF8.self)
    var parameters: [ICalendarProperty.Parameter] = []
    while c[i] == UInt8(ascii: ";") {
      i += 1
      let nameStart = i
      while i < n, isNameByte(c[i]) { i += 1 }
      guard i > nameStart, i < n, c[i] == UInt8(ascii: "=") else { return nil }
      var parameter = ICalendarProperty.Parameter(name: String(decoding: c[nameStart..<i], as: UTF8.self), values: [])
      repeat {
        i += 1
        guard i < n else { return nil }
        if c[i] == 0x22 {
          let valueStart = i + 1
          i = valueStart
          while i < n, c[i] != 0x22 { i += 1 }
          guard i < n else { return nil }
          parameter.values.append(String(decoding: c[valueStart..<i], as: UTF8.self))
          i += 1
        } else {
          let valueStart = i
          while i < n, c[i] != UInt8(ascii: ","), c[i] != UInt8(ascii: ";"), c[i] != UInt8(ascii: ":") { i += 1 }
          parameter.values.append(String(decoding: c[valueStart..<i], as: UTF8.self))
        }
        guard i < n else { return nil }
      } while c[i] == UInt8(ascii: ",")
      parameters.append(parameter)
    }
    guard c[i] == UInt8(ascii: ":") else { return nil }
    return ICalendarProperty(name: name, parameters: parameters, value: Array(c[(i + 1)...]), raw: raw)
  }
}
