import Foundation
import Testing

/// The same binary under the name `todo`: todo.sh's actions and output formats with modern
/// defaults.
@Suite struct NativeModeTests {
  @Test func firstRunNeedsNoConfiguration() throws {
    let box = try Sandbox(config: nil)
    let run = try box.todo("add", "first task")
    #expect(run.status == 0)
    #expect(run.stdout == "1 2009-02-13 first task\nTODO: 1 added.\n")
    #expect(box.read(".local/share/todo/todo.txt") == "2009-02-13 first task\n")
    // Reading creates nothing.
    let other = try Sandbox(config: nil)
    #expect(try other.todo("ls", merged: true).stdout == "--\nTODO: 0 of 0 tasks shown\n")
    #expect(!other.exists(".local/share/todo"))
  }

  @Test func todoDirFromTheEnvironment() throws {
    let box = try Sandbox(config: nil)
    try box.todo("add", "x", environment: ["TODO_DIR": box.path("mine")])
    #expect(box.exists("mine/todo.txt"))
    try box.todo("add", "y", environment: ["XDG_DATA_HOME": box.path("data")])
    #expect(box.exists("data/todo/todo.txt"))
  }

  @Test func doDoesNotArchiveAndKeepsThePriority() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "(A) first\nsecond\n")
    let run = try box.todo("do", "1")
    #expect(run.stdout == "1 x 2009-02-13 first pri:A\nTODO: 1 marked as done.\n")
    #expect(box.read("todo.txt") == "x 2009-02-13 first pri:A\nsecond\n")
    #expect(box.read("done.txt") == "")
  }

  @Test func noColourWhenPipedUnlessAsked() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "(A) top\n")
    #expect(try box.todo("ls", merged: true).stdout == "1 (A) top\n--\nTODO: 1 of 1 tasks shown\n")
    #expect(try box.todo("--color=always", "ls").stdout.hasPrefix("\u{1B}[1;33m1 (A) top"))
    #expect(try box.todo("-c", "ls").stdout.hasPrefix("\u{1B}[1;33m1 (A) top"))
    #expect(try box.todo("--color=never", "-c", "ls").stdout.hasPrefix("1 (A) top"))
  }

  @Test func unknownActionSuggestsTheNearest() throws {
    let box = try Sandbox()
    let run = try box.todo("lsit")
    #expect(run.status == 1)
    #expect(run.stderr == "todo: unknown action 'lsit'; did you mean 'list'? (see 'todo help')\n")
    #expect(run.stdout == "")
  }

  @Test func unknownOptionIsNamed() throws {
    let box = try Sandbox()
    let run = try box.todo("--frob", "ls")
    #expect(run.status == 1)
    #expect(run.stderr == "todo: unknown option '--frob' (see 'todo --help')\n")
    #expect(try box.todo("-z").stderr == "todo: unknown option '-z' (see 'todo --help')\n")
    #expect(try box.todo("--config").stderr == "todo: option '--config' needs a value\n")
  }

  @Test func longOptions() throws {
    let box = try Sandbox()
    #expect(try box.todo("--version").stdout.hasPrefix("TODO.TXT Command Line Interface v"))
    #expect(try box.todo("--help").stdout.contains("  Add and change tasks:\n"))
    try box.write("other.cfg", "export TODO_DIR=\"$HOME/elsewhere\"\n")
    try box.todo("--config", box.path("other.cfg"), "add", "there")
    #expect(box.read("elsewhere/todo.txt") == "2009-02-13 there\n")
    try box.write("todo.txt", "a\nb\n")
    #expect(try box.todo("--force", "del", "1").stdout == "1 a\nTODO: 1 deleted.\n")
  }

  @Test func helpIsGeneratedFromTheCommandTable() throws {
    let box = try Sandbox()
    let run = try box.todo("help", "do")
    #expect(run.stdout.hasPrefix("    do NR [NR ...]\n      Mark one or more tasks as done."))
    #expect(try box.todo("help", "nope").stderr == "TODO: No action \"nope\" exists.\n")
  }
}
