import Foundation
import Testing

/// Options where a person puts them, under the name todo: the tool's own long options after
/// the action too, and a long option by a prefix that names only it.
@Suite struct OptionPlacementTests {
  static let list = "(A) top\nbuy milk\n"

  @Test func theToolsOptionsWorkAfterTheAction() throws {
    let box = try Sandbox()
    try box.write("todo.txt", OptionPlacementTests.list)
    let coloured = try box.todo("ls", "--color=always")
    #expect(coloured.status == 0, "\(coloured.stderr)")
    #expect(coloured.stdout.hasPrefix("\u{1B}[1;33m1 (A) top"))
    #expect(try box.todo("ls", "--col=always").stdout.hasPrefix("\u{1B}[1;33m1 (A) top"))
    try box.write("other.cfg", "export TODO_DIR=\"$HOME/elsewhere\"\n")
    #expect(try box.todo("add", "there", "--config", box.path("other.cfg")).status == 0)
    #expect(box.read("elsewhere/todo.txt") == "2009-02-13 there\n")
    // The shell passes options given after `shell` on to every line.
    let shell = try box.todo("shell", "--color=always", input: "ls\n")
    #expect(shell.stdout.hasPrefix("\u{1B}[1;33m1 (A) top"), "\(shell.stdout.debugDescription)")
  }

  @Test func aPrefixNamesTheOneOptionItStarts() throws {
    let box = try Sandbox()
    try box.write("todo.txt", OptionPlacementTests.list)
    #expect(try box.todo("add", "--prio", "high", "call", "mom").status == 0)
    #expect(try box.todo("--col=never", "ls", "--so", "text").stdout.hasPrefix("2 buy milk\n3 (A) 2009-02-13 call mom\n1 (A) top\n"))
    let missing = try box.todo("add", "--prio")
    #expect(missing.stderr == "todo: option '--priority' needs a value\n")
    let ambiguous = try box.todo("ls", "--f", "json")
    #expect(ambiguous.status == 1)
    #expect(ambiguous.stderr == "todo: option '--f' is ambiguous: did you mean --format or --force? (see 'todo ls --help')\n")
    #expect(
      try box.todo("--v", "ls").stderr
        == "todo: option '--v' is ambiguous: did you mean --verbose or --version? (see 'todo --help')\n")
    #expect(box.read("todo.txt") == OptionPlacementTests.list + "(A) 2009-02-13 call mom\n")
  }

  /// Words of task text stay text after `--` and inside a quoted argument; a command's value
  /// and a name the command declares itself are the command's.
  @Test func textAndTheCommandsOwnWordsStayTheirs() throws {
    let box = try Sandbox()
    #expect(try box.todo("add", "--", "fix", "the", "--color", "flag").status == 0)
    #expect(try box.todo("add", "document --plain and --color=always").status == 0)
    #expect(
      box.read("todo.txt") == "2009-02-13 fix the --color flag\n2009-02-13 document --plain and --color=always\n")
    // The word after --sort is its value, even when it spells one of the tool's options.
    let sort = try box.todo("ls", "--sort", "--plain")
    #expect(sort.status == 1)
    #expect(sort.stderr.hasPrefix("todo: option '--sort' does not take '--plain'; it takes "), "\(sort.stderr)")
    // del declares --force itself: the command's, which asks nothing, as the tool's -f.
    let deleted = try box.todo("del", "1", "--force")
    #expect(deleted.status == 0, "\(deleted.stderr)")
    #expect(!box.read("todo.txt").contains("fix the"))
  }

  @Test func hostileOptionWordsAreNamedSafely() throws {
    let box = try Sandbox()
    try box.write("todo.txt", OptionPlacementTests.list)
    let escape = try box.todo("ls", "--x\u{1B}[2J")
    #expect(escape.status == 1)
    #expect(escape.stderr.hasPrefix("todo: 'ls' has no option '--x?[2J'"), "\(escape.stderr.debugDescription)")
    let long = "--" + String(repeating: "a", count: 100_000)
    let run = try box.todo("ls", long)
    #expect(run.status == 1)
    #expect(run.stderr.hasPrefix("todo: 'ls' has no option '\(long)'"))
    #expect(box.read("todo.txt") == OptionPlacementTests.list)
  }

  /// Under the name todo.sh the words after the action are the action's, as todo.sh has it.
  @Test func todoShPassesTheWordsToTheAction() throws {
    let box = try Sandbox()
    try box.write("todo.txt", OptionPlacementTests.list)
    let run = try box.sh("add", "fix", "--color=always")
    #expect(run.status == 0)
    #expect(box.read("todo.txt") == OptionPlacementTests.list + "fix --color=always\n")
  }
}
