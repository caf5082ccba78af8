/// Decodes a `Decodable` value from a ``JSONValue`` that ``JSONReader`` read: how `todo
/// import` turns each object of its input into a ``TaskRecord``.
///
/// The reader and the decoder are two steps so that each keeps its own errors: the reader's
/// name the line and column where the text stops being JSON, the decoder's (the standard
/// `DecodingError`s, with their coding paths) name the member that holds the wrong kind of
/// value. The rules are Foundation's `JSONDecoder`'s where JSON leaves a choice: a member
/// left out is `keyNotFound`, `null` where a value is needed is `valueNotFound`, an integer
/// is read only from a number written without a fraction or an exponent. Where a name is
/// repeated in an object, the first value counts (Foundation's takes the last).
package struct JSONValueDecoder {
  package init() {}

  /// Decodes a `T` from `value`.
  package func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
    try ValueDecoder(value: value, codingPath: []).decode(type)
  }
}

/// A value at one place of the input, and how it decodes as each kind of Swift value.
private struct ValueDecoder: Decoder, SingleValueDecodingContainer {
  let value: JSONValue
  let codingPath: [any CodingKey]

  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .object(let members) = value else { throw mismatch([String: Any].self, "an object") }
    return KeyedDecodingContainer(ObjectDecoder<Key>(members: members, codingPath: codingPath))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let elements) = value else { throw mismatch([Any].self, "an array") }
    return ArrayDecoder(elements: elements, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueDecodingContainer { self }

  /// The error for a value of another kind than `expected`: `valueNotFound` for `null`, as
  /// Foundation's decoder says it, `typeMismatch` for the rest.
  func mismatch(_ type: Any.Type, _ expected: String) -> DecodingError {
    let context = DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.kind)")
    return value == .null ? .valueNotFound(type, context) : .typeMismatch(type, context)
  }

  func decodeNil() -> Bool { value == .null }

  func decode(_ type: Bool.Type) throws -> Bool {
    guard case .bool(let flag) = value else { throw mismatch(type, "true or false") }
    return flag
  }

  func decode(_ type: String.Type) throws -> String {
    guard case .string(let text) = value else { throw mismatch(type, "a string") }
    return text
  }

  func decode(_ type: Double.Type) throws -> Double { try floatingPoint(type) }
  func decode(_ type: Float.Type) throws -> Float { try floatingPoint(type) }
  func decode(_ type: Int.Type) throws -> Int { try integer(type) }
  func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
  func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
  func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
  func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
  func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

  func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: self) }

  private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
    guard case .number(let text) = value else { throw mismatch(type, "a number") }
    guard let number = T(text) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: codingPath, debugDescription: "the number \(text) is not a whole \(type)"))
    }
    return number
  }

  private func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type) throws -> T {
    guard case .number(let text) = value else { throw mismatch(type, "a number") }
    guard let number = T(text), number.isFinite else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: codingPath, debugDescription: "the number \(text) does not fit a \(type)"))
    }
    return number
  }
}

/// The members of an object, looked up by name.
private struct ObjectDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let members: [(String, JSONValue)]
  let codingPath: [any CodingKey]
  /// Where each name is first written, for objects large enough that a search per look-up
  /// would cost (a hostile `tags` object of a million members is read in one pass, not in a
  /// million).
  private let firstIndex: [String: Int]?

  init(members: [(String, JSONValue)], codingPath: [any CodingKey]) {
    self.members = members
    self.codingPath = codingPath
    if members.count > 16 {
      var index: [String: Int] = [:]
      for (position, member) in members.enumerated() where index[member.0] == nil { index[member.0] = position }
      firstIndex = index
    } else {
      firstIndex = nil
    }
  }

  /// The names written, each once, in the order first written.
  var allKeys: [Key] {
    var seen: Set<String> = []
    return members.compactMap { seen.insert($0.0).inserted ? Key(stringValue: $0.0) : nil }
  }

  private func value(_ key: some CodingKey) -> JSONValue? {
    let name = key.stringValue
    if let firstIndex { return firstIndex[name].map { members[$0].1 } }
    return members.first { $0.0 == name }?.1
  }

  private func decoder(_ key: some CodingKey) throws -> ValueDecoder {
    guard let value = value(key) else {
      throw DecodingError.keyNotFound(
        key, DecodingError.Context(codingPath: codingPath, debugDescription: "no member \"\(key.stringValue)\""))
    }
    return ValueDecoder(value: value, codingPath: codingPath + [key])
  }

  func contains(_ key: Key) -> Bool { value(key) != nil }

  func decodeNil(forKey key: Key) throws -> Bool { try decoder(key).decodeNil() }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder(key).decode(type) }
  func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder(key).decode(type) }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder(key).decode(type) }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder(key).decode(type) }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder(key).decode(type) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder(key).decode(type) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder(key).decode(type) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder(key).decode(type) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder(key).decode(type) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder(key).decode(type) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder(key).decode(type) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder(key).decode(type) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder(key).decode(type) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder(key).decode(type) }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder(key).decode(type) }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try decoder(key).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try decoder(key).unkeyedContainer()
  }

  /// The member `super`, or `null` when there is none (as Foundation's decoder gives it).
  func superDecoder() throws -> any Decoder { superDecoder(AnyKey(stringValue: "super")) }

  func superDecoder(forKey key: Key) throws -> any Decoder { superDecoder(key) }

  private func superDecoder(_ key: some CodingKey) -> any Decoder {
    ValueDecoder(value: value(key) ?? .null, codingPath: codingPath + [key])
  }
}

/// The elements of an array, read in order.
private struct ArrayDecoder: UnkeyedDecodingContainer {
  let elements: [JSONValue]
  let codingPath: [any CodingKey]
  private(set) var currentIndex = 0

  init(elements: [JSONValue], codingPath: [any CodingKey]) {
    self.elements = elements
    self.codingPath = codingPath
  }

  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }

  /// The next element's decoder; the index moves on only when `read` succeeds, so that a
  /// caller may try another type.
  private mutating func next<T>(_ type: T.Type, _ read: (ValueDecoder) throws -> T) throws -> T {
    let path = codingPath + [IndexKey(intValue: currentIndex)]
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(type, DecodingError.Context(codingPath: path, debugDescription: "the array has ended"))
    }
    let result = try read(ValueDecoder(value: elements[currentIndex], codingPath: path))
    currentIndex += 1
    return result
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd, elements[currentIndex] == .null else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try $0.decode(type) } }
  mutating func decode(_ type: String.Type) throws -> String { try next(type) { try $0.decode(type) } }
  mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { try $0.decode(type) } }
  mutating func decode(_ type: Float.Type) throws -> Float { try next(type) { try $0.decode(type) } }
  mutating func decode(_ type: Int.Type) throws -> Int { try next(type) { try $0.decode(type) } }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) { try $0.decode(type) } }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) { try $0.decode(type) } }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) { try $0.decode(type) } }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) { try $0.decode(type) } }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) { try $0.decode(type) } }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) { try $0.decode(type) } }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type) { try $0.decode(type) } }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type) { try $0.decode(type) } }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type) { try $0.decode(type) } }
  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type) { try $0.decode(type) } }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try next(KeyedDecodingContainer<NestedKey>.self) { try $0.container(keyedBy: type) }
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try next((any UnkeyedDecodingContainer).self) { try $0.unkeyedContainer() }
  }

  mutating func superDecoder() throws -> any Decoder { try next((any Decoder).self) { $0 } }
}
