/// SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104), for sealing the store's own records
/// with a key only this user holds: the toolchain has no CryptoKit, and an unkeyed checksum
/// lets anyone who can write to a synced todo directory plant a record the store would trust.
struct SHA256 {
  private static let k: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4,
    0xab1c_5ed5, 0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe,
    0x9bdc_06a7, 0xc19b_f174, 0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f,
    0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da, 0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7,
    0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967, 0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc,
    0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85, 0xa2bf_e8a1, 0xa81a_664b,
    0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070, 0x19a4_c116,
    0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7,
    0xc671_78f2,
  ]

  private var state: [UInt32] = [
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab,
    0x5be0_cd19,
  ]
  private var buffer: [UInt8] = []
  private var length: UInt64 = 0

  mutating func update(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { update($0) }
  }

  /// Adds bytes; a record is hashed as it is written, a block at a time, never held whole.
  mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
    length &+= UInt64(bytes.count)
    var start = 0
    if !buffer.isEmpty {
      let take = min(64 - buffer.count, bytes.count)
      buffer += bytes[0..<take]
      start = take
      guard buffer.count == 64 else { return }
      buffer.withUnsafeBufferPointer { compress($0, at: 0) }
      buffer.removeAll(keepingCapacity: true)
    }
    if bytes.count - start >= 64, let base = bytes.baseAddress {
      let blocks = (bytes.count - start) / 64
      compress(base + start, blocks: blocks)
      start += blocks * 64
    }
    buffer += bytes[start...]
  }

  mutating func finish() -> [UInt8] {
    let bits = length &* 8
    var tail = buffer + [0x80]
    while tail.count % 64 != 56 { tail.append(0) }
    for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
    tail.withUnsafeBufferPointer { pointer in
      var offset = 0
      while offset < tail.count {
        compress(pointer, at: offset)
        offset += 64
      }
    }
    buffer = []
    return state.flatMap { word in
      [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) }
    }
  }

  private mutating func compress(_ block: UnsafeBufferPointer<UInt8>, at offset: Int) {
    guard let bytes = block.baseAddress else { return }
    compress(bytes + offset, blocks: 1)
  }

  /// Compresses `blocks` consecutive 64-byte blocks. The state stays in locals across them,
  /// the message schedule is a ring of sixteen words on the stack, and the tables are read
  /// without bounds checks: a heap array per block, as this began, made sealing a journal
  /// cost more than writing it.
  private mutating func compress(_ bytes: UnsafePointer<UInt8>, blocks: Int) {
    var (a0, b0, c0, d0, e0, f0, g0, h0) = (
      state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7]
    )
    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { w in
      SHA256.k.withUnsafeBufferPointer { k in
        guard let w = w.baseAddress, let k = k.baseAddress else { return }
        for blockIndex in 0..<blocks {
          let block = UnsafeRawPointer(bytes + blockIndex * 64)
          var (a, b, c, d, e, f, g, h) = (a0, b0, c0, d0, e0, f0, g0, h0)
          // Eight rounds at a time with the roles of the words turned instead of moving
          // them: the state stays in registers.
          var index = 0
          while index < 64 {
            round(a, b, c, &d, e, f, g, &h, k[index] &+ schedule(w, block, index))
            round(h, a, b, &c, d, e, f, &g, k[index + 1] &+ schedule(w, block, index + 1))
            round(g, h, a, &b, c, d, e, &f, k[index + 2] &+ schedule(w, block, index + 2))
            round(f, g, h, &a, b, c, d, &e, k[index + 3] &+ schedule(w, block, index + 3))
            round(e, f, g, &h, a, b, c, &d, k[index + 4] &+ schedule(w, block, index + 4))
            round(d, e, f, &g, h, a, b, &c, k[index + 5] &+ schedule(w, block, index + 5))
            round(c, d, e, &f, g, h, a, &b, k[index + 6] &+ schedule(w, block, index + 6))
            round(b, c, d, &e, f, g, h, &a, k[index + 7] &+ schedule(w, block, index + 7))
            index += 8
          }
          a0 &+= a
          b0 &+= b
          c0 &+= c
          d0 &+= d
          e0 &+= e
          f0 &+= f
          g0 &+= g
          h0 &+= h
        }
      }
    }
    state = [a0, b0, c0, d0, e0, f0, g0, h0]
  }

  static func hash(_ bytes: [UInt8]) -> [UInt8] {
    var hasher = SHA256()
    hasher.update(bytes)
    return hasher.finish()
  }

  /// HMAC-SHA-256 of `message` under `key`.
  static func authenticationCode(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
    var code = Authenticator(key: key)
    code.update(message)
    return code.finish()
  }
}

