/// How a stored picture is turned for display: the EXIF/TIFF Orientation tag, named as TIFF
/// names it, by where the stored 0th row and 0th column end up (`rightTop`: the first stored
/// row is the right side, the first stored column the top).
///
/// Phones store a photo as the sensor read it and record the turn here; without it a portrait
/// photo shows on its side.
package enum ImageOrientation: UInt8, CaseIterable, Hashable, Sendable {
  /// 1: as stored.
  case topLeft = 1
  /// 2: mirrored left to right.
  case topRight = 2
  /// 3: turned half way round.
  case bottomRight = 3
  /// 4: mirrored top to bottom.
  case bottomLeft = 4
  /// 5: mirrored across the main diagonal (rows become columns).
  case leftTop = 5
  /// 6: stored turned a quarter anticlockwise; shown turned a quarter clockwise.
  case rightTop = 6
  /// 7: mirrored across the other diagonal.
  case rightBottom = 7
  /// 8: stored turned a quarter clockwise; shown turned a quarter anticlockwise.
  case leftBottom = 8

  /// Whether width and height trade places on display.
  package var swapsSides: Bool { rawValue >= 5 }
}

extension RGBAImage {
  /// This image turned upright as `orientation` says.
  package func oriented(_ orientation: ImageOrientation) -> RGBAImage {
    if orientation == .topLeft { return self }
    let newWidth = orientation.swapsSides ? height : width
    let newHeight = orientation.swapsSides ? width : height
    var result = [UInt8](repeating: 0, count: pixels.count)
    for y in 0..<newHeight {
      for x in 0..<newWidth {
        // The stored pixel that shows at (x, y).
        let (storedX, storedY): (Int, Int)
        switch orientation {
        case .topLeft: (storedX, storedY) = (x, y)
        case .topRight: (storedX, storedY) = (width - 1 - x, y)
        case .bottomRight: (storedX, storedY) = (width - 1 - x, height - 1 - y)
        case .bottomLeft: (storedX, storedY) = (x, height - 1 - y)
        case .leftTop: (storedX, storedY) = (y, x)
        case .rightTop: (storedX, storedY) = (y, height - 1 - x)
        case .rightBottom: (storedX, storedY) = (width - 1 - y, height - 1 - x)
        case .leftBottom: (storedX, storedY) = (width - 1 - y, x)
        }
        let from = (storedY * width + storedX) * 4
        let to = (y * newWidth + x) * 4
        for channel in 0..<4 { result[to + channel] = pixels[from + channel] }
      }
    }
    return RGBAImage(width: newWidth, height: newHeight, pixels: result)
  }
}
