/// A decoded picture: 8-bit red, green, blue and alpha per pixel, rows from the top, alpha not
/// premultiplied.
///
/// The one currency between the decoder, the scaler and the renderers, so that each can be
/// tested on its own with pixels a test writes down. A value type: a picture handed to a
/// renderer on another task cannot change under it.
package struct RGBAImage: Hashable, Sendable {
  /// Pixels per row; at least 1.
  package let width: Int
  /// Rows; at least 1.
  package let height: Int
  /// `width × height × 4` bytes: R, G, B, A for each pixel, row after row.
  package let pixels: [UInt8]

  /// Wraps pixels that are already laid out as ``pixels`` describes.
  ///
  /// A wrong count is a programming error, not a property of a file (the decoder sizes the
  /// buffer from the header it checked), so it stops the program.
  package init(width: Int, height: Int, pixels: [UInt8]) {
    precondition(width > 0 && height > 0, "an image has at least one pixel")
    precondition(pixels.count == width * height * 4, "pixels must hold width × height × 4 bytes")
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// An image of one colour, for tests and placeholders.
  package init(width: Int, height: Int, filledWith pixel: RGBAPixel) {
    var pixels: [UInt8] = []
    pixels.reserveCapacity(width * height * 4)
    for _ in 0..<(width * height) {
      pixels += [pixel.red, pixel.green, pixel.blue, pixel.alpha]
    }
    self.init(width: width, height: height, pixels: pixels)
  }

  /// The pixel at column `x`, row `y` (both from 0, from the top left).
  package func pixel(x: Int, y: Int) -> RGBAPixel {
    let offset = (y * width + x) * 4
    return RGBAPixel(
      red: pixels[offset], green: pixels[offset + 1], blue: pixels[offset + 2],
      alpha: pixels[offset + 3])
  }
}

/// One pixel with its alpha, as the decoder and the scaler see it.
package struct RGBAPixel: Hashable, Sendable {
  /// Red, 0...255.
  package var red: UInt8
  /// Green, 0...255.
  package var green: UInt8
  /// Blue, 0...255.
  package var blue: UInt8
  /// Opacity: 0 is fully transparent, 255 opaque.
  package var alpha: UInt8

  /// A pixel from its four channels; alpha defaults to opaque.
  package init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// The colour a terminal cell shows for this pixel over `background`.
  ///
  /// A cell has no alpha, so transparency is resolved here, once, by the same rounding for
  /// every renderer: `(c × a + b × (255 − a) + 127) / 255`.
  package func over(_ background: RGBColor) -> RGBColor {
    let a = Int(alpha)
    func mix(_ channel: UInt8, _ under: UInt8) -> UInt8 {
      UInt8((Int(channel) * a + Int(under) * (255 - a) + 127) / 255)
    }
    return RGBColor(
      red: mix(red, background.red), green: mix(green, background.green),
      blue: mix(blue, background.blue))
  }
}

/// An opaque colour, as a terminal cell or a sixel colour register holds it.
package struct RGBColor: Hashable, Sendable {
  /// Red, 0...255.
  package var red: UInt8
  /// Green, 0...255.
  package var green: UInt8
  /// Blue, 0...255.
  package var blue: UInt8

  /// A colour from its three channels.
  package init(red: UInt8, green: UInt8, blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  /// The background transparent pixels are blended against unless the caller knows the
  /// terminal's: most terminals are dark.
  package static let black = RGBColor(red: 0, green: 0, blue: 0)

  /// Perceived brightness 0...255 (ITU-R BT.601 weights, rounded), for the colourless
  /// rendering.
  package var luminance: Int {
    (299 * Int(red) + 587 * Int(green) + 114 * Int(blue) + 500) / 1000
  }
}
