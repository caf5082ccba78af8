/// A JSON value as ``JSONReader`` reads it: what `todo import` takes apart, and what
/// ``JSONValueDecoder`` decodes a ``TaskRecord`` from.
package enum JSONValue: Equatable, Sendable {
  case null
  case bool(Bool)
  /// The number as written: JSON numbers are passed through, and a decoder reads them as the
  /// type it is asked for (an `Int` from `3`, not from `3.0`).
  case number(String)
  case string(String)
  case array([JSONValue])
  /// Members in the order written (``JSONReader`` refuses a name given twice).
  case object([(String, JSONValue)])

  package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.number(let a), .number(let b)): a == b
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    default: false
    }
  }

  /// The first member named `name` of an object; `nil` for a missing member or a value that
  /// is not an object.
  package subscript(name: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.0 == name }?.1
  }

  /// What the value is, as a message names it ("a string", "null").
  package var kind: String {
    switch self {
    case .null: "null"
    case .bool: "true or false"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}
