import TodoTxt

/// The store's own file format for journals and undo entries: variable-length integers and
/// length-prefixed bytes, sealed with a checksum so a torn or foreign file is never trusted.
struct ByteWriter {
  var bytes: [UInt8] = []
  /// How many bytes were handed out by ``drain(_:)`` or, when not keeping, dropped.
  private(set) var drained = 0
  /// Whether the bytes are kept; a writer that keeps none only measures a record's size.
  private let keeps: Bool
  /// Where the bytes go once a block of them is written, for a record too large to hold
  /// (a journal of a change to a million lines); the first error it throws is kept for
  /// ``flush()`` and the rest of the record is dropped.
  private var sink: (([UInt8]) throws(SystemError) -> Void)?
  private var failure: SystemError?
  static let blockSize = 1 << 20
  /// A measuring writer stops adding hunks once the record is larger than this: the undo
  /// log only asks whether a change fits.
  var limit = Int.max

  /// - Parameter keeping: `false` counts the bytes without keeping them (see ``count``).
  init(magic: String, keeping: Bool = true) {
    keeps = keeping
    data(Array(magic.utf8))
  }

  /// A writer of part of a record, without a magic string: the journal's record of a patch
  /// made on another thread, and then written into the journal as it is (see ``raw(_:)``).
  init() { keeps = true }

  /// A writer that hands its bytes to `sink` a block at a time; ``flush()`` hands over the
  /// rest.
  init(magic: String, sink: @escaping ([UInt8]) throws(SystemError) -> Void) {
    keeps = true
    self.sink = sink
    data(Array(magic.utf8))
  }

  /// Hands the bytes not yet handed to the sink, and throws the sink's first error.
  mutating func flush() throws(SystemError) {
    if let failure { throw failure }
    guard let sink, !bytes.isEmpty else { return }
    try sink(bytes)
    drained += bytes.count
    bytes.removeAll(keepingCapacity: true)
  }

  private mutating func spill() {
    guard let sink, bytes.count >= ByteWriter.blockSize else { return }
    if failure == nil {
      do throws(SystemError) { try sink(bytes) } catch { failure = error }
    }
    drained += bytes.count
    bytes.removeAll(keepingCapacity: true)
  }

  /// The size of the record so far.
  var count: Int { drained + bytes.count }

  mutating func int(_ value: Int) {
    guard keeps else {
      var rest = UInt64(bitPattern: Int64(value)) >> 7
      drained += 1
      while rest > 0 {
        drained += 1
        rest >>= 7
      }
      return
    }
    var rest = UInt64(bitPattern: Int64(value))
    while rest >= 0x80 {
      bytes.append(UInt8(rest & 0x7F) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(rest))
  }

  mutating func data(_ value: [UInt8]) {
    int(value.count)
    if keeps { bytes += value } else { drained += value.count }
    if sink != nil { spill() }
  }

  mutating func data(_ value: ArraySlice<UInt8>) {
    int(value.count)
    if keeps { bytes += value } else { drained += value.count }
    if sink != nil { spill() }
  }

  /// Bytes another writer made (see ``init()``), as they are.
  mutating func raw(_ value: [UInt8]) {
    if keeps { bytes += value } else { drained += value.count }
    if sink != nil { spill() }
  }

  /// Eight bytes, little-endian: a hash, which a variable-length integer would only lengthen.
  mutating func fixed64(_ value: UInt64) {
    guard keeps else {
      drained += 8
      return
    }
    // As typed bytes: the raw buffer's own append goes a byte at a time.
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0.bindMemory(to: UInt8.self)) }
    if sink != nil, bytes.count >= ByteWriter.blockSize { spill() }
  }

  mutating func string(_ value: String) { data(Array(value.utf8)) }

  mutating func patch(_ patch: Patch) {
    int(patch.oldCount)
    int(patch.newCount)
    int(patch.hunkCount)
    // Read where the lines lie: no hunk is made, no line copied but into the record. Past
    // the limit the rest of the hunks are passed over (not thrown out of: a throw across the
    // list's nested closures crashed a debug build).
    var enough = false
    patch.forEachHunkView { hunk in
      if enough || count > limit {
        enough = true
        return
      }
      int(hunk.oldStart)
      int(hunk.newStart)
      optional(hunk.anchor)
      optional(hunk.following)
      int(hunk.oldCount)
      hunk.forEachOld { line, ending in
        int(Int(ending.rawValue))
        data(line)
      }
      int(hunk.newCount)
      hunk.forEachNew { line, ending in
        int(Int(ending.rawValue))
        data(line)
      }
    }
  }

  private mutating func optional(_ value: ArraySlice<UInt8>?) {
    int(value == nil ? 0 : 1)
    if let value { data(value) }
  }

  /// The bytes with their HMAC-SHA-256 under `key` appended: only a holder of the key can
  /// make a record that ``ByteReader/init(_:magic:key:)`` accepts.
  func sealed(key: [UInt8]) -> [UInt8] { bytes + SHA256.authenticationCode(bytes, key: key) }

  /// The bytes with their checksum appended.
  var sealed: [UInt8] {
    var hash = ContentHash.of(bytes)
    var out = bytes
    for _ in 0..<8 {
      out.append(UInt8(truncatingIfNeeded: hash))
      hash >>= 8
    }
    return out
  }
}

