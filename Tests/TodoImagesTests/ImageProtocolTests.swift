import Testing
import TodoImages

/// Which protocol each terminal's environment selects, the DA1 reply parser, and the user's
/// setting.
@Suite struct ImageProtocolTests {
  @Test(arguments: [
    (["TERM": "xterm-kitty"], ImageProtocol.kitty),
    (["TERM": "xterm-256color", "KITTY_WINDOW_ID": "1"], .kitty),
    (["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"], .kitty),
    (["TERM": "xterm-256color", "TERM_PROGRAM": "ghostty"], .kitty),
    (["TERM": "xterm-ghostty"], .kitty),
    (["TERM": "foot"], .sixel),
    (["TERM": "foot-extra"], .sixel),
    (["TERM": "mlterm"], .sixel),
    (["TERM": "contour"], .sixel),
    (["TERM": "xterm-sixel"], .sixel),
    (["TERM": "football"], .symbols),  // a prefix, not the name
    (["TERM": "xterm-256color"], .symbols),
    (["TERM": "linux"], .symbols),
    ([:], .symbols),
    (["TERM": "dumb"], .none),
    (["TERM": "dumb", "KITTY_WINDOW_ID": "1"], .none),
    // Inside tmux the kitty variables describe the terminal outside.
    (["TERM": "tmux-256color", "KITTY_WINDOW_ID": "3"], .symbols),
    (["TERM": "screen-256color", "TERM_PROGRAM": "WezTerm"], .symbols),
    (["TERM": "xterm-kitty", "TMUX": "/tmp/tmux-0/default,1,0"], .symbols),
  ])
  func detectsFromTheEnvironment(environment: [String: String], expected: ImageProtocol) {
    #expect(ImageProtocol.detect(environment: environment) == expected)
  }

  @Test func aSixelAnswerToDA1Counts() {
    #expect(
      ImageProtocol.detect(environment: ["TERM": "xterm-256color"], answersSixel: true) == .sixel)
    #expect(
      ImageProtocol.detect(environment: ["TERM": "tmux-256color", "TMUX": "x"], answersSixel: true)
        == .sixel)
    // kitty is preferred where both are there (WezTerm speaks both).
    #expect(
      ImageProtocol.detect(environment: ["TERM_PROGRAM": "WezTerm"], answersSixel: true) == .kitty)
  }

  @Test func theQueryIsCSIc() {
    #expect(Array(DeviceAttributes.query.utf8) == [0x1B, 0x5B, 0x63])
  }

  @Test(arguments: [
    ("\u{1B}[?62;4;22c", 62, [4, 22], true),
    ("\u{1B}[?65;1;2;4;6;9;15;22c", 65, [1, 2, 4, 6, 9, 15, 22], true),
    ("\u{1B}[?63;1;2;3;7;29c", 63, [1, 2, 3, 7, 29], false),
    ("\u{1B}[?64;1;2;6;9;15;18;21;22c", 64, [1, 2, 6, 9, 15, 18, 21, 22], false),
    ("\u{1B}[?1;2c", 1, [2], false),
    ("\u{1B}[?1;4c", 1, [4], false),  // VT100 style: 4 is a bit, not sixel
    ("\u{1B}[?6c", 6, [], false),
    ("jk\u{1B}[?62;4c", 62, [4], true),  // keys typed before the reply
    ("\u{1B}[A\u{1B}[?62;4c", 62, [4], true),  // an arrow key first
    ("\u{1B}[?x\u{1B}[?62;4c", 62, [4], true),  // a broken start, then the reply
  ])
  func parsesDA1Replies(reply: String, level: Int, attributes: [Int], sixel: Bool) throws {
    let parsed = try #require(DeviceAttributes(reply: Array(reply.utf8)))
    #expect(parsed.conformanceLevel == level)
    #expect(parsed.attributes == attributes)
    #expect(parsed.supportsSixel == sixel)
  }

  @Test func parsesTheEightBitCSI() throws {
    let parsed = try #require(DeviceAttributes(reply: [0x9B, 0x3F, 0x36, 0x32, 0x3B, 0x34, 0x63]))
    #expect(parsed.supportsSixel)
  }

  @Test(arguments: [
    "", "\u{1B}[?62;4", "\u{1B}[?c", "\u{1B}[62;4c", "62;4c", "\u{1B}[?62;4;99999999c",
    "\u{1B}[?62:4c",
  ])
  func refusesWhatIsNoReply(reply: String) {
    #expect(DeviceAttributes(reply: Array(reply.utf8)) == nil)
  }

  @Test(arguments: [
    ("auto", ImageProtocolSetting.automatic),
    ("kitty", .fixed(.kitty)),
    ("sixel", .fixed(.sixel)),
    ("symbols", .fixed(.symbols)),
    ("none", .fixed(.none)),
  ])
  func parsesTheSetting(text: String, expected: ImageProtocolSetting) throws {
    #expect(try ImageProtocolSetting(parsing: text) == expected)
  }

  @Test(arguments: ["", "Kitty", "auto ", "iterm", "sixels", "symbol", "no\u{1B}[31m"])
  func refusesOtherSettings(text: String) {
    #expect(throws: ImageProtocolSettingError.unknown(text)) {
      try ImageProtocolSetting(parsing: text)
    }
  }

  @Test func theSettingErrorIsOneLineAndQuotesTheText() {
    #expect(
      ImageProtocolSettingError.unknown("iterm").description
        == "unknown image protocol 'iterm' (expected auto, kitty, sixel, symbols or none)")
    #expect(
      !ImageProtocolSettingError.unknown("a\nb\u{1B}").description.contains {
        $0.asciiValue.map { $0 < 0x20 } ?? false
      })
  }

  @Test func aFixedSettingOverridesDetection() {
    let kitty = ["TERM": "xterm-kitty"]
    #expect(ImageProtocolSetting.automatic.resolve(environment: kitty) == .kitty)
    #expect(ImageProtocolSetting.fixed(.symbols).resolve(environment: kitty) == .symbols)
    #expect(ImageProtocolSetting.fixed(.sixel).resolve(environment: ["TERM": "dumb"]) == .sixel)
  }

  @Test(arguments: [
    (["NO_COLOR": "1", "COLORTERM": "truecolor"], SymbolColors.none),
    (["NO_COLOR": "", "COLORTERM": "truecolor"], .trueColor),  // empty means unset
    (["COLORTERM": "24bit"], .trueColor),
    (["TERM": "xterm-direct"], .trueColor),
    (["TERM": "xterm-kitty"], .trueColor),
    (["TERM": "xterm-256color"], .palette256),
    ([:], .palette256),
  ])
  func symbolColoursFromTheEnvironment(environment: [String: String], expected: SymbolColors) {
    #expect(SymbolColors.detect(environment: environment) == expected)
  }
}
