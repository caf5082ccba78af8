import Testing
import TodoImages
import TodoTestSupport

/// Fitting keeps the aspect ratio and never enlarges; area averaging gives, pixel for pixel,
/// what averaging over a finely subdivided grid gives.
@Suite struct ScalingTests {
  /// The area average computed the slow, obvious way: split every old pixel into
  /// `newWidth × newHeight` sub-pixels, so that every new pixel is exactly
  /// `width × height` of them, and average those (colour weighted by alpha, half rounded up).
  func referenceResize(_ image: RGBAImage, width newWidth: Int, height newHeight: Int) -> RGBAImage
  {
    var colour = [Int](repeating: 0, count: newWidth * newHeight * 3)
    var alpha = [Int](repeating: 0, count: newWidth * newHeight)
    for v in 0..<(image.height * newHeight) {
      for u in 0..<(image.width * newWidth) {
        let pixel = image.pixel(x: u / newWidth, y: v / newHeight)
        let target = (v / image.height) * newWidth + u / image.width
        let a = Int(pixel.alpha)
        colour[target * 3] += Int(pixel.red) * a
        colour[target * 3 + 1] += Int(pixel.green) * a
        colour[target * 3 + 2] += Int(pixel.blue) * a
        alpha[target] += a
      }
    }
    let area = image.width * image.height
    var pixels: [UInt8] = []
    for target in 0..<(newWidth * newHeight) {
      let a = alpha[target]
      for channel in 0..<3 {
        pixels.append(a == 0 ? 0 : UInt8((2 * colour[target * 3 + channel] + a) / (2 * a)))
      }
      pixels.append(UInt8((2 * a + area) / (2 * area)))
    }
    return RGBAImage(width: newWidth, height: newHeight, pixels: pixels)
  }

