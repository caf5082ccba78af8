import Foundation
import Testing
import TodoCommands
import TodoStore

/// The completion engine against a real todo directory in a temporary folder, in both modes.
@Suite struct CompletionEngineTests {
  /// A todo directory with a todo.txt, a done.txt and an add-on, and an engine reading it.
  final class Fixture {
    let directory: URL
    let context: CommandContext

    init(mode: Mode = .native, todo: String = "", done: String = "") throws {
      directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "todo-completion-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      let actions = directory.appendingPathComponent("actions")
      try FileManager.default.createDirectory(at: actions, withIntermediateDirectories: true)
      let addon = actions.appendingPathComponent("birdseye")
      try Data("#!/bin/sh\n".utf8).write(to: addon)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: addon.path)
      try Data(todo.utf8).write(to: directory.appendingPathComponent("todo.txt"))
      try Data(done.utf8).write(to: directory.appendingPathComponent("done.txt"))
      try Data().write(to: directory.appendingPathComponent("someday.txt"))
      let settings = Settings(
        mode: mode,
        variables: ["TODO_DIR": directory.path, "TODO_ACTIONS_DIR": actions.path])
      context = CommandContext(
        settings: settings, console: CapturingConsole(),
        clock: Clock(seconds: 1_234_500_000, utcOffset: 0),  // Friday 2009-02-13
        store: TodoStore(stateDirectory: directory.appendingPathComponent("state").path),
        input: ScriptedInput())
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func values(_ words: String...) -> [String] {
      CompletionEngine(context: context).complete(words).map(\.value)
    }

    func candidates(_ words: String...) -> [CompletionCandidate] {
      CompletionEngine(context: context).complete(words)
    }
  }

  @Test func actionsAliasesAndAddons() throws {
    let fixture = try Fixture()
    #expect(fixture.values("ad") == ["add", "addm", "addto"])
    #expect(fixture.values("ls") == ["ls", "lsa", "lsc", "lsp", "lsprj"])
    #expect(fixture.values("bi") == ["birdseye"])
    #expect(fixture.candidates("bi").first?.description == "add-on")
    let del = CommandRegistry.all.first { $0.name == "del" }
    #expect(fixture.candidates("del").first?.description == del?.abstract)
    let all = fixture.values("")
    #expect(all.contains("list") && all.contains("rm"))
    #expect(!all.contains { $0.hasPrefix("__") })
  }

  @Test func nativeOnlyActionsAreLeftOutUnderTodoSh() throws {
    let fixture = try Fixture(mode: .todoSh)
    #expect(fixture.values("ad") == ["add", "addm", "addto"])
  }

  @Test func optionsBeforeTheAction() throws {
    let fixture = try Fixture()
    #expect(fixture.values("-").contains("-d"))
    #expect(fixture.values("--c") == ["--color=", "--config"])
    #expect(fixture.values("--color=") == ["--color=always", "--color=auto", "--color=never"])
    #expect(fixture.values("--color=n") == ["--color=never"])
    // Options before the action leave the action's completion as it is.
    #expect(fixture.values("-p", "-t", "l") == fixture.values("l"))
    #expect(fixture.values("-p", "-t", "l").contains("listpri"))
    let todoSh = try Fixture(mode: .todoSh)
    #expect(todoSh.values("--").isEmpty)
    #expect(todoSh.values("-").count == 17)
  }

  /// After the action: the action's options and the tool's long ones, and an option typed
  /// as a prefix takes its values as the whole name does.
  @Test func optionsAfterTheActionIncludeTheTools() throws {
    let fixture = try Fixture(todo: "a\n")
    #expect(fixture.values("ls", "--co") == ["--color=", "--config"])
    #expect(fixture.values("ls", "--fo").sorted() == ["--force", "--format"])
    // del declares --force itself: offered once.
    #expect(fixture.values("del", "--fo") == ["--force"])
    #expect(fixture.values("ls", "--so", "pri") == ["priority"])
    #expect(fixture.values("ls", "--form=j") == ["--form=json", "--form=jsonl"])
    // The tool's option's value is no positional: the term after it is completed as one.
    #expect(fixture.values("do", "--config", "x.cfg", "") == ["1"])
    let todoSh = try Fixture(mode: .todoSh, todo: "a\n")
    #expect(todoSh.values("ls", "--co").isEmpty)
  }

