/// The size of one terminal cell in screen pixels, which the pixel protocols (kitty, sixel)
/// need to turn a cell box into a pixel box.
///
/// Cells are about twice as tall as wide; the real size comes from the terminal (the
/// `TIOCGWINSZ` ioctl's pixel fields, or the reply to `CSI 16 t`), which is the caller's I/O.
package struct CellSize: Hashable, Sendable {
  /// Pixels across one cell.
  package var width: Int
  /// Pixels down one cell.
  package var height: Int

  /// A cell of `width × height` pixels; both must be positive.
  package init(width: Int, height: Int) {
    precondition(width > 0 && height > 0, "a cell has a size")
    self.width = width
    self.height = height
  }

  /// The cell size from the window's size in pixels and in cells, as `TIOCGWINSZ` reports
  /// them (`ws_xpixel`, `ws_ypixel`, `ws_col`, `ws_row`); `nil` when any is 0, as some
  /// terminals leave the pixel fields.
  package init?(windowWidth: Int, windowHeight: Int, columns: Int, rows: Int) {
    guard windowWidth > 0, windowHeight > 0, columns > 0, rows > 0,
      windowWidth >= columns, windowHeight >= rows
    else { return nil }
    self.init(width: windowWidth / columns, height: windowHeight / rows)
  }

  /// A common size (10 × 20) for when the terminal does not say. With kitty the picture still
  /// fills the intended cells (the terminal scales it); with sixel it may come out larger or
  /// smaller than the box.
  package static let fallback = CellSize(width: 10, height: 20)

  /// One pixel wide, two tall: a half-block character shows two stacked pixels in a cell,
  /// which makes its pixels about square.
  package static let halfBlock = CellSize(width: 1, height: 2)
}
