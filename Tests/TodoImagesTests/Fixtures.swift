import CImageDecode
import Testing
import TodoImages
import TodoTestSupport

/// PNG and JPEG files made at test time with libpng and libjpeg (the encoders CImageDecode
/// keeps for tests), so that no binary fixture is committed and each test says its pixels.
enum FixtureEncoder {
  /// A PNG of `pixels` with `channels` bytes per pixel (1 gray, 2 gray+alpha, 3 RGB, 4 RGBA).
  static func png(_ pixels: [UInt8], width: Int, height: Int, channels: Int = 4) -> [UInt8] {
    var out: UnsafeMutablePointer<UInt8>?
    var length = 0
    let status = pixels.withUnsafeBufferPointer {
      cimage_test_encode_png(
        $0.baseAddress, UInt32(width), UInt32(height), Int32(channels), &out, &length)
    }
    return take(status, out, length)
  }

  /// A JPEG of `pixels` with `components` bytes per pixel (1 gray, 3 RGB, 4 CMYK as Adobe
  /// stores it, inverted), with `app1` as an APP1 marker when given.
  static func jpeg(
    _ pixels: [UInt8], width: Int, height: Int, components: Int = 3, quality: Int = 100,
    progressive: Bool = false, app1: [UInt8]? = nil
  ) -> [UInt8] {
    var out: UnsafeMutablePointer<UInt8>?
    var length = 0
    let marker = app1 ?? []
    let status = pixels.withUnsafeBufferPointer { source in
      marker.withUnsafeBufferPointer { app1Bytes in
        cimage_test_encode_jpeg(
          source.baseAddress, UInt32(width), UInt32(height), Int32(components), Int32(quality),
          progressive ? 1 : 0, app1 == nil ? nil : app1Bytes.baseAddress, marker.count, &out,
          &length)
      }
    }
    return take(status, out, length)
  }

  private static func take(_ status: Int32, _ out: UnsafeMutablePointer<UInt8>?, _ length: Int)
    -> [UInt8]
  {
    guard status == 0, let out else {
      Issue.record("the fixture encoder failed")
      return []
    }
    defer { cimage_test_free(out) }
    return Array(UnsafeBufferPointer(start: out, count: length))
  }
}

/// PNG files written byte by byte, from the PNG specification, for the cases libpng's simple
/// writer cannot make (palettes, 16 bits, bad headers): chunks with their CRC-32 and the image
/// data in a zlib stream of stored (uncompressed) deflate blocks.
enum HandMadePNG {
  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// A whole file: signature, IHDR, `chunks` (PLTE, tRNS…), IDAT with `rows` (each row's
  /// bytes without its filter byte, which is written as 0, none), IEND.
  static func file(
    width: UInt32, height: UInt32, bitDepth: UInt8, colorType: UInt8,
    chunks: [(String, [UInt8])] = [], rows: [[UInt8]]
  ) -> [UInt8] {
    var file =
      signature
      + chunk(
        "IHDR", header(width: width, height: height, bitDepth: bitDepth, colorType: colorType))
    for (type, data) in chunks { file += chunk(type, data) }
    file += chunk("IDAT", zlibStored(rows.flatMap { [0] + $0 }))
    return file + chunk("IEND", [])
  }

  /// Just a signature and an IHDR: enough for the decoder's size check.
  static func headerOnly(width: UInt32, height: UInt32) -> [UInt8] {
    signature + chunk("IHDR", header(width: width, height: height, bitDepth: 8, colorType: 6))
  }

  static func header(width: UInt32, height: UInt32, bitDepth: UInt8, colorType: UInt8) -> [UInt8] {
    bigEndian(width) + bigEndian(height) + [bitDepth, colorType, 0, 0, 0]
  }

  static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + data
    return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
  }

  static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }

  /// CRC-32 as PNG defines it (polynomial 0xEDB88320, reflected), bit by bit.
  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return crc ^ 0xFFFF_FFFF
  }

  /// A zlib stream (RFC 1950) holding `data` in stored deflate blocks (RFC 1951, type 00).
  static func zlibStored(_ data: [UInt8]) -> [UInt8] {
    var stream: [UInt8] = [0x78, 0x01]
    var start = 0
    repeat {
      let end = min(data.count, start + 65535)
      let length = UInt16(end - start)
      stream += [end == data.count ? 1 : 0, UInt8(length & 0xFF), UInt8(length >> 8)]
      stream += [UInt8(~length & 0xFF), UInt8(~length >> 8)]
      stream += data[start..<end]
      start = end
    } while start < data.count
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in data {
      a = (a + UInt32(byte)) % 65521
      b = (b + a) % 65521
    }
    return stream + bigEndian(b << 16 | a)
  }
}

