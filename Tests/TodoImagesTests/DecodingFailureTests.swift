import Testing
import TodoImages
import TodoTestSupport

/// Whatever the bytes, decoding ends in a picture or an ``ImageError`` that names the problem:
/// never a crash, never exit() from libjpeg, never an allocation for a size only a header
/// claims.
@Suite struct DecodingFailureTests {
  static let smallPNG: [UInt8] = {
    var generator = SplitMix64(seed: 1)
    let image = randomImage(width: 6, height: 4, generator: &generator)
    return FixtureEncoder.png(image.pixels, width: 6, height: 4)
  }()

  static let smallJPEG: [UInt8] = {
    var generator = SplitMix64(seed: 2)
    let image = randomImage(width: 16, height: 16, generator: &generator, opaque: true)
    let rgb = (0..<256).flatMap { Array(image.pixels[($0 * 4)..<($0 * 4 + 3)]) }
    return FixtureEncoder.jpeg(rgb, width: 16, height: 16, quality: 90)
  }()

  static let progressiveJPEG: [UInt8] = FixtureEncoder.jpeg(
    [UInt8](repeating: 200, count: 32 * 32 * 3), width: 32, height: 32, progressive: true)

  @Test func emptyInputIsNotAnImage() {
    #expect(decodeError([]) == .notAnImage)
  }

  @Test func textAndRandomBytesAreNotImages() {
    #expect(decodeError(Array("(A) call mum +family\n".utf8)) == .notAnImage)
    var generator = SplitMix64(seed: 0xBAD)
    for _ in 0..<500 {
      var bytes = (0..<generator.below(300)).map { _ in UInt8(generator.below(256)) }
      // No known format by chance: no signature starts with a zero byte, and the ISO media
      // box type ("ftyp") that HEIF and AVIF have at byte 4 does not either.
      for index in [0, 4] where index < bytes.count { bytes[index] = 0 }
      #expect(decodeError(bytes) == .notAnImage)
    }
  }

  @Test(arguments: [
    ("GIF89a\u{1}\0\u{1}\0", ImageFormat.gif),
    ("RIFF\0\0\0\0WEBPVP8 ", .webp),
    ("II*\0\u{8}\0\0\0", .tiff),
    ("\0\0\0\u{18}ftypheic\0\0\0\0", .heif),
    ("\0\0\0\u{18}ftypavif\0\0\0\0", .avif),
  ])
  func otherFormatsAreNamed(header: String, format: ImageFormat) {
    let error = decodeError(Array(header.utf8))
    #expect(error == .unsupported(format, detail: nil))
    #expect(error?.description == "unsupported image format \(format.name)")
  }

