import Testing
import TodoImages
import TodoTestSupport

/// PNG and JPEG files of known pixels decode to those pixels (exactly for PNG, within JPEG's
/// loss for JPEG), in every colour layout the decoder converts from, turned as EXIF says.
@Suite struct DecodingTests {
  // MARK: PNG

  @Test(arguments: [1, 2, 3, 4])
  func pngFromLibpngDecodesExactly(channels: Int) throws {
    var generator = SplitMix64(seed: 0x9E3 + UInt64(channels))
    let (width, height) = (7, 5)
    let stored = (0..<(width * height * channels)).map { _ in UInt8(generator.below(256)) }
    let file = FixtureEncoder.png(stored, width: width, height: height, channels: channels)
    let image = try RGBAImage.decode(file)
    #expect(image.width == width && image.height == height)
    for y in 0..<height {
      for x in 0..<width {
        let s = Array(stored[((y * width + x) * channels)...].prefix(channels))
        // Gray is copied to all three channels; a missing alpha is opaque.
        let expected =
          switch channels {
          case 1: RGBAPixel(red: s[0], green: s[0], blue: s[0])
          case 2: RGBAPixel(red: s[0], green: s[0], blue: s[0], alpha: s[1])
          case 3: RGBAPixel(red: s[0], green: s[1], blue: s[2])
          default: RGBAPixel(red: s[0], green: s[1], blue: s[2], alpha: s[3])
          }
        #expect(image.pixel(x: x, y: y) == expected, "(\(x), \(y))")
      }
    }
  }

