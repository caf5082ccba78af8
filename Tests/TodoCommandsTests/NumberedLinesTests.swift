import Testing
import TodoTestSupport

@testable import TodoCommands

/// A listing still in its file's lines: its numbers as todo.sh writes them, and its order
/// against the plainest statement of `sort -f -k2` over the numbered lines.
@Suite struct NumberedLinesTests {
  static func numbered(
    _ texts: [String], kept: [Int32], padding: Int, zeroFilled: Bool, numbering: ListingRows.Numbering
  ) -> NumberedLines {
    var numbered = NumberedLines(
      source: Lines(texts.map { Array($0.utf8) }), indices: kept, padding: padding, zeroFilled: zeroFilled)
    numbered.numbering = numbering
    return numbered
  }

  /// Each numbered line, as written.
  static func written(_ numbered: NumberedLines) -> [String] {
    var output: [UInt8] = []
    numbered.write { output += $0 }
    return String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
      .map(String.init)
  }

  /// `sort -f -k2` in the C locale: the key runs from the end of the line's first run of
  /// non-blanks to the end, compared with lower-case letters as capitals; equal keys go by
  /// the whole lines' bytes, and equal lines keep their order.
  static func sortedAsTodoSh(_ lines: [String]) -> [String] {
    func key(_ line: [UInt8]) -> [UInt8] {
      var start = 0
      while start < line.count, line[start] == 0x20 || line[start] == 0x09 { start += 1 }
      while start < line.count, line[start] != 0x20, line[start] != 0x09 { start += 1 }
      return line[start...].map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 }
    }
    let bytes = lines.map { Array($0.utf8) }
    return (0..<lines.count).sorted { left, right in
      let (x, y) = (key(bytes[left]), key(bytes[right]))
      if x != y { return x.lexicographicallyPrecedes(y) }
      if bytes[left] != bytes[right] { return bytes[left].lexicographicallyPrecedes(bytes[right]) }
      return left < right
    }.map { lines[$0] }
  }

  @Test func doneAsZeroShowsZeroAtTheFirstFilesWidthAndNoWidthWhenTheFirstFileIsEmpty() {
    let texts = ["call mum", "pay rent", "x old one"]
    let listing = NumberedLinesTests.numbered(
      texts, kept: [0, 1, 2], padding: 2, zeroFilled: false, numbering: .doneAsZero(from: 2))
    #expect(NumberedLinesTests.written(listing) == [" 1 call mum", " 2 pay rent", " 0 x old one"])
    var filled = listing
    filled.zeroFilled = true
    #expect(NumberedLinesTests.written(filled) == ["01 call mum", "02 pay rent", "00 x old one"])
    // An empty todo.txt: awk's `%0d` writes the 0 in one place.
    let onlyDone = NumberedLinesTests.numbered(
      ["x old one"], kept: [0], padding: 0, zeroFilled: true, numbering: .doneAsZero(from: 0))
    #expect(NumberedLinesTests.written(onlyDone) == ["0 x old one"])
  }

  /// Random lines of a few words in both cases (runs of equal texts are common, so keys tie),
  /// some kept, numbered by line or with the last ones 0, at widths up to eight places with
  /// and without zeros: `sorted()` writes the lines in the order `sort -f -k2` gives them.
  @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
  func sortedMatchesSortOfTheWrittenLines(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let words = ["a", "A", "b", "B", "x", "(A)", "0", "00", "9", "+p", "@c", "é", "z"]
    for _ in 0..<20 {
      let count = Int.random(in: 1..<60, using: &random)
      let texts = (0..<count).map { _ in
        (0..<Int.random(in: 1..<4, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
      }
      let kept = (0..<Int32(count)).filter { _ in Int.random(in: 0..<4, using: &random) > 0 }
      let zeroFrom = Int.random(in: 0...count, using: &random)
      let numbering: ListingRows.Numbering = Bool.random(using: &random) ? .byLine : .doneAsZero(from: zeroFrom)
      let firstFile = if case .doneAsZero(let from) = numbering { from } else { count }
      let padding = max(String(firstFile).count, Int.random(in: 0...8, using: &random)) * (firstFile == 0 ? 0 : 1)
      let listing = NumberedLinesTests.numbered(
        texts, kept: kept, padding: padding, zeroFilled: Bool.random(using: &random), numbering: numbering)
      #expect(
        NumberedLinesTests.written(listing.sorted())
          == NumberedLinesTests.sortedAsTodoSh(NumberedLinesTests.written(listing)),
        "\(texts) kept \(kept) padding \(padding) \(numbering) zeros \(listing.zeroFilled)")
    }
  }
}
