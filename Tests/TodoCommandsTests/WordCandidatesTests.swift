import Foundation
import Testing
import TodoTestSupport
import TodoTxt

@testable import TodoCommands

/// A listing's search words are looked for in the whole file first
/// (``NativeListing/candidates(forWords:)``), and only the lines found are tested: what it
/// lists must be what a test of every line with ``WordMatcher`` lists, whatever case and
/// whatever characters that fold to ASCII letters the lines hold.
@Suite struct WordCandidatesTests {
  /// Words that meet the search words in every way: in other cases, inside longer words,
  /// and as characters whose folding gives ASCII letters (ſ for s, the Kelvin sign for k,
  /// İ for i, ß and ẞ for ss), with other non-ASCII text beside them.
  static let pool = [
    "+Kitchen", "+KITCHEN", "kitchen", "Kit", "+kitchenette", "\u{212A}itchen", "ſtraſſe", "STRASSE",
    "Straße", "STRAẞE", "İstanbul", "istanbul", "café", "CAFÉ", "@home", "due:2025-01-01", "plain", "ss",
  ]

  /// A seeded file: tasks of pool words, blank lines, lines of digits (not tasks), CR LF
  /// endings, now and then a byte that is not UTF-8.
  static func file(seed: UInt64) -> [UInt8] {
    var g = SplitMix64(seed: seed)
    var bytes: [UInt8] = []
    for _ in 0..<400 {
      switch g.below(12) {
      case 0: break
      case 1: bytes += Array("  12 ".utf8)
      default:
        let words = (0..<(1 + g.below(5))).map { _ in pool[g.below(pool.count)] }
        bytes += Array(words.joined(separator: " ").utf8)
        if g.below(15) == 0 { bytes += [0x20, 0xFF] }
      }
      bytes += g.below(5) == 0 ? [0x0D, 0x0A] : [0x0A]
    }
    return bytes
  }

  /// The line numbers `ls` lists (each listed line starts with its number).
  static func listed(_ output: [UInt8]) -> Set<Int> {
    var numbers: Set<Int> = []
    for line in output.split(separator: 0x0A) {
      let digits = line.prefix { (48...57).contains($0) }
      guard !digits.isEmpty, line.count > digits.count, line[line.startIndex + digits.count] == 0x20 else { continue }
      numbers.insert(Int(String(decoding: digits, as: UTF8.self))!)
    }
    return numbers
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6])
  func listsWhatATestOfEveryLineLists(_ seed: UInt64) throws {
    let bytes = WordCandidatesTests.file(seed: seed)
    let fixture = try InvocationTests.Fixture(todo: "")
    try Data(bytes).write(to: fixture.directory.appendingPathComponent("todo.txt"))
    let lines = Lines(bytes: bytes, raw: false)
    let queries = [["kitchen"], ["+Kitchen"], ["strasse"], ["ISTANBUL"], ["kit", "ss"], ["kitchen", "-ss"], ["café"], ["e"]]
    for query in queries {
      let before = fixture.console.output.count
      #expect(try TodoCLI.dispatch(fixture.context, ["ls"] + query, isDefaultAction: false) == .success)
      let matchers = query.map { ($0.hasPrefix("-"), WordMatcher($0.hasPrefix("-") ? String($0.dropFirst()) : $0)) }
      let expected = Set(
        (0..<lines.count).filter { index in
          let line = lines.line(index)
          guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }), line.contains(where: { !(48...57).contains($0) && $0 != 0x20 })
          else { return false }
          return matchers.allSatisfy { exclude, word in word.matches(line) != exclude }
        }.map { $0 + 1 })
      #expect(WordCandidatesTests.listed(Array(fixture.console.output[before...])) == expected, "ls \(query.joined(separator: " ")), seed \(seed)")
    }
  }
}
