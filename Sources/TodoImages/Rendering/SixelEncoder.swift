/// DEC sixel graphics: the picture as a paletted bitmap inside a DCS string, drawn at the
/// cursor at one image pixel per screen pixel.
///
/// The string is `ESC P 0;1;0 q` (the 1 keeps pixels no colour is drawn in transparent),
/// raster attributes `"1;1;W;H` (square pixels, the size), colour registers `#n;2;r;g;b`
/// (percent), then bands of six pixel rows: per colour in the band `#n` and one character per
/// column (`?` + a bit per row, top row the lowest bit), runs as `!count`, `$` back to the
/// band's start for the next colour, `-` to the next band, and `ESC \` at the end.
///
/// Colours are the fixed xterm palette (``XtermPalette``, 240 colours), so the same picture
/// always gives the same bytes; register n holds palette colour n + 16, and only the
/// registers used are defined.
package struct SixelEncoder: Hashable, Sendable {
  /// What transparent pixels are blended against; every pixel is drawn, so a picture fully
  /// covers what was under it.
  package var background: RGBColor

  /// An encoder that blends transparency against `background`.
  package init(background: RGBColor = .black) {
    self.background = background
  }

  /// The palette index (16...255) each pixel is drawn with, row after row: the quantised
  /// picture the sixel string shows.
  package func paletteIndices(for image: RGBAImage) -> [Int] {
    var cache: [RGBColor: Int] = [:]
    var indices: [Int] = []
    indices.reserveCapacity(image.width * image.height)
    for y in 0..<image.height {
      for x in 0..<image.width {
        let color = image.pixel(x: x, y: y).over(background)
        if let known = cache[color] {
          indices.append(known)
        } else {
          let index = XtermPalette.nearestIndex(to: color)
          cache[color] = index
          indices.append(index)
        }
      }
    }
    return indices
  }

  /// The sixel string for `image` at its size (scale it to the box's pixels first).
  package func encode(_ image: RGBAImage) -> String {
    let registers = paletteIndices(for: image).map { $0 - 16 }
    var output = "\u{1B}P0;1;0q\"1;1;\(image.width);\(image.height)"
    var used = [Bool](repeating: false, count: 240)
    for register in registers { used[register] = true }
    for register in 0..<240 where used[register] {
      let color = XtermPalette.color(at: register + 16)
      let (red, green, blue) = (percent(color.red), percent(color.green), percent(color.blue))
      output += "#\(register);2;\(red);\(green);\(blue)"
    }
    let width = image.width
    for bandTop in stride(from: 0, to: image.height, by: 6) {
      // One row of six-bit columns per colour present in the band.
      var masks: [Int: [UInt8]] = [:]
      for row in bandTop..<min(bandTop + 6, image.height) {
        let bit = UInt8(1) << (row - bandTop)
        for x in 0..<width {
          let register = registers[row * width + x]
          masks[register, default: [UInt8](repeating: 0, count: width)][x] |= bit
        }
      }
      if bandTop > 0 { output += "-" }
      for (position, register) in masks.keys.sorted().enumerated() {
        if position > 0 { output += "$" }
        output += "#\(register)"
        output += runs(masks[register] ?? [])
      }
    }
    return output + "\u{1B}\\"
  }

  /// A colour channel as the percentage sixel registers take, rounded.
  private func percent(_ channel: UInt8) -> Int { (Int(channel) * 100 + 127) / 255 }

  /// Sixel characters for one colour's columns: empty columns at the end left out, runs of
  /// four or more as `!n` and the character.
  private func runs(_ masks: [UInt8]) -> String {
    var end = masks.count
    while end > 0 && masks[end - 1] == 0 { end -= 1 }
    var text = ""
    var start = 0
    while start < end {
      var stop = start + 1
      while stop < end && masks[stop] == masks[start] { stop += 1 }
      let character = Character(Unicode.Scalar(63 + masks[start]))
      let count = stop - start
      if count >= 4 {
        text += "!\(count)"
        text.append(character)
      } else {
        text += String(repeating: character, count: count)
      }
      start = stop
    }
    return text
  }
}
