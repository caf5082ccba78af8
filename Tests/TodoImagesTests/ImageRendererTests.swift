import Testing
import TodoImages

/// The facade scales to the box in the right units for each protocol and reports the cells
/// the picture covers.
@Suite struct ImageRendererTests {
  let photo = RGBAImage(
    width: 400, height: 200, filledWith: RGBAPixel(red: 90, green: 120, blue: 150))
  let icon = RGBAImage(width: 16, height: 16, filledWith: RGBAPixel(red: 1, green: 2, blue: 3))
  let box = CellBox(columns: 30, rows: 10)
  let cell = CellSize(width: 10, height: 20)

  @Test func kittyScalesToTheBoxInPixelsAndNamesTheCells() throws {
    let rendered = try #require(
      ImageRenderer(imageProtocol: .kitty, cellSize: cell).render(photo, in: box))
    // The pixel box is 300 × 200; the width limits: 300 × 150, which is 30 × 7.5 → 8 cells.
    #expect(rendered.columns == 30 && rendered.rows == 8)
    guard case .escapeSequence(let text) = rendered.content else {
      Issue.record("kitty renders one escape sequence")
      return
    }
    #expect(text.hasPrefix("\u{1B}_Ga=T,f=32,s=300,v=150,c=30,r=8,"))
  }

  @Test func sixelScalesToTheBoxInPixels() throws {
    let rendered = try #require(
      ImageRenderer(imageProtocol: .sixel, cellSize: cell).render(photo, in: box))
    #expect(rendered.columns == 30 && rendered.rows == 8)
    guard case .escapeSequence(let text) = rendered.content else {
      Issue.record("sixel renders one escape sequence")
      return
    }
    #expect(text.hasPrefix("\u{1B}P0;1;0q\"1;1;300;150"))
  }

  @Test func aSmallPictureIsNotEnlarged() throws {
    let kitty = try #require(
      ImageRenderer(imageProtocol: .kitty, cellSize: cell).render(icon, in: box))
    #expect(kitty.columns == 2 && kitty.rows == 1)
    let symbols = try #require(ImageRenderer(imageProtocol: .symbols).render(icon, in: box))
    #expect(symbols.columns == 30 && symbols.rows == 8)  // 16 pixels across, 16 down in 8 lines
  }

  @Test func symbolsAreLinesAsWideAsTheBox() throws {
    let rendered = try #require(
      ImageRenderer(imageProtocol: .symbols, symbolColors: .none).render(photo, in: box))
    guard case .lines(let lines) = rendered.content else {
      Issue.record("symbols render lines")
      return
    }
    // The pixel box is 30 × 20; the width limits: 30 × 15 → 8 lines.
    #expect(lines.count == 8 && rendered.rows == 8)
    #expect(lines.allSatisfy { $0.count == 30 })
  }

  @Test func noneAndEmptyBoxesRenderNothing() {
    #expect(ImageRenderer(imageProtocol: .none).render(photo, in: box) == nil)
    for imageProtocol in ImageProtocol.allCases {
      #expect(
        ImageRenderer(imageProtocol: imageProtocol).render(photo, in: CellBox(columns: 0, rows: 5))
          == nil)
    }
  }

  @Test func cellSizeFromTheWindow() {
    #expect(
      CellSize(windowWidth: 1600, windowHeight: 900, columns: 160, rows: 45)
        == CellSize(width: 10, height: 20))
    #expect(CellSize(windowWidth: 0, windowHeight: 0, columns: 80, rows: 24) == nil)
    #expect(CellSize(windowWidth: 10, windowHeight: 10, columns: 80, rows: 24) == nil)
  }
}
