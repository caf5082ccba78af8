/// A picture format known by its first bytes.
///
/// Only ``png`` and ``jpeg`` are decoded; the others are recognised so that an attachment that
/// is a GIF or a phone's HEIC photo is reported as what it is, not as "not an image".
package enum ImageFormat: Hashable, Sendable, CaseIterable {
  /// Portable Network Graphics.
  case png
  /// JPEG (JFIF or EXIF).
  case jpeg
  /// GIF, recognised only.
  case gif
  /// WebP, recognised only.
  case webp
  /// TIFF, recognised only.
  case tiff
  /// HEIF/HEIC (what iPhones save), recognised only.
  case heif
  /// AVIF, recognised only.
  case avif

  /// The name used in messages.
  package var name: String {
    switch self {
    case .png: "PNG"
    case .jpeg: "JPEG"
    case .gif: "GIF"
    case .webp: "WebP"
    case .tiff: "TIFF"
    case .heif: "HEIF"
    case .avif: "AVIF"
    }
  }
}
