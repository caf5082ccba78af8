/// A component of an iCalendar object (`BEGIN:VTODO` … `END:VTODO`): its properties and
/// sub-components in the order they came.
///
/// As with ``ICalendarProperty``, the `BEGIN` and `END` lines read from bytes are kept and
/// written back as they came; an item nobody changed is the same bytes after a write.
public struct ICalendarComponent: Equatable, Sendable {
  /// What a component holds, in order.
  public enum Item: Equatable, Sendable {
    case property(ICalendarProperty)
    case component(ICalendarComponent)
    /// A line that is no content line (no colon, a bad name, an unclosed quote, a blank
    /// line): kept as it came, never read.
    case verbatim([UInt8])
  }

  /// The name after `BEGIN:` (`VTODO`, `VALARM`, `X-…`), as written.
  public var name: String
  public var items: [Item]
  var beginRaw: [UInt8]?
  var endRaw: [UInt8]?

  public init(name: String, items: [Item] = []) {
    self.name = name
    self.items = items
  }

  init(name: String, beginRaw: [UInt8]) {
    self.name = name
    self.items = []
    self.beginRaw = beginRaw
  }

  public static func == (lhs: ICalendarComponent, rhs: ICalendarComponent) -> Bool {
    ICalendarProperty.same(lhs.name, rhs.name) && lhs.items == rhs.items
  }

  /// Whether this is the component `name` (case-insensitive).
  public func `is`(_ name: String) -> Bool { ICalendarProperty.same(self.name, name) }

  // MARK: Reading

  /// The properties, in order.
  public var properties: [ICalendarProperty] {
    items.compactMap { if case .property(let property) = $0 { property } else { nil } }
  }

  /// The sub-components, in order.
  public var components: [ICalendarComponent] {
    items.compactMap { if case .component(let component) = $0 { component } else { nil } }
  }

  /// Every property `name`, in order (CATEGORIES and RELATED-TO may repeat).
  public func properties(_ name: String) -> [ICalendarProperty] { properties.filter { $0.is(name) } }

  /// The first property `name`.
  public func property(_ name: String) -> ICalendarProperty? {
    for item in items { if case .property(let property) = item, property.is(name) { return property } }
    return nil
  }

  // MARK: Changing

  /// Sets the first property `name` to `property` where it stands (later ones of that name
  /// are removed), or adds it after the last property; nil removes every one. A property that
  /// says what it says already is left untouched, raw bytes and all.
  public mutating func set(_ name: String, _ property: ICalendarProperty?) {
    guard let property else {
      removeAll(name)
      return
    }
    if let index = items.firstIndex(where: { if case .property(let p) = $0 { p.is(name) } else { false } }) {
      if case .property(let old) = items[index], old != property { items[index] = .property(property) }
      var later = index + 1
      while later < items.count {
        if case .property(let p) = items[later], p.is(name) { items.remove(at: later) } else { later += 1 }
      }
    } else {
      append(property)
    }
  }

  /// Sets the first property `name` to a value as written (already escaped where its type
  /// needs it), as ``set(_:_:)`` does; nil removes every one.
  public mutating func set(_ name: String, value: String?, parameters: [ICalendarProperty.Parameter] = []) {
    set(name, value.map { ICalendarProperty(name: name, parameters: parameters, value: $0) })
  }

  /// Sets the first property `name` to a TEXT value (escaped here); nil removes every one.
  public mutating func set(_ name: String, text: String?) {
    set(name, text.map { ICalendarProperty(name: name, text: $0) })
  }

  /// Adds a property after the last property (before the sub-components).
  public mutating func append(_ property: ICalendarProperty) {
    let index = items.lastIndex { if case .property = $0 { true } else { false } }.map { $0 + 1 } ?? 0
    items.insert(.property(property), at: index)
  }

  /// Removes every property `name`.
  public mutating func removeAll(_ name: String) {
    items.removeAll { if case .property(let p) = $0 { p.is(name) } else { false } }
  }

  /// Removes the properties for which `shouldRemove` is true.
  public mutating func removeProperties(where shouldRemove: (ICalendarProperty) -> Bool) {
    items.removeAll { if case .property(let p) = $0 { shouldRemove(p) } else { false } }
  }

  // MARK: Writing

  /// The component's bytes: what was read where nothing changed, CRLF lines elsewhere.
  public var written: [UInt8] {
    var bytes: [UInt8] = []
    write(into: &bytes)
    return bytes
  }

  func write(into bytes: inout [UInt8]) {
    bytes += beginRaw ?? ICalendarText.fold(Array(("BEGIN:" + name).utf8))
    for item in items {
      switch item {
      case .property(let property): bytes += property.written
      case .component(let component): component.write(into: &bytes)
      case .verbatim(let line): bytes += line
      }
    }
    bytes += endRaw ?? ICalendarText.fold(Array(("END:" + name).utf8))
  }
}