/// A file the store wrote but cannot read back (torn, truncated or from another program).
struct CorruptRecord: Error {}

struct ByteReader {
  private let bytes: [UInt8]
  private var offset = 0

  /// Checks the seal and the magic string.
  init(_ sealed: [UInt8], magic: String) throws(CorruptRecord) {
    guard sealed.count >= 8 else { throw CorruptRecord() }
    let body = Array(sealed[..<(sealed.count - 8)])
    var hash: UInt64 = 0
    for byte in sealed[(sealed.count - 8)...].reversed() { hash = hash << 8 | UInt64(byte) }
    guard hash == ContentHash.of(body) else { throw CorruptRecord() }
    bytes = body
    guard try data() == Array(magic.utf8) else { throw CorruptRecord() }
  }

  /// Checks a keyed seal (see ``ByteWriter/sealed(key:)``) and the magic string.
  init(_ sealed: [UInt8], magic: String, key: [UInt8]) throws(CorruptRecord) {
    try self.init(sealed, key: key)
    guard try data() == Array(magic.utf8) else { throw CorruptRecord() }
  }

  /// Checks a keyed seal only: the caller reads the magic string (``data()``) and tells the
  /// record's versions apart by it.
  init(_ sealed: [UInt8], key: [UInt8]) throws(CorruptRecord) {
    guard sealed.count >= 32 else { throw CorruptRecord() }
    let body = Array(sealed[..<(sealed.count - 32)])
    let code = SHA256.authenticationCode(body, key: key)
    // Compared in full whatever differs first: no early exit to time.
    var difference: UInt8 = 0
    for (a, b) in zip(code, sealed[(sealed.count - 32)...]) { difference |= a ^ b }
    guard difference == 0 else { throw CorruptRecord() }
    bytes = body
  }

  /// Reads part of a record that ``ByteWriter/init()`` made: it carries no seal of its own
  /// (the record it was written into has one).
  init(part: [UInt8]) { bytes = part }

  /// Eight bytes, little-endian (see ``ByteWriter/fixed64(_:)``).
  mutating func fixed64() throws(CorruptRecord) -> UInt64 {
    guard bytes.count - offset >= 8 else { throw CorruptRecord() }
    var value: UInt64 = 0
    for index in 0..<8 { value |= UInt64(bytes[offset + index]) << UInt64(8 * index) }
    offset += 8
    return value
  }

  /// How many bytes are left to read.
  var remaining: Int { bytes.count - offset }

  mutating func int() throws(CorruptRecord) -> Int {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      guard offset < bytes.count, shift < 64 else { throw CorruptRecord() }
      let byte = bytes[offset]
      offset += 1
      value |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return Int(Int64(bitPattern: value)) }
      shift += 7
    }
  }

  /// Whether every byte has been read (a record may end before an optional trailer).
  var isAtEnd: Bool { offset >= bytes.count }

  /// How many encoded items follow: each takes at least one byte, so a count larger than
  /// the bytes left is damage.
  mutating func count() throws(CorruptRecord) -> Int {
    let value = try int()
    guard value >= 0, value <= bytes.count - offset else { throw CorruptRecord() }
    return value
  }

  /// A line number or line count of a file: any size a file can have, not bounded by the
  /// record's own length (one changed line of a 2,000,000-line file is a short record).
  mutating func lineNumber() throws(CorruptRecord) -> Int {
    let value = try int()
    guard value >= 0, value <= Int(Int32.max) else { throw CorruptRecord() }
    return value
  }

  mutating func data() throws(CorruptRecord) -> [UInt8] {
    let length = try int()
    guard length >= 0, length <= bytes.count - offset else { throw CorruptRecord() }
    defer { offset += length }
    return Array(bytes[offset..<(offset + length)])
  }

  mutating func string() throws(CorruptRecord) -> String {
    String(decoding: try data(), as: UTF8.self)
  }

  mutating func patch() throws(CorruptRecord) -> Patch {
    let oldCount = try lineNumber()
    let newCount = try lineNumber()
    var hunks: [Hunk] = []
    for _ in 0..<(try count()) {
      hunks.append(
        Hunk(
          oldStart: try lineNumber(), newStart: try lineNumber(), anchor: try optional(),
          following: try optional(),
          old: try lines(), new: try lines()))
    }
    return Patch(hunks: hunks, oldCount: oldCount, newCount: newCount)
  }

  private mutating func optional() throws(CorruptRecord) -> [UInt8]? {
    try int() == 0 ? nil : try data()
  }

  private mutating func lines() throws(CorruptRecord) -> [PatchLine] {
    var lines: [PatchLine] = []
    for _ in 0..<(try count()) {
      guard let ending = LineEnding(rawValue: UInt8(truncatingIfNeeded: try int())) else {
        throw CorruptRecord()
      }
      lines.append(PatchLine(bytes: try data(), ending: ending))
    }
    return lines
  }
}

