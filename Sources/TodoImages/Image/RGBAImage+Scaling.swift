extension RGBAImage {
  /// The size this image takes inside `maxWidth × maxHeight` pixels: aspect ratio kept,
  /// never enlarged, at least one pixel a side; `nil` when the box is empty.
  ///
  /// Integer arithmetic, so that the same image and box give the same size everywhere: the
  /// limiting side is set to the box and the other is rounded to the nearest pixel, which
  /// cannot pass the box because the exact value does not.
  package func fittedSize(maxWidth: Int, maxHeight: Int) -> (width: Int, height: Int)? {
    guard maxWidth > 0, maxHeight > 0 else { return nil }
    if width <= maxWidth && height <= maxHeight { return (width, height) }
    if width * maxHeight >= height * maxWidth {
      return (maxWidth, max(1, (height * maxWidth + width / 2) / width))
    }
    return (max(1, (width * maxHeight + height / 2) / height), maxHeight)
  }

  /// This image made small enough for `maxWidth × maxHeight` pixels (see
  /// ``fittedSize(maxWidth:maxHeight:)``); `nil` when the box is empty.
  package func scaled(toFitWidth maxWidth: Int, height maxHeight: Int) -> RGBAImage? {
    guard let size = fittedSize(maxWidth: maxWidth, maxHeight: maxHeight) else { return nil }
    return resized(width: size.width, height: size.height)
  }

  /// This image resampled to `newWidth × newHeight` by area averaging (a box filter).
  ///
  /// Each new pixel is the average of the old pixels under it, each weighted by how much of it
  /// lies under the new one. Shrinking a photo to a few dozen cells this way keeps thin lines
  /// and text as grey rather than dropping or aliasing them, as point sampling would.
  ///
  /// Colours are averaged weighted by alpha, so a transparent pixel's hidden colour never
  /// bleeds into its neighbours; alpha itself is averaged plainly.
  ///
  /// The weights are whole numbers: on a grid `width × newWidth` units wide an old pixel
  /// covers `newWidth` units and a new one `width` units, so every overlap is an integer and
  /// the result is exact before the final rounding (half up). Memory beyond the result is one
  /// row of sums.
  package func resized(width newWidth: Int, height newHeight: Int) -> RGBAImage {
    precondition(newWidth > 0 && newHeight > 0, "an image has at least one pixel")
    if newWidth == width && newHeight == height { return self }
    let columns = Self.overlaps(from: width, to: newWidth)
    let rows = Self.overlaps(from: height, to: newHeight)
    let total = width * height  // the weight of one new pixel: its area in grid units
    var result = [UInt8](repeating: 0, count: newWidth * newHeight * 4)
    // Per new column: Σ weight·alpha·colour for three channels, and Σ weight·alpha.
    var sums = [Int](repeating: 0, count: newWidth * 4)
    pixels.withUnsafeBufferPointer { source in
      for (newY, rowSpans) in rows.enumerated() {
        for index in sums.indices { sums[index] = 0 }
        for span in rowSpans {
          let rowStart = span.index * width * 4
          for (newX, columnSpans) in columns.enumerated() {
            var red = 0
            var green = 0
            var blue = 0
            var alpha = 0
            for column in columnSpans {
              let offset = rowStart + column.index * 4
              let a = Int(source[offset + 3]) * column.weight
              red += Int(source[offset]) * a
              green += Int(source[offset + 1]) * a
              blue += Int(source[offset + 2]) * a
              alpha += a
            }
            sums[newX * 4] += red * span.weight
            sums[newX * 4 + 1] += green * span.weight
            sums[newX * 4 + 2] += blue * span.weight
            sums[newX * 4 + 3] += alpha * span.weight
          }
        }
        for newX in 0..<newWidth {
          let offset = (newY * newWidth + newX) * 4
          let alpha = sums[newX * 4 + 3]
          if alpha > 0 {
            for channel in 0..<3 {
              result[offset + channel] = UInt8((sums[newX * 4 + channel] + alpha / 2) / alpha)
            }
          }
          result[offset + 3] = UInt8((alpha + total / 2) / total)
        }
      }
    }
    return RGBAImage(width: newWidth, height: newHeight, pixels: result)
  }

  /// One old pixel's share of a new one: its index and the overlap in grid units.
  private struct Span {
    var index: Int
    var weight: Int
  }

  /// For each of `newCount` new pixels along one axis, the old pixels under it and their
  /// overlaps, on the grid where an old pixel is `newCount` units long and a new one `count`.
  private static func overlaps(from count: Int, to newCount: Int) -> [[Span]] {
    (0..<newCount).map { newIndex in
      let start = newIndex * count
      let end = start + count
      return (start / newCount...(end - 1) / newCount).map { index in
        Span(index: index, weight: min(end, (index + 1) * newCount) - max(start, index * newCount))
      }
    }
  }
}
