import Testing

@testable import TodoCommands

/// `ui`: the full-screen view, opened through the launcher the executable gives (see
/// ``ShellCommandTests``), only on a terminal.
@Suite struct FullScreenCommandTests {
  @Test func uiNeedsATerminal() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    let piped = ShellCommandTests.run(list, "todo", ["ui"])
    #expect(piped.status == 1)
    #expect(piped.stderr == "todo: ui needs a terminal for input and output\n")
    #expect(piped.launches.opened.isEmpty)
    let terminal = ShellCommandTests.run(list, "todo", ["ui"], terminal: true)
    #expect(terminal.status == 7)
    #expect(terminal.launches.opened.map(\.0) == [.fullScreen])
  }

  @Test func takesNoArgumentsAndTodoShHasNone() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    let extra = ShellCommandTests.run(list, "todo", ["ui", "now"], terminal: true)
    #expect(extra.status == 1)
    #expect(extra.launches.opened.isEmpty)
    let todoSh = ShellCommandTests.run(list, "todo.sh", ["ui"], terminal: true)
    #expect(todoSh.status == 1)
    #expect(todoSh.launches.opened.isEmpty)
  }
}
