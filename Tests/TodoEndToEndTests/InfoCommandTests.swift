import Foundation
import Testing

/// `todo info`, the paths after `todo --version`, the first write's note and the default
/// place in `help` (issue 19): where the list is, for a user who chose no place.
@Suite struct InfoCommandTests {
  /// The lines `info` prints for a home `h` whose list lives in `dir`, worked out by hand.
  static func expected(home h: String, dir: String, config: String, state: String) -> [String] {
    [
      "version:         1.0.0",
      "mode:            native",
      "config:          \(config)",
      "todo_dir:        \(dir)",
      "todo_file:       \(dir)/todo.txt",
      "done_file:       \(dir)/done.txt",
      "report_file:     \(dir)/report.txt",
      "notes_dir:       \(dir)/notes",
      "attachments_dir: \(dir)/attachments",
      "actions_dir:     \(h)/.todo/actions",
      "state_dir:       \(state)",
      "undo_log:        \(state)/undo",
      "journal_key:     \(state)/journal.key",
      "history:         \(state)/history",
    ]
  }

  @Test func withAConfiguration() throws {
    let box = try Sandbox()
    let h = box.home.path
    let run = try box.todo("info")
    #expect(run.status == 0, "\(run.stderr)")
    let lines = InfoCommandTests.expected(home: h, dir: h, config: "\(h)/todo.cfg", state: "\(h)/.local/state/todo")
    #expect(run.stdout == lines.joined(separator: "\n") + "\n")
  }

  @Test func withoutAConfiguration() throws {
    let box = try Sandbox(config: nil)
    let h = box.home.path
    let run = try box.todo("info")
    let lines = InfoCommandTests.expected(
      home: h, dir: "\(h)/.local/share/todo", config: "none", state: "\(h)/.local/state/todo")
    #expect(run.stdout == lines.joined(separator: "\n") + "\n")
    #expect(!box.exists(".local/share/todo"), "info creates nothing")
  }

  @Test func followsTheXDGDirectories() throws {
    let box = try Sandbox(config: nil)
    let h = box.home.path
    let run = try box.todo(
      "info", environment: ["XDG_DATA_HOME": "\(h)/data", "XDG_STATE_HOME": "\(h)/state"])
    let lines = InfoCommandTests.expected(home: h, dir: "\(h)/data/todo", config: "none", state: "\(h)/state/todo")
    #expect(run.stdout == lines.joined(separator: "\n") + "\n")
  }

  @Test func asJSON() throws {
    let box = try Sandbox()
    let h = box.home.path
    let run = try box.todo("info", "--format", "json")
    let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: String]
    #expect(object?["config"] == "\(h)/todo.cfg")
    #expect(object?["todo_file"] == "\(h)/todo.txt")
    #expect(object?["undo_log"] == "\(h)/.local/state/todo/undo")
    #expect(object?.count == 14)
    #expect(try box.todo("info", "--format", "xml").status == 1)
  }

  /// The first line stays as scripts read it; the paths follow under the name todo only.
  @Test func versionShowsThePathsUnderTheNameTodoOnly() throws {
    let box = try Sandbox()
    let h = box.home.path
    let native = try box.todo("--version").stdout
    let sh = try box.sh("-V").stdout
    #expect(native.hasPrefix(sh), "todo.sh's version block comes first, unchanged")
    #expect(sh.hasPrefix("TODO.TXT Command Line Interface v1.0.0\n"))
    #expect(!sh.contains("todo_file"))
    let paths = InfoCommandTests.expected(home: h, dir: h, config: "\(h)/todo.cfg", state: "\(h)/.local/state/todo")
      .dropFirst().map { "  " + $0 }
    #expect(native == sh + "\nPaths (todo info):\n" + paths.joined(separator: "\n") + "\n")
  }

  @Test func theFirstWriteWithoutAConfigurationSaysWhereTheListIs() throws {
    let box = try Sandbox(config: nil)
    let h = box.home.path
    let first = try box.todo("add", "first task")
    #expect(first.stdout == "1 2009-02-13 first task\nTODO: 1 added.\n")
    #expect(
      first.stderr == "todo: started a new list in \(h)/.local/share/todo/todo.txt ('todo info' shows every path)\n")
    #expect(try box.todo("add", "second task").stderr == "", "only the first write says it")
    // With a configuration the user chose the place: nothing to say.
    let configured = try Sandbox()
    #expect(try configured.todo("add", "x").stderr == "")
  }

  @Test func helpNamesTheDefaultPlaceUnderTheNameTodoOnly() throws {
    let box = try Sandbox()
    let native = try box.todo("help").stdout
    #expect(native.contains("the list lives in\n        ${XDG_DATA_HOME:-~/.local/share}/todo\n"))
    #expect(!(try box.sh("help").stdout.contains("XDG_DATA_HOME:-")))
  }
}

/// Verbs of other todo tools get the command of ours that does the same (issue 19).
@Suite struct OtherToolsVerbTests {
  /// The verb, then our commands that do the same, best first: the first one this build
  /// has is suggested (`stats`, `cal` and `next` are still to come in other branches).
  @Test(arguments: [
    ("summary", ["stats", "report"]), ("burndown", ["stats", "report"]), ("month", ["cal", "agenda"]),
    ("ready", ["next", "ls"]), ("purge", ["archive"]), ("revert", ["undo"]), ("lint", ["doctor"]),
    ("modify", ["tag", "replace"]), ("snooze", ["postpone"]), ("paths", ["info"]),
  ])
  func suggestsOurCommand(verb: String, ours: [String]) throws {
    let box = try Sandbox()
    let present = try ours.first { try box.todo("help", $0).status == 0 }
    let run = try box.todo(verb)
    #expect(run.status == 1)
    #expect(run.stderr == "todo: unknown action '\(verb)'; did you mean '\(present ?? "?")'? (see 'todo help')\n")
  }

  @Test func aMisspellingStillGetsTheNearestName() throws {
    let box = try Sandbox()
    #expect(try box.todo("doctr").stderr == "todo: unknown action 'doctr'; did you mean 'doctor'? (see 'todo help')\n")
  }
}
