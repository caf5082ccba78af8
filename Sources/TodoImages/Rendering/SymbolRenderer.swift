/// Draws a picture with text: the upper half block `▀` in two colours (two pixels a cell, one
/// above the other), or shade characters without colour.
///
/// Works in every terminal, through tmux and over ssh, and is what the other protocols fall
/// back to. Each line is self-contained (starts from default colours, ends with a reset), so a
/// full-screen view can draw any line at any position, and each is exactly as wide as asked,
/// padded with spaces, so the pane's right border stays straight.
package struct SymbolRenderer: Hashable, Sendable {
  /// 24-bit, 256 colours, or none.
  package var colors: SymbolColors
  /// What transparent pixels are blended against (the terminal's background, if known).
  package var background: RGBColor
  /// Characters from darkest to brightest for ``SymbolColors/none``; a cell shows the one for
  /// the mean brightness of its two pixels.
  package var ramp: [Character]

  /// The default ramp, from a space to a full block: dark pixels stay background on a dark
  /// terminal.
  package static let defaultRamp: [Character] = [" ", "░", "▒", "▓", "█"]

  /// A renderer for `colors`; transparent pixels show `background`.
  package init(
    colors: SymbolColors, background: RGBColor = .black, ramp: [Character] = defaultRamp
  ) {
    precondition(!ramp.isEmpty, "a ramp has at least one character")
    self.colors = colors
    self.background = background
    self.ramp = ramp
  }

  /// The lines that show `image` as large as fits `box`, never enlarged: one string per cell
  /// row, as many as the picture needs (at most `box.rows`), each exactly `box.columns`
  /// cells wide. Empty for an empty box.
  package func render(_ image: RGBAImage, in box: CellBox) -> [String] {
    guard !box.isEmpty,
      let fitted = image.scaled(toFitWidth: box.columns, height: box.rows * 2)
    else { return [] }
    return lines(for: fitted, columns: box.columns)
  }

  /// The lines for an image already at its final size: pixel column `x` in cell column `x`,
  /// pixel rows `2y` and `2y + 1` in line `y`. Padded with spaces, or cut, to `columns` cells.
  /// A last odd pixel row has `background` below it.
  package func lines(for image: RGBAImage, columns: Int) -> [String] {
    guard columns > 0 else { return [] }
    let shown = min(columns, image.width)
    let padding = String(repeating: " ", count: columns - shown)
    return stride(from: 0, to: image.height, by: 2).map { top in
      var line = ""
      var previous: (foreground: String, background: String)?
      for x in 0..<shown {
        let upper = image.pixel(x: x, y: top).over(background)
        let lower =
          top + 1 < image.height ? image.pixel(x: x, y: top + 1).over(background) : background
        switch colors {
        case .none:
          line.append(shade(upper, lower))
        case .trueColor, .palette256:
          let codes = (foreground: code(upper, layer: 38), background: code(lower, layer: 48))
          var changed: [String] = []
          if previous?.foreground != codes.foreground { changed.append(codes.foreground) }
          if previous?.background != codes.background { changed.append(codes.background) }
          if !changed.isEmpty { line += "\u{1B}[" + changed.joined(separator: ";") + "m" }
          line += "▀"
          previous = codes
        }
      }
      if previous != nil { line += "\u{1B}[0m" }
      return line + padding
    }
  }

  /// The SGR parameters that set the foreground (38) or background (48) to `color`.
  private func code(_ color: RGBColor, layer: Int) -> String {
    if colors == .palette256 {
      return "\(layer);5;\(XtermPalette.nearestIndex(to: color))"
    }
    return "\(layer);2;\(color.red);\(color.green);\(color.blue)"
  }

  /// The ramp character for the mean brightness of two stacked pixels.
  private func shade(_ upper: RGBColor, _ lower: RGBColor) -> Character {
    let brightness = (upper.luminance + lower.luminance + 1) / 2
    return ramp[min(ramp.count - 1, brightness * ramp.count / 256)]
  }
}