  @Test func configFileValueCompletesPaths() throws {
    let fixture = try Fixture()
    let prefix = fixture.directory.path + "/some"
    #expect(fixture.values("-d", prefix) == [prefix + "day.txt"])
    #expect(
      fixture.values("--config", fixture.directory.path + "/act") == [
        fixture.directory.path + "/actions/"
      ])
    #expect(fixture.values("-d", prefix + "x").isEmpty)
    #expect(fixture.values("-d", fixture.directory.path + "/todo.txt", "ar") == ["archive"])
  }

  @Test func taskNumbersCarryTheTaskText() throws {
    let fixture = try Fixture(todo: "(A) call mom\n\nx done thing\nbuy milk\n")
    // do offers the open tasks only (3 is done); pri, del and the others every task.
    #expect(fixture.values("do", "") == ["1", "4"])
    #expect(
      fixture.candidates("del", "4") == [CompletionCandidate(value: "4", description: "buy milk")])
    #expect(fixture.values("do", "1", "") == ["4"])
    #expect(fixture.values("command", "do", "") == ["1", "4"])
    // The letters, then the words that name A, B and C.
    #expect(fixture.values("pri", "1", "") == (65...90).map { String(UnicodeScalar($0)) } + ["high", "medium", "low"])
    #expect(fixture.candidates("pri", "1", "hi") == [CompletionCandidate(value: "high", description: "A")])
    #expect(fixture.values("pri", "1", "b") == ["B"])
    #expect(fixture.values("pri", "1", "B", "") == ["1", "3", "4"])
    #expect(fixture.values("append", "1", "").isEmpty)
    #expect(fixture.values("--if-match", "buy milk", "do", "4") == ["4"])
    #expect(fixture.values("--if-match", "").isEmpty)
  }

  @Test func projectsAndContextsFromBothFiles() throws {
    let fixture = try Fixture(
      todo: "call mom +Family @phone\n", done: "x 2009-01-01 fix +Garage @home\n")
    #expect(fixture.values("add", "+") == ["+Family", "+Garage"])
    #expect(fixture.values("add", "call", "@ph") == ["@phone"])
    #expect(fixture.values("ls", "@") == ["@home", "@phone"])
    #expect(fixture.values("append", "1", "+F") == ["+Family"])
    #expect(fixture.values("lsp", "+G") == ["+Garage"])
    #expect(fixture.values("birdseye", "@h") == ["@home"])
  }

  @Test func tagKeysAndValues() throws {
    let fixture = try Fixture(todo: "pay rent id:7\n")
    #expect(fixture.values("add", "d") == ["due:"])
    #expect(fixture.values("add", "i") == ["id:"])
    #expect(fixture.values("add", "").isEmpty)
    #expect(fixture.values("add", "due:to") == ["due:today", "due:tomorrow"])
    #expect(fixture.candidates("add", "t:tom").first?.description == "2009-02-14")
    #expect(fixture.values("add", "due:mo") == ["due:monday"])
    #expect(fixture.values("add", "due:+1") == ["due:+1d", "due:+1w", "due:+1m"])
    // A whole relative date turns into the date it names.
    #expect(fixture.values("add", "due:tomorrow") == ["due:2009-02-14"])
    #expect(fixture.values("add", "due:+3d") == ["due:2009-02-16"])
    #expect(fixture.values("add", "rec:") == ["rec:1d", "rec:1w", "rec:1m", "rec:1y", "rec:1b"])
    // One of a unit is singular ("1 week", not "1 weeks"); more are plural.
    #expect(fixture.candidates("add", "rec:").map(\.description)[1] == "1 week after completion")
    #expect(fixture.candidates("add", "rec:3").map(\.description)[4] == "3 business days after completion")
    #expect(
      fixture.values("add", "rec:+2") == ["rec:+2d", "rec:+2w", "rec:+2m", "rec:+2y", "rec:+2b"])
    #expect(fixture.values("add", "pri:").count == 26)
    #expect(fixture.values("add", "h:") == ["h:1"])
    #expect(fixture.values("add", "zz:").isEmpty)
  }

  @Test func fileNamesAndActionNames() throws {
    let fixture = try Fixture()
    #expect(fixture.values("addto", "") == ["done.txt", "someday.txt", "todo.txt"])
    #expect(fixture.values("mv", "1", "s") == ["someday.txt"])
    #expect(fixture.values("move", "1", "someday.txt", "t") == ["todo.txt"])
    #expect(fixture.values("listfile", "d") == ["done.txt"])
    #expect(fixture.values("help", "bi") == ["birdseye"])
    #expect(fixture.values("help", "li").contains("list"))
    #expect(fixture.values("command", "bi").isEmpty)
    #expect(fixture.values("archive", "").isEmpty)
  }

  @Test func candidateLinesStayOneLine() {
    #expect(CompletionCandidate(value: "3", description: "a\tb\nc").line == "3\ta b c")
    #expect(CompletionCandidate(value: "add").line == "add")
  }

  /// Task text with C1 and bidirectional controls reaches the shells' menus shown, not
  /// obeyed: each control as `<U+XXXX>`, every other character as it is.
  @Test func hostileTaskTextIsShownInTheMenu() throws {
    let fixture = try Fixture(todo: "pay \u{9B}2J rent \u{202E}gnp.exe\u{2066} ok \u{61C}é\n")
    let line = try #require(fixture.candidates("del", "1").first).line
    #expect(line == "1\tpay <U+009B>2J rent <U+202E>gnp.exe<U+2066> ok <U+061C>é")
    #expect(!line.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value) })
  }
}
