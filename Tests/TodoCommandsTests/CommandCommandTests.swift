import Foundation
import Testing

/// `command ACTION`: the built-in action, even where an add-on of that name exists.
@Suite struct CommandCommandTests {
  @Test(arguments: ["todo", "todo.sh"])
  func runsTheBuiltInAction(name: String) throws {
    let list = try CommandFixture(todo: "Call mom\n")
    let run = list.run(name, ["-p", "command", "ls"])
    #expect(run.status == 0)
    #expect(run.stdout.hasPrefix("1 Call mom\n"))
  }

  @Test(arguments: ["todo.sh"])
  func bypassesAnAddonOfTheSameName(name: String) throws {
    let list = try CommandFixture.withLsAddon()
    let run = list.run(name, ["-p", "command", "ls"])
    #expect(run.stdout == "1 Call mom\n--\nTODO: 1 of 1 tasks shown\n")
    #expect(!list.exists("addon-ran"))
  }

  @Test func aloneOrWithAnUnknownActionIsTheUsage() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    for words in [["command"], ["command", "nosuchaction"]] {
      let run = list.run("todo.sh", words)
      #expect(run.status == 1)
      #expect(run.stdout.hasPrefix("Usage: todo.sh "))
    }
    #expect(list.todo("command", "nosuchaction").status == 1)
  }

  @Test func theActionGetsItsArguments() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    #expect(list.sh("command", "add", "Buy", "milk").stdout == "2 Buy milk\nTODO: 2 added.\n")
    #expect(list.read("todo.txt") == "Call mom\nBuy milk\n")
  }
}

extension CommandFixture {
  /// A list whose actions folder holds an executable `ls` add-on that leaves the file
  /// `addon-ran` behind when it runs.
  static func withLsAddon() throws -> CommandFixture {
    let list = try CommandFixture(todo: "Call mom\n")
    let actions = list.path("actions")
    try list.write("actions/ls", "#!/bin/sh\ntouch \"\(list.path("addon-ran"))\"\n")
    #expect(chmod(actions + "/ls", 0o755) == 0)
    try list.write("todo.cfg", "export TODO_DIR=\"\(list.directory.path)\"\nexport TODO_ACTIONS_DIR=\"\(actions)\"\n")
    return list
  }
}
