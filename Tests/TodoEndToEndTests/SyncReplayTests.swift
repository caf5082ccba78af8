import Foundation
import Testing

/// `sync` putting this machine's one unpushed commit on top of the remote's instead of merging
/// (`SyncCommand.replay`), and the cases where it merges as before.
@Suite("Sync replay")
struct SyncReplayTests {
  /// Two machines that have both synced `todo` and track `origin/main`.
  static func network(todo: String = "call mom\nbuy milk\nwater plants\n") throws
    -> SyncTests.Network
  {
    let net = try SyncTests.Network()
    try net.laptop.write("list/todo.txt", todo)
    try net.laptop.write("list/shopping.md", "eggs\n")
    #expect(try net.laptop.todo("sync").status == 0)
    try SyncTests.git(net.laptop, ["add", "shopping.md"])
    try SyncTests.git(net.laptop, ["commit", "-q", "-m", "shopping list"])
    try SyncTests.git(net.laptop, ["push", "-q", "origin", "main"])
    // The phone clones the list now, as a second machine does: its branch tracks origin/main.
    try FileManager.default.removeItem(atPath: net.phone.path("list"))
    try SyncTests.git(
      net.phone, ["clone", "-q", net.remote.path, net.phone.path("list")], in: net.root)
    try SyncTests.git(net.phone, ["config", "user.name", "phone"])
    try SyncTests.git(net.phone, ["config", "user.email", "phone@example.com"])
    #expect(try net.phone.todo("sync").status == 0)
    #expect(try Self.merges(net.phone) == 0)
    return net
  }

  /// The laptop completes task 1 and syncs: the remote moves on under the phone.
  static func laptopSyncsADoneTask(_ laptop: Sandbox, sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(try laptop.todo("do", "1").status == 0, sourceLocation: sourceLocation)
    #expect(try laptop.todo("sync").status == 0, sourceLocation: sourceLocation)
  }

