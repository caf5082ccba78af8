/// The fixed part of the xterm 256-colour palette, indices 16...255: a 6 × 6 × 6 colour cube
/// (levels 0, 95, 135, 175, 215, 255) and 24 grays (8, 18, ... 238).
///
/// Used twice: as the colours of the 256-colour text rendering, and as the sixel palette, so
/// that quantising is deterministic (no palette computed per picture) and tested once.
/// Indices 0...15 are left out: themes change them.
package enum XtermPalette {
  /// The six levels of each cube axis.
  package static let cubeLevels: [UInt8] = [0, 95, 135, 175, 215, 255]

  /// The colour at `index`, 16...255.
  package static func color(at index: Int) -> RGBColor {
    precondition((16...255).contains(index), "the fixed palette is 16...255")
    if index >= 232 {
      let gray = UInt8(8 + 10 * (index - 232))
      return RGBColor(red: gray, green: gray, blue: gray)
    }
    let cube = index - 16
    return RGBColor(
      red: cubeLevels[cube / 36], green: cubeLevels[cube / 6 % 6], blue: cubeLevels[cube % 6])
  }

  /// The index, 16...255, of the palette colour nearest (least squared distance in
  /// RGB) to `target`; on a tie the lower index.
  ///
  /// Exact without trying all 240: within the cube the distance is a sum over axes, so the
  /// nearest level per axis gives the nearest cube colour; the grays lie on a line, so the
  /// nearest is one of the two around the channels' mean.
  package static func nearestIndex(to target: RGBColor) -> Int {
    let channels = [Int(target.red), Int(target.green), Int(target.blue)]
    func distance(_ other: RGBColor) -> Int {
      let dr = Int(other.red) - channels[0]
      let dg = Int(other.green) - channels[1]
      let db = Int(other.blue) - channels[2]
      return dr * dr + dg * dg + db * db
    }
    var cube = 0
    for value in channels {
      var best = 0
      for level in 1..<cubeLevels.count
      where abs(Int(cubeLevels[level]) - value) < abs(Int(cubeLevels[best]) - value) {
        best = level
      }
      cube = cube * 6 + best
    }
    let cubeIndex = 16 + cube
    // The gray nearest the channels' mean m is the step nearest (m − 8) / 10: with the sum
    // s, round((s / 3 − 8) / 10) = ⌊(s − 9) / 30⌋. On an exact half the step below ties.
    let sum = channels.reduce(0, +)
    let step = min(23, max(0, (sum - 9) / 30))
    var grayIndex = 232 + step
    if step > 0, distance(color(at: grayIndex - 1)) <= distance(color(at: grayIndex)) {
      grayIndex -= 1
    }
    return distance(color(at: cubeIndex)) <= distance(color(at: grayIndex)) ? cubeIndex : grayIndex
  }
}