extension Hunk {
  /// The fields in the order they are encoded.
  init(
    oldStart: Int, newStart: Int, anchor: [UInt8]?, following: [UInt8]?, old: [PatchLine],
    new: [PatchLine]
  ) {
    self.init(
      oldStart: oldStart, newStart: newStart, old: old, new: new, anchor: anchor,
      following: following)
  }
}

/// FNV-1a over a file's bytes: tells the versions of a file apart in the journal (together
/// with the size) and seals records.
enum ContentHash {
  /// Eight bytes at a time, for whole files (a journal's old and new versions): FNV-1a, one
  /// multiplication per byte, took a fifth of a second for the two versions of a 65 MB file.
  /// Not a format of any record kept across versions but the journal's second one.
  static func ofFile(_ bytes: [UInt8]) -> UInt64 {
    var hasher = FileHasher(count: bytes.count)
    bytes.withUnsafeBufferPointer { hasher.update($0) }
    return hasher.finish()
  }

  /// ``ofFile(_:)`` of one line's bytes (without its ending): how the journal's fourth
  /// version names the lines a change takes.
  static func ofLine(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    var hasher = FileHasher(count: bytes.count)
    bytes.withUnsafeBufferPointer { hasher.update($0) }
    return hasher.finish()
  }

  /// ``ofFile(_:)`` of bytes given in pieces of any size (a new version written a block at a
  /// time, never held whole); `count` is the total, which the hash starts from.
  struct FileHasher {
    private var hash: UInt64
    /// The bytes of a word not yet complete, little-endian, and how many there are.
    private var pending: UInt64 = 0
    private var pendingCount = 0

    init(count: Int) { hash = 0x9E37_79B9_7F4A_7C15 ^ UInt64(count) }

    mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
      let raw = UnsafeRawBufferPointer(bytes)
      var offset = 0
      if pendingCount > 0 {
        while pendingCount < 8, offset < raw.count {
          pending |= UInt64(raw[offset]) << UInt64(pendingCount * 8)
          pendingCount += 1
          offset += 1
        }
        guard pendingCount == 8 else { return }
        mix(pending)
        pending = 0
        pendingCount = 0
      }
      // Four words a step: the same mixes in the same order, a quarter of the loop's own work.
      while offset + 32 <= raw.count {
        mix(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
        mix(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)))
        mix(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)))
        mix(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)))
        offset += 32
      }
      while offset + 8 <= raw.count {
        mix(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
        offset += 8
      }
      while offset < raw.count {
        pending |= UInt64(raw[offset]) << UInt64(pendingCount * 8)
        pendingCount += 1
        offset += 1
      }
    }

    @inline(__always)
    private mutating func mix(_ word: UInt64) {
      hash = ((hash ^ word) &* 0xFF51_AFD7_ED55_8CCD).rotatedLeft(by: 29)
    }

    func finish() -> UInt64 {
      var hash = ((self.hash ^ pending) &* 0xC4CE_B9FE_1A85_EC53).rotatedLeft(by: 31)
      hash ^= hash >> 33
      hash = hash &* 0xFF51_AFD7_ED55_8CCD
      return hash ^ (hash >> 33)
    }
  }

  /// FNV-1a: the seal of undo records and journals, and the first journal's file hashes.
  static func of(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    bytes.withUnsafeBufferPointer { buffer in
      for byte in buffer {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01b3
      }
    }
    return hash ^ UInt64(bytes.count)
  }
}

extension UInt64 {
  func rotatedLeft(by count: UInt64) -> UInt64 { self << count | self >> (64 - count) }
}