  @Test func handMadePaletteWithTransparencyDecodes() throws {
    // Colour type 3, 8 bits: indices into PLTE; tRNS gives the first two entries alpha.
    let palette: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30]
    let file = HandMadePNG.file(
      width: 3, height: 2, bitDepth: 8, colorType: 3,
      chunks: [("PLTE", palette), ("tRNS", [0, 128])], rows: [[0, 1, 2], [3, 3, 0]])
    let image = try RGBAImage.decode(file)
    #expect(image.width == 3 && image.height == 2)
    #expect(image.pixel(x: 0, y: 0) == RGBAPixel(red: 255, green: 0, blue: 0, alpha: 0))
    #expect(image.pixel(x: 1, y: 0) == RGBAPixel(red: 0, green: 255, blue: 0, alpha: 128))
    #expect(image.pixel(x: 2, y: 0) == RGBAPixel(red: 0, green: 0, blue: 255))
    #expect(image.pixel(x: 0, y: 1) == RGBAPixel(red: 10, green: 20, blue: 30))
    #expect(image.pixel(x: 2, y: 1) == RGBAPixel(red: 255, green: 0, blue: 0, alpha: 0))
  }

  @Test func handMadeSixteenBitRGBKeepsTheHighByte() throws {
    // Colour type 2, 16 bits. Values whose two bytes are equal (0xABAB = 0xAB × 257) scale to
    // exactly 0xAB in 8 bits, however the decoder rounds.
    let file = HandMadePNG.file(
      width: 2, height: 1, bitDepth: 16, colorType: 2,
      rows: [[0xAB, 0xAB, 0x00, 0x00, 0xFF, 0xFF, 0x12, 0x12, 0x34, 0x34, 0x56, 0x56]])
    let image = try RGBAImage.decode(file)
    #expect(image.pixel(x: 0, y: 0) == RGBAPixel(red: 0xAB, green: 0x00, blue: 0xFF))
    #expect(image.pixel(x: 1, y: 0) == RGBAPixel(red: 0x12, green: 0x34, blue: 0x56))
  }

  @Test func handMadeOneBitGrayDecodes() throws {
    // Colour type 0, 1 bit: 1 is white, 0 black; the row 0b1010_0000 is 5 pixels, padded.
    let file = HandMadePNG.file(
      width: 5, height: 1, bitDepth: 1, colorType: 0, rows: [[0b1010_0000]])
    let image = try RGBAImage.decode(file)
    let values = (0..<5).map { image.pixel(x: $0, y: 0).red }
    #expect(values == [255, 0, 255, 0, 0])
  }

  @Test func largerHandMadePNGSpansSeveralStoredBlocks() throws {
    // 200 × 120 RGBA is 96 120 bytes of rows: two stored deflate blocks.
    var generator = SplitMix64(seed: 77)
    let image = randomImage(width: 200, height: 120, generator: &generator)
    let rows = (0..<120).map { y in Array(image.pixels[(y * 800)..<((y + 1) * 800)]) }
    let file = HandMadePNG.file(width: 200, height: 120, bitDepth: 8, colorType: 6, rows: rows)
    #expect(try RGBAImage.decode(file) == image)
  }

  // MARK: JPEG

  /// How far a JPEG at quality 100 may move a flat colour.
  static let tolerance = 6

  func near(_ pixel: RGBAPixel, _ red: Int, _ green: Int, _ blue: Int) -> Bool {
    abs(Int(pixel.red) - red) <= Self.tolerance && abs(Int(pixel.green) - green) <= Self.tolerance
      && abs(Int(pixel.blue) - blue) <= Self.tolerance && pixel.alpha == 255
  }

  /// A 32 × 32 picture in four flat quadrants: red, green / blue, white.
  static let quadrants: [(Int, Int, Int)] = [
    (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255),
  ]

  static func quadrantPixels(side: Int = 32) -> [UInt8] {
    var pixels: [UInt8] = []
    for y in 0..<side {
      for x in 0..<side {
        let (r, g, b) = quadrants[(y < side / 2 ? 0 : 2) + (x < side / 2 ? 0 : 1)]
        pixels += [UInt8(r), UInt8(g), UInt8(b)]
      }
    }
    return pixels
  }

  /// The colour at the centre of each quadrant, top left, top right, bottom left, bottom right,
  /// as the index into ``quadrants`` that it is near, or -1.
  func quadrantIndices(_ image: RGBAImage) -> [Int] {
    let centres = [(1, 1), (3, 1), (1, 3), (3, 3)].map {
      (image.width * $0.0 / 4, image.height * $0.1 / 4)
    }
    return centres.map { centre in
      let pixel = image.pixel(x: centre.0, y: centre.1)
      return Self.quadrants.firstIndex { near(pixel, $0.0, $0.1, $0.2) } ?? -1
    }
  }

  @Test(arguments: [false, true])
  func rgbJPEGDecodesNearItsColours(progressive: Bool) throws {
    let file = FixtureEncoder.jpeg(
      Self.quadrantPixels(), width: 32, height: 32, progressive: progressive)
    let image = try RGBAImage.decode(file)
    #expect(image.width == 32 && image.height == 32)
    #expect(quadrantIndices(image) == [0, 1, 2, 3])
  }

  @Test func grayJPEGDecodesToEqualChannels() throws {
    let gray = (0..<(16 * 16)).map { UInt8($0 / 16 * 16) }  // rows of 0, 16, … 240
    let image = try RGBAImage.decode(
      FixtureEncoder.jpeg(gray, width: 16, height: 16, components: 1))
    for y in 0..<16 {
      let pixel = image.pixel(x: 8, y: y)
      #expect(pixel.red == pixel.green && pixel.green == pixel.blue)
      #expect(abs(Int(pixel.red) - y * 16) <= Self.tolerance, "row \(y): \(pixel.red)")
    }
  }

  @Test func adobeCMYKJPEGBecomesRGB() throws {
    // Adobe stores CMYK inverted (255 − ink), so red = stored C × stored K / 255, and so on.
    let stored: [[UInt8]] = [[255, 0, 255, 255], [128, 255, 0, 200], [255, 255, 255, 0]]
    var pixels: [UInt8] = []
    for _ in 0..<8 {
      for column in 0..<24 { pixels += stored[column / 8] }
    }
    let image = try RGBAImage.decode(
      FixtureEncoder.jpeg(pixels, width: 24, height: 8, components: 4))
    #expect(near(image.pixel(x: 3, y: 4), 255, 0, 255))
    #expect(near(image.pixel(x: 11, y: 4), 128 * 200 / 255, 255 * 200 / 255, 0))
    #expect(near(image.pixel(x: 19, y: 4), 0, 0, 0))
  }

  // MARK: Orientation

  /// Where each stored quadrant shows after the turn EXIF's tag asks for, from the EXIF
  /// specification's descriptions of the tag values as a mirror then a rotation.
  static let turnedQuadrants: [UInt16: [Int]] = [
    1: [0, 1, 2, 3],  // as stored
    2: [1, 0, 3, 2],  // mirrored left to right
    3: [3, 2, 1, 0],  // rotated 180°
    4: [2, 3, 0, 1],  // mirrored top to bottom
    5: [0, 2, 1, 3],  // mirrored, then rotated 270° clockwise: the transpose
    6: [2, 0, 3, 1],  // rotated 90° clockwise: the left column becomes the top row
    7: [3, 1, 2, 0],  // mirrored, then rotated 90° clockwise
    8: [1, 3, 0, 2],  // rotated 270° clockwise: the right column becomes the top row
  ]

  @Test(arguments: 1...8, [false, true])
  func exifOrientationTurnsTheJPEG(orientation: Int, littleEndian: Bool) throws {
    let exif = exifBlock(orientation: UInt16(orientation), littleEndian: littleEndian)
    // 48 × 32 stored, so a quarter turn shows in the size too.
    var pixels: [UInt8] = []
    for y in 0..<32 {
      for x in 0..<48 {
        let (r, g, b) = Self.quadrants[(y < 16 ? 0 : 2) + (x < 24 ? 0 : 1)]
        pixels += [UInt8(r), UInt8(g), UInt8(b)]
      }
    }
    let file = FixtureEncoder.jpeg(pixels, width: 48, height: 32, app1: exif)
    let image = try RGBAImage.decode(file)
    let quarterTurn = orientation >= 5
    #expect(image.width == (quarterTurn ? 32 : 48) && image.height == (quarterTurn ? 48 : 32))
    #expect(quadrantIndices(image) == Self.turnedQuadrants[UInt16(orientation)])
    let info = try RGBAImage.info(of: file)
    #expect(info.orientation.rawValue == UInt8(orientation))
    #expect(info.width == image.width && info.height == image.height && info.format == .jpeg)
  }

  @Test(arguments: [0, 9, 0xFFFF])
  func outOfRangeOrientationIsIgnored(value: Int) throws {
    let file = FixtureEncoder.jpeg(
      Self.quadrantPixels(), width: 32, height: 32,
      app1: exifBlock(orientation: UInt16(value), littleEndian: true))
    #expect(quadrantIndices(try RGBAImage.decode(file)) == [0, 1, 2, 3])
  }

  @Test func malformedExifBlocksAreIgnored() throws {
    var generator = SplitMix64(seed: 0xE1F)
    let good = exifBlock(orientation: 6, littleEndian: false)
    for round in 0..<200 {
      // Cut short, or a byte changed: never a crash, and the picture still decodes.
      var block = good
      if round % 2 == 0 {
        block = Array(block.prefix(generator.below(block.count)))
      } else {
        block[6 + generator.below(block.count - 6)] = UInt8(generator.below(256))
      }
      let file = FixtureEncoder.jpeg(
        Self.quadrantPixels(side: 16), width: 16, height: 16, app1: block)
      let image = try RGBAImage.decode(file)
      #expect(image.width == 16 && image.height == 16)
    }
  }

  @Test func orientedMatchesMirrorsAndRotationsComposedHere() {
    // Each tag as EXIF describes it, built from two operations written here.
    func mirrored(_ image: RGBAImage) -> RGBAImage {
      var pixels: [UInt8] = []
      for y in 0..<image.height {
        for x in (0..<image.width).reversed() {
          let p = image.pixel(x: x, y: y)
          pixels += [p.red, p.green, p.blue, p.alpha]
        }
      }
      return RGBAImage(width: image.width, height: image.height, pixels: pixels)
    }
    func rotatedClockwise(_ image: RGBAImage) -> RGBAImage {
      // The new row y is the old column y, read from the bottom up.
      var pixels: [UInt8] = []
      for y in 0..<image.width {
        for x in 0..<image.height {
          let p = image.pixel(x: y, y: image.height - 1 - x)
          pixels += [p.red, p.green, p.blue, p.alpha]
        }
      }
      return RGBAImage(width: image.height, height: image.width, pixels: pixels)
    }
    func turns(_ image: RGBAImage, _ count: Int) -> RGBAImage {
      (0..<count).reduce(image) { turned, _ in rotatedClockwise(turned) }
    }
    var generator = SplitMix64(seed: 5)
    let image = randomImage(width: 3, height: 5, generator: &generator)
    let expected: [ImageOrientation: RGBAImage] = [
      .topLeft: image,
      .topRight: mirrored(image),
      .bottomRight: turns(image, 2),
      .bottomLeft: turns(mirrored(image), 2),
      .leftTop: turns(mirrored(image), 3),
      .rightTop: turns(image, 1),
      .rightBottom: turns(mirrored(image), 1),
      .leftBottom: turns(image, 3),
    ]
    for orientation in ImageOrientation.allCases {
      #expect(image.oriented(orientation) == expected[orientation], "\(orientation)")
    }
  }

  // MARK: Concurrency

  @Test func decodesOnManyTasksAtOnce() async throws {
    // libpng and libjpeg keep their state per call, so a view can decode off its main loop.
    var generator = SplitMix64(seed: 0xC0C0)
    let files: [[UInt8]] = (0..<16).map { index in
      let image = randomImage(width: 24, height: 16, generator: &generator, opaque: true)
      if index % 2 == 0 { return FixtureEncoder.png(image.pixels, width: 24, height: 16) }
      let rgb = (0..<(24 * 16)).flatMap { Array(image.pixels[($0 * 4)..<($0 * 4 + 3)]) }
      return FixtureEncoder.jpeg(rgb, width: 24, height: 16, progressive: index % 4 == 1)
    }
    let expected = try files.map { try RGBAImage.decode($0) }
    let decoded = await withTaskGroup(of: (Int, RGBAImage?).self) { group in
      for round in 0..<64 {
        let index = round % files.count
        let file = files[index]
        group.addTask { (index, try? RGBAImage.decode(file)) }
      }
      var results: [(Int, RGBAImage?)] = []
      for await result in group { results.append(result) }
      return results
    }
    #expect(decoded.count == 64)
    for (index, image) in decoded {
      #expect(image == expected[index], "file \(index)")
    }
  }

  // MARK: Header only

  @Test func infoReadsTheSizeWithoutDecoding() throws {
    let info = try RGBAImage.info(of: HandMadePNG.headerOnly(width: 640, height: 480))
    #expect(info == ImageInfo(format: .png, width: 640, height: 480, orientation: .topLeft))
  }

  @Test func formatIsToldByMagicNumbers() {
    #expect(RGBAImage.format(of: HandMadePNG.signature) == .png)
    #expect(RGBAImage.format(of: [0xFF, 0xD8, 0xFF]) == .jpeg)
    #expect(RGBAImage.format(of: Array("GIF89a".utf8)) == .gif)
    #expect(RGBAImage.format(of: Array("hello".utf8)) == nil)
    #expect(RGBAImage.format(of: []) == nil)
  }
}