  /// Cut anywhere before its last pixel data, a file is refused. A PNG is read up to its last
  /// IDAT chunk, so one that lacks only (part of) the 12-byte IEND chunk that follows still
  /// shows the whole picture; a JPEG must reach its end marker.
  @Test(arguments: ["PNG", "JPEG", "progressive JPEG"])
  func everyShorterPrefixIsRefused(name: String) throws {
    let files = [
      "PNG": Self.smallPNG, "JPEG": Self.smallJPEG, "progressive JPEG": Self.progressiveJPEG,
    ]
    let file = try #require(files[name])
    let format = try #require(RGBAImage.format(of: file))
    let signatureLength = format == .png ? 8 : 3
    let whole = try RGBAImage.decode(file)
    for length in 0..<file.count {
      let error = decodeError(Array(file.prefix(length)))
      if length < signatureLength {
        #expect(error == .notAnImage, "\(name) cut to \(length) bytes")
      } else if format == .png && length >= file.count - 12 {
        #expect(
          try RGBAImage.decode(Array(file.prefix(length))) == whole,
          "\(name) cut to \(length) bytes")
      } else {
        #expect(
          isCorrupt(error, format), "\(name) cut to \(length) bytes: \(String(describing: error))")
      }
    }
  }

  @Test func aBadChecksumIsCorrupt() {
    var file = Self.smallPNG
    let idat = file.indices.first { Array(file[$0..<($0 + 4)]) == Array("IDAT".utf8) } ?? 0
    file[idat + 6] ^= 0x01  // a byte of compressed data; the CRC no longer matches
    let error = decodeError(file)
    #expect(isCorrupt(error, .png))
    #expect(error?.description.hasPrefix("corrupt PNG image (") == true)
  }

  @Test(arguments: [
    (UInt32(16385), UInt32(1)), (1, 16385), (10_000, 10_000), (16384, 16384),
    (0x7FFF_FFFF, 0x7FFF_FFFF),
  ])
  func hugePNGHeadersAreTooLarge(width: UInt32, height: UInt32) {
    // Only a header: nothing can be decoded, so only a check before allocating answers this.
    let error = decodeError(HandMadePNG.headerOnly(width: width, height: height))
    #expect(error == .tooLarge(width: Int(width), height: Int(height)))
    #expect(error?.description == "image too large to show: \(width)x\(height) pixels")
  }

  @Test(arguments: [(UInt32(0), UInt32(10)), (10, 0), (0x8000_0000, 1)])
  func invalidPNGSizesAreCorrupt(width: UInt32, height: UInt32) {
    #expect(isCorrupt(decodeError(HandMadePNG.headerOnly(width: width, height: height)), .png))
  }

  @Test func theLimitsAreInclusive() throws {
    var generator = SplitMix64(seed: 3)
    let image = randomImage(width: 100, height: 100, generator: &generator)
    let file = FixtureEncoder.png(image.pixels, width: 100, height: 100)
    let exact = DecodeLimits(maxWidth: 100, maxHeight: 100, maxPixels: 10_000, maxScans: 1)
    #expect(try RGBAImage.decode(file, limits: exact) == image)
    for limits in [
      DecodeLimits(maxWidth: 99, maxHeight: 100, maxPixels: 10_000, maxScans: 1),
      DecodeLimits(maxWidth: 100, maxHeight: 99, maxPixels: 10_000, maxScans: 1),
      DecodeLimits(maxWidth: 100, maxHeight: 100, maxPixels: 9_999, maxScans: 1),
    ] {
      #expect(decodeError(file, limits: limits) == .tooLarge(width: 100, height: 100))
    }
  }

  /// `file` with the size in its JPEG frame header (SOF0 or SOF2) replaced.
  func withFrameSize(_ file: [UInt8], width: Int, height: Int) throws -> [UInt8] {
    let frame = try #require(
      file.indices.dropLast().first {
        file[$0] == 0xFF && (file[$0 + 1] == 0xC0 || file[$0 + 1] == 0xC2)
      })
    var patched = file
    // FF Cn, length (2), precision (1), height (2), width (2).
    patched[frame + 5] = UInt8(height >> 8)
    patched[frame + 6] = UInt8(height & 0xFF)
    patched[frame + 7] = UInt8(width >> 8)
    patched[frame + 8] = UInt8(width & 0xFF)
    return patched
  }

  @Test(arguments: [(20_000, 20_000), (16385, 8), (8, 16385), (10_000, 5_001)])
  func hugeJPEGHeadersAreTooLarge(width: Int, height: Int) throws {
    for file in [Self.smallJPEG, Self.progressiveJPEG] {
      let patched = try withFrameSize(file, width: width, height: height)
      #expect(decodeError(patched) == .tooLarge(width: width, height: height))
      #expect(throws: ImageError.tooLarge(width: width, height: height)) {
        try RGBAImage.info(of: patched)
      }
    }
  }

  @Test func aJPEGOfZeroHeightIsCorrupt() throws {
    #expect(isCorrupt(decodeError(try withFrameSize(Self.smallJPEG, width: 16, height: 0)), .jpeg))
  }

  @Test func progressiveScansAreLimited() throws {
    #expect(try RGBAImage.decode(Self.progressiveJPEG).width == 32)
    let few = DecodeLimits(maxWidth: 100, maxHeight: 100, maxPixels: 10_000, maxScans: 2)
    #expect(
      decodeError(Self.progressiveJPEG, limits: few)
        == .corrupt(.jpeg, detail: "more than 2 progressive scans"))
    #expect(decodeError(Self.smallJPEG, limits: few) == nil)  // baseline: one scan
  }

  @Test func garbageAfterTheJPEGHeaderIsCorrupt() {
    var file = Array(Self.smallJPEG.prefix(200))
    file += [UInt8](repeating: 0xFF, count: 64)
    #expect(isCorrupt(decodeError(file), .jpeg))
  }

  @Test func descriptionsAreOneLine() {
    let errors: [ImageError] = [
      .notAnImage, .unsupported(.gif, detail: nil), .unsupported(.jpeg, detail: "12-bit"),
      .corrupt(.png, detail: "IDAT: CRC error"), .tooLarge(width: 1, height: 2), .outOfMemory,
    ]
    let hostile = ImageError.corrupt(.png, detail: "a\nb\u{1B}[2J\u{9B}c")
    #expect(hostile.description == "corrupt PNG image (a?b?[2J?c)")
    for error in errors + [hostile] {
      #expect(
        !error.description.isEmpty && !error.description.contains("\n")
          && !error.description.hasSuffix("."))
      #expect(error.description.first?.isLowercase == true)
    }
  }

  /// 2,000 damaged copies of valid files (bytes changed, cut, inserted, repeated, zeroed) from
  /// a fixed seed: each decodes to a well-formed picture within the limits or throws.
  @Test func mutatedFilesNeverCrash() {
    var generator = SplitMix64(seed: 0x5EED_1A6E)
    let sources: [[UInt8]] = [
      Self.smallPNG, Self.smallJPEG, Self.progressiveJPEG,
      HandMadePNG.file(
        width: 3, height: 2, bitDepth: 8, colorType: 3,
        chunks: [("PLTE", [1, 2, 3, 4, 5, 6]), ("tRNS", [9])], rows: [[0, 1, 0], [1, 1, 0]]),
      FixtureEncoder.jpeg(
        DecodingTests.quadrantPixels(side: 16), width: 16, height: 16,
        app1: exifBlock(orientation: 6, littleEndian: true)),
    ]
    let limits = DecodeLimits(maxWidth: 2048, maxHeight: 2048, maxPixels: 1 << 20, maxScans: 64)
    var decoded = 0
    var refused = 0
    for round in 0..<2000 {
      var file = sources[round % sources.count]
      for _ in 0...generator.below(4) {
        let at = generator.below(file.count)
        switch generator.below(6) {
        case 0, 1: file[at] = UInt8(generator.below(256))
        case 2: file = Array(file.prefix(at + 1))
        case 3:
          file.insert(
            contentsOf: (0..<generator.below(16)).map { _ in UInt8(generator.below(256)) }, at: at)
        case 4:
          file.insert(contentsOf: file[at..<min(file.count, at + generator.below(64))], at: at)
        default:
          for index in at..<min(file.count, at + 4) {
            file[index] = generator.below(2) == 0 ? 0 : 0xFF
          }
        }
      }
      do {
        let image = try RGBAImage.decode(file, limits: limits)
        #expect(image.pixels.count == image.width * image.height * 4, "round \(round)")
        #expect(
          image.width * image.height <= 1 << 20 && max(image.width, image.height) <= 2048,
          "round \(round)")
        decoded += 1
      } catch {
        #expect(!error.description.isEmpty && !error.description.contains("\n"), "round \(round)")
        refused += 1
      }
    }
    // The fixed seed gives both outcomes; a change here means the mutations changed.
    #expect(decoded > 0 && refused > 0)
  }
}
