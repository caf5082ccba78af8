/// The kitty graphics protocol: escape sequences that send RGBA pixels to the terminal and
/// place them in a box of cells, and that take pictures away again.
///
/// Each command is an APC, `ESC _ G <key=value,…> ; <base64> ESC \`. Pixels go as raw RGBA
/// (`f=32`, with `s`/`v` for their size), displayed at once (`a=T`) at the cursor, scaled by
/// the terminal to `c` columns by `r` rows, with every reply suppressed (`q=2`) so that
/// nothing arrives on the view's input. The base64 text is cut into chunks of at most 4096
/// bytes (a multiple of 4, so no chunk but the last has padding), each in its own command
/// with `m=1`, the last with `m=0`; only the first carries the picture's keys.
package enum KittyGraphics {
  /// The largest payload one command may carry, in bytes of base64.
  package static let maximumChunkLength = 4096

  /// Sends `image` and shows it at the cursor, scaled by the terminal into `columns × rows`
  /// cells.
  ///
  /// Scale the image near the box's pixel size first (``RGBAImage/scaled(toFitWidth:height:)``):
  /// sending a photo's full resolution costs megabytes per redraw.
  ///
  /// - Parameters:
  ///   - image: the pixels to send, at the size to send them.
  ///   - columns: the box's width in cells; the terminal scales the picture to it.
  ///   - rows: the box's height in cells.
  ///   - imageID: names the picture (`i=`) so that ``delete(_:)`` can remove just it, and so
  ///     that sending another picture with the same id replaces it; 0 is not allowed by the
  ///     protocol and is treated as none.
  ///   - movesCursor: kitty's default moves the cursor past the picture; a full-screen view
  ///     places its cursor itself, so by default the cursor stays (`C=1`).
  /// - Returns: the commands to write, in order, with no other graphics command between them.
  package static func display(
    _ image: RGBAImage, columns: Int, rows: Int, imageID: UInt32? = nil, movesCursor: Bool = false
  ) -> String {
    var keys = "a=T,f=32,s=\(image.width),v=\(image.height),c=\(max(1, columns)),r=\(max(1, rows))"
    if let imageID, imageID != 0 { keys += ",i=\(imageID)" }
    if !movesCursor { keys += ",C=1" }
    keys += ",q=2"
    let payload = Base64.encode(image.pixels)
    var output: [UInt8] = []
    output.reserveCapacity(payload.count + payload.count / maximumChunkLength * 24 + 64)
    var start = 0
    repeat {
      let end = min(payload.count, start + maximumChunkLength)
      let more = end < payload.count
      output += Array("\u{1B}_G".utf8)
      output += Array((start == 0 ? keys + ",m=" : "q=2,m=").utf8)
      output.append(more ? UInt8(ascii: "1") : UInt8(ascii: "0"))
      output.append(UInt8(ascii: ";"))
      output += payload[start..<end]
      output += Array("\u{1B}\\".utf8)
      start = end
    } while start < payload.count
    return String(decoding: output, as: UTF8.self)
  }

  /// Which pictures ``delete(_:)`` removes.
  package enum Deletion: Hashable, Sendable {
    /// Every picture on screen (`d=a`); the terminal may keep the data for redisplay.
    case visible
    /// Every picture on screen, and its data where nothing else uses it (`d=A`): what a view
    /// sends before it redraws or exits, so no image is left in the terminal's memory.
    case visibleAndData
    /// The picture sent with this id, and its data (`d=I`).
    case image(id: UInt32)
  }

  /// The command that removes pictures (`a=d`), replies suppressed.
  package static func delete(_ deletion: Deletion = .visibleAndData) -> String {
    let selector =
      switch deletion {
      case .visible: "d=a"
      case .visibleAndData: "d=A"
      case .image(let id): "d=I,i=\(id)"
      }
    return "\u{1B}_Ga=d,\(selector),q=2\u{1B}\\"
  }
}
