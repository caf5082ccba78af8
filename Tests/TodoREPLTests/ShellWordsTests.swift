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
  ]

  @Test(arguments: cases)
  func splits(_ example: Case) throws {
    #expect(try ShellWords.split(example.line) == example.words)
  }

  @Test(arguments: ["add \"open", "add 'open", "add \"a\" 'b"])
  func unterminatedQuoteIsAnError(_ line: String) {
    #expect(throws: ShellWords.Failure.self) { try ShellWords.split(line) }
  }

  @Test func failureMessagesNameTheQuote() {
    #expect(ShellWords.Failure.unterminatedQuote("'").message == "unterminated single quote")
    #expect(ShellWords.Failure.unterminatedQuote("\"").message == "unterminated double quote")
  }

  @Test func scanKeepsTheWordBeingTyped() {
    #expect(ShellWords.scan("add \"buy mi").words == ["add", "buy mi"])
    #expect(ShellWords.scan("add \"buy mi").openQuote == "\"")
    #expect(ShellWords.scan("add ").words == ["add"])
    #expect(ShellWords.scan("add ").openQuote == nil)
  }

  @Test(arguments: [
    "plain", "+home", "@phone", "due:2026-01-01", "two words", "it's", "say \"hi\"", #"a\b"#, "",
    "line\nbreak", "it's\nboth",
  ])
  func quotedWordsReadBackAsThemselves(_ word: String) throws {
    #expect(try ShellWords.split("add " + ShellWords.quote(word)) == ["add", word])
  }

  @Test func quoteLeavesOrdinaryWordsAlone() {
    #expect(ShellWords.quote("+home") == "+home")
    #expect(ShellWords.quote("my file.txt") == #"my\ file.txt"#)
  }
}

/// The words are a POSIX shell's for every line without what the shell line leaves out on
/// purpose (`$`, `` ` ``, globs, newlines): random lines of quotes, backslashes, blanks and
/// multi-byte letters, split by `sh` in one script and by ``ShellWords/split(_:)``.
@Suite struct ShellWordsAgainstShTests {
  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func wordsAreTheShells(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let alphabet: [String] = [" ", "\t", "'", "\"", "\\", "a", "b", "é", "中", "x y", "-"]
    var lines: [String] = []
    while lines.count < 300 {
      let line = (0..<Int.random(in: 0...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
        .joined()
      // sh would stop the whole script at an open quote, and join a line ending in a
      // backslash to the next; both have their own cases above.
      if (try? ShellWords.split(line)) != nil, !line.hasSuffix("\\") { lines.append(line) }
    }
    // Per line: the number of words, then each after a unit separator; a record separator ends it.
    let script = lines.map { "set -- \($0)\nprintf '%d' $#; for w in \"$@\"; do printf '\\037%s' \"$w\"; done; printf '\\036'\n" }.joined()
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
      let words = Array(fields.dropFirst())
      #expect(Int(fields[0]) == words.count, "\(line.debugDescription)")
      #expect(try ShellWords.split(line) == words, "\(line.debugDescription)")
      #expect(ShellWords.split(bytes: Array(line.utf8)) == words.map { Array($0.utf8) }, "\(line.debugDescription)")
    }
  }

  @Test func bytesThatAreNotUTF8StayInTheirWord() {
    #expect(ShellWords.split(bytes: [0x61, 0xFF, 0x20, 0x27, 0xFE, 0x20, 0x62, 0x27]) == [[0x61, 0xFF], [0xFE, 0x20, 0x62]])
    #expect(ShellWords.split(bytes: [0x22, 0xFF]) == nil)
  }
}
