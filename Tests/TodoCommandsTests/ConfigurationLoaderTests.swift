import Testing

@testable import TodoCommands

/// The configuration a command line runs with: the file named with `-d`, else todo.sh's
/// search order, read by bash as todo.sh reads it.
@Suite struct ConfigurationLoaderTests {
  @Test(arguments: ["todo", "todo.sh"])
  func aFileNamedWithDIsTheOneRead(name: String) throws {
    let list = try CommandFixture(todo: "in the default list\n")
    try list.write("other/todo.txt", "in the other list\n")
    try list.write("other.cfg", "export TODO_DIR=\"\(list.path("other"))\"\n")
    let run = list.run(name, ["-p", "-d", list.path("other.cfg"), "ls"])
    #expect(run.status == 0)
    #expect(run.stdout.hasPrefix("1 in the other list\n"))
  }

  /// Under the name todo a `-d` naming no file is an error: listing (or changing) another
  /// list than the one asked for is worse. todo.sh reads the first file of its search order
  /// instead, and says nothing.
  @Test func underTheNameTodoAMissingFileNamedWithDIsAnError() throws {
    let list = try CommandFixture(todo: "in the default list\n")
    let missing = list.path("no-such.cfg")
    for words in [["ls"], ["add", "milk"], ["do", "1"]] {
      list.run("todo", ["-d", missing] + words).expectOneLineError(containing: "Cannot read configuration file \(missing)")
    }
    #expect(list.files == ["in the default list\n", ""])
    let todoSh = list.sh("-p", "-d", missing, "ls")
    #expect(todoSh.status == 0)
    #expect(todoSh.stdout.hasPrefix("1 in the default list\n"))
  }

  /// `TODOTXT_CFG_FILE` naming a missing file keeps todo.sh's search under both names: the
  /// variable may be left over from another machine's environment.
  @Test(arguments: ["todo", "todo.sh"])
  func aMissingFileInTheEnvironmentFallsBackToTheSearch(name: String) throws {
    let list = try CommandFixture(todo: "in the default list\n")
    try list.write(".todo/config", "export TODO_DIR=\"\(list.directory.path)\"\n")
    let run = list.run(name, ["-p", "ls"], environment: ["TODOTXT_CFG_FILE": list.path("no-such.cfg")])
    #expect(run.status == 0)
    #expect(run.stdout.hasPrefix("1 in the default list\n"))
  }
}
