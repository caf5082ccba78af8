import Foundation
import Testing

@testable import TodoCommands

/// The git wrapper: answers, reasons, exact blob bytes and quoting for git's shell.
@Suite struct GitRepositoryTests {
  static func repository() throws -> (CommandFixture, GitRepository) {
    try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/git"), "git is needed: apt-get install git")
    let list = try CommandFixture(todo: "Call mom\r\nno final newline")
    list.environment["GIT_CONFIG_NOSYSTEM"] = "1"
    let git = GitRepository(directory: list.directory.path, context: try list.context())
    try git.require("init", ["init", "-q", "-b", "main"])
    try git.require("config", ["config", "user.name", "test"])
    try git.require("config", ["config", "user.email", "test@example.com"])
    try git.require("add", ["add", "todo.txt"])
    try git.require("commit", ["commit", "-q", "-m", "first"])
    return (list, git)
  }

  @Test func blobsComeBackByteForByteAndMissingOnesAsNil() throws {
    let (list, git) = try GitRepositoryTests.repository()
    let found = try #require(git.contents(of: ["HEAD:todo.txt", "HEAD:done.txt", "HEAD:todo.txt"]))
    #expect(found.count == 3)
    #expect(found[0] == list.bytes("todo.txt"))
    #expect(found[1] == nil)
    #expect(found[2] == list.bytes("todo.txt"))
    // A name holding a line break would be two requests to cat-file: refused whole.
    #expect(git.contents(of: ["HEAD:todo.txt\nHEAD:x"]) == nil)
    let ids = try #require(git.objectIDs(of: ["HEAD:todo.txt", "HEAD:nothing"]))
    #expect(ids[0]?.count == 40 || ids[0]?.count == 64)
    #expect(ids[1] == nil)
  }

  @Test func queriesAnswerWithoutTheFinalNewlineAndFailuresGiveGitsReason() throws {
    let (list, git) = try GitRepositoryTests.repository()
    #expect(git.value(["rev-parse", "--abbrev-ref", "HEAD"]) == "main")
    #expect(try git.topLevel() == URL(fileURLWithPath: list.directory.path).resolvingSymlinksInPath().path)
    #expect(git.value(["rev-parse", "--verify", "nosuchbranch"]) == nil)
    #expect(throws: TodoError.self) { try git.require("checkout", ["checkout", "-q", "nosuchbranch"]) }
    let outcome = git.run(["checkout", "-q", "nosuchbranch"])
    #expect(!outcome.succeeded)
    #expect(!outcome.reason.hasPrefix("error:") && !outcome.reason.hasPrefix("fatal:"))
    #expect(outcome.reason.contains("nosuchbranch"))
  }

  @Test func outsideARepositoryTopLevelSaysSo() throws {
    let list = try CommandFixture(todo: "")
    let git = GitRepository(directory: list.directory.path, context: try list.context())
    #expect(throws: TodoError.notAGitRepository(list.directory.path)) { try git.topLevel() }
  }

  @Test func outcomeReasonsAndValues() {
    let failed = GitRepository.Outcome(status: 128, output: "hint: something\nfatal: not a git repository\n")
    #expect(failed.reason == "not a git repository")
    #expect(GitRepository.Outcome(status: 127, output: "").reason == "git is not installed")
    #expect(GitRepository.Outcome(status: 3, output: "\n  \n").reason == "status 3")
    #expect(GitRepository.Outcome(status: 0, output: "abc\r\n\n").value == "abc")
  }

  @Test(arguments: [
    ("plain", "'plain'"), ("it's", "'it'\\''s'"), ("a b;$(rm -rf x)`y`", "'a b;$(rm -rf x)`y`'"), ("", "''"),
  ])
  func shellQuoting(text: String, quoted: String) {
    #expect(GitRepository.shellQuoted(text) == quoted)
  }
}
