/// One call from a decoded picture to what the detail pane writes: scales the picture to the
/// box and renders it with the chosen protocol.
///
/// The view decides the protocol once (``ImageProtocolSetting``), then asks this for each
/// attachment and each new pane size.
package struct ImageRenderer: Hashable, Sendable {
  /// Which protocol to render with.
  package var imageProtocol: ImageProtocol
  /// Colours for ``ImageProtocol/symbols``.
  package var symbolColors: SymbolColors
  /// Screen pixels per cell, for kitty and sixel.
  package var cellSize: CellSize
  /// What transparent pixels are blended against in symbols and sixel (kitty keeps alpha).
  package var background: RGBColor

  /// A renderer; the defaults suit a dark terminal that does not report its cell size.
  package init(
    imageProtocol: ImageProtocol, symbolColors: SymbolColors = .trueColor,
    cellSize: CellSize = .fallback, background: RGBColor = .black
  ) {
    self.imageProtocol = imageProtocol
    self.symbolColors = symbolColors
    self.cellSize = cellSize
    self.background = background
  }

  /// `image` rendered as large as fits `box`, aspect ratio kept, never enlarged; `nil` for
  /// ``ImageProtocol/none`` or an empty box.
  ///
  /// Write the result with the cursor at the box's top-left cell. Kitty leaves the cursor
  /// there. After a sixel most terminals put the cursor below the picture, and a picture that
  /// reaches the screen's last line scrolls the screen: keep the box off the last line.
  package func render(_ image: RGBAImage, in box: CellBox) -> RenderedImage? {
    guard !box.isEmpty else { return nil }
    switch imageProtocol {
    case .none:
      return nil
    case .symbols:
      let renderer = SymbolRenderer(colors: symbolColors, background: background)
      let lines = renderer.render(image, in: box)
      return RenderedImage(content: .lines(lines), columns: box.columns, rows: lines.count)
    case .kitty, .sixel:
      guard
        let fitted = image.scaled(
          toFitWidth: box.columns * cellSize.width, height: box.rows * cellSize.height)
      else { return nil }
      let columns = min(box.columns, (fitted.width + cellSize.width - 1) / cellSize.width)
      let rows = min(box.rows, (fitted.height + cellSize.height - 1) / cellSize.height)
      let text =
        imageProtocol == .kitty
        ? KittyGraphics.display(fitted, columns: columns, rows: rows)
        : SixelEncoder(background: background).encode(fitted)
      return RenderedImage(content: .escapeSequence(text), columns: columns, rows: rows)
    }
  }
}

/// A picture ready to write, and the cells it covers.
package struct RenderedImage: Hashable, Sendable {
  /// What to write.
  package enum Content: Hashable, Sendable {
    /// Text lines, one per cell row, each exactly ``RenderedImage/columns`` cells wide: write
    /// each at the box's left edge, one row down from the last.
    case lines([String])
    /// One escape sequence (kitty or sixel) to write at the box's top-left cell.
    case escapeSequence(String)
  }

  /// The bytes to write.
  package var content: Content
  /// Cells across that the picture covers (for lines, the box's full width).
  package var columns: Int
  /// Cell rows the picture covers.
  package var rows: Int
}
