/// Standard base64 (RFC 4648, `+` `/` and `=` padding), which the kitty graphics protocol
/// requires for its payload. Written here because the library uses no Foundation.
enum Base64 {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// The base64 text of `bytes`, as ASCII bytes.
  static func encode(_ bytes: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index + 3 <= bytes.count {
      let group = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
      output += [
        alphabet[group >> 18], alphabet[group >> 12 & 63], alphabet[group >> 6 & 63],
        alphabet[group & 63],
      ]
      index += 3
    }
    let rest = bytes.count - index
    if rest > 0 {
      let group = Int(bytes[index]) << 16 | (rest == 2 ? Int(bytes[index + 1]) << 8 : 0)
      output += [alphabet[group >> 18], alphabet[group >> 12 & 63]]
      let pad = UInt8(ascii: "=")
      output += rest == 2 ? [alphabet[group >> 6 & 63], pad] : [pad, pad]
    }
    return output
  }
}
