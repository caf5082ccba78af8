import Testing
import TodoTestSupport
import TodoTxt

@testable import TodoCommands

/// ``Lines/holding(_:)``, the whole-file search a query listing starts with, against a line
/// by line statement of what it must find.
@Suite struct LinesTests {
  /// Whether `line` holds every literal, each looked for at every position.
  static func holdsAll(_ literals: [RequiredLiteral], _ line: [UInt8]) -> Bool {
    literals.allSatisfy { literal in
      if literal.onlyInASCIILines, line.contains(where: { $0 >= 0x80 }) { return true }
      let needle = literal.bytes
      guard line.count >= needle.count else { return false }
      return (0...(line.count - needle.count)).contains { start in
        zip(line[start...], needle).allSatisfy { byte, expected in
          (literal.ignoresCase && (65...90).contains(byte) ? byte + 32 : byte) == expected
        }
      }
    }
  }

  static func check(_ file: [UInt8], _ literals: [RequiredLiteral], sourceLocation: SourceLocation = #_sourceLocation) {
    let lines = Lines(bytes: file, raw: false)
    let found = lines.holding(literals)
    guard let found else { return #expect(literals.isEmpty, sourceLocation: sourceLocation) }
    #expect(found.count == lines.count, sourceLocation: sourceLocation)
    for index in 0..<lines.count {
      #expect(
        found[index] == holdsAll(literals, lines.line(index)),
        "line \(index + 1) of \(String(decoding: file, as: UTF8.self).debugDescription)",
        sourceLocation: sourceLocation)
    }
  }

  @Test func nothingToLookForIsNoAnswer() {
    #expect(Lines(bytes: Array("a\nb\n".utf8), raw: false).holding([]) == nil)
  }

  @Test func aLiteralIsFoundWithinALineOnly() {
    let kitchen = RequiredLiteral(Array("+Kitchen".utf8))
    // Found at a line's start and end, twice in one line, not across a line ending (LF,
    // CRLF), not in a byte order mark, not at the file's end without a newline.
    Self.check(Array("+Kitchen a\nb +Kitchen\n+Kit\nchen\r\n+Kitchen +Kitchen\nx +Kitchen".utf8), [kitchen])
    Self.check(TodoList.byteOrderMark + Array("+Kitchen\n+kitchen\r\n".utf8), [kitchen])
    // A CR ends a line before its LF, not at the file's end without one.
    Self.check(Array("+Kitchen\r\nx\n+Kitchen\r".utf8), [RequiredLiteral(Array("n\r".utf8))])
    Self.check([], [kitchen])
  }

  @Test func ignoringCaseFoldsASCIILettersOnly() {
    let literal = RequiredLiteral(Array("+Kitchen".utf8), ignoresCase: true)
    Self.check(Array("+KITCHEN\n+kitchen\n+kİtchen\n+Kitchen\nkitchen\n".utf8), [literal])
    let word = RequiredLiteral(Array("milk".utf8), ignoresCase: true, onlyInASCIILines: true)
    Self.check(Array("MILK\nmil k\nStraße\nm\n".utf8), [word])
  }

  @Test func everyLiteralMustHold() {
    let literals = [RequiredLiteral(Array("+Kitchen".utf8)), RequiredLiteral(Array("due:".utf8))]
    Self.check(Array("+Kitchen due:2024-01-01\n+Kitchen\ndue:2024-01-01\n+Kitchen xdue:\n".utf8), literals)
  }

  /// Random files from a small alphabet, so that literals, near misses and line endings
  /// meet often.
  @Test func randomFiles() {
    var g = SplitMix64(seed: 0x5EED_11E5)
    let alphabet = Array("+Kitchen due:KkCc@h\r\n \n".utf8) + [0xC3, 0x9F]
    let literals = [
      RequiredLiteral(Array("+Kit".utf8)), RequiredLiteral(Array("kitchen".utf8), ignoresCase: true),
      RequiredLiteral(Array("due:".utf8)), RequiredLiteral(Array("ch".utf8), ignoresCase: true, onlyInASCIILines: true),
      RequiredLiteral(Array("\n".utf8)), RequiredLiteral(Array("n\r".utf8)),
    ]
    for _ in 0..<2_000 {
      let file = (0..<g.below(120)).map { _ in alphabet[g.below(alphabet.count)] }
      let chosen = literals.filter { _ in g.below(3) == 0 }
      Self.check(file, chosen)
    }
  }

  /// ``Lines/forEachLineWithNonASCII(_:)`` names each line whose text has a byte outside
  /// ASCII, once, in order; not a byte order mark, not a line ending.
  @Test func linesWithNonASCIIAreFoundInTheWholeBuffer() {
    var g = SplitMix64(seed: 0xA5C1_1000)
    let alphabet = Array("ab +K\r\n\n12345678".utf8) + [0xC3, 0x9F, 0xE2, 0x84, 0xAA, 0xFF, 0x80]
    for round in 0..<1_500 {
      var file = (0..<g.below(200)).map { _ in alphabet[g.below(alphabet.count)] }
      if round % 7 == 0 { file = TodoList.byteOrderMark + file }
      let lines = Lines(bytes: file, raw: false)
      var found: [Int] = []
      lines.forEachLineWithNonASCII { found.append($0) }
      let expected = (0..<lines.count).filter { lines.line($0).contains { $0 >= 0x80 } }
      #expect(found == expected, "\(file)")
    }
  }
}

/// listall's awk step on a listing's own lines.
@Suite struct LinesJoinFieldsTests {
  @Test func eachNamedLineBecomesItsWordsJoinedByOneSpaceTheOthersStay() {
    var lines = Lines([" call  mum\t", "\tpay rent", " \t ", "a  b"].map { Array($0.utf8) })
    let bothKeptWords = lines.joinFields(of: [0, 1])
    #expect(bothKeptWords)
    #expect(lines.all.map { String(decoding: $0, as: UTF8.self) } == ["call mum", "pay rent", " \t ", "a  b"])
    let blankKeptWords = lines.joinFields(of: [2])
    #expect(!blankKeptWords, "a line of only blanks keeps no word")
    #expect(lines.line(2).isEmpty)
  }
}
