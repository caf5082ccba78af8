/// How a terminal can be made to show a picture, best first.
///
/// Chosen once per session from the environment (and a DA1 reply), so that the view draws
/// with the best the terminal has and never writes graphics escapes to one that would print
/// them as garbage.
package enum ImageProtocol: String, CaseIterable, Hashable, Sendable {
  /// The kitty graphics protocol: RGBA pixels, scaled by the terminal to a cell box (kitty,
  /// WezTerm, Ghostty).
  case kitty
  /// DEC sixel graphics: paletted pixels (foot, mlterm, Contour, xterm with sixel, WezTerm).
  case sixel
  /// Text: half blocks in colour, or shade characters without colour. Works everywhere.
  case symbols
  /// Show no picture (a dumb terminal, or the user's choice).
  case none

  /// The protocol this terminal supports, from its environment variables.
  ///
  /// - kitty when `TERM` is `xterm-kitty` or `xterm-ghostty`, `KITTY_WINDOW_ID` is set, or
  ///   `TERM_PROGRAM` is `WezTerm` or `ghostty`;
  /// - sixel when `answersSixel` (the terminal's reply to ``DeviceAttributes/query`` listed
  ///   attribute 4, see ``DeviceAttributes/supportsSixel``) or `TERM` contains `sixel` or is
  ///   `mlterm`, `foot` or `contour` (or starts with one of them and a dash);
  /// - none when `TERM` is `dumb`;
  /// - symbols otherwise.
  ///
  /// Inside tmux or screen (`TMUX` set, `TERM` starting with `tmux` or `screen`) the kitty
  /// variables describe the terminal outside, which the multiplexer does not pass graphics
  /// through to, so they are ignored; a DA1 reply comes from the multiplexer itself and still
  /// counts.
  ///
  /// - Parameters:
  ///   - environment: the process environment (`ProcessInfo.processInfo.environment` or a
  ///     test's dictionary).
  ///   - answersSixel: whether the terminal answered DA1 with attribute 4; asking is I/O and
  ///     belongs to the caller.
  /// - Returns: the best protocol the terminal is known to support.
  package static func detect(environment: [String: String], answersSixel: Bool = false)
    -> ImageProtocol
  {
    let term = environment["TERM"] ?? ""
    if term == "dumb" { return .none }
    let multiplexed =
      environment["TMUX"] != nil || term.hasPrefix("tmux") || term.hasPrefix("screen")
    if !multiplexed {
      if term == "xterm-kitty" || term == "xterm-ghostty" || environment["KITTY_WINDOW_ID"] != nil {
        return .kitty
      }
      if let program = environment["TERM_PROGRAM"], program == "WezTerm" || program == "ghostty" {
        return .kitty
      }
    }
    if answersSixel || term.contains("sixel") { return .sixel }
    for name in ["mlterm", "foot", "contour"] where term == name || term.hasPrefix(name + "-") {
      return .sixel
    }
    return .symbols
  }
}
