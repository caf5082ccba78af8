import Testing
import TodoTestSupport

@testable import TodoCommands

/// The rows of a made listing: each line keeps the index of the file's line it shows, so the
/// stages after it never read a number out of text.
@Suite struct ListingRowsTests {
  /// Rows of the lines `texts` (all of them, in file order), numbered with `padding` places.
  static func rows(_ texts: [String], padding: Int, numbering: ListingRows.Numbering = .byLine) -> ListingRows {
    let source = Lines(texts.map { Array($0.utf8) })
    var numbered = NumberedLines(
      source: source, indices: (0..<texts.count).map(Int32.init), padding: padding, zeroFilled: false)
    numbered.numbering = numbering
    return ListingRows(numbered)
  }

  static func strings(_ rows: ListingRows) -> [String] {
    (0..<rows.count).map { String(decoding: rows.line($0), as: UTF8.self) }
  }

  @Test func eachRowKnowsItsLineAndWhereItsTextStarts() {
    let rows = ListingRowsTests.rows(["call mum", "(A) pay rent", "buy milk"], padding: 2)
    #expect(ListingRowsTests.strings(rows) == [" 1 call mum", " 2 (A) pay rent", " 3 buy milk"])
    #expect(rows.indices == [0, 1, 2])
    #expect(rows.text(1) == Array("(A) pay rent".utf8)[...])
  }

  @Test func doneAsZeroNumbersLinesAfterTheFirstFileZeroAtTheFirstFilesWidth() {
    // Line 105 of the joined files is done.txt's: it shows 0, right-aligned to todo.txt's
    // two places, as todo.sh's awk step writes it.
    var texts = (1...104).map { "task \($0)" }
    texts.append("x done one")
    let rows = ListingRowsTests.rows(texts, padding: 2, numbering: .doneAsZero(from: 104))
    #expect(ListingRowsTests.strings(rows).last == " 0 x done one")
    #expect(rows.indices.last == 104)
    #expect(ListingRowsTests.strings(rows)[3] == " 4 task 4")
    var filled = rows
    filled.zeroFill()
    #expect(ListingRowsTests.strings(filled).last == "00 x done one")
    #expect(filled.text(104) == Array("x done one".utf8)[...])
  }

  @Test func zeroFillingStopsAtFivePlaces() {
    var rows = ListingRowsTests.rows(["a"], padding: 7)
    rows.zeroFill()
    #expect(ListingRowsTests.strings(rows) == ["00000 1 a"])
  }

  @Test func aSortCommandsLinesAreMatchedToTheirRowsByTheirBytes() {
    let rows = ListingRowsTests.rows(["same", "other", "same"], padding: 1)
    // Two equal texts on different lines have different numbers, so different lines; a
    // line the command made up is a foreign row.
    let ordered = rows.ordered(as: [Array("3 same".utf8), Array("made up 2 other".utf8), Array("1 same".utf8)])
    #expect(ordered.indices == [2, ListingRows.foreign, 0])
    #expect(ordered.text(0) == Array("same".utf8)[...])
    #expect(ordered.text(1) == Array("made up 2 other".utf8)[...])
    // A line written twice is its row once, then a foreign row.
    let twice = rows.ordered(as: [Array("2 other".utf8), Array("2 other".utf8)])
    #expect(twice.indices == [1, ListingRows.foreign])
  }

  /// listall's awk step, rewritten in place, against the rebuild it stands for: the number,
  /// then each blank- or tab-separated word after one space.
  @Test(arguments: [UInt64(1), 2, 3])
  func joiningFieldsRebuildsEachLineFromItsWords(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let pieces = ["a", "bb", "(A)", " ", "  ", "\t", "é", "x:y", "\r"]
    let texts = (0..<300).map { _ in (0..<Int.random(in: 0..<8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined() }
    let expected = texts.enumerated().map { index, text in
      String(format: "%3d", index + 1) + text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { " " + $0 }.joined()
    }
    var rows = ListingRowsTests.rows(texts, padding: 3)
    rows.joinFields()
    #expect(ListingRowsTests.strings(rows) == expected)
    #expect(rows.indices == (0..<300).map(Int32.init))
    for row in 0..<rows.count {
      let words = expected[row].dropFirst(3)
      #expect(String(decoding: rows.text(row), as: UTF8.self) == String(words.dropFirst(words.isEmpty ? 0 : 1)))
    }
    // Rows put in another order first are rebuilt in a buffer of their own, with the same result.
    var reversed = ListingRowsTests.rows(texts, padding: 3).reordered(Array((0..<300).reversed()))
    reversed.joinFields()
    #expect(ListingRowsTests.strings(reversed) == expected.reversed())
  }

  /// Reordering in place, cycle by cycle, gives the rows ``ListingRows/reordered(_:)`` makes.
  @Test(arguments: [UInt64(4), 5, 6])
  func reorderingInPlaceMatchesAReorderedCopy(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let texts = (0..<257).map { "task \($0) " + String(repeating: "x", count: Int.random(in: 0..<9, using: &random)) }
    let order = Array(0..<texts.count).shuffled(using: &random)
    var rows = ListingRowsTests.rows(texts, padding: 3)
    let copy = rows.reordered(order)
    rows.reorder(order.map { Int32($0) })
    #expect(rows.indices == copy.indices)
    #expect(ListingRowsTests.strings(rows) == ListingRowsTests.strings(copy))
    #expect((0..<rows.count).allSatisfy { rows.text($0) == copy.text($0) })
  }

  @Test func filteringAndReorderingKeepLinesWithTheirRows() {
    let rows = ListingRowsTests.rows(["a", "b", "c", "d"], padding: 1)
    let kept = rows.filter { $0 % 2 == 1 }.reordered([1, 0])
    #expect(kept.indices == [3, 1])
    #expect(ListingRowsTests.strings(kept) == ["4 d", "2 b"])
    #expect(kept.text(0) == Array("d".utf8)[...])
  }
}
