import Foundation
@testable import TodoCommands
import TodoStore
import TodoTxt
@testable import TodoView

/// A list in a temporary folder, opened in a ``ViewSession`` whose commands run in-process
/// through the command line's entry (``TodoCLI/run``), as the view runs them; the clock is
/// 2009-02-13.
final class ViewFixture {
  let directory: URL
  let environment: [String: String]
  let session: ViewSession
  let cache = SessionCache()

  init(todo: String, environment extra: [String: String] = [:], keys: String = "") throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("todo-view-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try Data(todo.utf8).write(to: directory.appendingPathComponent("todo.txt"))
    try Data("export TODO_DIR=\"\(directory.path)\"\n".utf8).write(to: directory.appendingPathComponent("todo.cfg"))
    var environment = [
      "HOME": directory.path, "PATH": "/usr/bin:/bin", "TODO_TEST_TIME": "1234500000",
      "XDG_STATE_HOME": directory.appendingPathComponent("state").path, "TZ": "UTC", "LANG": "C",
      "TODOTXT_CFG_FILE": directory.appendingPathComponent("todo.cfg").path, "TODO_DIR": directory.path,
    ]
    environment.merge(extra) { $1 }
    if !keys.isEmpty { environment["TODO_UI_KEYS"] = keys }
    self.environment = environment
    let loader = ConfigurationLoader(
      environment: environment, mode: .native, programPath: "todo", runner: ProcessRunner(), outputIsTerminal: true)
    var settings = try loader.load(GlobalOptions())
    settings["TODO_FILE"] = directory.path + "/todo.txt"
    settings["DONE_FILE"] = directory.path + "/done.txt"
    let clock = Clock.current(environment: environment)
    let store = TodoStore(stateDirectory: directory.appendingPathComponent("state/todo").path)
    let document = try TodoDocument(path: settings.todoFile, donePath: settings.doneFile, store: store)
    let bindings = try KeyBindings(settings.variables["TODO_UI_KEYS"] ?? "")
    let cache = self.cache
    session = ViewSession(document: document, settings: settings, today: clock.today, bindings: bindings) {
      words, shown in
      let console = CapturingConsole()
      cache.shownTasks = shown
      let status = TodoCLI.run(
        arguments: ["todo"] + words, environment: environment, console: console, input: ScriptedInput(""), cache: cache)
      cache.shownTasks = [:]
      return CommandOutcome(
        status: status, output: String(decoding: console.output, as: UTF8.self),
        errors: String(decoding: console.errors, as: UTF8.self))
    }
  }

  deinit { try? FileManager.default.removeItem(at: directory) }

  var todo: String { (try? String(contentsOf: directory.appendingPathComponent("todo.txt"), encoding: .utf8)) ?? "" }
  var done: String { (try? String(contentsOf: directory.appendingPathComponent("done.txt"), encoding: .utf8)) ?? "" }

  /// Writes todo.txt as another program would (by rename, as editors save).
  func writeFromOutside(_ text: String) throws {
    let temporary = directory.appendingPathComponent(".outside")
    try Data(text.utf8).write(to: temporary)
    _ = rename(temporary.path, directory.appendingPathComponent("todo.txt").path)
  }

  /// Types keys: each character of `text` is a key; `keys` are pressed after it.
  func type(_ text: String, then keys: Key...) {
    for character in text { session.handle(.character(character)) }
    for key in keys { session.handle(key) }
  }

  func press(_ keys: Key...) { for key in keys { session.handle(key) } }

  /// The screen as text, a line per row (no colours).
  func screen(width: Int = 80, height: Int = 12, colour: Bool = false) -> [String] {
    var settings = Settings(mode: .native, variables: ["TODOTXT_PLAIN": colour ? "0" : "1"])
    settings.variables["COLOR_PROJECT"] = "\\033[0;35m"
    return ScreenRenderer(settings: settings, today: session.today).render(session, width: width, height: height).text
  }

  /// The selected row's task text, as the file has it.
  var selectedLine: String? {
    session.selectedIndex.map { String(decoding: session.document.list.lineBytes(at: $0), as: UTF8.self) }
  }
}

/// Columns of a drawn row, for the width checks.
enum TerminalTextWidth {
  static func columns(_ bytes: [UInt8]) -> Int { TerminalText.columns(bytes) }
}
