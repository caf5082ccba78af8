import Foundation
import Testing

@testable import TodoCommands

/// What sync's replay takes from the local commit, and the commits it leaves to the merge.
@Suite struct ReplayedCommitTests {
  static let tree = "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n"
  static let parent = "parent 1111111111111111111111111111111111111111\n"
  static let people =
    "author Pat Doe <pat@example.com> 1234567890 +0100\n"
    + "committer Sam Roe <sam@example.com> 1234567899 +0000\n"

  @Test func aPlainCommitGivesItsParentAuthorAndMessageAsWritten() throws {
    let bytes = Array(
      (Self.tree + Self.parent + Self.people + "\ntodo sync on vm: x\n\nmore\n").utf8)
    let commit = try #require(SyncCommand.ReplayedCommit(bytes))
    #expect(commit.parent == "1111111111111111111111111111111111111111")
    #expect(commit.authorName == "Pat Doe")
    #expect(commit.authorEmail == "pat@example.com")
    #expect(commit.authorDate == "1234567890 +0100")
    #expect(commit.message == Array("todo sync on vm: x\n\nmore\n".utf8))
  }

  @Test(arguments: [
    // A merge, a root commit, a signed one, one in an encoding of its own.
    tree + parent + "parent 2222222222222222222222222222222222222222\n" + people + "\nm\n",
    tree + people + "\nroot\n",
    tree + parent + people
      + "gpgsig -----BEGIN PGP SIGNATURE-----\n \n -----END PGP SIGNATURE-----\n\nsigned\n",
    tree + parent + people + "encoding ISO-8859-1\n\nlatin\n",
  ])
  func otherCommitsAreLeftToTheMerge(_ text: String) {
    #expect(SyncCommand.ReplayedCommit(Array(text.utf8)) == nil)
  }
}

/// The local side of a replay, read while `git fetch` runs (``SyncCommand/EarlySides``): read
/// only for one commit on top of what the remote had, and used only for the commits it was
/// read from.
@Suite struct EarlySidesTests {
  /// A repository whose remote has "Call mom", with one local commit adding "Buy milk" on top;
  /// the top of its work tree, and the remote's id as the last fetch left it.
  static func oneCommitAhead() throws -> (list: CommandFixture, top: String, tracking: String) {
    let list = try SyncCommandTests.repository(remote: true)
    // The files named, as the context made below reads only the configuration file.
    try list.write(
      "todo.cfg",
      "export TODO_DIR=\"\(list.path("list"))\"\nexport TODO_FILE=\"$TODO_DIR/todo.txt\"\nexport DONE_FILE=\"$TODO_DIR/done.txt\"\n")
    #expect(list.todo("sync").status == 0)
    let top = try SyncCommandTests.git(list, "-C", list.path("list"), "rev-parse", "--show-toplevel")
      .trimmingCharacters(in: .newlines)
    let tracking = try SyncCommandTests.git(list, "-C", top, "rev-parse", "origin/main").trimmingCharacters(in: .newlines)
    try list.write("list/todo.txt", "Call mom\nBuy milk\n")
    try SyncCommandTests.git(list, "-C", top, "commit", "-qam", "local")
    return (list, top, tracking)
  }

  @Test func theyAreTheParentsAndTheCommitsListsWhenOneCommitIsOnTop() throws {
    let (list, top, tracking) = try Self.oneCommitAhead()
    let early = try #require(SyncCommand.EarlySides.reading(top: top, tracking: tracking, context: list.context())?.wait())
    #expect(early.base == tracking)
    #expect(early.paths == ("todo.txt", "done.txt"))
    #expect(early.contents[0] == Array("Call mom\n".utf8))
    #expect(early.contents[1] == Array("Call mom\nBuy milk\n".utf8))
    // No done.txt in either commit.
    #expect(early.contents[2] == nil && early.contents[3] == nil)
    #expect(early.lists[1].serialized() == Array("Call mom\nBuy milk\n".utf8))
    // The commit itself and what it changed, which the replay asks of it.
    #expect(SyncCommand.ReplayedCommit(early.commit)?.parent == tracking)
    #expect(early.changes.keys.sorted() == ["todo.txt"])
    #expect(early.changes["todo.txt"]?.status == "M")
  }

  /// Nothing is read when the commit is not one on top of the remote's (here: the remote's
  /// id is said to be the local commit itself, as when there is nothing to send).
  @Test func nothingIsReadForAnotherShapeOfHistory() throws {
    let (list, top, _) = try Self.oneCommitAhead()
    let head = try SyncCommandTests.git(list, "-C", top, "rev-parse", "HEAD").trimmingCharacters(in: .newlines)
    let early = SyncCommand.EarlySides.reading(top: top, tracking: head, context: try list.context())
    #expect(early?.wait() == nil)
  }

  /// The local commit changed after the sides were read (amended while the fetch ran): the
  /// merge reads the new commit's lists, and its result is what it is without early sides.
  @Test func sidesOfAnotherCommitAreNotUsed() throws {
    let (list, top, tracking) = try Self.oneCommitAhead()
    let context = try list.context()
    let early = try #require(SyncCommand.EarlySides.reading(top: top, tracking: tracking, context: context)?.wait())
    try list.write("list/todo.txt", "Call mom\nBuy eggs\n")
    try SyncCommandTests.git(list, "-C", top, "commit", "-q", "--amend", "-am", "local")
    let ours = try SyncCommandTests.git(list, "-C", top, "rev-parse", "HEAD").trimmingCharacters(in: .newlines)
    let git = GitRepository(directory: top, context: context)
    let local = try #require(SyncCommand.changes(git, from: tracking, to: ours))
    func merged(_ early: SyncCommand.EarlySides?) throws -> String {
      let entries = try #require(
        SyncCommand.mergedLists(
          git, lists: ("todo.txt", "done.txt"), base: tracking, ours: ours, theirs: tracking, local: local, early: early))
      let entry = try #require(entries.first { $0.hasSuffix("\ttodo.txt") })
      let blob = String(try #require(entry.split(separator: "\t").first?.split(separator: " ").last))
      return try SyncCommandTests.git(list, "-C", top, "cat-file", "blob", blob)
    }
    #expect(try merged(early) == "Call mom\nBuy eggs\n")
    #expect(try merged(nil) == "Call mom\nBuy eggs\n")
  }
}
