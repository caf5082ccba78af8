import TodoImages
import TodoStore

/// The pictures of the details pane: read through the store's confined attachments folder
/// (never through a link), decoded once per file version, and rendered once per size, so
/// moving through tasks does not decode a photo per key.
final class PictureCache {
  let renderer: ImageRenderer
  private let document: TodoDocument
  private var decoded: [String: Result<RGBAImage, PictureError>] = [:]
  private var rendered: [String: RenderedImage?] = [:]

  /// A picture that cannot be shown, worded for the pane.
  struct PictureError: Error {
    var text: String
  }

  /// Files larger than this are not decoded (a picture's header may still claim a modest
  /// size: the decoder's own limits hold too).
  static let largestFile = 32 << 20

  init(renderer: ImageRenderer, document: TodoDocument) {
    self.renderer = renderer
    self.document = document
  }

  /// The protocol chosen by `TODO_UI_IMAGES` (`auto` by default) and the environment.
  static func imageProtocol(setting: String, environment: [String: String]) throws(ImageProtocolSettingError) -> ImageProtocol {
    let chosen = try ImageProtocolSetting(parsing: setting.isEmpty ? "auto" : setting.lowercased())
    return chosen.resolve(environment: environment)
  }

  /// What the pane draws for the attachment at `path` in a box of `columns` × `rows` cells.
  func outcome(path: String, columns: Int, rows: Int) -> ScreenRenderer.PictureOutcome {
    guard renderer.imageProtocol != .none else { return .none }
    let image: RGBAImage
    switch decode(path) {
    case .success(let decodedImage): image = decodedImage
    case .failure(let error): return .message(error.text)
    }
    guard let picture = render(path: path, image: image, columns: columns, rows: rows) else { return .none }
    switch picture.content {
    case .lines(let lines): return .lines(lines.map { Array($0.utf8) })
    case .escapeSequence: return .placed(columns: picture.columns, rows: picture.rows)
    }
  }

  /// The escape sequence of a placed picture (kitty, sixel).
  func escapeSequence(path: String, columns: Int, rows: Int) -> [UInt8]? {
    guard case .success(let image) = decode(path),
      let picture = render(path: path, image: image, columns: columns, rows: rows),
      case .escapeSequence(let text) = picture.content
    else { return nil }
    return Array(text.utf8)
  }

  private func render(path: String, image: RGBAImage, columns: Int, rows: Int) -> RenderedImage? {
    let key = "\(columns)x\(rows) \(path)"
    if let kept = rendered[key] { return kept }
    let picture = renderer.render(image, in: CellBox(columns: columns, rows: rows))
    rendered[key] = picture
    return picture
  }

  private func decode(_ path: String) -> Result<RGBAImage, PictureError> {
    if let kept = decoded[path] { return kept }
    let name = path.split(separator: "/").last.map(String.init) ?? path
    let result: Result<RGBAImage, PictureError>
    do {
      let bytes = try document.store.folder(document.attachmentsPath).read(name)
      if bytes.count > PictureCache.largestFile {
        result = .failure(PictureError(text: "\(name) is larger than 32 MiB"))
      } else {
        do {
          result = .success(try RGBAImage.decode(bytes))
        } catch {
          result = .failure(PictureError(text: "\(name): \(error)"))
        }
      }
    } catch {
      result = .failure(PictureError(text: "\(name): \(error)"))
    }
    decoded[path] = result
    return result
  }
}
