import Testing
import TodoImages
import TodoTestSupport

/// Sixel output read back by a small decoder written here from the DEC format: bands of six
/// rows, every pixel painted exactly once, in the colour the quantised input says.
@Suite struct SixelEncoderTests {
  /// What the decoder here reads from a sixel string.
  struct Decoded {
    var parameters = ""
    var width = 0
    var height = 0
    /// Register → (r, g, b) in percent.
    var registers: [Int: [Int]] = [:]
    /// The register each pixel was painted with, row after row; `nil` where none was.
    var pixels: [Int?] = []
    var bands = 1
  }

  /// Decodes `text`; records an issue at anything out of place (a pixel painted twice or
  /// outside the raster, an undefined register, an unknown character).
  func decode(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Decoded {
    var decoded = Decoded()
    var bytes = Array(text.utf8)[...]
    func fail(_ message: String) {
      Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
    func number() -> Int? {
      var digits = ""
      while let byte = bytes.first, (0x30...0x39).contains(byte) {
        digits.append(Character(Unicode.Scalar(byte)))
        bytes.removeFirst()
      }
      return Int(digits)
    }
    func numbers() -> [Int] {
      var list: [Int] = []
      repeat {
        list.append(number() ?? 0)
      } while bytes.first == UInt8(ascii: ";") && bytes.popFirst() != nil
      return list
    }
    guard bytes.popFirst() == 0x1B, bytes.popFirst() == UInt8(ascii: "P") else {
      fail("no DCS")
      return decoded
    }
    while let byte = bytes.popFirst(), byte != UInt8(ascii: "q") {
      decoded.parameters.append(Character(Unicode.Scalar(byte)))
    }
    guard bytes.popFirst() == UInt8(ascii: "\"") else {
      fail("no raster attributes")
      return decoded
    }
    let raster = numbers()
    guard raster.count == 4, raster[0] == 1, raster[1] == 1 else {
      fail("raster attributes \(raster)")
      return decoded
    }
    decoded.width = raster[2]
    decoded.height = raster[3]
    decoded.pixels = [Int?](repeating: nil, count: decoded.width * decoded.height)
    var register: Int?
    var x = 0
    var band = 0
    func paint(_ value: UInt8, count: Int) {
      guard let register else { return fail("painting before a colour is chosen") }
      for _ in 0..<count {
        for bit in 0..<6 where value >> bit & 1 == 1 {
          let y = band * 6 + bit
          guard x < decoded.width, y < decoded.height else {
            return fail("(\(x), \(y)) is outside the raster")
          }
          if decoded.pixels[y * decoded.width + x] != nil { fail("(\(x), \(y)) painted twice") }
          decoded.pixels[y * decoded.width + x] = register
        }
        x += 1
      }
    }
    while let byte = bytes.popFirst() {
      switch byte {
      case UInt8(ascii: "#"):
        let values = numbers()
        if values.count == 5 {
          guard values[1] == 2, values[2...].allSatisfy({ (0...100).contains($0) }) else {
            return decoded
          }
          decoded.registers[values[0]] = Array(values[2...])
        } else if values.count == 1 {
          guard decoded.registers[values[0]] != nil else {
            fail("register \(values[0]) used before it is defined")
            return decoded
          }
          register = values[0]
        } else {
          fail("colour command \(values)")
        }
      case UInt8(ascii: "!"):
        let count = number() ?? 0
        guard let value = bytes.popFirst(), (63...126).contains(value) else {
          fail("repeat without a sixel")
          return decoded
        }
        paint(value - 63, count: count)
      case 63...126:
        paint(byte - 63, count: 1)
      case UInt8(ascii: "$"):
        x = 0
      case UInt8(ascii: "-"):
        x = 0
        band += 1
        decoded.bands += 1
      case 0x1B:
        if bytes.popFirst() != UInt8(ascii: "\\") { fail("ESC that is not ST") }
        if !bytes.isEmpty { fail("bytes after ST") }
        return decoded
      default:
        fail("unexpected byte \(byte)")
      }
    }
    fail("no ST at the end")
    return decoded
  }

  func percent(_ channel: UInt8) -> Int {
    Int((Double(channel) * 100 / 255).rounded(.toNearestOrAwayFromZero))
  }

  /// The expected register and its colour for one input pixel: blended, then nearest palette
  /// entry by exhaustive search, register = index − 16.
  func expectedRegister(_ pixel: RGBAPixel, background: RGBColor) -> (Int, [Int]) {
    let index = ReferencePalette.nearest(blended(pixel, over: background))
    let colour = ReferencePalette.color(index)
    return (index - 16, [percent(colour.red), percent(colour.green), percent(colour.blue)])
  }

  @Test(arguments: [(1, 1), (7, 13), (6, 6), (13, 7), (20, 12), (3, 25)])
  func decodesToTheQuantisedInput(width: Int, height: Int) {
    var generator = SplitMix64(seed: UInt64(width << 8 | height))
    let image = randomImage(width: width, height: height, generator: &generator)
    let background = RGBColor(red: 30, green: 40, blue: 50)
    let text = SixelEncoder(background: background).encode(image)
    let decoded = decode(text)
    #expect(decoded.parameters == "0;1;0")
    #expect(decoded.width == width && decoded.height == height)
    #expect(decoded.bands == (height + 5) / 6)
    var used = Set<Int>()
    for y in 0..<height {
      for x in 0..<width {
        let (register, colour) = expectedRegister(image.pixel(x: x, y: y), background: background)
        #expect(decoded.pixels[y * width + x] == register, "(\(x), \(y))")
        #expect(decoded.registers[register] == colour, "(\(x), \(y))")
        used.insert(register)
      }
    }
    #expect(Set(decoded.registers.keys) == used, "only the registers used are defined")
  }

  @Test func paletteIndicesAreTheNearestEntries() {
    var generator = SplitMix64(seed: 0x1D)
    let image = randomImage(width: 9, height: 4, generator: &generator)
    let indices = SixelEncoder().paletteIndices(for: image)
    let expected = (0..<36).map {
      ReferencePalette.nearest(blended(image.pixel(x: $0 % 9, y: $0 / 9)))
    }
    #expect(indices == expected)
  }

  @Test func aFlatBandIsOneRun() {
    // 40 × 6 of one colour: one band, one register, all six bits set ("~"), 40 times.
    let pixel = RGBAPixel(red: 255, green: 0, blue: 0)
    let text = SixelEncoder().encode(RGBAImage(width: 40, height: 6, filledWith: pixel))
    let register = ReferencePalette.nearest(RGBColor(red: 255, green: 0, blue: 0)) - 16
    #expect(text == "\u{1B}P0;1;0q\"1;1;40;6#\(register);2;100;0;0#\(register)!40~\u{1B}\\")
  }

  @Test func shortRunsAreWrittenOut() {
    // Three columns: fewer than four repeat as characters; a 1 × 1 image sets only the top bit.
    let three = SixelEncoder().encode(
      RGBAImage(width: 3, height: 1, filledWith: RGBAPixel(red: 0, green: 0, blue: 0)))
    #expect(three == "\u{1B}P0;1;0q\"1;1;3;1#0;2;0;0;0#0@@@\u{1B}\\")
  }

  @Test func twoColoursShareABandWithDollar() {
    // Top row white, five rows black: white is bit 0 ("@"), black bits 1...5 (62 → "}").
    var pixels: [UInt8] = []
    for y in 0..<6 {
      for _ in 0..<2 { pixels += y == 0 ? [255, 255, 255, 255] : [0, 0, 0, 255] }
    }
    let text = SixelEncoder().encode(RGBAImage(width: 2, height: 6, pixels: pixels))
    let white = ReferencePalette.nearest(RGBColor(red: 255, green: 255, blue: 255)) - 16
    #expect(
      text == "\u{1B}P0;1;0q\"1;1;2;6#0;2;0;0;0#\(white);2;100;100;100#0}}$#\(white)@@\u{1B}\\")
  }

  @Test func aLargerImageDecodes() {
    var generator = SplitMix64(seed: 0x51CE)
    let image = randomImage(width: 64, height: 45, generator: &generator)
    let decoded = decode(SixelEncoder().encode(image))
    #expect(decoded.pixels.allSatisfy { $0 != nil })
    #expect(decoded.bands == 8)
  }
}
