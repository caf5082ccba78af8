import Testing
import TodoTestSupport

@testable import TodoCommands

/// The rows a listing hands the writers after it (``ListEngine/ListedRows``): each line is
/// made, and styled, only when it is asked for.
@Suite struct ListEngineTests {
  @Test func aStyledRowIsItsListedLineStyledWithItsIndex() {
    let numbered = NumberedLines(
      source: Lines(["call mum", "pay rent", "buy milk"].map { Array($0.utf8) }), indices: [2, 0], padding: 1,
      zeroFilled: false)
    var rows = ListEngine.ListedRows(storage: .numbered(numbered))
    #expect(rows.line(0) == Array("3 buy milk".utf8))
    rows.style = { index, line, _ in Array("<\(index)>".utf8) + line }
    #expect((0..<rows.count).map { String(decoding: rows.line($0), as: UTF8.self) } == ["<2>3 buy milk", "<0>1 call mum"])
    #expect(rows.index(1) == 0)
  }

  /// A coloured listing is written row by row, as its lines are styled: the same text as the
  /// lines made whole.
  @Test(arguments: ["todo", "todo.sh"])
  func aColouredListingIsWrittenAsItsStyledLines(name: String) throws {
    let list = try CommandFixture(todo: "(A) call mum\n(B) pay rent due:2000-01-01\nbuy milk\n")
    let run = list.run(name, ["ls"], environment: ["TODOTXT_PLAIN": "0", "TODOTXT_FORCE_COLOR": "1"])
    #expect(run.status == 0)
    // todo.sh's colours by priority; under the name todo an overdue date too, found by the
    // row's line index as its line is styled.
    #expect(run.stdout.hasPrefix("\u{1B}[1;33m1 (A) call mum\u{1B}[0m\n\u{1B}[0;32m2 (B) pay rent "), "\(run.stdout)")
    #expect(run.stdout.contains("\u{1B}[1;31mdue:2000-01-01") == (name == "todo"), "\(run.stdout)")
    #expect(run.stdout.contains("\n3 buy milk\n"), "\(run.stdout)")
  }

  /// A count is the lines a listing without a user's command shows: for random lines, terms
  /// and a line test, ``ListEngine/count(_:padding:terms:test:)`` is the length of the
  /// formatted listing. (Under the name todo.sh, where terms are grep patterns, the listall
  /// tests and the compare runs hold it.)
  @Test(arguments: [UInt64(7), 8, 9])
  func aCountIsTheListingsLength(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let words = ["call", "Call", "mum", "+home", "@phone", "(A)", "x", "12", "  ", "\t", "é"]
    let texts = (0..<80).map { _ in
      (0..<Int.random(in: 0..<5, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
    }
    let lines = Lines(texts.map { Array($0.utf8) })
    let engine = ListEngine(context: try CommandFixture(todo: "").context())
    for terms in [[], ["call"], ["-mum"], ["1"], ["^ *1[0-9] "], ["call", "-x"], ["C.ll"]] {
      let test = ListEngine.LineTest(command: "") { $0 % 3 != 0 }
      #expect(engine.count(lines, padding: 2, terms: terms) == engine.format(lines, padding: 2, terms: terms).count, "\(terms)")
      #expect(
        engine.count(lines, padding: 2, terms: terms, test: test)
          == engine.format(lines, padding: 2, terms: terms, test: test).count, "\(terms)")
    }
  }
}
