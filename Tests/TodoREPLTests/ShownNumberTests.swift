import Foundation
import Testing
import TodoCommands
import TodoStore

@testable import TodoREPL

/// Passes output to a capturing console, and the first time a listing line arrives runs
/// `outside` (another program replacing the file right after the listing read it).
final class InterruptingConsole: Console {
  let inner = CapturingConsole()
  var outside: (() -> Void)?
  init(outside: @escaping () -> Void) { self.outside = outside }
  func write(_ bytes: [UInt8]) {
    inner.write(bytes)
    if let action = outside {
      outside = nil
      action()
    }
  }
  func writeError(_ bytes: [UInt8]) { inner.writeError(bytes) }
  func flush() {}
  var isTerminal: Bool { false }
}

/// A number typed after a listing names the task that listing showed, however soon after
/// the listing another program moves the lines.
@Suite struct ShownNumberTests {
  typealias Home = REPLSessionTests.Home

  /// `ls`, then (while the listing is being written) an editor removes line 1 by rename,
  /// then `do 3`: the task listed as 3 is completed, now on line 2; the one now on line 3
  /// is left alone.
  @Test func aNumberFollowsTheTaskTheListingShowed() throws {
    let home = try Home(todo: "call mom\npay rent\nbuy milk\nwater plants\n")
    let console = InterruptingConsole {
      let replacement = home.url.appendingPathComponent(".todo.txt.editor")
      try? Data("pay rent\nbuy milk\nwater plants\n".utf8).write(to: replacement)
      _ = rename(replacement.path, home.todoFile.path)
    }
    let reader = ScriptedLineReader(["ls", "do 3"])
    let status = TodoCLI.run(
      arguments: ["todo", "shell"], environment: home.environment, console: console, input: ScriptedInput()
    ) { launch in REPLSession(launch: launch, reader: reader, interactive: false).run() }
    #expect(status == .success, "\(console.inner.combinedText)")
    #expect(console.inner.outputText.contains("3 buy milk"))
    #expect(home.read() == "pay rent\nx 2009-02-13 buy milk\nwater plants\n", "\(console.inner.combinedText)")
    #expect(console.inner.errorText.contains("task 3 is now task 2"), "\(console.inner.errorText)")
  }

  /// The check on the version changed: a line whose number no longer names the text the
  /// shell showed there (the file moved after the shell looked) changes nothing.
  @Test func aCommandRefusesANumberWhoseLineNoLongerHoldsWhatWasShown() throws {
    let home = try Home(todo: "pay rent\nbuy milk\nwater plants\n")
    let cache = SessionCache()
    cache.shownTasks = [2: Array("pay rent".utf8)]
    let console = CapturingConsole()
    let status = TodoCLI.run(
      arguments: ["todo", "do", "2"], environment: home.environment, console: console, input: ScriptedInput(),
      cache: cache)
    #expect(status != .success)
    #expect(console.errorText == "todo: task 2 changed on disk since it was shown ('pay rent'); nothing done\n")
    #expect(home.read() == "pay rent\nbuy milk\nwater plants\n")
    cache.shownTasks = [2: Array("buy milk".utf8)]
    #expect(TodoCLI.run(
      arguments: ["todo", "do", "2"], environment: home.environment, console: CapturingConsole(),
      input: ScriptedInput(), cache: cache) == .success)
    #expect(home.read() == "pay rent\nx 2009-02-13 buy milk\nwater plants\n")
  }
}
