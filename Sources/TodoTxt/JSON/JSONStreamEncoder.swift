/// Encodes an `Encodable` value as compact JSON, written into a ``JSONWriter`` while it is
/// encoded: members in the order the value encodes them (a ``TaskRecord``'s `CodingKeys`
/// order), no spaces, strings escaped as ``JSONWriter`` escapes them.
///
/// This is how `todo ls --format json` writes a task: by encoding its ``TaskRecord``, so that
/// the record's `Codable` conformance is the one description of the shape. The command line
/// does not load Foundation (it would cost start-up time), and a listing of thousands of
/// tasks should not build a tree of values per task before writing it: the bytes go out as
/// the `encode` calls come in, and a container is closed when its parent writes its next
/// member or when the value is done.
///
/// So a container must be written before the next member of its parent: a nested container
/// used after that throws `EncodingError.invalidValue`. Every type that encodes its members
/// one after another (synthesized conformances, ``TaskRecord``) does so. One encoder may be
/// used for many values; it keeps its buffers between them.
package struct JSONStreamEncoder {
  private let stream = Stream()

  package init() {}

  /// Appends `value` as JSON to `writer`. On an error nothing is appended.
  package func encode<T: Encodable>(_ value: T, into writer: inout JSONWriter) throws {
    swap(&stream.writer, &writer)
    defer { swap(&stream.writer, &writer) }
    let mark = stream.writer.bytes.count
    do {
      try stream.nested(value, level: 0)
    } catch {
      stream.reset()
      stream.writer.bytes.removeSubrange(mark...)
      throw error
    }
  }

  /// `value` as JSON.
  package func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
    var writer = JSONWriter()
    try encode(value, into: &writer)
    return writer.bytes
  }
}

/// The bytes written so far and the containers still open, shared by the encoder and its
/// containers (which the `Encoder` protocol hands out as separate values).
private final class Stream {
  /// An open object or array.
  struct Frame {
    /// `}` or `]`.
    var closer: UInt8
    /// Members or elements written.
    var count = 0
    /// The key this container is under in its parent (`nil` at the top).
    var key: (any CodingKey)?
  }

  // Unchecked: every encoding call reaches these through the class, and the run-time
  // exclusivity checks cost a fifth of the time of a listing. The accesses never overlap:
  // one encode call uses the stream, on one thread, and no access is held across a call that
  // could reach the stream again (the writer's methods do not call out).
  @exclusivity(unchecked) var writer = JSONWriter()
  @exclusivity(unchecked) var frames: [Frame] = []
  /// The key of the value about to be written, for the container it opens.
  @exclusivity(unchecked) var pendingKey: (any CodingKey)?

  func reset() {
    frames.removeAll(keepingCapacity: true)
    pendingKey = nil
  }

  /// The keys from the top to the container at `level`, or to the value about to be written
  /// there when that level has no container yet. Made only when asked: encoding needs none.
  func path(to level: Int) -> [any CodingKey] {
    let open = frames.prefix(level + 1).compactMap(\.key)
    guard level >= frames.count, let pendingKey else { return open }
    return open + [pendingKey]
  }

  /// Writes the closers of the containers from `level` up.
  func close(from level: Int) {
    while frames.count > level, let frame = frames.popLast() { writer.bytes.append(frame.closer) }
  }

  /// Opens an object or array as the value at `level`, or returns the one the value opened
  /// already (a type may ask its encoder for its container more than once). A value whose
  /// place was closed gets a container whose writes throw (its level is `Int.max`).
  func open(_ opener: UInt8, _ closer: UInt8, level: Int) -> Int {
    if frames.count > level {
      close(from: level + 1)
      return level
    }
    guard frames.count == level else { return Int.max }
    writer.bytes.append(opener)
    frames.append(Frame(closer: closer, key: pendingKey))
    pendingKey = nil
    return level
  }

  /// Starts the next element of the container at `level`: closes what the element before it
  /// left open and writes the comma.
  func element(_ level: Int, of value: @autoclosure () -> Any) throws {
    guard level < frames.count else {
      throw EncodingError.invalidValue(
        value(), EncodingError.Context(codingPath: path(to: level), debugDescription: "written after its container was closed"))
    }
    close(from: level + 1)
    if frames[level].count > 0 { writer.bytes.append(UInt8(ascii: ",")) }
    frames[level].count += 1
  }

  /// Starts the next member of the object at `level`: the comma, the name and the colon.
  func member(_ level: Int, _ key: some CodingKey, of value: @autoclosure () -> Any) throws {
    try element(level, of: value())
    writer.string(key.stringValue)
    writer.bytes.append(UInt8(ascii: ":"))
  }

