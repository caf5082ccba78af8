import Foundation
import Testing

/// `git-setup`: the task-by-task merge registered in the todo directory's git repository.
@Suite struct GitSetupCommandTests {
  /// Runs git in the list's folder with the fixture's environment (its own HOME, so no
  /// configuration of the machine's user takes part); returns its standard output.
  @discardableResult
  static func git(_ list: CommandFixture, _ arguments: String...) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
    process.arguments = ["-C", list.directory.path] + arguments
    process.environment = list.environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  @Test func registersTheDriversOnceAndCallsThisProgram() throws {
    try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/git"), "git is needed: apt-get install git")
    let list = try CommandFixture(todo: "Call mom\n")
    try GitSetupCommandTests.git(list, "init", "-q")
    let run = list.todo("git-setup")
    #expect(run.status == 0)
    #expect(run.stdout == "Registered the todo.txt merge driver in \(list.directory.path).\n")
    #expect(list.read(".gitattributes") == "/todo.txt merge=todotxt\n/done.txt merge=todotxt-done\n")
    let driver = try GitSetupCommandTests.git(list, "config", "--get", "merge.todotxt.driver")
    #expect(driver.contains(" merge --todo-file "))
    #expect(driver.hasSuffix(" %O %A %B\n"))
    #expect(try GitSetupCommandTests.git(list, "config", "--get", "merge.todotxt-done.driver").contains(" merge "))
    let again = list.todo("git-setup")
    #expect(again.status == 0)
    #expect(again.stdout == "The todo.txt merge driver is already registered in \(list.directory.path).\n")
    #expect(list.read(".gitattributes") == "/todo.txt merge=todotxt\n/done.txt merge=todotxt-done\n")
  }

  @Test func keepsTheLinesAlreadyInGitattributes() throws {
    try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/git"), "git is needed: apt-get install git")
    let list = try CommandFixture(todo: "Call mom\n")
    try GitSetupCommandTests.git(list, "init", "-q")
    try list.write(".gitattributes", "*.png binary\n")
    #expect(list.todo("git-setup").status == 0)
    #expect(list.read(".gitattributes") == "*.png binary\n/todo.txt merge=todotxt\n/done.txt merge=todotxt-done\n")
  }

  @Test func outsideARepositoryItSaysHowToStartOne() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    list.todo("git-setup").expectOneLineError(
      containing: "todo: \(list.directory.path) is not in a git repository (start one: git -C \(list.directory.path) init)")
    #expect(!list.exists(".gitattributes"))
    #expect(list.sh("git-setup").status == 1)
  }
}
