/// A priority `A` (highest) to `Z` (lowest).
public struct Priority: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The ASCII code of the letter.
  public let byte: UInt8

  /// The priority of an ASCII capital letter; `nil` for any other byte.
  public init?(_ letter: UInt8) {
    guard (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(letter) else { return nil }
    byte = letter
  }

  /// A single upper-case letter `A`–`Z`.
  public init?(_ text: some StringProtocol) {
    let utf8 = Array(text.utf8)
    guard utf8.count == 1 else { return nil }
    self.init(utf8[0])
  }

  /// The letter, `A` to `Z`.
  public var letter: Character { Character(Unicode.Scalar(byte)) }
  public var description: String { String(letter) }

  /// `A` sorts first: it is the most important.
  public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.byte < rhs.byte }
}
