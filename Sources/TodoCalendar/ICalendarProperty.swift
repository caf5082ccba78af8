/// One content line of an iCalendar object: `NAME;PARAM=VALUE,VALUE:value`.
///
/// A property read from bytes remembers them (``raw``, folding and line break included), and
/// any change forgets them: the writer gives an untouched property back exactly as it came,
/// so that what another client wrote (its folding, its quoting, its escapes, bytes that are not
/// UTF-8) survives a sync, and writes a changed one folded and escaped the standard way.
public struct ICalendarProperty: Sendable {
  /// A parameter: a name and one or more values (quotes taken off).
  public struct Parameter: Equatable, Sendable {
    public var name: String
    public var values: [String]

    public init(name: String, values: [String]) {
      self.name = name
      self.values = values
    }

    public init(_ name: String, _ value: String) { self.init(name: name, values: [value]) }

    /// `NAME=v1,v2`, a value quoted when it holds `:`, `;` or `,`. A double quote or a
    /// control character cannot be in a parameter value (RFC 5545 3.1): each is left out.
    var written: String {
      name + "=" + values.map { value in
        let clean = String(String.UnicodeScalarView(value.unicodeScalars.filter {
          $0 != "\"" && !($0.value < 0x20 && $0 != "\t") && !(0x7F...0x9F).contains($0.value)
        }))
        return clean.contains(where: { $0 == ":" || $0 == ";" || $0 == "," }) ? "\"" + clean + "\"" : clean
      }.joined(separator: ",")
    }
  }

  /// The name as written; compared without regard to case (``is(_:)``).
  public var name: String { didSet { raw = nil } }
  public var parameters: [Parameter] { didSet { raw = nil } }
  /// The value's bytes as written, unfolded, still escaped (see ``text``).
  public var value: [UInt8] { didSet { raw = nil } }
  /// The bytes this property was read from, folded, with their line breaks; nil once changed.
  public private(set) var raw: [UInt8]?

  /// A property with a value as written (already escaped where its type needs it).
  public init(name: String, parameters: [Parameter] = [], value: String) {
    self.name = name
    self.parameters = parameters
    self.value = Array(value.utf8)
  }

  /// A TEXT property: `text` escaped.
  public init(name: String, parameters: [Parameter] = [], text: String) {
    self.init(name: name, parameters: parameters, value: ICalendarText.escape(text))
  }

  init(name: String, parameters: [Parameter], value: [UInt8], raw: [UInt8]) {
    self.name = name
    self.parameters = parameters
    self.value = value
    self.raw = raw
  }

  /// Whether this is the property `name` (case-insensitive, as RFC 5545 says).
  public func `is`(_ name: String) -> Bool { ICalendarProperty.same(self.name, name) }

  /// The value as text, for a property whose type is not TEXT (a date, a number, a rule).
  public var valueString: String { String(decoding: value, as: UTF8.self) }

  /// The value as TEXT, unescaped.
  public var text: String { ICalendarText.unescape(value) }

  /// The values of a TEXT list, unescaped.
  public var textList: [String] { ICalendarText.unescapeList(value) }

  /// The values of the first parameter `name`, or nil.
  public func parameter(_ name: String) -> [String]? {
    parameters.first { ICalendarProperty.same($0.name, name) }?.values
  }

  /// The first value of parameter `name`, upper-cased (RELTYPE, VALUE), or nil.
  public func parameterToken(_ name: String) -> String? { parameter(name)?.first?.uppercased() }

  /// Sets parameter `name` to one value (replacing every such parameter), or removes it.
  public mutating func setParameter(_ name: String, _ value: String?) {
    let index = parameters.firstIndex { ICalendarProperty.same($0.name, name) }
    parameters.removeAll { ICalendarProperty.same($0.name, name) }
    guard let value else { return }
    parameters.insert(Parameter(name, value), at: min(index ?? parameters.count, parameters.count))
  }

  /// The bytes to write: the raw ones when untouched, otherwise the line folded, with CRLF.
  public var written: [UInt8] {
    if let raw { return raw }
    var line = Array(name.utf8)
    for parameter in parameters { line += [UInt8(ascii: ";")] + Array(parameter.written.utf8) }
    line.append(UInt8(ascii: ":"))
    // A raw line break would end the line early: it becomes a space. (TEXT values never hold
    // one: `init(name:parameters:text:)` escapes it as `\n`.)
    line += value.map { $0 == 0x0A || $0 == 0x0D ? UInt8(ascii: " ") : $0 }
    return ICalendarText.fold(line)
  }

  static func same(_ a: String, _ b: String) -> Bool {
    a.utf8.count == b.utf8.count && a.uppercased() == b.uppercased()
  }
}

extension ICalendarProperty: Equatable {
  /// Two properties are equal when they say the same (name, parameters, value); how they were
  /// folded does not count.
  public static func == (lhs: ICalendarProperty, rhs: ICalendarProperty) -> Bool {
    lhs.is(rhs.name) && lhs.parameters == rhs.parameters && lhs.value == rhs.value
  }
}
