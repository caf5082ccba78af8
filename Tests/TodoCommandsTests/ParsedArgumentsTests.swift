import Testing
import TodoTestSupport
import TodoTxt

@testable import TodoCommands

/// The positionals read against the declarations: typed values, or the error todo.sh's
/// wording gives, before any command runs.
@Suite struct ParsedArgumentsTests {
  static let today = TaskDate(year: 2026, month: 12, day: 7) ?? .earliest

  static func parse(
    _ name: String, _ words: [String], mode: Mode = .native, invocation: Invocation = Invocation()
  ) throws -> ParsedArguments {
    let spec = try #require(CommandRegistry.command(named: name, mode: .native))
    return try ParsedArguments.parse(words, for: spec, invocation: invocation, mode: mode, today: today)
  }

  static func usage(_ name: String) throws -> TodoError {
    try #require(CommandRegistry.command(named: name, mode: .native)).usageError
  }

  @Test func taskNumbersBecomeReferencesAsTyped() throws {
    let reorder = try ParsedArgumentsTests.parse("reorder", ["03", "1"])
    #expect(try reorder.task(0) == TaskReference("03", usage: .usage))
    #expect(try reorder.task(0).number == 3)
    #expect(try reorder.task(1).number == 1)
    let unarchive = try ParsedArgumentsTests.parse("unarchive", ["3,4", "7"])
    #expect(try unarchive.tasks(0).map(\.number) == [3, 4, 7])
  }

  /// A leading list of task numbers ends at the first other word.
  @Test func aLeadingListTakesTheNumbersOnly() throws {
    let tag = try ParsedArgumentsTests.parse("tag", ["3", "5,7", "due", "next", "friday"])
    #expect(try tag.tasks(0).map(\.number) == [3, 5, 7])
    #expect(try tag.word(1) == "due")
    #expect(try tag.text(2) == ["next", "friday"])
  }

  @Test(arguments: [
    ("show", [String]()), ("show", ["x"]), ("show", ["1", "2"]), ("show", ["-1"]), ("reorder", ["1"]),
    ("attach", ["1", ""]), ("attach", ["1"]), ("undo", ["0"]), ("undo", ["two"]), ("undo", ["1", "2"]),
    ("merge", ["a", "b"]), ("dep add", ["1"]), ("dep add", ["1", "2,3"]), ("completions", ["tcsh"]),
    ("addto", ["", "text"]), ("addto", ["garden.txt", ""]), ("edit", ["1", "2"]), ("rec", ["1", "often"]),
  ])
  func shapesTheDeclarationRefusesAreTheUsageError(name: String, words: [String]) throws {
    let parts = name.split(separator: " ").map(String.init)
    var spec = try #require(CommandRegistry.command(named: parts[0], mode: .native))
    if parts.count > 1 { spec = try #require(spec.subcommand(named: parts[1])) }
    #expect(throws: spec.usageError) {
      try ParsedArguments.parse(words, for: spec, invocation: Invocation(), mode: .native, today: ParsedArgumentsTests.today)
    }
  }

