import Testing
import TodoTxt
import TodoTestSupport

/// ``TaskFilter/requiredLiterals``: what a query needs of a line's bytes, and that no line a
/// query passes lacks them (a listing never parses a line that does).
@Suite struct RequiredLiteralTests {
  let today = day("2026-11-18")

  func literals(_ query: String) throws -> [RequiredLiteral] {
    try FilterExpression.parse(query).resolved(today: today).requiredLiterals
  }

  @Test func smartCaseNamesAndDatesNeedTheirTokens() throws {
    #expect(
      try literals("+Kitchen due:<2025-01-01") == [
        RequiredLiteral(Array("+Kitchen".utf8)), RequiredLiteral(Array("due:".utf8)),
      ])
    #expect(try literals("@Home t:any") == [RequiredLiteral(Array("@Home".utf8)), RequiredLiteral(Array("t:".utf8))])
    #expect(try literals("threshold<today") == [RequiredLiteral(Array("t:".utf8))])
    #expect(try literals("rec:1w has:note") == [RequiredLiteral(Array("rec:".utf8)), RequiredLiteral(Array("note:".utf8))])
  }

  @Test func lowerCaseNamesAndWordsIgnoreASCIICase() throws {
    #expect(try literals("+kitchen") == [RequiredLiteral(Array("+kitchen".utf8), ignoresCase: true)])
    // A word of the text ignores case always, and by Unicode folding in a line that is not
    // ASCII (`strasse` finds `Straße`).
    #expect(
      try literals("Milk") == [RequiredLiteral(Array("milk".utf8), ignoresCase: true, onlyInASCIILines: true)])
  }

  @Test(arguments: [
    "", "a or b", "not +Kitchen", "-@home", "/kit/", "pri:A", "done", "open", "created:2026", "due:none",
    "+café", "Straße", "has:project",
  ])
  func queriesThatNeedNoParticularBytes(_ query: String) throws {
    #expect(try literals(query).isEmpty)
  }

  @Test func aCaseSensitiveNameOutsideASCIIIsItsBytes() throws {
    #expect(try literals("+Café") == [RequiredLiteral(Array("+Café".utf8))])
  }

  /// Whether `line` holds `literal` as a listing looks for it.
  static func holds(_ literal: RequiredLiteral, _ line: [UInt8]) -> Bool {
    if literal.onlyInASCIILines, line.contains(where: { $0 >= 0x80 }) { return true }
    let needle = literal.bytes
    guard line.count >= needle.count else { return false }
    return (0...(line.count - needle.count)).contains { start in
      (0..<needle.count).allSatisfy { offset in
        var byte = line[start + offset]
        if literal.ignoresCase, (65...90).contains(byte) { byte += 32 }
        return byte == needle[offset]
      }
    }
  }

  static let queries = [
    "+Kitchen", "+kitchen", "+KITCHEN", "@home", "@Home", "due:<2025-01-01", "+Kitchen due:<today", "t:any",
    "t>=2026-01", "milk", "MILK", "strasse", "rec:1w", "h:1", "has:rec", "open +Kitchen milk", "(+Kitchen) due:any",
    "+Kitchen -@home", "pri:A +kitchen",
  ]
  static let pieces = [
    "+Kitchen", "+kitchen", "+KITCHEN", "+Kitchenette", "x+Kitchen", "++Kitchen", "@home", "@HOME", "@Home",
    "due:2024-12-31", "due:2025-01-01", "due:today", "DUE:2024-01-01", "t:2026-02-01", "t:2025-12-31", "milk",
    "MILK", "Milk", "Straße", "STRASSE", "rec:1w", "rec:", "h:1", "x", "(A)", "2024-05-05", "é", "\t", "  ",
  ]

  /// Every line a query passes holds all its literals; each query passes some lines, so
  /// the property is not held for want of a case.
  @Test(arguments: queries)
  func noPassingLineLacksALiteral(_ query: String) throws {
    let filter = try FilterExpression.parse(query).resolved(today: today)
    let literals = filter.requiredLiterals
    var g = SplitMix64(seed: 0x11_7E2A)
    var passed = 0
    for _ in 0..<4_000 {
      var line: [UInt8] = []
      for position in 0..<(1 + g.below(7)) {
        if position > 0 { line.append(0x20) }
        line += Array(Self.pieces[g.below(Self.pieces.count)].utf8)
      }
      guard filter.matches(Task(bytes: line[...]), today: today) else { continue }
      passed += 1
      for literal in literals {
        #expect(Self.holds(literal, line), "\(query): \(String(decoding: line, as: UTF8.self))")
      }
    }
    #expect(passed > 0)
  }
}