  /// Writes a value that encodes itself, as the value at `level`.
  func nested<T: Encodable>(_ value: T, level: Int) throws {
    if let text = value as? String {
      writer.string(text)
      return
    }
    let mark = writer.bytes.count
    try value.encode(to: ValueEncoder(stream: self, level: level))
    // A value that encoded nothing is an empty object, as in Foundation's JSONEncoder.
    if writer.bytes.count == mark { writer.raw("{}") }
    close(from: level)
  }

  func null() { writer.raw("null") }
  func bool(_ value: Bool) { writer.bool(value) }
  func string(_ value: String) { writer.string(value) }
  func integer(_ value: some BinaryInteger) { writer.bytes.append(contentsOf: value.description.utf8) }

  func floatingPoint<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F, level: Int) throws {
    guard value.isFinite else {
      throw EncodingError.invalidValue(
        value, EncodingError.Context(codingPath: path(to: level), debugDescription: "JSON has no \(value)"))
    }
    writer.bytes.append(contentsOf: value.description.utf8)
  }
}

/// An array index as a coding key (`Index 3`), for the coding paths of elements.
struct IndexKey: CodingKey {
  var intValue: Int?
  var stringValue: String { "Index \(intValue ?? 0)" }
  init(intValue: Int) { self.intValue = intValue }
  init?(stringValue: String) { nil }
}

/// The encoder a value at one place (the top, a member, an element) encodes itself with.
private struct ValueEncoder: Encoder, SingleValueEncodingContainer {
  let stream: Stream
  let level: Int

  var codingPath: [any CodingKey] { stream.path(to: level) }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(ObjectEncoder<Key>(stream: stream, level: stream.open(0x7B, 0x7D, level: level)))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    ArrayEncoder(stream: stream, level: stream.open(0x5B, 0x5D, level: level))
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { self }

  func encodeNil() { stream.null() }
  func encode(_ value: Bool) { stream.bool(value) }
  func encode(_ value: String) { stream.string(value) }
  func encode(_ value: Double) throws { try stream.floatingPoint(value, level: level) }
  func encode(_ value: Float) throws { try stream.floatingPoint(value, level: level) }
  func encode(_ value: Int) { stream.integer(value) }
  func encode(_ value: Int8) { stream.integer(value) }
  func encode(_ value: Int16) { stream.integer(value) }
  func encode(_ value: Int32) { stream.integer(value) }
  func encode(_ value: Int64) { stream.integer(value) }
  func encode(_ value: UInt) { stream.integer(value) }
  func encode(_ value: UInt8) { stream.integer(value) }
  func encode(_ value: UInt16) { stream.integer(value) }
  func encode(_ value: UInt32) { stream.integer(value) }
  func encode(_ value: UInt64) { stream.integer(value) }
  func encode<T: Encodable>(_ value: T) throws { try value.encode(to: self) }
}

/// The members of an object, written as they are encoded.
private struct ObjectEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let stream: Stream
  let level: Int

  var codingPath: [any CodingKey] { stream.path(to: level) }

  func encodeNil(forKey key: Key) throws {
    try stream.member(level, key, of: "null")
    stream.null()
  }
  func encode(_ value: Bool, forKey key: Key) throws {
    try stream.member(level, key, of: value)
    stream.bool(value)
  }
  func encode(_ value: String, forKey key: Key) throws {
    try stream.member(level, key, of: value)
    stream.string(value)
  }
  func encode(_ value: Double, forKey key: Key) throws {
    try stream.member(level, key, of: value)
    try stream.floatingPoint(value, level: level)
  }
  func encode(_ value: Float, forKey key: Key) throws {
    try stream.member(level, key, of: value)
    try stream.floatingPoint(value, level: level)
  }
  func encode(_ value: Int, forKey key: Key) throws { try integer(value, key) }
  func encode(_ value: Int8, forKey key: Key) throws { try integer(value, key) }
  func encode(_ value: Int16, forKey key: Key) throws { try integer(value, key) }
  func encode(_ value: Int32, forKey key: Key) throws { try integer(value, key) }
  func encode(_ value: Int64, forKey key: Key) throws { try integer(value, key) }
  func encode(_ value: UInt, forKey key: Key) throws { try integer(value, key) }
  func encode(_ value: UInt8, forKey key: Key) throws { try integer(value, key) }
  func encode(_ value: UInt16, forKey key: Key) throws { try integer(value, key) }
  func encode(_ value: UInt32, forKey key: Key) throws { try integer(value, key) }
  func encode(_ value: UInt64, forKey key: Key) throws { try integer(value, key) }

  private func integer(_ value: some BinaryInteger, _ key: Key) throws {
    try stream.member(level, key, of: value)
    stream.integer(value)
  }

  func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try stream.member(level, key, of: value)
    stream.pendingKey = key
    try stream.nested(value, level: level + 1)
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    // A container asked for out of turn has no place to go: its members then throw.
    guard (try? stream.member(level, key, of: "{}")) != nil else {
      return KeyedEncodingContainer(ObjectEncoder<NestedKey>(stream: stream, level: Int.max))
    }
    stream.pendingKey = key
    return KeyedEncodingContainer(ObjectEncoder<NestedKey>(stream: stream, level: stream.open(0x7B, 0x7D, level: level + 1)))
  }

  func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    guard (try? stream.member(level, key, of: "[]")) != nil else { return ArrayEncoder(stream: stream, level: Int.max) }
    stream.pendingKey = key
    return ArrayEncoder(stream: stream, level: stream.open(0x5B, 0x5D, level: level + 1))
  }

  func superEncoder() -> any Encoder { superEncoder(under: AnyKey(stringValue: "super")) }

  func superEncoder(forKey key: Key) -> any Encoder { superEncoder(under: key) }

  /// The encoder of a member whose value the caller writes next; it must write one.
  private func superEncoder(under key: any CodingKey) -> any Encoder {
    guard (try? stream.member(level, key, of: key.stringValue)) != nil else {
      return ValueEncoder(stream: stream, level: Int.max)
    }
    stream.pendingKey = key
    return ValueEncoder(stream: stream, level: level + 1)
  }
}

