import Testing

@testable import TodoCommands

/// `shell`: the command line hands its context to the
/// front end the executable gives, once, with the options written before the action.
@Suite struct ShellCommandTests {
  /// What a launcher was asked to open.
  final class Launches {
    var opened: [(ShellLaunch.FrontEnd, [String], String)] = []
  }

  /// Runs a command line with a launcher that records what it was asked to open and returns
  /// status 7 (so that the test sees the launcher's status come back).
  static func run(
    _ list: CommandFixture, _ name: String, _ words: [String], terminal: Bool = false,
    environment extra: [String: String] = [:]
  ) -> (status: Int32, stderr: String, launches: Launches) {
    let launches = Launches()
    let console = CapturingConsole(isTerminal: terminal, columns: terminal ? 80 : nil)
    let status = TodoCLI.run(
      arguments: [name] + words, environment: list.environment.merging(extra) { $1 }, console: console,
      input: ScriptedInput("", isTerminal: terminal),
      shell: { launch in
        launches.opened.append((launch.frontEnd, launch.options, launch.programPath))
        return ExitStatus(rawValue: 7)
      })
    return (status.rawValue, console.errorText, launches)
  }

  @Test func shellOpensTheShellWithTheOptionsBeforeIt() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    let (status, _, launches) = ShellCommandTests.run(list, "todo", ["-p", "shell"])
    #expect(status == 7)
    #expect(launches.opened.count == 1)
    #expect(launches.opened.first?.0 == .shell)
    #expect(launches.opened.first?.1 == ["-p"])
    #expect(launches.opened.first?.2 == "todo")
  }

  @Test func noActionOnATerminalOpensTheShellOrWithTodoUiTheView() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    let shell = ShellCommandTests.run(list, "todo", [], terminal: true)
    #expect(shell.launches.opened.map(\.0) == [.shell])
    let view = ShellCommandTests.run(list, "todo", [], terminal: true, environment: ["TODO_UI": "1"])
    #expect(view.launches.opened.map(\.0) == [.fullScreen])
    // Not on a terminal, or under the name todo.sh: the usage, and nothing opens.
    let piped = ShellCommandTests.run(list, "todo", [])
    #expect(piped.status == 1)
    #expect(piped.launches.opened.isEmpty)
    let todoSh = ShellCommandTests.run(list, "todo.sh", [], terminal: true)
    #expect(todoSh.status == 1)
    #expect(todoSh.launches.opened.isEmpty)
  }

  @Test func insideTheShellNoSecondOneOpens() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    list.todo("shell").expectOneLineError(containing: "todo: the interactive shell is already running")
    let ui = list.run("todo", ["ui"], terminal: true)
    #expect(ui.status == 1)
    #expect(ui.stderr == "todo: the view opens from the command line, not inside the shell or the view\n")
  }

  @Test func shellTakesNoArgumentsAndTodoShHasNone() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    let extra = ShellCommandTests.run(list, "todo", ["shell", "now"])
    #expect(extra.status == 1)
    #expect(extra.launches.opened.isEmpty)
    let todoSh = ShellCommandTests.run(list, "todo.sh", ["shell"])
    #expect(todoSh.status == 1)
    #expect(todoSh.launches.opened.isEmpty)
  }
}
