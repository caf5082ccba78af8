extension Task {
  /// A short fingerprint of the line's bytes: 16 hexadecimal digits of their 64-bit FNV-1a hash.
  ///
  /// Scripts use it to name the task they saw (`todo --if-match HASH do 3`), so that a command
  /// refuses to act when line 3 has become another task meanwhile. It is not a secure hash;
  /// it only tells lines apart.
  public var contentHash: String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
