import Testing

import Foundation
@testable import TodoREPL
import TodoTestSupport

@Suite struct ShellWordsTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var line: String
    var words: [String]
    var testDescription: String { line }
  }

  static let cases: [Case] = [
    Case(line: "", words: []),
    Case(line: "   \t ", words: []),
    Case(line: "ls", words: ["ls"]),
    Case(line: "  add  buy milk  ", words: ["add", "buy", "milk"]),
    Case(line: "add \"buy milk\" +home", words: ["add", "buy milk", "+home"]),
    Case(line: "add 'it''s' x", words: ["add", "its", "x"]),
    Case(line: "add 'say \"hi\"'", words: ["add", "say \"hi\""]),
    Case(line: "add \"it's\"", words: ["add", "it's"]),
    Case(line: #"add buy\ milk"#, words: ["add", "buy milk"]),
    Case(line: #"add \"quoted\""#, words: ["add", "\"quoted\""]),
    Case(line: #"add "a \"b\" \$5 \n""#, words: ["add", #"a "b" $5 \n"#]),
    Case(line: #"add 'back\slash'"#, words: ["add", #"back\slash"#]),
    Case(line: "add \"\" ''", words: ["add", "", ""]),
    Case(line: "add pre\"fix\"'ed'", words: ["add", "prefixed"]),
    Case(line: "add $HOME * ~ `x`", words: ["add", "$HOME", "*", "~", "`x`"]),
    Case(line: "add trailing\\", words: ["add", "trailing\\"]),
    Case(line: "add tab\tseparated", words: ["add", "tab", "separated"]),
    Case(line: "add héllo @café", words: ["add", "héllo", "@café"]),
    // An apostrophe inside a word is a letter (where sh would open a quote).
    Case(line: "add Don't forget the umbrella", words: ["add", "Don't", "forget", "the", "umbrella"]),
    Case(line: "add the students' books", words: ["add", "the", "students'", "books"]),
    Case(line: "add rock'n'roll O'Brien 90's", words: ["add", "rock'n'roll", "O'Brien", "90's"]),
    Case(line: "add café's menu", words: ["add", "café's", "menu"]),
    Case(line: "add 'Don't forget' it", words: ["add", "Don't forget", "it"]),
    Case(line: "add it's 'two words' more", words: ["add", "it's", "two words", "more"]),
    // Quotes still quote at the start of a word, after = and after another quote.
    Case(line: "add 'two words' more", words: ["add", "two words", "more"]),
    Case(line: "ls --query='pri:A or due:today'", words: ["ls", "--query=pri:A or due:today"]),
    Case(line: "add +'my project'", words: ["add", "+my project"]),
    Case(line: #"add Don\'t"#, words: ["add", "Don't"]),
    Case(line: "add \"Don't\" 'x'", words: ["add", "Don't", "x"]),
  ]

  @Test(arguments: cases)
  func splits(_ example: Case) throws {
    #expect(try ShellWords.split(example.line) == example.words)
  }

  struct Open: CustomTestStringConvertible, Sendable {
    var line: String
    var quote: Character
    var column: Int
    var testDescription: String { line }
  }

  /// An open quote is named with the column it stands in, counted in characters.
  @Test(arguments: [
    Open(line: "add \"open", quote: "\"", column: 5),
    Open(line: "add 'open", quote: "'", column: 5),
    Open(line: "add \"a\" 'b", quote: "'", column: 9),
    Open(line: "add it's 'open", quote: "'", column: 10),
    Open(line: "add 'it''s", quote: "'", column: 9),
    Open(line: "add café 'x", quote: "'", column: 10),
    Open(line: "add 中 \"x", quote: "\"", column: 7),
  ])
  func unterminatedQuoteNamesItsColumn(_ open: Open) {
    #expect(throws: ShellWords.Failure.unterminatedQuote(open.quote, column: open.column)) {
      try ShellWords.split(open.line)
    }
  }

  @Test func failureMessagesNameTheQuoteAndColumn() {
    #expect(
      ShellWords.Failure.unterminatedQuote("'", column: 5).message
        == "unterminated single quote: the ' at column 5 is never closed")
    #expect(
      ShellWords.Failure.unterminatedQuote("\"", column: 12).message
        == "unterminated double quote: the \" at column 12 is never closed")
  }

  /// Hostile lines: long words, control characters, a quote after a very long word.
  @Test func longAndControlLinesSplit() throws {
    let long = String(repeating: "a", count: 100_000)
    #expect(try ShellWords.split("add \(long)'s end") == ["add", long + "'s", "end"])
    #expect(throws: ShellWords.Failure.unterminatedQuote("'", column: 100_006)) {
      try ShellWords.split("add \(long) 'x")
    }
    #expect(try ShellWords.split("add a\u{07}b's \u{1B}[31m'") == ["add", "a\u{07}b's", "\u{1B}[31m'"])
    // After a control character a quote opens, as in sh.
    #expect(try ShellWords.split("add a\u{07}'s \u{1B}[31m'") == ["add", "a\u{07}s \u{1B}[31m"])
    // A control character before an apostrophe is no letter: the quote opens.
    #expect(throws: ShellWords.Failure.unterminatedQuote("'", column: 6)) { try ShellWords.split("add \u{07}'s") }
  }

  @Test func scanKeepsTheWordBeingTyped() {
    #expect(ShellWords.scan("add \"buy mi").words == ["add", "buy mi"])
    #expect(ShellWords.scan("add \"buy mi").openQuote == "\"")
    #expect(ShellWords.scan("add ").words == ["add"])
    #expect(ShellWords.scan("add ").openQuote == nil)
  }

  @Test(arguments: [
    "plain", "+home", "@phone", "due:2026-01-01", "two words", "it's", "say \"hi\"", #"a\b"#, "",
    "line\nbreak", "it's\nboth", "'quoted'", "don't 'stop'", "a''b", "é'", " 'x",
  ])
  func quotedWordsReadBackAsThemselves(_ word: String) throws {
    #expect(try ShellWords.split("add " + ShellWords.quote(word)) == ["add", word])
  }

  @Test func quoteLeavesOrdinaryWordsAlone() {
    #expect(ShellWords.quote("+home") == "+home")
    #expect(ShellWords.quote("Don't") == "Don't")
    #expect(ShellWords.quote("'cause") == #"\'cause"#)
    #expect(ShellWords.quote("my file.txt") == #"my\ file.txt"#)
  }
}

