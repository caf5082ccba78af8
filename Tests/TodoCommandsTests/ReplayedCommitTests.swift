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
