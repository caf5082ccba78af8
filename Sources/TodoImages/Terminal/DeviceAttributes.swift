/// A terminal's answer to the Primary Device Attributes query (DA1), which is how a terminal
/// says it can draw sixels (attribute 4) when its name does not.
///
/// Asking is the caller's I/O: write ``query``, read the reply from the terminal with a
/// timeout (a terminal that does not understand it says nothing), and pass the bytes here.
package struct DeviceAttributes: Hashable, Sendable {
  /// The DA1 query, `CSI c`.
  package static let query = "\u{1B}[c"

  /// The first number of the reply: the terminal's class (62 VT220, 63 VT320, 64 VT420,
  /// 65 VT5xx; 1 or 6 for VT100-style replies).
  package var conformanceLevel: Int
  /// The numbers after the class: the features the terminal claims.
  package var attributes: [Int]

  /// Whether the terminal claims sixel graphics: attribute 4 in a VT220-or-later reply. In a
  /// VT100-style reply (`CSI ? 1 ; n c`) the second number is a bit mask, not a list, and 4
  /// there means something else.
  package var supportsSixel: Bool { conformanceLevel >= 62 && attributes.contains(4) }

  /// Parses the first DA1 reply in `bytes`: `ESC [ ?` (or the 8-bit CSI, 0x9B, then `?`),
  /// numbers separated by `;`, and `c`. Bytes before it (keys typed meanwhile) are skipped;
  /// `nil` when there is no complete reply.
  package init?(reply bytes: [UInt8]) {
    var index = 0
    while index < bytes.count {
      let start: Int
      if bytes[index] == 0x1B, index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "["),
        bytes[index + 2] == UInt8(ascii: "?")
      {
        start = index + 3
      } else if bytes[index] == 0x9B, index + 1 < bytes.count,
        bytes[index + 1] == UInt8(ascii: "?")
      {
        start = index + 2
      } else {
        index += 1
        continue
      }
      if let numbers = Self.parameters(bytes, from: start), let first = numbers.first {
        conformanceLevel = first
        attributes = Array(numbers.dropFirst())
        return
      }
      index += 1
    }
    return nil
  }

  /// The numbers of `n ; n ; … c` from `start`, or `nil` when something else comes first.
  private static func parameters(_ bytes: [UInt8], from start: Int) -> [Int]? {
    var numbers: [Int] = []
    var current: Int?
    for byte in bytes[start...] {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        let digit = Int(byte - UInt8(ascii: "0"))
        let value = (current ?? 0) * 10 + digit
        guard value < 1_000_000 else { return nil }
        current = value
      case UInt8(ascii: ";"):
        numbers.append(current ?? 0)
        current = nil
      case UInt8(ascii: "c"):
        guard let current else { return numbers.isEmpty ? nil : numbers + [0] }
        return numbers + [current]
      default:
        return nil
      }
    }
    return nil
  }
}
