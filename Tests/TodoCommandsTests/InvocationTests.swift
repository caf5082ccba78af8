import Foundation
import Testing
import TodoStore

@testable import TodoCommands

/// The command-line parser against the declarations, and commands run in-process through a
/// ``CommandContext`` with a capturing console, a fixed clock and a store in a scratch folder.
@Suite struct InvocationTests {
  static func spec(_ name: String) throws -> CommandSpec {
    try #require(CommandRegistry.command(named: name, mode: .native))
  }

  @Test func optionsStandAnywhereBeforeTheDoubleDash() throws {
    let ls = try InvocationTests.spec("ls")
    let parsed = try Invocation.parse(["milk", "--sort", "due,-priority", "-a", "--", "--why"], for: ls, as: "ls")
    #expect(parsed.positionals == ["milk", "--why"])
    #expect(parsed.value("--sort") == "due,-priority")
    #expect(parsed.has("--all"))
    #expect(!parsed.has("--why"))
    let inline = try Invocation.parse(["--format=json", "-q", "+Kitchen"], for: ls, as: "ls")
    #expect(inline.value("--format") == "json")
    #expect(inline.value("--query") == "+Kitchen")
  }

  /// Each value comes out typed as its declaration says: a command never reads the words.
  @Test func valuesAreTypedByTheirDeclaration() throws {
    let agenda = try Invocation.parse(["--days", "14"], for: try InvocationTests.spec("agenda"), as: "agenda")
    #expect(agenda.number("--days") == 14)
    #expect(agenda.word("--days") == nil)
    let projects = try Invocation.parse(
      ["--format", "JSON", "--sort", "-open,Name"], for: try InvocationTests.spec("projects"), as: "projects")
    #expect(projects.word("--format") == "json")
    #expect(
      projects.keys("--sort") == [
        OptionValue.Key(word: "open", descending: true), OptionValue.Key(word: "name", descending: false),
      ])
    let add = try InvocationTests.spec("add")
    for (given, letter) in [("high", "A"), ("m", "B"), ("low", "C"), ("q", "Q"), ("Z", "Z")] {
      let parsed = try Invocation.parse(["--priority", given, "milk"], for: add, as: "add")
      #expect(parsed.priority("--priority") == UInt8(ascii: Unicode.Scalar(letter)!), "\(given)")
      #expect(parsed.value("--priority") == given, "the words as typed stay for messages")
    }
    // Keys apart by a comma and a blank, or blanks alone.
    let ls = try InvocationTests.spec("ls")
    for text in ["due, -priority", "due -priority", " due,-priority "] {
      #expect(
        try Invocation.parse(["--sort", text], for: ls, as: "ls").keys("--sort") == [
          OptionValue.Key(word: "due", descending: false), OptionValue.Key(word: "priority", descending: true),
        ], "\(text)")
    }
    #expect(try Invocation.parse(["--days", "007"], for: try InvocationTests.spec("agenda"), as: "agenda").number("--days") == 7)
    // A value given twice: the last one counts.
    let twice = try Invocation.parse(["--days", "3", "--days=5"], for: try InvocationTests.spec("agenda"), as: "agenda")
    #expect(twice.number("--days") == 5)
    #expect(twice.typed["--days"] == .number(5))
    // A flag is there or not.
    let all = try Invocation.parse(["-a"], for: ls, as: "ls")
    #expect(all.typed["--all"] == .flag)
    #expect(all.number("--all") == nil)
  }

  @Test(arguments: [
    ("agenda", ["--days", "-1"], "--days", "-1"), ("agenda", ["--days", "1e3"], "--days", "1e3"),
    ("stats", ["--weeks", "521"], "--weeks", "521"), ("projects", ["--format", "xml"], "--format", "xml"),
    ("projects", ["--sort", "open,colour"], "--sort", "colour"), ("add", ["--priority", "urgent", "x"], "--priority", "urgent"),
    ("add", ["--priority", "AB", "x"], "--priority", "AB"), ("add", ["--priority=", "x"], "--priority", ""),
    // A count is digits: no sign, blank or base.
    ("agenda", ["--days", "+5"], "--days", "+5"), ("agenda", ["--days", "-0"], "--days", "-0"),
    ("agenda", ["--days", " 5"], "--days", " 5"), ("next", ["--limit", "0x10"], "--limit", "0x10"),
    // A key left out between commas.
    ("ls", ["--sort", "due,,text"], "--sort", "due,,text"), ("ls", ["--sort", ",due"], "--sort", ",due"),
    ("ls", ["--sort", "due,"], "--sort", "due,"), ("projects", ["--sort", "open, ,name"], "--sort", "open, ,name"),
    // A letter that upper-cases to one (U+017F long s, U+0131 dotless i) is no priority letter.
    ("add", ["--priority", "\u{17F}", "x"], "--priority", "\u{17F}"), ("add", ["--priority", "\u{131}", "x"], "--priority", "\u{131}"),
  ])
  func aValueOutsideItsDeclarationIsRefusedByTheParser(action: String, words: [String], option: String, value: String) throws {
    let spec = try InvocationTests.spec(action)
    do {
      _ = try Invocation.parse(words, for: spec, as: action)
      Issue.record("\(words) was taken")
    } catch {
      guard case .optionValueNotAllowed(let named, let refused, _) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(named == option)
      #expect(refused == value)
    }
  }

  @Test func aShortWordTheCommandDoesNotDeclareStaysAnArgument() throws {
    let parsed = try Invocation.parse(["-@phone", "-milk", "-"], for: try InvocationTests.spec("ls"), as: "ls")
    #expect(parsed.positionals == ["-@phone", "-milk", "-"])
    #expect(parsed.values.isEmpty)
  }

  /// A misspelled option is an error naming the nearest declared one, never a search term.
  @Test(arguments: [
    ("ls", "--sortt", "--sort"), ("ls", "--frmat", "--format"), ("ls", "--grup", "--group"),
    ("add", "--priorty", "--priority"), ("agenda", "--dyas", "--days"), ("do", "--forse", "--force"),
  ])
  func unknownOptionsNameTheNearest(action: String, typed: String, nearest: String) throws {
    #expect(throws: TodoError.unknownActionOption(action: action, option: typed, suggestion: nearest, isGlobal: false)) {
      try Invocation.parse(["x", typed, "y"], for: try InvocationTests.spec(action), as: action)
    }
  }

  @Test func farOffAndGlobalOptionsAreNamedAsSuch() throws {
    let ls = try InvocationTests.spec("ls")
    #expect(throws: TodoError.unknownActionOption(action: "ls", option: "--xyzzy", suggestion: nil, isGlobal: false)) {
      try Invocation.parse(["--xyzzy"], for: ls, as: "ls")
    }
    #expect(throws: TodoError.unknownActionOption(action: "ls", option: "--plain", suggestion: nil, isGlobal: true)) {
      try Invocation.parse(["--plain"], for: ls, as: "ls")
    }
    // A command without options refuses every option but --help.
    #expect(throws: TodoError.unknownActionOption(action: "archive", option: "--all", suggestion: nil, isGlobal: false)) {
      try Invocation.parse(["--all"], for: try InvocationTests.spec("archive"), as: "archive")
    }
  }

  /// A prefix that names one option is that option; one that names several is an error
  /// naming them; a whole name always wins over a longer one it starts.
  @Test func prefixesNameTheOneOptionTheyStart() throws {
    let ls = try InvocationTests.spec("ls")
    let parsed = try Invocation.parse(["--so", "due", "--form=json", "--a", "milk"], for: ls, as: "ls")
    #expect(parsed.value("--sort") == "due")
    #expect(parsed.value("--format") == "json")
    #expect(parsed.has("--all"))
    #expect(parsed.positionals == ["milk"])
    let add = try InvocationTests.spec("add")
    #expect(try Invocation.parse(["--prio", "high", "x"], for: add, as: "add").value("--priority") == "high")
    #expect(throws: TodoError.missingOptionValue("--priority")) { try Invocation.parse(["--prio"], for: add, as: "add") }
    // `--f`: the command's --format and the tool's --force.
    #expect(throws: TodoError.ambiguousOption(option: "--f", candidates: ["--format", "--force"], action: "ls")) {
      try Invocation.parse(["--f", "json"], for: ls, as: "ls")
    }
    // `--v`: add's --verbatim, the tool's --verbose and --version.
    #expect(throws: TodoError.ambiguousOption(option: "--v", candidates: ["--verbatim", "--verbose", "--version"], action: "add")) {
      try Invocation.parse(["--v", "x"], for: add, as: "add")
    }
    // After `--` nothing is an option, prefix or not.
    #expect(try Invocation.parse(["--", "--so"], for: ls, as: "ls").positionals == ["--so"])
  }

  /// A date option's value is the longest run of words that reads as a date.
  @Test func aDateValueTakesTheWordsOfItsPhrase() throws {
    let add = try InvocationTests.spec("add")
    let parsed = try Invocation.parse(["--due", "next", "monday", "call", "mom"], for: add, as: "add")
    #expect(parsed.value("--due") == "next monday")
    #expect(parsed.positionals == ["call", "mom"])
    #expect(try Invocation.parse(["--due", "fri", "3", "books"], for: add, as: "add").value("--due") == "fri")
    #expect(try Invocation.parse(["--due", "nxt", "monday"], for: add, as: "add").value("--due") == "nxt")
    #expect(try Invocation.parse(["--due=dec", "10"], for: add, as: "add").value("--due") == "dec")
  }

  @Test func valuesAreCheckedAgainstTheDeclaration() throws {
    let ls = try InvocationTests.spec("ls")
    let keys = ["created", "priority", "due", "text", "completed", "line", "urgency"]
    #expect(throws: TodoError.optionValueNotAllowed(option: "--sort", value: "dew", allowed: keys)) {
      try Invocation.parse(["--sort", "due,dew"], for: ls, as: "ls")
    }
    #expect(throws: TodoError.missingOptionValue("--sort")) { try Invocation.parse(["--sort"], for: ls, as: "ls") }
    #expect(throws: TodoError.optionTakesNoValue("--all")) { try Invocation.parse(["--all=yes"], for: ls, as: "ls") }
    #expect(throws: TodoError.optionValueNotAllowed(option: "--days", value: "-3", allowed: ["0…36600"])) {
      try Invocation.parse(["--days", "-3"], for: try InvocationTests.spec("agenda"), as: "agenda")
    }
    #expect(try Invocation.parse(["--group", "pri"], for: ls, as: "ls").value("--group") == "pri")
  }

  @Test func helpIsEveryCommandsOption() throws {
    for spec in CommandRegistry.all where spec.isListed(in: .native) {
      #expect(try Invocation.parse(["1", "--help"], for: spec, as: spec.name).wantsHelp, "\(spec.name)")
      #expect(try Invocation.parse(["-h"], for: spec, as: spec.name).wantsHelp, "\(spec.name)")
      #expect(try !Invocation.parse(["--", "-h"], for: spec, as: spec.name).wantsHelp, "\(spec.name)")
    }
  }

  /// Every task number of a repeated pair list, and none of an option's value.
  @Test func taskNumberPositionsFollowTheDeclaration() throws {
    #expect(try InvocationTests.spec("pri").taskNumberPositions(in: ["1", "A", "2", "B", "3", "C"], mode: .native) == [0, 2, 4])
    #expect(try InvocationTests.spec("do").taskNumberPositions(in: ["-q", "7", "3", "--", "4"], mode: .native) == [2, 4])
    #expect(try InvocationTests.spec("append").taskNumberPositions(in: ["2", "3"], mode: .native) == [0])
    #expect(try InvocationTests.spec("do").taskNumberPositions(in: ["-q", "3"], mode: .todoSh) == [0, 1])
  }

  // MARK: Commands run in-process

  final class Fixture {
    let directory: URL
    let console: CapturingConsole
    let context: CommandContext

    /// - Parameter terminal: standard output is a terminal.
    init(todo: String, terminal: Bool = false) throws {
      console = CapturingConsole(isTerminal: terminal)
      directory = FileManager.default.temporaryDirectory.appendingPathComponent("todo-invocation-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      try Data(todo.utf8).write(to: directory.appendingPathComponent("todo.txt"))
      // The settings a real run has: the configuration loader's defaults over this folder.
      let loader = ConfigurationLoader(
        environment: ["HOME": directory.path, "TODO_DIR": directory.path, "PATH": "/usr/bin:/bin"], mode: .native,
        programPath: "todo", runner: ProcessRunner(), outputIsTerminal: false)
      var settings = try loader.load(GlobalOptions())
      settings["TODO_FILE"] = directory.path + "/todo.txt"
      settings["DONE_FILE"] = directory.path + "/done.txt"
      context = CommandContext(
        settings: settings, console: console, clock: Clock(seconds: 1_234_500_000, utcOffset: 0),
        store: TodoStore(stateDirectory: directory.appendingPathComponent("state").path), input: ScriptedInput())
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    var todo: String {
      (try? String(contentsOf: directory.appendingPathComponent("todo.txt"), encoding: .utf8)) ?? ""
    }

    func run(_ words: String...) throws -> TodoCommands.ExitStatus {
      try TodoCLI.dispatch(context, words, isDefaultAction: false)
    }
  }

  @Test func aCommandAskedForHelpPrintsItAndChangesNothing() throws {
    let fixture = try Fixture(todo: "call mom\n")
    for words in [["add", "--help"], ["do", "1", "--help"], ["pri", "-h"], ["del", "1", "-h"], ["undo", "--help"]] {
      #expect(try TodoCLI.dispatch(fixture.context, words, isDefaultAction: false) == .success)
    }
    #expect(fixture.todo == "call mom\n")
    let text = String(decoding: fixture.console.output, as: UTF8.self)
    #expect(text.contains("Usage: todo add [OPTIONS] \"TODO ITEM\"\n"))
    #expect(text.contains("  --priority PRIORITY\n"))
    #expect(text.contains("Usage: todo do [OPTIONS] NR [NR ...]\n"))
    #expect(text.contains("  -q, --query EXPR\n"))
    #expect(text.contains("Usage: todo undo [N]\n"))
  }

  /// A listing's summary follows the tasks on a terminal; on anything else it goes to
  /// standard error, so that what is piped on is the tasks alone.
  @Test(arguments: ["ls", "lsp", "lsa", "next"])
  func theSummaryLeavesThePipe(_ action: String) throws {
    let piped = try Fixture(todo: "(A) call mom\n")
    #expect(try piped.run(action) == .success)
    let pipedOutput = String(decoding: piped.console.output, as: UTF8.self)
    let pipedErrors = String(decoding: piped.console.errors, as: UTF8.self)
    #expect(!pipedOutput.contains("--\n") && !pipedOutput.contains("tasks shown"), "\(pipedOutput)")
    #expect(pipedErrors.hasPrefix("--\nTODO: 1 of 1 tasks shown\n"), "\(pipedErrors)")
    let terminal = try Fixture(todo: "(A) call mom\n", terminal: true)
    #expect(try terminal.run(action) == .success)
    #expect(String(decoding: terminal.console.output, as: UTF8.self).contains("--\nTODO: 1 of 1 tasks shown\n"))
    #expect(terminal.console.errors.isEmpty)
  }

  @Test func anOptionAfterTheTextIsAnOption() throws {
    let fixture = try Fixture(todo: "")
    #expect(try fixture.run("add", "pay rent", "--priority", "high") == .success)
    #expect(fixture.todo == "(A) 2009-02-13 pay rent\n")
    #expect(throws: TodoError.unknownActionOption(action: "add", option: "--urgent", suggestion: nil, isGlobal: false)) {
      try fixture.run("add", "call mom", "--urgent")
    }
    #expect(fixture.todo == "(A) 2009-02-13 pay rent\n")
    #expect(try fixture.run("add", "--", "read", "--urgent", "manual") == .success)
    #expect(fixture.todo.hasSuffix("\n2009-02-13 read --urgent manual\n"))
  }

  @Test func theOptionsOfAnOuterCommandDoNotReachTheOneItRuns() throws {
    let fixture = try Fixture(todo: "a\nb\n")
    #expect(try fixture.run("ls", "--sort", "-text") == .success)
    // The context of an `ls --sort -text`, as dispatch makes it, running `ls` as `do` runs
    // `archive`: the inner `ls` sorts as if typed alone, and the outer context is unchanged.
    let outer = CommandContext(
      fixture.context, invocation: try Invocation.parse(["--sort", "-text"], for: ListCommand.spec, as: "ls"))
    #expect(try outer.runAction("ls") == .success)
    #expect(outer.invocation.value("--sort") == "-text")
    #expect(fixture.console.outputText == "2 b\n1 a\n1 a\n2 b\n")
    #expect(fixture.console.errorText == "--\nTODO: 2 of 2 tasks shown\n--\nTODO: 2 of 2 tasks shown\n")
  }
}
