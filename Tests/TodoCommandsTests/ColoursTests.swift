import Testing
import TodoTxt

@testable import TodoCommands

/// todo.sh's line colours, with the number's extent given by the rows that wrote the number.
@Suite struct ColoursTests {
  let esc: [UInt8] = [0x1B]

  func colours(_ variables: [String: String]) -> Colours {
    Colours(Settings(mode: .todoSh, variables: variables))
  }

  var everyColour: [String: String] {
    [
      "COLOR_DONE": "\\033[0;37m", "PRI_A": "\\033[1;33m", "PRI_X": "\\033[0;32m", "DEFAULT": "\\033[0m",
      "COLOR_NUMBER": "\\033[0;90m", "COLOR_PROJECT": "\\033[0;34m", "COLOR_CONTEXT": "\\033[0;35m",
      "COLOR_DATE": "\\033[0;36m", "COLOR_META": "\\033[0;96m",
    ]
  }

  /// The digits at the start of a line, counted as todo.sh's awk stage counts them.
  func countedDigits(_ line: [UInt8]) -> Int { line.prefix { (48...57).contains($0) }.count }

  @Test func aNumbersExtentIsWhereItsWrittenDigitsEnd() {
    // Every width and zero fill the numbering writes, both numberings, numbers of every
    // length: the extent worked out from the layout is the run of digits the prefix holds.
    for padding in 0...9 {
      for zeroFilled in [false, true] {
        for numbering in [ListingRows.Numbering.byLine, .doneAsZero(from: 40)] {
          let numbered = NumberedLines(source: Lines(), indices: [], padding: padding, zeroFilled: zeroFilled)
          var withNumbering = numbered
          withNumbering.numbering = numbering
          for index in [0, 8, 9, 39, 40, 98, 99, 999, 12_344, 1_234_566, 99_999_999] {
            var prefix: [UInt8] = []
            withNumbering.appendPrefix(index, to: &prefix)
            #expect(
              withNumbering.numberLayout.digitRun(index) == countedDigits(prefix),
              "padding \(padding), zero-filled \(zeroFilled), \(numbering), index \(index)")
          }
        }
      }
    }
  }

  @Test func aRowsExtentFollowsItsZeroFillAndIsNoneForALineASortCommandMadeUp() {
    let source = Lines([Array("x 2026-12-01 done".utf8), Array("(A) call mum".utf8), Array("plain".utf8)])
    let numbered = NumberedLines(source: source, indices: [0, 1, 2], padding: 8, zeroFilled: false)
    var rows = ListingRows(numbered)
    for row in 0..<rows.count { #expect(rows.numberEnd(row) == 0, "blanks lead an unfilled number") }
    rows.zeroFill()
    for row in 0..<rows.count { #expect(rows.numberEnd(row) == countedDigits(rows.line(row))) }
    let written = rows.ordered(as: [rows.line(2), Array("17 made up by a sort command".utf8), rows.line(0)])
    #expect(written.numberEnd(0) == countedDigits(rows.line(2)))
    #expect(written.numberEnd(1) == nil)
    #expect(written.numberEnd(2) == countedDigits(rows.line(0)))
  }

  @Test func aGivenExtentColoursAsTheCountedDigitsDo() {
    let colours = colours(everyColour)
    let hiding = self.colours(everyColour.merging(["HIDE_PRIORITY_SUBSTITUTION": "1"]) { $1 })
    let lines = [
      "07 x 2026-12-01 done +home", "07 (A) call mum @phone due:2026-12-04", "07 (X) other", "07 plain 2026-12-03",
      "00000 7 x not done: the number is the zeros", "07", "07 x", "07 (A)", "123abc not a number",
    ]
    for text in lines {
      let line = Array(text.utf8)
      let counted = countedDigits(line)
      #expect(colours.apply(to: line, numberEnd: counted) == colours.apply(to: line, numberEnd: nil), "\(text)")
      #expect(hiding.apply(to: line, numberEnd: counted) == hiding.apply(to: line, numberEnd: nil), "\(text)")
    }
  }

  @Test func theNumberTheDoneStateAndThePriorityAreColouredFromTheGivenExtent() {
    let colours = colours(everyColour)
    let number = esc + Array("[0;90m".utf8)
    let done = esc + Array("[0;37m".utf8)
    let reset = esc + Array("[0m".utf8)
    let doneLine = colours.apply(to: Array("012 x 2026-12-01 paid".utf8), numberEnd: 3)
    #expect(doneLine.starts(with: done + number + Array("012".utf8) + reset + done))
    #expect(doneLine.suffix(reset.count) == reset[...])
    // Past the five zeros todo.sh fills in, blanks stay: the number is the zeros alone, and
    // the ` 7 x ` after them is no done mark.
    let wide = colours.apply(to: Array("00000 7 x paid".utf8), numberEnd: 5)
    #expect(wide.starts(with: number + Array("00000".utf8) + reset + Array(" 7 x paid".utf8)))
    // No extent: the first word is not the number, however it looks.
    #expect(colours.apply(to: Array("12 x paid".utf8), numberEnd: 0) == Array("12 x paid".utf8))
  }

  @Test func hidingThePriorityDropsItsLabelAfterTheGivenNumber() {
    let colours = colours(["PRI_A": "\\033[1;33m", "DEFAULT": "\\033[0m", "HIDE_PRIORITY_SUBSTITUTION": "1"])
    let shown = colours.apply(to: Array("3 (A) call mum".utf8), numberEnd: 1)
    #expect(shown == esc + Array("[1;33m3 call mum".utf8) + esc + Array("[0m".utf8))
  }
}
