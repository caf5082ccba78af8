import Testing
import TodoTxt

@testable import TodoCommands

/// The pieces of the readable layout that need no terminal: distances, widths, wrapping.
@Suite struct TerminalLayoutUnitTests {
  @Test(arguments: [
    (0, "today"), (1, "tomorrow"), (-1, "yesterday"), (2, "in 2d"), (-2, "2d ago"), (13, "in 13d"),
    (14, "in 2w"), (69, "in 9w"), (70, "in 2mo"), (-100, "3mo ago"), (729, "in 24mo"), (730, "in 2y"),
    (-1000, "2y ago"),
  ])
  func distances(days: Int, expected: String) {
    #expect(TerminalLayout.relative(days: days) == expected)
  }

  @Test func columnsCountWhatTheTerminalShows() {
    #expect(TerminalText.columns(Array("abc".utf8)) == 3)
    // A colour takes no room; a CJK character two; a combining accent none.
    #expect(TerminalText.columns(Array("\u{1B}[1;31mab\u{1B}[0m".utf8)) == 2)
    #expect(TerminalText.columns(Array("日本".utf8)) == 4)
    #expect(TerminalText.columns(Array("e\u{301}".utf8)) == 1)
    // Bytes that are not UTF-8 count one each (they are shown as one replacement each).
    #expect(TerminalText.columns([0xFF, 0xFE, 0x41]) == 3)
    #expect(TerminalText.columns([0xE6, 0x97]) == 2)
  }

  @Test func wrappingKeepsWordsWholeAndIndents() {
    let line = Array("1 (A) one two three four".utf8)
    #expect(TerminalLayout.wrap(line, width: 100, indent: 6) == [line])
    let parts = TerminalLayout.wrap(Array("1 (A) alpha beta gamma delta epsilon".utf8), width: 20, indent: 6)
    #expect(parts.map { String(decoding: $0, as: UTF8.self) } == ["1 (A) alpha beta", "      gamma delta", "      epsilon"])
    // A word longer than the room is left whole on a line of its own.
    let long = TerminalLayout.wrap(Array("1 (A) x \(String(repeating: "y", count: 30))".utf8), width: 20, indent: 6)
    #expect(long.map(\.count) == [7, 36])
    // Too narrow a terminal to wrap into: left as it is.
    #expect(TerminalLayout.wrap(Array("1 (A) alpha beta gamma".utf8), width: 10, indent: 6).count == 1)
  }

  @Test func aGluedDateIsNeverPartedFromItsDistanceAndIsWrittenWithPlainSpaces() {
    let glue = TerminalLayout.glue
    // "due:2009-02-16 (in 3d)" with glue: at width 24 a break at either space would fit.
    let line = Array("1 (A) call the bank due:2009-02-16".utf8) + [glue] + Array("(in".utf8) + [glue] + Array("3d)".utf8)
    let parts = TerminalLayout.wrap(line, width: 24, indent: 6)
    #expect(parts.map { String(decoding: $0, as: UTF8.self) } == ["1 (A) call the bank", "      due:2009-02-16 (in 3d)"])
    #expect(TerminalLayout.wrap(line, width: 100, indent: 6) == [Array("1 (A) call the bank due:2009-02-16 (in 3d)".utf8)])
    #expect(!parts.joined().contains(glue))
  }
}
