import Foundation
import Testing
import TodoTxt

@testable import TodoCommands

/// The commits of a merge found from inside a merge driver, and only when the files git
/// handed over are their versions byte for byte.
@Suite struct GitMergeSidesTests {
  /// A repository whose `main` (HEAD) and `other` changed todo.txt differently since `base`,
  /// with the three versions written out as git hands them to a driver.
  struct Merge {
    let list: CommandFixture
    let git: GitRepository
    let base: String
    let theirs: String

    init() throws {
      try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/git"), "git is needed: apt-get install git")
      list = try CommandFixture(todo: "a\n")
      list.environment["GIT_CONFIG_NOSYSTEM"] = "1"
      git = GitRepository(directory: list.directory.path, context: try list.context())
      try git.require("init", ["init", "-q", "-b", "main"])
      try git.require("config", ["config", "user.name", "test"])
      try git.require("config", ["config", "user.email", "test@example.com"])
      try git.require("add", ["add", "todo.txt"])
      try git.require("commit", ["commit", "-q", "-m", "base"])
      base = try #require(git.value(["rev-parse", "HEAD"]))
      try git.require("branch", ["checkout", "-q", "-b", "other"])
      try list.write("todo.txt", "a\nb\n")
      try git.require("commit", ["commit", "-q", "-am", "theirs"])
      theirs = try #require(git.value(["rev-parse", "HEAD"]))
      try git.require("checkout", ["checkout", "-q", "main"])
      try list.write("todo.txt", "a\nc\n")
      try git.require("commit", ["commit", "-q", "-am", "ours"])
      try list.write("handed/base", "a\n")
      try list.write("handed/ours", "a\nc\n")
      try list.write("handed/theirs", "a\nb\n")
    }

    var files: (base: String, ours: String, theirs: String) {
      (list.path("handed/base"), list.path("handed/ours"), list.path("handed/theirs"))
    }
  }

  @Test func aMergesCommitsAreFoundFromGitheadAndReadForTheOtherFile() throws {
    let merge = try Merge()
    let sides = try #require(
      GitMergeSides.find(merge.git, path: "todo.txt", files: merge.files, environment: ["GITHEAD_" + merge.theirs: "other"]))
    #expect(sides.base == merge.base)
    #expect(sides.ours == "HEAD")
    #expect(sides.theirs == merge.theirs)
    let versions = try #require(sides.versions(merge.git, path: "todo.txt"))
    #expect(versions.base?.count == 1)
    #expect(versions.ours.count == 2 && Array(versions.ours.lineBytes(at: 1)) == Array("c".utf8))
    #expect(versions.theirs.count == 2 && Array(versions.theirs.lineBytes(at: 1)) == Array("b".utf8))
    // done.txt is in none of the commits: each version is empty.
    let done = try #require(sides.versions(merge.git, path: "done.txt"))
    #expect(done.ours.count == 0 && done.theirs.count == 0 && (done.base?.count ?? 0) == 0)
  }

  @Test func handedFilesThatAreNotThoseVersionsGiveNoAnswer() throws {
    let merge = try Merge()
    try merge.list.write("handed/ours", "a\nc\nchanged meanwhile\n")
    #expect(
      GitMergeSides.find(merge.git, path: "todo.txt", files: merge.files, environment: ["GITHEAD_" + merge.theirs: "other"])
        == nil)
  }

  @Test func withoutAMergeOrARebaseThereIsNoAnswer() throws {
    let merge = try Merge()
    #expect(GitMergeSides.find(merge.git, path: "todo.txt", files: merge.files, environment: [:]) == nil)
    #expect(
      GitMergeSides.find(
        merge.git, path: "todo.txt", files: merge.files, environment: ["GITHEAD_nosuchcommit": "x"]) == nil)
  }
}
