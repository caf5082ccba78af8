import Foundation
import Testing

/// Archiving on one machine while the other deletes, edits or archives the same task, synced
/// each of the three ways (`todo sync`, `git pull` with the merge driver, `git pull --rebase`
/// with it), with real git: the task must end once, never lost, doubled or brought back, and a
/// conflict about it is settled by `resolve` in both files at once.
@Suite("Sync archive")
struct SyncArchiveTests {
  typealias Way = SyncPropertyTests.Way

  /// Two machines whose lists start as `todo`: the laptop writes it and both sync.
  static func start(todo: String) throws -> Network {
    let net = try Network()
    try net.laptop.write("list/todo.txt", todo)
    #expect(try net.laptop.todo("sync").status == 0)
    #expect(try net.phone.todo("sync").status == 0)
    return net
  }

  /// The side a machine's changes are on in the merge that `way` makes on it: ours, except
  /// in a rebase, which replays the machine's commits onto the remote's.
  static func ownSide(_ way: Way) -> String { way == .rebase ? "theirs" : "ours" }
  static func otherSide(_ way: Way) -> String { way == .rebase ? "ours" : "theirs" }

  /// Completes a merge that stopped for a conflict the person has settled, and sends it.
  static func finish(_ box: Sandbox, _ way: Way) throws {
    switch way {
    case .sync:
      let run = try box.todo("sync")
      #expect(run.status == 0, "\(run.stderr)")
    case .pull, .rebase:
      let lists = ["todo.txt", "done.txt"].filter { box.exists("list/" + $0) }
      try SyncTests.git(box, ["add", "-A", "--"] + lists)
      if way == .pull {
        try SyncTests.git(box, ["commit", "-q", "--no-edit"])
      } else {
        try SyncTests.git(box, ["-c", "core.editor=true", "rebase", "--continue"])
      }
      try SyncTests.git(box, ["push", "-q", "origin", "HEAD:main"])
    }
  }

  static func done(_ box: Sandbox) -> [String] {
    SyncTests.lines(box, "done.txt").filter { !$0.isEmpty }
  }

