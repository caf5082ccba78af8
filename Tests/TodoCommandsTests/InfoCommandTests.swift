import Foundation
import Testing

@testable import TodoCommands

/// `info`: the version, the configuration read and every path in use.
@Suite struct InfoCommandTests {
  @Test func nameValueLinesOfEveryPath() throws {
    let list = try CommandFixture(todo: "")
    let dir = list.directory.path
    let run = list.todo("info")
    #expect(run.status == 0)
    #expect(
      run.stdout == """
        version:         \(TodoVersion.current)
        mode:            native
        config:          \(dir)/todo.cfg
        todo_dir:        \(dir)
        todo_file:       \(dir)/todo.txt
        done_file:       \(dir)/done.txt
        report_file:     \(dir)/report.txt
        notes_dir:       \(dir)/notes
        attachments_dir: \(dir)/attachments
        actions_dir:     \(dir)/.todo/actions
        state_dir:       \(dir)/state/todo
        undo_log:        \(dir)/state/todo/undo
        journal_key:     \(dir)/state/todo/journal.key
        history:         \(dir)/state/todo/history

        """)
  }

  @Test func jsonHoldsTheSame() throws {
    let list = try CommandFixture(todo: "")
    let run = list.todo("info", "--format", "json")
    #expect(run.status == 0)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    #expect(object["todo_file"] as? String == list.path("todo.txt"))
    #expect(object["mode"] as? String == "native")
  }

  @Test func refusesUnknownFormatsAndArguments() throws {
    let list = try CommandFixture(todo: "")
    list.todo("info", "--format", "yaml").expectOneLineError(containing: "option '--format' does not take 'yaml'")
    #expect(list.todo("info", "extra").status == 1)
  }
}
