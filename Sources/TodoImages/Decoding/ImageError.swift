/// Why a file's bytes gave no picture.
///
/// Structured, so that a caller can tell a file that is not a picture (show its name) from a
/// damaged one (say so) from one too big to decode (say its size); worded in one place, in
/// ``description``.
package enum ImageError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No PNG or JPEG signature, and no other known one: an empty file, a text file, noise.
  case notAnImage
  /// A picture this decoder does not read: another format (`detail` is `nil`), or a variant
  /// of PNG or JPEG (a 12-bit JPEG), with the library's words.
  case unsupported(ImageFormat, detail: String?)
  /// The signature is right but the rest does not decode: cut short, a bad checksum, bad data.
  /// `detail` is the library's message, one line.
  case corrupt(ImageFormat, detail: String)
  /// The header declares more pixels than ``DecodeLimits`` allow; nothing was allocated.
  case tooLarge(width: Int, height: Int)
  /// The decoding library could not get the memory it needed.
  case outOfMemory

  /// One line naming the problem, lowercase, without a final period.
  package var description: String {
    switch self {
    case .notAnImage:
      "not a PNG or JPEG image"
    case .unsupported(let format, nil):
      "unsupported image format \(format.name)"
    case .unsupported(let format, let detail?):
      "unsupported \(format.name) image (\(Self.printable(detail)))"
    case .corrupt(let format, let detail):
      "corrupt \(format.name) image (\(Self.printable(detail)))"
    case .tooLarge(let width, let height):
      "image too large to show: \(width)x\(height) pixels"
    case .outOfMemory:
      "out of memory while decoding the image"
    }
  }

  /// `text` with control characters (C0, DEL, C1) shown as `?`, so that a message stays one
  /// line and a terminal obeys nothing in it.
  private static func printable(_ text: String) -> String {
    String(
      String.UnicodeScalarView(
        text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : $0 }))
  }
}