  /// The laptop takes what the phone sent; both must then hold the same lists.
  static func converge(_ net: Network, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let run = try net.laptop.todo("sync")
    #expect(run.status == 0, "\(run.stderr)", sourceLocation: sourceLocation)
    #expect(
      SyncSafetyTests.tasks(net.laptop) == SyncSafetyTests.tasks(net.phone),
      sourceLocation: sourceLocation)
    #expect(done(net.laptop) == done(net.phone), sourceLocation: sourceLocation)
  }

  // MARK: Archived on one machine, deleted on the other

  /// Item 1. `todo sync` merges both lists as one and drops the archived line. Under a plain
  /// `git pull` git takes done.txt from the laptop without a driver (only the laptop changed
  /// it), so todo.txt's driver shows the archived line as a conflict with the deletion.
  @Test(arguments: Way.allCases)
  func aDoneTaskArchivedOnOneMachineAndDeletedOnTheOtherIsNotKept(way: Way) throws {
    let net = try Self.start(todo: "x 2026-11-30 2026-11-01 File taxes\n2026-11-01 Call mom\n")
    let (laptop, phone) = (net.laptop, net.phone)
    #expect(try laptop.todo("archive").status == 0)
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("-f", "del", "1").status == 0)
    let synced = try SyncSafetyTests.merge(phone, way)
    if way == .sync {
      #expect(synced.status == 0, "\(synced.text)")
    } else {
      #expect(synced.status != 0, "\(way)")
      let listed = try phone.todo("resolve")
      #expect(
        listed.stdout.contains("x 2026-11-30 2026-11-01 File taxes (moved to done.txt)"),
        "\(listed.stdout)")
      #expect(try phone.todo("resolve", Self.ownSide(way)).status == 0)
      #expect(Self.done(phone) == [], "\(way)")
      try Self.finish(phone, way)
    }
    try Self.converge(net)
    for box in [laptop, phone] {
      #expect(SyncSafetyTests.tasks(box) == ["2026-11-01 Call mom"], "\(way)")
      #expect(Self.done(box) == [], "\(way)")
    }
  }

  /// Item 2: completed and archived on the phone, deleted on the laptop. Without the archive
  /// this is a conflict; with it, too. `keep` settles it for the phone's completion.
  @Test(arguments: Way.allCases, [true, false])
  func aTaskCompletedAndArchivedOnOneMachineAndDeletedOnTheOtherConflicts(way: Way, keep: Bool)
    throws
  {
    let net = try Self.start(todo: "2026-11-01 Buy milk\n2026-11-01 Call mom\n")
    let (laptop, phone) = (net.laptop, net.phone)
    #expect(try laptop.todo("-f", "del", "1").status == 0)
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("do", "1").status == 0)
    #expect(try phone.todo("archive").status == 0)
    let completed = "x 2009-02-13 2026-11-01 Buy milk"
    let synced = try SyncSafetyTests.merge(phone, way)
    #expect(synced.status != 0, "\(way)")
    let listed = try phone.todo("resolve")
    #expect(listed.stdout.contains(completed), "\(way): \(listed.stdout)")
    // Shown where the completing side put the task under sync, which settles both lists:
    // done.txt, unmerged in git's index as a conflicted file is, so git commits nothing yet.
    // Under git alone, in todo.txt, whose driver ran.
    let shownIn = way == .sync ? "done.txt" : "todo.txt"
    #expect(listed.stdout.hasPrefix("1: \(shownIn) line "), "\(way): \(listed.stdout)")
    let unmerged = try SyncTests.git(phone, ["diff", "--name-only", "--diff-filter=U"])
    #expect(unmerged.split(separator: "\n").contains(Substring(shownIn)), "\(way): \(unmerged)")
    if way != .rebase {
      let (committed, _) = try SyncSafetyTests.gitStatus(phone, ["commit", "-q", "--no-edit"])
      #expect(committed != 0, "\(way)")
    }
    let settled = try phone.todo("resolve", keep ? Self.ownSide(way) : Self.otherSide(way))
    #expect(settled.status == 0, "\(settled.stderr)")
    #expect(Self.done(phone) == (keep ? [completed] : []), "\(way) \(keep)")
    try Self.finish(phone, way)
    try Self.converge(net)
    for box in [laptop, phone] {
      #expect(SyncSafetyTests.tasks(box) == ["2026-11-01 Call mom"], "\(way) \(keep)")
      #expect(Self.done(box) == (keep ? [completed] : []), "\(way) \(keep)")
    }
  }

  // MARK: Archived on both machines

  /// Item 3: archived on both machines, with text appended on one first: the edited line,
  /// once, without a conflict.
  @Test(arguments: Way.allCases)
  func aTaskArchivedOnBothMachinesAndEditedOnOneIsArchivedOnceAsEdited(way: Way) throws {
    let net = try Self.start(todo: "x 2026-11-30 2026-11-01 File taxes\n")
    let (laptop, phone) = (net.laptop, net.phone)
    #expect(try laptop.todo("append", "1", "receipt").status == 0)
    #expect(try laptop.todo("archive").status == 0)
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("archive").status == 0)
    let synced = try SyncSafetyTests.merge(phone, way)
    #expect(synced.status == 0, "\(way): \(synced.text)")
    try Self.converge(net)
    for box in [laptop, phone] {
      #expect(SyncSafetyTests.tasks(box) == [], "\(way)")
      #expect(Self.done(box) == ["x 2026-11-30 2026-11-01 File taxes receipt"], "\(way)")
    }
  }

  // MARK: A conflict across both files

  /// Item 4: the phone sets a priority on a task the laptop completed and archived. The
  /// conflict in todo.txt names the line in done.txt; settling it keeps the task once, where
  /// the chosen side put it (both sides' lines for `both`, as `resolve` lists them).
  @Test(arguments: Way.allCases, ["own", "other", "both"])
  func anEditOfATaskArchivedOnTheOtherMachineIsSettledWhereTheChosenSidePutIt(
    way: Way, choice: String
  ) throws {
    let net = try Self.start(todo: "2026-11-01 File taxes\n2026-11-01 Call mom\n")
    let (laptop, phone) = (net.laptop, net.phone)
    #expect(try laptop.todo("do", "1").status == 0)
    #expect(try laptop.todo("archive").status == 0)
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("pri", "1", "A").status == 0)
    let synced = try SyncSafetyTests.merge(phone, way)
    #expect(synced.status != 0, "\(way)")
    let archived = "x 2009-02-13 2026-11-01 File taxes"
    let edited = "(A) 2026-11-01 File taxes"
    let listed = try phone.todo("resolve")
    #expect(listed.stdout.contains(edited), "\(listed.stdout)")
    #expect(listed.stdout.contains(archived + " (moved to done.txt)"), "\(listed.stdout)")
    #expect(listed.stdout.hasPrefix("1: todo.txt line "), "\(listed.stdout)")
    #expect(!listed.stdout.contains("2: "), "\(listed.stdout)")

    let side =
      choice == "own" ? Self.ownSide(way) : choice == "other" ? Self.otherSide(way) : "both"
    let settled = try phone.todo("resolve", side)
    #expect(settled.status == 0, "\(settled.stderr)")
    let open = choice == "other" ? ["2026-11-01 Call mom"] : [edited, "2026-11-01 Call mom"]
    let done = choice == "own" ? [] : [archived]
    #expect(SyncSafetyTests.tasks(phone) == open, "\(way) \(choice)")
    #expect(Self.done(phone) == done, "\(way) \(choice)")
    try Self.finish(phone, way)
    try Self.converge(net)
    for box in [laptop, phone] {
      #expect(SyncSafetyTests.tasks(box) == open, "\(way) \(choice)")
      #expect(Self.done(box) == done, "\(way) \(choice)")
    }
  }

  // MARK: A recurring task done on one machine, edited on the other

  /// Item 5: the laptop completes a recurring task (adding its next occurrence); the phone
  /// changes its rule, text or priority. The change is on the done task and on the next one.
  @Test(
    arguments: Way.allCases,
    [
      (
        ["rec", "1", "2w"], "x 2009-02-13 water plants due:2009-02-13 rec:2w pri:B",
        "(B) water plants due:2009-02-27 rec:2w"
      ),
      (
        ["append", "1", "+garden"], "x 2009-02-13 water plants due:2009-02-13 rec:1w +garden pri:B",
        "(B) water plants due:2009-02-20 rec:1w +garden"
      ),
      (
        ["pri", "1", "A"], "x 2009-02-13 water plants due:2009-02-13 rec:1w pri:A",
        "(A) water plants due:2009-02-20 rec:1w"
      ),
    ])
  func anEditOfARecurringTaskDoneOnTheOtherMachineLandsOnItsNextOccurrence(
    way: Way, edit: (arguments: [String], done: String, next: String)
  ) throws {
    let net = try Self.start(todo: "(B) water plants due:2009-02-13 rec:1w\ncall mom\n")
    let (laptop, phone) = (net.laptop, net.phone)
    #expect(try laptop.todo("do", "1").status == 0)
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.run("todo", edit.arguments).status == 0)
    let synced = try SyncSafetyTests.merge(phone, way)
    #expect(synced.status == 0, "\(way) \(edit.arguments): \(synced.text)")
    try Self.converge(net)
    for box in [laptop, phone] {
      #expect(
        SyncSafetyTests.tasks(box) == [edit.done, "call mom", edit.next], "\(way) \(edit.arguments)"
      )
    }
  }
}
