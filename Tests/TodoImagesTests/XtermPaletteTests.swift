import Testing
import TodoImages
import TodoTestSupport

/// The palette matches xterm's published definition, and the fast nearest-colour search
/// agrees with trying all 240 colours.
@Suite struct XtermPaletteTests {
  @Test func colorsMatchTheDefinition() {
    for index in 16...255 {
      #expect(XtermPalette.color(at: index) == ReferencePalette.color(index), "index \(index)")
    }
    #expect(XtermPalette.color(at: 16) == RGBColor(red: 0, green: 0, blue: 0))
    #expect(XtermPalette.color(at: 196) == RGBColor(red: 255, green: 0, blue: 0))
    #expect(XtermPalette.color(at: 231) == RGBColor(red: 255, green: 255, blue: 255))
    #expect(XtermPalette.color(at: 244) == RGBColor(red: 128, green: 128, blue: 128))
  }

  @Test func nearestAgreesWithExhaustiveSearch() {
    // Every gray, a 16-level grid, points on the cube's midpoints (ties), and seeded colours.
    var colors = (0...255).map { RGBColor(red: UInt8($0), green: UInt8($0), blue: UInt8($0)) }
    for r in stride(from: 0, through: 255, by: 17) {
      for g in stride(from: 0, through: 255, by: 17) {
        for b in stride(from: 0, through: 255, by: 17) {
          colors.append(RGBColor(red: UInt8(r), green: UInt8(g), blue: UInt8(b)))
        }
      }
    }
    let midpoints: [UInt8] = [47, 48, 115, 155, 195, 235]
    for r in midpoints {
      for g in midpoints { colors.append(RGBColor(red: r, green: g, blue: 13)) }
    }
    var generator = SplitMix64(seed: 0x256)
    for _ in 0..<5000 {
      colors.append(
        RGBColor(
          red: UInt8(generator.below(256)), green: UInt8(generator.below(256)),
          blue: UInt8(generator.below(256))))
    }
    for color in colors {
      #expect(XtermPalette.nearestIndex(to: color) == ReferencePalette.nearest(color), "\(color)")
    }
  }
}