  @Test func resizedEqualsTheReferenceForSeededSizes() {
    var generator = SplitMix64(seed: 0x5CA1E)
    for round in 0..<300 {
      let width = 1 + generator.below(13)
      let height = 1 + generator.below(13)
      let image = randomImage(
        width: width, height: height, generator: &generator, opaque: round % 3 == 0)
      // Mostly smaller, sometimes larger: the weights hold both ways.
      let newWidth = 1 + generator.below(round % 5 == 0 ? 20 : width)
      let newHeight = 1 + generator.below(round % 5 == 0 ? 20 : height)
      #expect(
        image.resized(width: newWidth, height: newHeight)
          == referenceResize(image, width: newWidth, height: newHeight),
        "round \(round): \(width)x\(height) to \(newWidth)x\(newHeight)")
    }
  }

  @Test func halvingAveragesEachTwoByTwoBlock() {
    // Written out by hand: the blocks are (0, 100, 200, 255) → 138.75 → 139, and flat 40.
    let pixels: [UInt8] = [
      0, 0, 0, 255, 100, 100, 100, 255, 40, 40, 40, 255, 40, 40, 40, 255,
      200, 200, 200, 255, 255, 255, 255, 255, 40, 40, 40, 255, 40, 40, 40, 255,
    ]
    let image = RGBAImage(width: 4, height: 2, pixels: pixels).resized(width: 2, height: 1)
    #expect(image.pixel(x: 0, y: 0) == RGBAPixel(red: 139, green: 139, blue: 139))
    #expect(image.pixel(x: 1, y: 0) == RGBAPixel(red: 40, green: 40, blue: 40))
  }

  @Test func transparentPixelsLendNoColour() {
    // Opaque red next to fully transparent green: the average is half-transparent red, not a
    // muddy half-green.
    let pixels: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 0]
    let image = RGBAImage(width: 2, height: 1, pixels: pixels).resized(width: 1, height: 1)
    #expect(image.pixel(x: 0, y: 0) == RGBAPixel(red: 255, green: 0, blue: 0, alpha: 128))
  }

  @Test func aThinLineSurvivesAsGray() {
    // One white column in 9 black ones, shrunk ten times: one tenth white, not gone.
    var pixels: [UInt8] = []
    for _ in 0..<10 {
      for x in 0..<10 { pixels += x == 4 ? [255, 255, 255, 255] : [0, 0, 0, 255] }
    }
    let image = RGBAImage(width: 10, height: 10, pixels: pixels).resized(width: 1, height: 1)
    #expect(image.pixel(x: 0, y: 0).red == 26)  // 25.5 rounded up
  }

  @Test(arguments: [
    // (image width, height, box width, height, expected width, height)
    (100, 50, 40, 40, 40, 20),  // width-limited
    (50, 100, 40, 40, 20, 40),  // height-limited
    (10, 10, 40, 40, 10, 10),  // small: never enlarged
    (40, 40, 40, 40, 40, 40),  // exactly fits
    (1000, 3, 40, 20, 40, 1),  // very wide: at least one row
    (3, 1000, 40, 20, 1, 20),  // very tall: at least one column
    (3, 2, 2, 2, 2, 1),  // 2 × 2 / 3 = 1.33 → 1
    (3, 5, 2, 100, 2, 3),  // 5 × 2 / 3 = 3.33 → 3
    (2, 3, 100, 2, 1, 2),  // 2 × 2 / 3 = 1.33 → 1
    (7, 9, 5, 5, 4, 5),  // 7 × 5 / 9 = 3.89 → 4
    (9, 7, 5, 5, 5, 4),  // 7 × 5 / 9 = 3.89 → 4
    (4, 2, 3, 3, 3, 2),  // 2 × 3 / 4 = 1.5 → 2 (half up)
  ])
  func fittedSizeKeepsAspectAndNeverEnlarges(
    width: Int, height: Int, boxWidth: Int, boxHeight: Int, expectedWidth: Int, expectedHeight: Int
  ) throws {
    let image = RGBAImage(
      width: width, height: height, filledWith: RGBAPixel(red: 1, green: 2, blue: 3))
    let size = try #require(image.fittedSize(maxWidth: boxWidth, maxHeight: boxHeight))
    #expect(size.width == expectedWidth && size.height == expectedHeight)
  }

  @Test func fittingIsInsideTheBoxForSeededSizes() throws {
    var generator = SplitMix64(seed: 0xF17)
    let pixel = RGBAPixel(red: 1, green: 2, blue: 3)
    for _ in 0..<500 {
      let (width, height) = (1 + generator.below(60), 1 + generator.below(60))
      let (boxWidth, boxHeight) = (1 + generator.below(60), 1 + generator.below(60))
      let image = RGBAImage(width: width, height: height, filledWith: pixel)
      let size = try #require(image.fittedSize(maxWidth: boxWidth, maxHeight: boxHeight))
      let label = "\(width)x\(height) in \(boxWidth)x\(boxHeight): \(size)"
      #expect(size.width >= 1 && size.height >= 1, "\(label)")
      #expect(
        size.width <= min(width, boxWidth) && size.height <= min(height, boxHeight), "\(label)")
      if width <= boxWidth && height <= boxHeight {
        #expect(size.width == width && size.height == height, "\(label)")
      } else {
        // One side touches the box; the other is the exact proportion rounded (or 1).
        #expect(size.width == boxWidth || size.height == boxHeight, "\(label)")
        let widthError = abs(size.width * height - width * size.height)
        #expect(
          widthError * 2 <= max(width, height) || size.width == 1 || size.height == 1, "\(label)")
      }
    }
  }

  @Test func anEmptyBoxFitsNothing() {
    let image = RGBAImage(width: 2, height: 2, filledWith: RGBAPixel(red: 0, green: 0, blue: 0))
    #expect(image.fittedSize(maxWidth: 0, maxHeight: 5) == nil)
    #expect(image.scaled(toFitWidth: 5, height: -1) == nil)
  }
}