/// A member name that is no case of a type's keys (`super`).
struct AnyKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

/// The elements of an array, written as they are encoded.
private struct ArrayEncoder: UnkeyedEncodingContainer {
  let stream: Stream
  let level: Int

  var codingPath: [any CodingKey] { stream.path(to: level) }
  var count: Int { level < stream.frames.count ? stream.frames[level].count : 0 }

  func encodeNil() throws {
    try stream.element(level, of: "null")
    stream.null()
  }
  func encode(_ value: Bool) throws {
    try stream.element(level, of: value)
    stream.bool(value)
  }
  func encode(_ value: String) throws {
    try stream.element(level, of: value)
    stream.string(value)
  }
  func encode(_ value: Double) throws {
    try stream.element(level, of: value)
    try stream.floatingPoint(value, level: level)
  }
  func encode(_ value: Float) throws {
    try stream.element(level, of: value)
    try stream.floatingPoint(value, level: level)
  }
  func encode(_ value: Int) throws { try integer(value) }
  func encode(_ value: Int8) throws { try integer(value) }
  func encode(_ value: Int16) throws { try integer(value) }
  func encode(_ value: Int32) throws { try integer(value) }
  func encode(_ value: Int64) throws { try integer(value) }
  func encode(_ value: UInt) throws { try integer(value) }
  func encode(_ value: UInt8) throws { try integer(value) }
  func encode(_ value: UInt16) throws { try integer(value) }
  func encode(_ value: UInt32) throws { try integer(value) }
  func encode(_ value: UInt64) throws { try integer(value) }

  private func integer(_ value: some BinaryInteger) throws {
    try stream.element(level, of: value)
    stream.integer(value)
  }

  func encode<T: Encodable>(_ value: T) throws {
    try stream.element(level, of: value)
    stream.pendingKey = IndexKey(intValue: count - 1)
    try stream.nested(value, level: level + 1)
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
    guard (try? stream.element(level, of: "{}")) != nil else {
      return KeyedEncodingContainer(ObjectEncoder<NestedKey>(stream: stream, level: Int.max))
    }
    stream.pendingKey = IndexKey(intValue: count - 1)
    return KeyedEncodingContainer(ObjectEncoder<NestedKey>(stream: stream, level: stream.open(0x7B, 0x7D, level: level + 1)))
  }

  func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    guard (try? stream.element(level, of: "[]")) != nil else { return ArrayEncoder(stream: stream, level: Int.max) }
    stream.pendingKey = IndexKey(intValue: count - 1)
    return ArrayEncoder(stream: stream, level: stream.open(0x5B, 0x5D, level: level + 1))
  }

  /// The encoder of the next element, which the caller writes; it must write one.
  func superEncoder() -> any Encoder {
    guard (try? stream.element(level, of: "super")) != nil else { return ValueEncoder(stream: stream, level: Int.max) }
    stream.pendingKey = IndexKey(intValue: count - 1)
    return ValueEncoder(stream: stream, level: level + 1)
  }
}
