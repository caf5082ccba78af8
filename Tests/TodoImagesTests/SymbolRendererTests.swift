import Testing
import TodoImages
import TodoTestSupport

/// Half-block lines are exactly as wide as asked, start from default colours, and show each
/// pixel's colour (blended over the background) in the right half of the right cell.
@Suite struct SymbolRendererTests {
  /// A colour as an SGR sequence set it.
  enum Ink: Hashable {
    case rgb(RGBColor)
    case indexed(Int)
  }

  /// One cell of a rendered line: its character and the colours in force.
  struct Cell: Hashable {
    var character: Character
    var foreground: Ink?
    var background: Ink?
  }

  /// Reads a line as a terminal would: SGR sequences change the colours (starting from the
  /// defaults), every other character takes one cell.
  func cells(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) -> [Cell] {
    var result: [Cell] = []
    var foreground: Ink?
    var background: Ink?
    var characters = Array(line)[...]
    while let character = characters.popFirst() {
      guard character == "\u{1B}" else {
        result.append(Cell(character: character, foreground: foreground, background: background))
        continue
      }
      guard characters.popFirst() == "[" else {
        Issue.record("ESC without [", sourceLocation: sourceLocation)
        return result
      }
      var body = ""
      while let next = characters.popFirst(), next != "m" { body.append(next) }
      var numbers = body.split(separator: ";", omittingEmptySubsequences: false).map {
        Int($0) ?? -1
      }[...]
      while let code = numbers.popFirst() {
        switch code {
        case 0:
          foreground = nil
          background = nil
        case 38, 48:
          let ink: Ink?
          switch numbers.popFirst() {
          case 2:
            let rgb = (0..<3).map { _ in UInt8(numbers.popFirst() ?? 0) }
            ink = .rgb(RGBColor(red: rgb[0], green: rgb[1], blue: rgb[2]))
          case 5:
            ink = .indexed(numbers.popFirst() ?? -1)
          default:
            ink = nil
            Issue.record("unknown colour form in \(body)", sourceLocation: sourceLocation)
          }
          if code == 38 { foreground = ink } else { background = ink }
        default:
          Issue.record("unexpected SGR \(code)", sourceLocation: sourceLocation)
        }
      }
    }
    return result
  }

  static let background = RGBColor(red: 10, green: 20, blue: 30)

