import Testing
import TodoTestSupport

@testable import TodoCommands

/// ``LeadingWords``: the lenient reading of the words before the action, which completion,
/// the shell's renumbering and `__complete` share, against the strict parser's.
@Suite struct LeadingWordsTests {
  @Test func optionsTheirValuesAndTheAction() {
    let words = LeadingWords(["-v", "-d", "my.cfg", "-@", "ls", "milk"], mode: .todoSh)
    #expect(words == LeadingWords.expected(options: 0..<4, action: 4))
    // A value in the same word (-dFILE), or bundled after letters that take none (-vd FILE).
    #expect(LeadingWords(["-dmy.cfg", "ls"], mode: .todoSh) == .expected(options: 0..<1, action: 1))
    #expect(LeadingWords(["-vd", "my.cfg", "ls"], mode: .todoSh) == .expected(options: 0..<2, action: 2))
  }

  @Test func doubleDashEndsTheOptionsAndIsNoneOfThem() {
    var expected = LeadingWords.expected(options: 0..<1, action: 2)
    expected.optionsEnded = true
    #expect(LeadingWords(["-v", "--", "-weird-action"], mode: .todoSh) == expected)
    expected.action = nil
    #expect(LeadingWords(["-v", "--"], mode: .todoSh) == expected)
  }

  /// An option whose value has not been typed yet: no action, the option waits.
  @Test func anOptionStillWaitingForItsValue() {
    var expected = LeadingWords.expected(options: 0..<2, action: nil)
    expected.pendingValue = "-d"
    #expect(LeadingWords(["-v", "-d"], mode: .todoSh) == expected)
    expected.pendingValue = "--config"
    #expect(LeadingWords(["-v", "--config"], mode: .native) == expected)
    // Long options are the tool's own: under the name todo.sh `--config` takes no value, so
    // the next word stands where the action does (the parser refuses the line).
    #expect(LeadingWords(["--config", "x"], mode: .todoSh) == .expected(options: 0..<1, action: 1))
  }

  /// Wherever the strict parser accepts the words before the action, it ends them where the
  /// lenient reading does: random lines of options, values, `--` and actions, under both names.
  @Test(arguments: [Mode.todoSh, Mode.native])
  func theParserEndsTheOptionsAtTheSameWord(mode: Mode) {
    var random = SplitMix64(seed: 32)
    let vocabulary = [
      "-v", "-vv", "-d", "-dfile.cfg", "-vd", "-@", "-+", "-P", "-p", "-f", "-a", "-t", "-x", "-n", "-N", "--",
      "--config", "--config=x.cfg", "--plain", "--color=never", "file.cfg", "ls", "add", "del", "3", "-", "milk",
    ]
    var compared = 0
    for _ in 0..<3_000 {
      let words = (0..<random.below(7)).map { _ in vocabulary[random.below(vocabulary.count)] }
      guard let parsed = try? GlobalOptions.parse(words, mode: mode), !parsed.showShortHelp, !parsed.showVersion else {
        continue
      }
      let leading = LeadingWords(words, mode: mode)
      #expect(leading.pendingValue == nil, "\(words)")
      if let action = leading.action {
        #expect(parsed.remaining.first == words[action], "\(words)")
      } else {
        #expect(parsed.remaining.isEmpty, "\(words)")
      }
      compared += 1
    }
    #expect(compared > 500)
  }
}

extension LeadingWords {
  static func expected(options: Range<Int>, action: Int?) -> LeadingWords {
    var words = LeadingWords([], mode: .todoSh)
    words.options = options
    words.action = action
    return words
  }
}
