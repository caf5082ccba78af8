import CImageDecode

// The one Swift file that calls CImageDecode (libpng and libjpeg behind it).

/// What a file's header says, read without decoding its pixels.
///
/// Lets a view reserve the right number of cells, or say "too large", before it spends the
/// time and memory of a decode.
package struct ImageInfo: Hashable, Sendable {
  /// PNG or JPEG.
  package var format: ImageFormat
  /// Width as displayed, after ``orientation`` is applied.
  package var width: Int
  /// Height as displayed, after ``orientation`` is applied.
  package var height: Int
  /// The turn the file asks for (JPEG's EXIF tag; PNG is always ``ImageOrientation/topLeft``).
  package var orientation: ImageOrientation

  /// Header facts as they are; ``RGBAImage/info(of:limits:)`` makes these from a file.
  package init(format: ImageFormat, width: Int, height: Int, orientation: ImageOrientation) {
    self.format = format
    self.width = width
    self.height = height
    self.orientation = orientation
  }
}

extension RGBAImage {
  /// Decodes a PNG or JPEG file's bytes to RGBA, turned upright as its EXIF orientation says.
  ///
  /// The caller reads the file (through its store) and passes the bytes; the format is told by
  /// its magic numbers, not by a file name. The header is checked against `limits` before the
  /// pixel buffer is allocated, and the pixels are decoded straight into the array returned.
  ///
  /// - Throws: ``ImageError``; never stops the program, whatever the bytes (libjpeg's exit on a
  ///   fatal error is replaced by a jump back).
  package static func decode(
    _ bytes: [UInt8], limits: DecodeLimits = .standard
  ) throws(ImageError) -> RGBAImage {
    let cLimits = limits.cLimits
    var info = cimage_info()
    let headerStatus = bytes.withUnsafeBufferPointer { source in
      cimage_read_info(source.baseAddress, source.count, cLimits, &info)
    }
    try check(headerStatus, info)
    let width = Int(info.width)
    let height = Int(info.height)
    let count = width * height * 4
    var status = CIMAGE_OK
    let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      status = bytes.withUnsafeBufferPointer { source in
        cimage_decode_into(
          source.baseAddress, source.count, cLimits, buffer.baseAddress, count, &info)
      }
      initialized = status == CIMAGE_OK ? count : 0
    }
    try check(status, info)
    let orientation = ImageOrientation(rawValue: info.orientation) ?? .topLeft
    return RGBAImage(width: width, height: height, pixels: pixels).oriented(orientation)
  }

  /// Reads a PNG or JPEG file's header: format, displayed size and orientation.
  ///
  /// - Throws: ``ImageError`` as ``decode(_:limits:)`` would for the header (a file whose data
  ///   is damaged after the header passes here).
  package static func info(
    of bytes: [UInt8], limits: DecodeLimits = .standard
  ) throws(ImageError) -> ImageInfo {
    var info = cimage_info()
    let status = bytes.withUnsafeBufferPointer { source in
      cimage_read_info(source.baseAddress, source.count, limits.cLimits, &info)
    }
    try check(status, info)
    let orientation = ImageOrientation(rawValue: info.orientation) ?? .topLeft
    let width = Int(info.width)
    let height = Int(info.height)
    return ImageInfo(
      format: ImageFormat(info.format) ?? .png,
      width: orientation.swapsSides ? height : width,
      height: orientation.swapsSides ? width : height,
      orientation: orientation)
  }

  /// The format named by the first bytes (`nil` when none is known); decodes nothing.
  package static func format(of bytes: [UInt8]) -> ImageFormat? {
    ImageFormat(bytes.withUnsafeBufferPointer { cimage_sniff_format($0.baseAddress, $0.count) })
  }

  /// Turns a status from `cimage_read_info` or `cimage_decode_into` into an error.
  private static func check(_ status: cimage_status, _ info: cimage_info) throws(ImageError) {
    let format = ImageFormat(info.format) ?? .png
    switch status {
    case CIMAGE_OK:
      return
    case CIMAGE_NOT_AN_IMAGE:
      throw .notAnImage
    case CIMAGE_UNSUPPORTED:
      let detail = message(info)
      throw .unsupported(format, detail: detail.isEmpty ? nil : detail)
    case CIMAGE_TOO_LARGE:
      throw .tooLarge(width: Int(info.width), height: Int(info.height))
    case CIMAGE_OUT_OF_MEMORY:
      throw .outOfMemory
    case CIMAGE_BAD_BUFFER:
      throw .corrupt(format, detail: "the image size changed between header and data")
    default:
      throw .corrupt(format, detail: message(info))
    }
  }

  /// `info.message`, a fixed C array, up to its NUL.
  private static func message(_ info: cimage_info) -> String {
    withUnsafeBytes(of: info.message) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
  }
}

extension ImageFormat {
  /// The Swift name of a C format code; `nil` for an unknown one.
  fileprivate init?(_ format: cimage_format) {
    switch format {
    case CIMAGE_FORMAT_PNG: self = .png
    case CIMAGE_FORMAT_JPEG: self = .jpeg
    case CIMAGE_FORMAT_GIF: self = .gif
    case CIMAGE_FORMAT_WEBP: self = .webp
    case CIMAGE_FORMAT_TIFF: self = .tiff
    case CIMAGE_FORMAT_HEIF: self = .heif
    case CIMAGE_FORMAT_AVIF: self = .avif
    default: return nil
    }
  }
}

extension DecodeLimits {
  /// The limits as the C decoder takes them.
  fileprivate var cLimits: cimage_limits {
    cimage_limits(
      max_width: UInt32(clamping: maxWidth), max_height: UInt32(clamping: maxHeight),
      max_pixels: UInt64(maxPixels), max_scans: UInt32(clamping: maxScans))
  }
}