/// An EXIF APP1 block with only an Orientation tag, in either byte order, from the EXIF
/// specification: "Exif\0\0", a TIFF header, IFD0 with one SHORT entry, no next IFD.
func exifBlock(orientation: UInt16, littleEndian: Bool) -> [UInt8] {
  func u16(_ value: UInt16) -> [UInt8] {
    littleEndian
      ? [UInt8(value & 0xFF), UInt8(value >> 8)] : [UInt8(value >> 8), UInt8(value & 0xFF)]
  }
  func u32(_ value: UInt32) -> [UInt8] {
    let bytes = [
      UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF),
    ]
    return littleEndian ? bytes.reversed() : bytes
  }
  let tiff = Array((littleEndian ? "II" : "MM").utf8) + u16(42) + u32(8)
  let entry = u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0]
  return Array("Exif".utf8) + [0, 0] + tiff + u16(1) + entry + u32(0)
}

/// A seeded image of random pixels (alpha random too when `opaque` is false).
func randomImage(width: Int, height: Int, generator: inout SplitMix64, opaque: Bool = false)
  -> RGBAImage
{
  var pixels: [UInt8] = []
  for _ in 0..<(width * height) {
    pixels += [
      UInt8(generator.below(256)), UInt8(generator.below(256)), UInt8(generator.below(256)),
      opaque ? 255 : UInt8(generator.below(256)),
    ]
  }
  return RGBAImage(width: width, height: height, pixels: pixels)
}

/// `pixel` over `background`, computed here from the definition (c·a + b·(255 − a)) / 255,
/// rounded to nearest.
func blended(_ pixel: RGBAPixel, over background: RGBColor = .black) -> RGBColor {
  func mix(_ c: UInt8, _ b: UInt8) -> UInt8 {
    let exact = Double(Int(c) * Int(pixel.alpha) + Int(b) * (255 - Int(pixel.alpha))) / 255
    return UInt8(exact.rounded(.toNearestOrAwayFromZero))
  }
  return RGBColor(
    red: mix(pixel.red, background.red), green: mix(pixel.green, background.green),
    blue: mix(pixel.blue, background.blue))
}

/// The xterm palette from its published definition, and the nearest entry by trying all 240.
enum ReferencePalette {
  static func color(_ index: Int) -> RGBColor {
    if index >= 232 {
      let gray = UInt8(8 + 10 * (index - 232))
      return RGBColor(red: gray, green: gray, blue: gray)
    }
    let levels: [UInt8] = [0, 0x5F, 0x87, 0xAF, 0xD7, 0xFF]
    let cube = index - 16
    return RGBColor(red: levels[cube / 36], green: levels[(cube / 6) % 6], blue: levels[cube % 6])
  }

  static let all: [(index: Int, red: Int, green: Int, blue: Int)] = (16...255).map {
    let c = color($0)
    return ($0, Int(c.red), Int(c.green), Int(c.blue))
  }

  static func nearest(_ target: RGBColor) -> Int {
    var best = 16
    var bestDistance = Int.max
    for entry in all {
      let (dr, dg, db) = (
        entry.red - Int(target.red), entry.green - Int(target.green), entry.blue - Int(target.blue)
      )
      let distance = dr * dr + dg * dg + db * db
      if distance < bestDistance {
        best = entry.index
        bestDistance = distance
      }
    }
    return best
  }
}

/// The error `decode` throws for `bytes`, or `nil` when it decodes.
func decodeError(_ bytes: [UInt8], limits: DecodeLimits = .standard) -> ImageError? {
  do {
    _ = try RGBAImage.decode(bytes, limits: limits)
    return nil
  } catch {
    return error
  }
}

/// Whether `error` is `.corrupt` for `format`, whatever the library's words.
func isCorrupt(_ error: ImageError?, _ format: ImageFormat) -> Bool {
  if case .corrupt(format, _)? = error { return true }
  return false
}
