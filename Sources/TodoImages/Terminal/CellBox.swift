/// A rectangle of terminal cells to draw a picture in: the detail pane's free area.
package struct CellBox: Hashable, Sendable {
  /// Width in cells.
  package var columns: Int
  /// Height in cells (lines).
  package var rows: Int

  /// A box of `columns × rows` cells; zero or negative sides make an empty box, in which
  /// nothing is drawn.
  package init(columns: Int, rows: Int) {
    self.columns = columns
    self.rows = rows
  }

  /// Whether nothing fits.
  package var isEmpty: Bool { columns <= 0 || rows <= 0 }
}
