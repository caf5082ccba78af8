/// A VTODO's UID as the value of a `uid:` tag, and back.
///
/// Most UIDs (a UUID, `name@host`) are written as they are. A tag's value holds no white
/// space and no colon, and a server's UID may hold both (`urn:uuid:…`): those bytes, `%`
/// itself and control characters are written `%XX`, so every UID has exactly one tag value
/// and reads back the same.
public enum LocalUID {
  public static func tagValue(for uid: String) -> String {
    var out: [UInt8] = []
    let hex = Array("0123456789ABCDEF".utf8)
    for byte in uid.utf8 {
      if byte <= 0x20 || byte == 0x7F || byte == 0x25 || byte == 0x3A {
        out += [0x25, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
      } else {
        out.append(byte)
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The UID a tag value stands for; nil when its `%XX` escapes do not read.
  public static func uid(fromTagValue value: String) -> String? {
    var out: [UInt8] = []
    var bytes = Array(value.utf8)[...]
    while let byte = bytes.popFirst() {
      guard byte == 0x25 else {
        out.append(byte)
        continue
      }
      guard bytes.count >= 2, let high = hexValue(bytes.removeFirst()), let low = hexValue(bytes.removeFirst()) else {
        return nil
      }
      out.append(high << 4 | low)
    }
    return String(validating: out, as: UTF8.self)
  }

  static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: return byte - 0x30
    case 0x41...0x46: return byte - 0x41 + 10
    case 0x61...0x66: return byte - 0x61 + 10
    default: return nil
    }
  }
}