  @Test func countsAreCheckedAgainstTheirRange() throws {
    #expect(try ParsedArgumentsTests.parse("undo", []).number(0) == nil)
    #expect(try ParsedArgumentsTests.parse("undo", ["3"]).number(0) == 3)
    #expect(try ParsedArgumentsTests.parse("agenda", ["0"]).number(0) == 0)
    // The error names the range, as an option's does.
    for word in ["36601", "soon", "+5", " 5", "-0", ""] {
      #expect(throws: TodoError.optionValueNotAllowed(option: "DAYS", value: word, allowed: ["0…36600"]), "\(word)") {
        try ParsedArgumentsTests.parse("agenda", [word])
      }
    }

  }

  /// `rec NR --preview K` declares K as a count; without the option the word is a rule.
  @Test func anOptionDeclaresOtherPositionals() throws {
    let preview = Invocation(values: ["--preview": [""]])
    #expect(try ParsedArgumentsTests.parse("rec", ["2", "7"], invocation: preview).number(1) == 7)
    #expect(throws: TodoError.optionValueNotAllowed(option: "--preview", value: "1001", allowed: ["1…1000"])) {
      try ParsedArgumentsTests.parse("rec", ["2", "1001"], invocation: preview)
    }
    #expect(try ParsedArgumentsTests.parse("rec", ["2", "+1w"]).recurrence(1)?.description == "+1w")
    let query = Invocation(values: ["--query": ["+home"]])
    #expect(try ParsedArgumentsTests.parse("do", [], invocation: query).tasks(0).isEmpty)
    #expect(throws: try ParsedArgumentsTests.usage("del")) { try ParsedArgumentsTests.parse("del", ["3"], invocation: query) }
  }

  @Test func monthsAndPrioritiesAreValues() throws {
    #expect(try ParsedArgumentsTests.parse("cal", ["next"]).month(0) == CalendarMonth(year: 2027, month: 1))
    #expect(throws: TodoError.notAMonth("smarch")) { try ParsedArgumentsTests.parse("cal", ["smarch"]) }
    let pri = try ParsedArgumentsTests.parse("pri", ["1", "high", "2", "b"])
    #expect(pri.placeCount == 4)
    #expect(try pri.priority(1) == Priority("A"))
    #expect(try pri.priority(3) == Priority("B"))
  }

  /// Under the name todo.sh, `pri` is read pair by pair: a bad pair is an error only when
  /// the command comes to it, after the pairs before it are set.
  @Test func aDeclarationCheckedInTurnKeepsTheErrorForItsValue() throws {
    let pri = try ParsedArgumentsTests.parse("pri", ["1", "A", "2", "high"], mode: .todoSh)
    #expect(try pri.task(0).number == 1)
    #expect(try pri.priority(1) == Priority("A"))
    let usage = TodoError.actionUsage("pri NR PRIORITY [NR PRIORITY ...]\nnote: PRIORITY must be anywhere from A to Z.")
    #expect(throws: usage) { try pri.priority(3) }
    #expect(throws: TodoError.notAPriority("AB")) { try ParsedArgumentsTests.parse("pri", ["1", "AB"]).priority(1) }
  }

  /// todo.sh's own wording and leniency, declared: `del NR [TERM]`, and `mv` ignoring a word
  /// after SRC.
  @Test func todoShDeclarationsKeepItsWords() throws {
    let del = try ParsedArgumentsTests.parse("del", ["3", "milk", "more"], mode: .todoSh)
    #expect(try del.task(0).number == 3)
    #expect(try del.optionalWord(1) == "milk")
    #expect(throws: TodoError.actionUsage("del NR [TERM]")) { try ParsedArgumentsTests.parse("del", ["x"], mode: .todoSh) }
    #expect(throws: try ParsedArgumentsTests.usage("del")) { try ParsedArgumentsTests.parse("del", ["3", "milk"]) }
    let move = try ParsedArgumentsTests.parse("mv", ["x", "a.txt", "b.txt", "c.txt"], mode: .todoSh)
    #expect(throws: TodoError.actionUsage("mv NR DEST [SRC]")) { try move.task(0) }
    #expect(try move.optionalWord(2) == "b.txt")
  }

  /// Hostile words are values like any other: they reach the command (which refuses control
  /// characters in what it stores) or are the usage error, never a crash.
  @Test func hostileWordsNeverCrashTheParser() throws {
    var generator = SplitMix64(seed: 32)
    let pieces = ["\r", "\n", "\0", "\u{1B}", "\u{85}", "\u{FFFD}", "1", ",", "0", "-", "high", "+1w", "due"]
    let big = String(repeating: "9", count: 10_000_000)
    for name in CommandRegistry.all.map(\.name) {
      let spec = try #require(CommandRegistry.command(named: name, mode: .native))
      for _ in 0..<20 {
        let count = Int.random(in: 0...4, using: &generator)
        let words = (0..<count).map { _ in
          (0..<Int.random(in: 0...3, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
        }
        _ = try? ParsedArguments.parse(words, for: spec, invocation: Invocation(), mode: .native, today: ParsedArgumentsTests.today)
        _ = try? ParsedArguments.parse(words, for: spec, invocation: Invocation(), mode: .todoSh, today: ParsedArgumentsTests.today)
      }
    }
    #expect(throws: try ParsedArgumentsTests.usage("show")) { try ParsedArgumentsTests.parse("show", ["1\n"]) }
    #expect(try ParsedArgumentsTests.parse("show", [big]).task(0).number == Int.max)
    #expect(try ParsedArgumentsTests.parse("tag", ["1", "note", big]).text(2) == [big])
  }
}