/// HMAC-SHA-256 (RFC 2104) of a message given in pieces: a journal is sealed while it is
/// written, a block at a time, and comes out the same as ``SHA256/authenticationCode(_:key:)``
/// of the whole.
struct Authenticator {
  private var inner = SHA256()
  private var outerPad: [UInt8]

  init(key: [UInt8]) {
    var block = key.count > 64 ? SHA256.hash(key) : key
    block += [UInt8](repeating: 0, count: 64 - block.count)
    inner.update(block.map { $0 ^ 0x36 })
    outerPad = block.map { $0 ^ 0x5c }
  }

  mutating func update(_ bytes: [UInt8]) { inner.update(bytes) }

  mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) { inner.update(bytes) }

  mutating func finish() -> [UInt8] {
    var outer = SHA256()
    outer.update(outerPad)
    outer.update(inner.finish())
    return outer.finish()
  }
}

/// A 32-bit word rotated right (a free function: the compression loop holds the state
/// exclusively).
@inline(__always)
private func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
  value >> count | value << (32 - count)
}

/// The message word of round `index`: read from the block for the first sixteen rounds,
/// then made from earlier words (kept in a ring of sixteen).
@inline(__always)
private func schedule(_ w: UnsafeMutablePointer<UInt32>, _ block: UnsafeRawPointer, _ index: Int) -> UInt32 {
  let word: UInt32
  if index < 16 {
    word = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
  } else {
    let w15 = w[(index - 15) & 15]
    let w2 = w[(index - 2) & 15]
    let s0 = rotate(w15, 7) ^ rotate(w15, 18) ^ (w15 >> 3)
    let s1 = rotate(w2, 17) ^ rotate(w2, 19) ^ (w2 >> 10)
    word = w[index & 15] &+ s0 &+ w[(index - 7) & 15] &+ s1
  }
  w[index & 15] = word
  return word
}

/// One round of SHA-256 on the working words in their current roles; `kw` is the round
/// constant plus the message word.
@inline(__always)
private func round(
  _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32,
  _ h: inout UInt32, _ kw: UInt32
) {
  let t1 = h &+ (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) &+ ((e & f) ^ (~e & g)) &+ kw
  let t2 = (rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
  d = d &+ t1
  h = t1 &+ t2
}

extension TodoStore {
  /// The first 48 bits of the SHA-256 of `bytes`, in hex: enough to tell whether a change
  /// recorded under a label was made from these very bytes (a conflicted copy merged once).
  package static func fingerprint(of bytes: [UInt8]) -> String {
    var hash = SHA256()
    hash.update(bytes)
    let digits = Array("0123456789abcdef".utf8)
    return String(decoding: hash.finish().prefix(6).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
  }
}

extension TodoStore {
  /// The whole SHA-256 of `bytes`, in hex: the checksum of a state file another part of the
  /// tool keeps (CalDAV sync's), to tell a file cut short or changed from a good one.
  package static func digest(of bytes: [UInt8]) -> String {
    var hash = SHA256()
    hash.update(bytes)
    let digits = Array("0123456789abcdef".utf8)
    return String(decoding: hash.finish().flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
  }
}