  /// A sync that fell back to the merge: it succeeds, makes one merge commit, and the list
  /// holds both sides' edits of the shared history (the laptop's `do 1`, the phone's
  /// `pri 2 A`); `more` checks what else the case is about.
  static func expectMergedBothEdits(
    _ phone: Sandbox, sourceLocation: SourceLocation = #_sourceLocation, _ more: () throws -> Void = {}
  ) throws {
    let run = try phone.todo("sync")
    #expect(run.status == 0, "\(run.stderr)", sourceLocation: sourceLocation)
    #expect(try merges(phone) == 1, sourceLocation: sourceLocation)
    try more()
    #expect(
      SyncTests.lines(phone, "todo.txt") == ["x 2009-02-13 call mom", "(A) buy milk", "water plants", ""],
      sourceLocation: sourceLocation)
  }

  static func merges(_ box: Sandbox) throws -> Int {
    Int(
      try SyncTests.git(box, ["rev-list", "--count", "--merges", "HEAD"]).trimmingCharacters(
        in: .whitespacesAndNewlines)) ?? -1
  }

  @Test func theLocalCommitGoesOnTopOfTheRemotesWithItsOtherFiles() throws {
    let net = try Self.network()
    let (laptop, phone) = (net.laptop, net.phone)
    // The laptop: a task done, a file of its own added.
    #expect(try laptop.todo("do", "1").status == 0)
    try laptop.write("list/plans.md", "summer\n")
    try SyncTests.git(laptop, ["add", "plans.md"])
    try SyncTests.git(laptop, ["commit", "-q", "-m", "plans"])
    #expect(try laptop.todo("sync").status == 0)
    // The phone: one commit of its own, the list and another file in it.
    #expect(try phone.todo("pri", "2", "A").status == 0)
    #expect(try phone.todo("add", "from the phone").status == 0)
    try phone.write("list/shopping.md", "eggs\nbread\n")
    try SyncTests.git(phone, ["commit", "-q", "-am", "phone's own commit"])

    let run = try phone.todo("sync")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("sent 1 commit, received 2 commits"), "\(run.stdout)")
    // Linear: the phone's commit, under its own author and message, on the laptop's.
    #expect(try Self.merges(phone) == 0)
    #expect(
      try SyncTests.git(phone, ["log", "-1", "--format=%an %s"]) == "phone phone's own commit\n")
    #expect(
      try SyncTests.git(phone, ["rev-parse", "HEAD^"])
        == SyncTests.git(laptop, ["rev-parse", "HEAD"]))
    #expect(try SyncTests.git(phone, ["status", "--porcelain"]).isEmpty)
    #expect(
      SyncTests.lines(phone, "todo.txt") == [
        "x 2009-02-13 call mom", "(A) buy milk", "water plants", "2009-02-13 from the phone", "",
      ])
    #expect(phone.read("list/shopping.md") == "eggs\nbread\n")
    #expect(phone.read("list/plans.md") == "summer\n")

    // The laptop fast-forwards to the same.
    #expect(try laptop.todo("sync").status == 0)
    #expect(try Self.merges(laptop) == 0)
    for file in ["todo.txt", "done.txt", "shopping.md", "plans.md"] {
      #expect(laptop.read("list/" + file) == phone.read("list/" + file), "\(file)")
    }
  }

  /// A task archived on one side and edited on the other: both lists are settled together,
  /// as the merge settles them.
  @Test func anArchiveOnTheRemoteAndAnEditHereEndAsTheMergeEnds() throws {
    let net = try Self.network()
    let (laptop, phone) = (net.laptop, net.phone)
    #expect(try laptop.todo("do", "3").status == 0)
    #expect(try laptop.todo("archive").status == 0)
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("append", "1", "tonight").status == 0)
    let run = try phone.todo("sync")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try Self.merges(phone) == 0)
    #expect(SyncTests.lines(phone, "todo.txt") == ["call mom tonight", "buy milk", ""])
    #expect(SyncTests.lines(phone, "done.txt") == ["x 2009-02-13 water plants", ""])
    #expect(try SyncTests.git(phone, ["status", "--porcelain"]).isEmpty)
  }

  /// A local commit whose changes the remote already has adds nothing: the branch becomes the
  /// remote's.
  @Test func aCommitTheRemoteAlreadyMadeLeavesNothingToPush() throws {
    let net = try Self.network()
    let (laptop, phone) = (net.laptop, net.phone)
    try Self.laptopSyncsADoneTask(laptop)
    #expect(try phone.todo("do", "1").status == 0)
    let run = try phone.todo("sync")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      try SyncTests.git(phone, ["rev-parse", "HEAD"])
        == SyncTests.git(laptop, ["rev-parse", "HEAD"]))
    #expect(phone.read("list/todo.txt") == laptop.read("list/todo.txt"))
  }

  @Test func aConflictIsLeftAsTheMergeLeavesIt() throws {
    let net = try Self.network()
    let (laptop, phone) = (net.laptop, net.phone)
    #expect(try laptop.todo("pri", "1", "A").status == 0)
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("pri", "1", "B").status == 0)
    let run = try phone.todo("sync")
    #expect(run.status == 1)
    #expect(run.stderr.contains("todo.txt changed on both sides"), "\(run.stderr)")
    #expect(
      try SyncSafetyTests.gitStatus(phone, ["rev-parse", "-q", "--verify", "MERGE_HEAD"]).0 == 0)
    #expect(SyncTests.lines(phone, "todo.txt").contains("<<<<<<< ours"))
  }

  @Test func twoLocalCommitsAreMerged() throws {
    let net = try Self.network()
    let (laptop, phone) = (net.laptop, net.phone)
    try Self.laptopSyncsADoneTask(laptop)
    try phone.write("list/shopping.md", "eggs\nbread\n")
    try SyncTests.git(phone, ["commit", "-q", "-am", "bread"])
    #expect(try phone.todo("pri", "2", "A").status == 0)
    try Self.expectMergedBothEdits(phone)
    #expect(phone.read("list/shopping.md") == "eggs\nbread\n")
  }

  /// A file both sides changed is git's to merge: its line merge keeps both edits.
  @Test func anOtherFileChangedOnBothSidesIsMerged() throws {
    let net = try Self.network()
    let (laptop, phone) = (net.laptop, net.phone)
    try laptop.write("list/shopping.md", "eggs\nflour\nsugar\nsalt\nrice\n")
    try SyncTests.git(laptop, ["commit", "-q", "-am", "more"])
    try SyncTests.git(laptop, ["push", "-q", "origin", "main"])
    try SyncTests.git(phone, ["pull", "-q", "--no-rebase"])
    try laptop.write("list/shopping.md", "eggs\nflour\nsugar\nsalt\nrice\nbeans\n")
    #expect(try laptop.todo("do", "1").status == 0)
    try SyncTests.git(laptop, ["commit", "-q", "-am", "beans"])
    #expect(try laptop.todo("sync").status == 0)
    try phone.write("list/shopping.md", "milk\neggs\nflour\nsugar\nsalt\nrice\n")
    #expect(try phone.todo("pri", "2", "A").status == 0)
    try SyncTests.git(phone, ["commit", "-q", "-am", "milk"])
    try Self.expectMergedBothEdits(phone) {
      #expect(phone.read("list/shopping.md") == "milk\neggs\nflour\nsugar\nsalt\nrice\nbeans\n")
    }
  }

  /// A tracked file with changes not committed: the merge stashes it and puts it back.
  @Test func aChangedTrackedFileIsLeftToTheMerge() throws {
    let net = try Self.network()
    let (laptop, phone) = (net.laptop, net.phone)
    try Self.laptopSyncsADoneTask(laptop)
    #expect(try phone.todo("pri", "2", "A").status == 0)
    try phone.write("list/shopping.md", "eggs\nnot committed\n")
    try Self.expectMergedBothEdits(phone) {
      #expect(phone.read("list/shopping.md") == "eggs\nnot committed\n")
    }
  }

  /// A commit another branch holds is not rewritten: that branch would hold it twice.
  @Test func aCommitAnotherBranchHoldsIsMerged() throws {
    let net = try Self.network()
    let (laptop, phone) = (net.laptop, net.phone)
    try Self.laptopSyncsADoneTask(laptop)
    #expect(try phone.todo("pri", "2", "A").status == 0)
    try SyncTests.git(phone, ["commit", "-q", "-am", "priority"])
    try SyncTests.git(phone, ["branch", "keep"])
    try Self.expectMergedBothEdits(phone)
  }

  /// A file the local commit deleted stays deleted on top of the remote's.
  @Test func aDeletionInTheLocalCommitIsReplayed() throws {
    let net = try Self.network()
    let (laptop, phone) = (net.laptop, net.phone)
    try Self.laptopSyncsADoneTask(laptop)
    try SyncTests.git(phone, ["rm", "-q", "shopping.md"])
    #expect(try phone.todo("pri", "2", "A").status == 0)
    try SyncTests.git(phone, ["commit", "-q", "-am", "no shopping"])
    let run = try phone.todo("sync")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try Self.merges(phone) == 0)
    #expect(!phone.exists("list/shopping.md"))
    #expect(
      try SyncTests.git(phone, ["ls-tree", "--name-only", "HEAD"]).contains("shopping.md") == false)
    #expect(
      SyncTests.lines(phone, "todo.txt") == [
        "x 2009-02-13 call mom", "(A) buy milk", "water plants", "",
      ])
  }

  /// A branch that tracks nothing is merged with the remote's as before.
  @Test func aBranchWithoutUpstreamIsMerged() throws {
    let net = try Self.network()
    let (laptop, phone) = (net.laptop, net.phone)
    try SyncTests.git(phone, ["branch", "-q", "--unset-upstream"])
    try Self.laptopSyncsADoneTask(laptop)
    #expect(try phone.todo("pri", "2", "A").status == 0)
    try Self.expectMergedBothEdits(phone)
  }

  /// A file of this machine's that git does not track, where the remote added one: the replay
  /// refuses to write over it, and the merge then refuses as it always did; nothing changes.
  @Test func anUntrackedFileInTheWayStopsTheSyncAsTheMergeDoes() throws {
    let net = try Self.network()
    let (laptop, phone) = (net.laptop, net.phone)
    try laptop.write("list/plans.md", "summer\n")
    try SyncTests.git(laptop, ["add", "plans.md"])
    try SyncTests.git(laptop, ["commit", "-q", "-m", "plans"])
    try Self.laptopSyncsADoneTask(laptop)
    try phone.write("list/plans.md", "winter\n")
    #expect(try phone.todo("pri", "2", "A").status == 0)
    let head = try SyncTests.git(phone, ["rev-parse", "HEAD"])
    let todo = phone.read("list/todo.txt")
    let run = try phone.todo("sync")
    #expect(run.status == 1)
    #expect(run.stderr.contains("would be overwritten by merge"), "\(run.stderr)")
    // The phone's change committed on its own, nothing else.
    #expect(try SyncTests.git(phone, ["rev-parse", "HEAD^"]) == head)
    #expect(try Self.merges(phone) == 0)
    #expect(phone.read("list/plans.md") == "winter\n")
    #expect(phone.read("list/todo.txt") == todo)
    #expect(!phone.exists("list/.git/todo-sync-replay-index"))
  }

  /// The lists in a folder of the repository: the paths git is given are from its top.
  @Test func listsInAFolderOfTheRepositoryAreReplayed() throws {
    let net = try Self.network()
    let (laptop, phone) = (net.laptop, net.phone)
    for box in [laptop, phone] {
      try box.write("todo.cfg", "export TODO_DIR=\"$HOME/list/tasks\"\n")
    }
    try laptop.write("list/tasks/todo.txt", "call mom\nbuy milk\n")
    #expect(try laptop.todo("sync").status == 0)
    try FileManager.default.createDirectory(
      atPath: phone.path("list/tasks"), withIntermediateDirectories: true)
    #expect(try phone.todo("sync").status == 0)
    try Self.laptopSyncsADoneTask(laptop)
    #expect(try phone.todo("pri", "2", "A").status == 0)
    // Each machine's first sync of the folder added its lines to .gitattributes: merged then.
    let merges = try Self.merges(phone)
    let run = try phone.todo("sync")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try Self.merges(phone) == merges)
    #expect(
      try SyncTests.git(phone, ["rev-parse", "HEAD^"])
        == SyncTests.git(laptop, ["rev-parse", "HEAD"]))
    #expect(phone.read("list/tasks/todo.txt") == "x 2009-02-13 call mom\n(A) buy milk\n")
    #expect(try SyncTests.git(phone, ["status", "--porcelain"]).isEmpty)
  }
}
