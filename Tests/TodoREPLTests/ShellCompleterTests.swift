import Foundation
import Testing
import TodoCommands
import TodoStore

@testable import TodoREPL

/// TAB's words: the engine's candidates, quoted for the line and with the task text kept
/// apart from the number.
@Suite struct ShellCompleterTests {
  final class Fixture {
    let directory: URL
    let completer: ShellCompleter

    init(todo: String) throws {
      directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "todo-tab-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      try Data(todo.utf8).write(to: directory.appendingPathComponent("todo.txt"))
      try Data().write(to: directory.appendingPathComponent("my list.txt"))
      let settings = Settings(
        mode: .native,
        variables: [
          "TODO_DIR": directory.path,
          "TODO_FILE": directory.appendingPathComponent("todo.txt").path,
          "DONE_FILE": directory.appendingPathComponent("done.txt").path,
        ])
      let context = CommandContext(
        settings: settings, console: CapturingConsole(),
        clock: Clock(seconds: 1_234_500_000, utcOffset: 0),
        store: TodoStore(stateDirectory: directory.appendingPathComponent("state").path),
        input: ScriptedInput())
      completer = ShellCompleter(context: context)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }
  }

  @Test func projectsAndContexts() throws {
    let fixture = try Fixture(todo: "call mom +family @phone\nfix sink +home @home\n")
    #expect(
      fixture.completer.complete(before: "add milk ", word: "+h").map(\.replacement) == ["+home"])
    #expect(fixture.completer.complete(before: "ls ", word: "@p").map(\.replacement) == ["@phone"])
  }

  /// TAB knows the options after the action and their values, as the command declares them.
  @Test func optionsAfterTheActionAndTheirValues() throws {
    let fixture = try Fixture(todo: "call mom\n")
    #expect(fixture.completer.complete(before: "ls ", word: "--gr").map(\.replacement) == ["--group"])
    #expect(
      fixture.completer.complete(before: "ls --sort ", word: "").map(\.replacement) == [
        "created", "priority", "due", "text", "completed", "line", "urgency",
      ])
    #expect(fixture.completer.complete(before: "ls milk --format ", word: "ic").map(\.replacement) == ["ical"])
    #expect(fixture.completer.complete(before: "do -q x ", word: "").map(\.replacement) == ["1"])
  }

  @Test func actionsAtTheStartOfTheLine() throws {
    let fixture = try Fixture(todo: "")
    let values = fixture.completer.complete(before: "", word: "sh").map(\.value)
    #expect(values.contains("shell") && values.contains("shorthelp"))
  }

  @Test func taskNumbersInsertOnlyTheNumber() throws {
    let fixture = try Fixture(todo: "call mom\npay rent\n")
    let completions = fixture.completer.complete(before: "do ", word: "")
    #expect(completions.map(\.replacement) == ["1", "2"])
    #expect(completions.map(\.description) == ["call mom", "pay rent"])
  }

  @Test func tagKeysLeaveTheCursorAfterTheColon() throws {
    let fixture = try Fixture(todo: "")
    let completions = fixture.completer.complete(before: "add x ", word: "du")
    #expect(completions.map(\.value) == ["due:"])
    #expect(completions.first?.appendsSpace == false)
  }

  @Test func fileNamesAreQuotedForTheLine() throws {
    let fixture = try Fixture(todo: "")
    let completions = fixture.completer.complete(before: "listfile ", word: "my")
    #expect(completions.map(\.replacement) == [#"my\ list.txt"#])
  }
}