/// The words are a POSIX shell's for every line without what the shell line leaves out on
/// purpose (`$`, `` ` ``, globs, newlines): random lines of quotes, backslashes, blanks and
/// multi-byte letters, split by `sh` in one script and by ``ShellWords/split(_:)``.
///
/// The one difference on purpose is the apostrophe (see ``ShellWords``): a single quote after
/// a letter or digit, or between two inside single quotes, is a letter here where sh quotes.
/// The scanner names each quote it read so (``ShellWords/Scan/apostrophes``); sh is given the
/// line with those bytes made a plain `%`, which it keeps as a letter, and its words with `%`
/// made `'` again must be ours. So every other byte of every line is held to sh's reading, and
/// each apostrophe must land in the word and place sh puts the plain byte.
@Suite struct ShellWordsAgainstShTests {
  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func wordsAreTheShells(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let alphabet: [String] = [" ", "\t", "'", "\"", "\\", "a", "b", "é", "中", "x y", "-", "="]
    var lines: [(typed: String, forSh: String)] = []
    while lines.count < 300 {
      let line = (0..<Int.random(in: 0...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
        .joined()
      // sh would stop the whole script at an open quote, and join a line ending in a
      // backslash to the next; both have their own cases above.
      guard (try? ShellWords.split(line)) != nil, !line.hasSuffix("\\") else { continue }
      var bytes = Array(line.utf8)
      for offset in ShellWords.scan(bytes: bytes).apostrophes { bytes[offset] = UInt8(ascii: "%") }
      lines.append((line, String(decoding: bytes, as: UTF8.self)))
    }
    // Both kinds of line are compared, in numbers that mean something.
    #expect(lines.filter { $0.typed != $0.forSh }.count > 20)
    #expect(lines.filter { $0.typed == $0.forSh && $0.typed.contains("'") }.count > 20)
    // Per line: the number of words, then each after a unit separator; a record separator ends it.
    let script = lines.map { "set -- \($0.forSh)\nprintf '%d' $#; for w in \"$@\"; do printf '\\037%s' \"$w\"; done; printf '\\036'\n" }.joined()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let records = String(decoding: data, as: UTF8.self).split(separator: "\u{1E}", omittingEmptySubsequences: false)
    #expect(records.count == lines.count + 1)
    for (line, record) in zip(lines, records) {
      let fields = record.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
      let words = fields.dropFirst().map { String($0.map { $0 == "%" ? "'" : $0 }) }
      #expect(Int(fields[0]) == words.count, "\(line.typed.debugDescription)")
      #expect(try ShellWords.split(line.typed) == words, "\(line.typed.debugDescription)")
      #expect(ShellWords.split(bytes: Array(line.typed.utf8)) == words.map { Array($0.utf8) }, "\(line.typed.debugDescription)")
    }
  }

  /// The scanner's apostrophes are exactly the quotes after a letter or digit outside quotes,
  /// and those between two inside single quotes.
  @Test func apostrophesAreWhereTheRuleSays() {
    #expect(ShellWords.scan(bytes: Array("Don't 'it''s' 'Don't' \"it's\" \\'x =' '".utf8)).apostrophes == [3, 18])
  }

  @Test func bytesThatAreNotUTF8StayInTheirWord() {
    #expect(ShellWords.split(bytes: [0x61, 0xFF, 0x20, 0x27, 0xFE, 0x20, 0x62, 0x27]) == [[0x61, 0xFF], [0xFE, 0x20, 0x62]])
    #expect(ShellWords.split(bytes: [0x22, 0xFF]) == nil)
  }
}
