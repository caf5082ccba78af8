/// The user's choice of image protocol (a setting or an environment variable): `auto` to
/// detect, or one protocol by name.
///
/// Detection guesses from variables that can lie (a kitty variable inherited by a terminal
/// started from kitty); the setting is the way out.
package enum ImageProtocolSetting: Hashable, Sendable {
  /// Detect from the environment (``ImageProtocol/detect(environment:answersSixel:)``).
  case automatic
  /// Use this protocol whatever the environment says.
  case fixed(ImageProtocol)

  /// Parses `auto`, `kitty`, `sixel`, `symbols` or `none` (exactly these, lowercase).
  ///
  /// - Throws: ``ImageProtocolSettingError/unknown(_:)`` for anything else, so that a typo is
  ///   reported instead of silently detecting.
  package init(parsing text: String) throws(ImageProtocolSettingError) {
    if text == "auto" {
      self = .automatic
    } else if let fixed = ImageProtocol(rawValue: text) {
      self = .fixed(fixed)
    } else {
      throw .unknown(text)
    }
  }

  /// The protocol to use: the fixed one, or the detected one.
  package func resolve(environment: [String: String], answersSixel: Bool = false)
    -> ImageProtocol
  {
    switch self {
    case .automatic: ImageProtocol.detect(environment: environment, answersSixel: answersSixel)
    case .fixed(let fixed): fixed
    }
  }
}

/// Why an image protocol setting was refused.
package enum ImageProtocolSettingError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The text is none of `auto`, `kitty`, `sixel`, `symbols`, `none`.
  case unknown(String)

  /// One line naming the problem and the accepted values.
  package var description: String {
    switch self {
    case .unknown(let text):
      let shown = String(
        String.UnicodeScalarView(
          text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : $0 }))
      return "unknown image protocol '\(shown)' (expected auto, kitty, sixel, symbols or none)"
    }
  }
}
