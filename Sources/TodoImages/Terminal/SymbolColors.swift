/// How many colours the text rendering may use.
package enum SymbolColors: Hashable, Sendable, CaseIterable {
  /// 24-bit colour (`CSI 38;2;r;g;b m`): the picture's own colours.
  case trueColor
  /// The xterm 256-colour palette (`CSI 38;5;n m`), for terminals without 24-bit colour.
  case palette256
  /// No colour at all: shade characters by brightness (`NO_COLOR`, or a monochrome terminal).
  case none

  /// The colours this terminal takes, from its environment.
  ///
  /// `NO_COLOR` set to anything but the empty string means none (no-color.org); `COLORTERM`
  /// `truecolor` or `24bit`, a `TERM` ending in `-direct`, or a terminal that
  /// ``ImageProtocol/detect(environment:answersSixel:)`` finds to be kitty-like means
  /// 24-bit; everything else gets the 256 colours nearly every terminal has.
  package static func detect(environment: [String: String]) -> SymbolColors {
    if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
    let colorTerm = environment["COLORTERM"] ?? ""
    if colorTerm == "truecolor" || colorTerm == "24bit" { return .trueColor }
    if (environment["TERM"] ?? "").hasSuffix("-direct") { return .trueColor }
    if ImageProtocol.detect(environment: environment) == .kitty { return .trueColor }
    return .palette256
  }
}