  @Test func trueColourCellsShowTwoPixelsEach() {
    var generator = SplitMix64(seed: 0x7C)
    let image = randomImage(width: 5, height: 7, generator: &generator)
    let renderer = SymbolRenderer(colors: .trueColor, background: Self.background)
    let lines = renderer.render(image, in: CellBox(columns: 9, rows: 10))
    #expect(lines.count == 4)  // 7 pixel rows, two a line
    for (row, line) in lines.enumerated() {
      let decoded = cells(line)
      #expect(decoded.count == 9)
      for x in 0..<5 {
        let upper = blended(image.pixel(x: x, y: row * 2), over: Self.background)
        let lower =
          row * 2 + 1 < 7
          ? blended(image.pixel(x: x, y: row * 2 + 1), over: Self.background) : Self.background
        #expect(
          decoded[x] == Cell(character: "▀", foreground: .rgb(upper), background: .rgb(lower)),
          "(\(x), \(row))")
      }
      for x in 5..<9 {
        #expect(
          decoded[x] == Cell(character: " ", foreground: nil, background: nil),
          "padding (\(x), \(row))")
      }
    }
  }

  @Test func twoHundredFiftySixColourCellsUseTheNearestPaletteEntry() {
    var generator = SplitMix64(seed: 0x256C)
    let image = randomImage(width: 6, height: 4, generator: &generator)
    let lines = SymbolRenderer(colors: .palette256).render(image, in: CellBox(columns: 6, rows: 2))
    #expect(lines.count == 2)
    for (row, line) in lines.enumerated() {
      let decoded = cells(line)
      #expect(decoded.count == 6)
      for x in 0..<6 {
        let upper = ReferencePalette.nearest(blended(image.pixel(x: x, y: row * 2)))
        let lower = ReferencePalette.nearest(blended(image.pixel(x: x, y: row * 2 + 1)))
        #expect(
          decoded[x]
            == Cell(character: "▀", foreground: .indexed(upper), background: .indexed(lower)))
      }
    }
  }

  @Test func noColourUsesTheShadeOfTheMeanBrightness() {
    var generator = SplitMix64(seed: 0x0C)
    let image = randomImage(width: 8, height: 6, generator: &generator)
    let lines = SymbolRenderer(colors: .none).render(image, in: CellBox(columns: 10, rows: 5))
    let ramp: [Character] = [" ", "░", "▒", "▓", "█"]
    #expect(lines.count == 3)
    for (row, line) in lines.enumerated() {
      #expect(!line.contains("\u{1B}"))
      #expect(line.count == 10)
      for (x, character) in line.prefix(8).enumerated() {
        // BT.601 luma, each rounded, then their mean rounded; five equal bands of 0...255.
        func luma(_ c: RGBColor) -> Double {
          (0.299 * Double(c.red) + 0.587 * Double(c.green) + 0.114 * Double(c.blue)).rounded(
            .toNearestOrAwayFromZero)
        }
        let mean =
          ((luma(blended(image.pixel(x: x, y: row * 2)))
          + luma(blended(image.pixel(x: x, y: row * 2 + 1)))) / 2)
          .rounded(.toNearestOrAwayFromZero)
        #expect(character == ramp[Int(mean) * 5 / 256], "(\(x), \(row)) mean \(mean)")
      }
      #expect(line.suffix(2) == "  ")
    }
  }

  @Test func blackAndWhiteAreTheEndsOfTheRamp() {
    let white = RGBAImage(
      width: 1, height: 2, filledWith: RGBAPixel(red: 255, green: 255, blue: 255))
    let clear = RGBAImage(
      width: 1, height: 2, filledWith: RGBAPixel(red: 255, green: 255, blue: 255, alpha: 0))
    #expect(SymbolRenderer(colors: .none).lines(for: white, columns: 1) == ["█"])
    #expect(SymbolRenderer(colors: .none).lines(for: clear, columns: 1) == [" "])
    #expect(
      SymbolRenderer(colors: .none, background: .init(red: 255, green: 255, blue: 255)).lines(
        for: clear, columns: 1) == ["█"])
  }

  @Test(arguments: [
    (1, 1), (1, 2), (2, 1), (3, 3), (5, 5), (1000, 1), (1, 1000), (999, 37), (37, 999), (80, 47),
    (81, 49),
  ])
  func everyLineIsExactlyTheBoxWidth(width: Int, height: Int) {
    let image = RGBAImage(
      width: width, height: height, filledWith: RGBAPixel(red: 200, green: 100, blue: 50))
    for box in [
      CellBox(columns: 1, rows: 1), CellBox(columns: 7, rows: 3), CellBox(columns: 80, rows: 24),
      CellBox(columns: 13, rows: 1),
    ] {
      for colors in SymbolColors.allCases {
        let lines = SymbolRenderer(colors: colors).render(image, in: box)
        let fitted = image.fittedSize(maxWidth: box.columns, maxHeight: box.rows * 2)
        #expect(lines.count == ((fitted?.height ?? 0) + 1) / 2, "\(width)x\(height) in \(box)")
        #expect(lines.count >= 1 && lines.count <= box.rows)
        for line in lines {
          #expect(cells(line).count == box.columns, "\(width)x\(height) in \(box), \(colors)")
        }
      }
    }
  }

  @Test func eachLineStartsFromDefaultsAndEndsWithAReset() {
    let image = RGBAImage(width: 3, height: 4, filledWith: RGBAPixel(red: 1, green: 2, blue: 3))
    let lines = SymbolRenderer(colors: .trueColor).lines(for: image, columns: 5)
    #expect(lines.count == 2)
    for line in lines {
      // A flat colour: one SGR for the whole line, at its start.
      #expect(line == "\u{1B}[38;2;1;2;3;48;2;1;2;3m▀▀▀\u{1B}[0m  ")
    }
  }

  @Test func aWiderImageIsCut() {
    let image = RGBAImage(width: 4, height: 2, filledWith: RGBAPixel(red: 9, green: 9, blue: 9))
    let line = SymbolRenderer(colors: .trueColor).lines(for: image, columns: 2)
    #expect(line.map { cells($0).count } == [2])
  }

  @Test func anEmptyBoxDrawsNothing() {
    let image = RGBAImage(width: 4, height: 2, filledWith: RGBAPixel(red: 9, green: 9, blue: 9))
    #expect(
      SymbolRenderer(colors: .trueColor).render(image, in: CellBox(columns: 0, rows: 3)).isEmpty)
    #expect(
      SymbolRenderer(colors: .trueColor).render(image, in: CellBox(columns: 3, rows: 0)).isEmpty)
  }

  @Test func aLargeImageIsScaledDownFirst() {
    var generator = SplitMix64(seed: 0xB16)
    let image = randomImage(width: 40, height: 30, generator: &generator)
    let renderer = SymbolRenderer(colors: .trueColor)
    // The pixel box is 10 × 16; the width limits: 10 × 8 (7.5 rounded up).
    let lines = renderer.render(image, in: CellBox(columns: 10, rows: 8))
    #expect(lines == renderer.lines(for: image.resized(width: 10, height: 8), columns: 10))
    #expect(lines.count == 4)
  }
}
