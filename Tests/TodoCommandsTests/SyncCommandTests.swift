import Foundation
import Testing

/// `sync`: the todo directory's changes committed and pushed to its git remote. (Merging
/// with another machine's changes runs the merge driver as a program, so it is tested end to
/// end; here one machine and a bare remote.)
@Suite struct SyncCommandTests {
  /// A list in `list/` of the fixture's folder, a git repository there, and a bare remote
  /// beside it when `remote` is set.
  static func repository(remote: Bool) throws -> CommandFixture {
    try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/git"), "git is needed: apt-get install git")
    let list = try CommandFixture(todo: nil)
    try list.write("todo.cfg", "export TODO_DIR=\"\(list.path("list"))\"\n")
    try list.write("list/todo.txt", "Call mom\n")
    list.environment["GIT_CONFIG_NOSYSTEM"] = "1"
    try git(list, "init", "-q", "-b", "main", list.path("list"))
    try git(list, "-C", list.path("list"), "config", "user.name", "laptop")
    try git(list, "-C", list.path("list"), "config", "user.email", "laptop@example.com")
    if remote {
      try git(list, "init", "-q", "--bare", "-b", "main", list.path("remote.git"))
      try git(list, "-C", list.path("list"), "remote", "add", "origin", list.path("remote.git"))
    }
    return list
  }

  @discardableResult
  static func git(_ list: CommandFixture, _ arguments: String...) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
    process.arguments = arguments
    process.environment = list.environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "git \(arguments.joined(separator: " "))")
    return String(decoding: data, as: UTF8.self)
  }

  @Test func commitsAndPushesThenHasNothingToDo() throws {
    let list = try SyncCommandTests.repository(remote: true)
    let first = list.todo("sync")
    #expect(first.status == 0)
    #expect(first.stdout.hasSuffix("Synced with origin/main: sent 1 commit, received 0 commits.\n"))
    #expect(list.todo("add", "Buy", "milk").status == 0)
    let second = list.todo("sync")
    #expect(second.status == 0)
    #expect(second.stdout == "Committed: todo.txt +1 -0\nSynced with origin/main: sent 1 commit, received 0 commits.\n")
    let pushed = try SyncCommandTests.git(list, "--git-dir", list.path("remote.git"), "show", "main:todo.txt")
    #expect(pushed == "Call mom\n2009-02-13 Buy milk\n")
    let third = list.todo("sync")
    #expect(third.status == 0)
    #expect(third.stdout == "Already in sync with origin/main.\n")
  }

  @Test func withoutARemoteItSaysHowToAddOne() throws {
    let list = try SyncCommandTests.repository(remote: false)
    let run = list.todo("sync")
    #expect(run.status == 1)
    #expect(run.stderr.hasSuffix("has no remote to sync with (add one: git -C \(list.path("list")) remote add origin URL)\n"))
    #expect(list.read("list/todo.txt") == "Call mom\n")
  }

  @Test func outsideARepositoryAndUnderTodoShItRefuses() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    list.todo("sync").expectOneLineError(containing: "is not in a git repository")
    #expect(list.sh("sync").status == 1)
    #expect(list.read("todo.txt") == "Call mom\n")
  }
}
