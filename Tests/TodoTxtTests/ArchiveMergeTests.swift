import Testing
import TodoTestSupport
import TodoTxt

/// todo.txt and done.txt merged as one list when a side archived a task: the task ends once,
/// where the merge of its versions puts it; it is never lost, doubled or brought back.
@Suite("Archive merge")
struct ArchiveMergeTests {
  /// One file's base, ours and theirs.
  typealias Sides = (base: [String], ours: [String], theirs: [String])

  static func versions(_ sides: Sides) -> MergeVersions {
    MergeVersions(
      base: MergeTests.list(sides.base), ours: MergeTests.list(sides.ours),
      theirs: MergeTests.list(sides.theirs))
  }

  /// Both files merged as one list. Each file's result is also made the way its git merge
  /// driver makes it (that file alone, the other's versions beside it, read from outside
  /// arrays as `todo merge` reads them), and must be the same.
  static func merge(
    todo: Sides, done: Sides, sourceLocation: SourceLocation = #_sourceLocation
  ) -> (todo: MergeResult, done: MergeResult) {
    let result = TodoMerge.merge(todo: versions(todo), done: versions(done))
    for (file, kind, other, joint) in [
      (todo, TodoMerge.ListFile.todo, done, result.todo), (done, .done, todo, result.done),
    ] {
      func buffer(_ lines: [String]) -> LineBuffer? {
        LineBuffer.copying(MergeTests.list(lines).serialized())
      }
      guard let base = buffer(file.base), let ours = buffer(file.ours),
        let theirs = buffer(file.theirs)
      else {
        Issue.record("no line buffer", sourceLocation: sourceLocation)
        continue
      }
      let alone = TodoMerge.merge(
        base: base, ours: ours, theirs: theirs, as: kind, other: versions(other))
      #expect(alone.list.serialized() == joint.list.serialized(), sourceLocation: sourceLocation)
      #expect(alone.conflicts == joint.conflicts, sourceLocation: sourceLocation)
    }
    return result
  }

  /// The same with ours and theirs swapped in both files.
  static func swapped(_ sides: Sides) -> Sides { (sides.base, sides.theirs, sides.ours) }

  static func lines(_ result: MergeResult) -> [String] { MergeTests.lines(result) }

  // MARK: Archived on one side, deleted on the other

  /// Item 1: a done task archived (moved as it was) on one side, deleted on the other.
  @Test(arguments: [["", "2026-11-01 Call mom"], ["2026-11-01 Call mom"]])
  func aDoneTaskArchivedOnOneSideAndDeletedOnTheOtherIsGoneFromBothFiles(deleted: [String]) {
    let base = ["x 2026-11-30 2026-11-01 File taxes", "2026-11-01 Call mom"]
    let todo: Sides = (base, ["2026-11-01 Call mom"], deleted)
    let done: Sides = ([], ["x 2026-11-30 2026-11-01 File taxes"], [])
    for result in [
      Self.merge(todo: todo, done: done),
      Self.merge(todo: Self.swapped(todo), done: Self.swapped(done)),
    ] {
      #expect(result.todo.isClean && result.done.isClean)
      #expect(Self.lines(result.done) == [])
      #expect(!Self.lines(result.todo).contains { $0.contains("File taxes") })
      #expect(Self.lines(result.todo).contains("2026-11-01 Call mom"))
    }
  }

  /// Item 2: completed and archived on one side, deleted on the other: the conflict it is
  /// without the archive, in done.txt, where the completing side put the task.
  @Test func aTaskCompletedAndArchivedOnOneSideAndDeletedOnTheOtherConflictsInDone() {
    let base = ["2026-11-01 Buy milk", "2026-11-01 Call mom"]
    let deleted = ["", "2026-11-01 Call mom"]
    let completed = "x 2026-12-01 2026-11-01 Buy milk"
    // Not archived: a conflict.
    let open = Self.merge(
      todo: (base, [completed, "2026-11-01 Call mom"], deleted), done: ([], [], []))
    #expect(open.todo.conflicts.map(\.reason) == [.deletedAndChanged])

    let todo: Sides = (base, ["2026-11-01 Call mom"], deleted)
    let done: Sides = ([], [completed], [])
    let archived = Self.merge(todo: todo, done: done)
    #expect(archived.todo.isClean)
    #expect(!Self.lines(archived.todo).contains { $0.contains("Buy milk") })
    #expect(archived.done.conflicts.map(\.reason) == [.deletedAndChanged])
    #expect(archived.done.conflicts.first?.ours?.line == completed)
    #expect(archived.done.conflicts.first?.theirs == nil)
    #expect(Self.lines(archived.done) == ["<<<<<<< ours", completed, "=======", ">>>>>>> theirs"])

    let mirrored = Self.merge(todo: Self.swapped(todo), done: Self.swapped(done))
    #expect(mirrored.todo.isClean)
    #expect(mirrored.done.conflicts.map(\.reason) == [.deletedAndChanged])
    #expect(mirrored.done.conflicts.first?.theirs?.line == completed)
    #expect(Self.lines(mirrored.done) == ["<<<<<<< ours", "=======", completed, ">>>>>>> theirs"])
  }

  /// A task reopened by moving it back from done.txt, its record cleared on the other side:
  /// the reopened task stays (clearing done.txt deletes no task).
  @Test func aTaskMovedBackOnOneSideWhoseRecordTheOtherClearedStays() {
    let done: Sides = (["x 2026-11-30 pay rent"], [], [])
    let todo: Sides = (["call mom"], ["call mom", "pay rent"], ["call mom"])
    for result in [
      Self.merge(todo: todo, done: done),
      Self.merge(todo: Self.swapped(todo), done: Self.swapped(done)),
    ] {
      #expect(result.todo.isClean && result.done.isClean)
      #expect(Self.lines(result.todo) == ["call mom", "pay rent"])
      #expect(Self.lines(result.done) == [])
    }
  }

  // MARK: Archived on both sides

  /// Item 3: archived on both sides, edited on one first: the edited done line, once.
  @Test func aTaskArchivedOnBothSidesAndEditedOnOneIsItsEditedDoneLineOnce() {
    let todo: Sides = (["x 2026-11-30 2026-11-01 File taxes"], [], [])
    let done: Sides = (
      [], ["x 2026-11-30 2026-11-01 File taxes receipt"], ["x 2026-11-30 2026-11-01 File taxes"]
    )
    for result in [
      Self.merge(todo: todo, done: done),
      Self.merge(todo: Self.swapped(todo), done: Self.swapped(done)),
    ] {
      #expect(result.todo.isClean && result.done.isClean)
      #expect(Self.lines(result.todo) == [])
      #expect(Self.lines(result.done) == ["x 2026-11-30 2026-11-01 File taxes receipt"])
    }
  }

  /// An open task completed on both sides on other days, edited on one, archived on both: one
  /// done line, done on the earlier day, with the edit.
  @Test func anOpenTaskCompletedAndArchivedOnBothSidesIsOneDoneLineWithBothChanges() {
    let todo: Sides = (["(B) 2026-11-01 File taxes +home", "call mom"], ["call mom"], ["call mom"])
    let done: Sides = (
      ["x 2026-10-01 old"],
      ["x 2026-10-01 old", "x 2026-12-02 2026-11-01 File taxes +home receipt"],
      ["x 2026-10-01 old", "x 2026-12-01 2026-11-01 File taxes +home pri:B"]
    )
    for result in [
      Self.merge(todo: todo, done: done),
      Self.merge(todo: Self.swapped(todo), done: Self.swapped(done)),
    ] {
      #expect(result.todo.isClean && result.done.isClean)
      #expect(Self.lines(result.todo) == ["call mom"])
      let done = Self.lines(result.done)
      #expect(done.count == 2, "\(done)")
      #expect(done.first == "x 2026-10-01 old")
      #expect(done.filter { $0.contains("File taxes") }.count == 1, "\(done)")
      #expect(
        done.contains { $0.hasPrefix("x 2026-12-01 2026-11-01 File taxes +home receipt") },
        "\(done)")
    }
  }

  /// Archived on both sides after each edited its text its own way: a conflict, in done.txt.
  @Test func aTaskEditedDifferentlyAndArchivedOnBothSidesConflictsInDone() {
    let todo: Sides = (["x 2026-11-30 File taxes"], [], [])
    let done: Sides = ([], ["x 2026-11-30 File taxes receipt"], ["x 2026-11-30 File taxes online"])
    let result = Self.merge(todo: todo, done: done)
    #expect(result.todo.isClean)
    #expect(result.done.conflicts.map(\.reason) == [.text])
    #expect(
      Self.lines(result.done) == [
        "<<<<<<< ours", "x 2026-11-30 File taxes receipt", "=======",
        "x 2026-11-30 File taxes online",
        ">>>>>>> theirs",
      ])
  }

  /// Moved back from done.txt on both sides, edited on one: the edited task, once.
  @Test func aTaskMovedBackOnBothSidesAndEditedOnOneIsItsEditedLineOnce() {
    let todo: Sides = (["call mom"], ["call mom", "pay rent +home"], ["call mom", "pay rent"])
    let done: Sides = (["x 2026-11-30 pay rent"], [], [])
    for result in [
      Self.merge(todo: todo, done: done),
      Self.merge(todo: Self.swapped(todo), done: Self.swapped(done)),
    ] {
      #expect(result.todo.isClean && result.done.isClean)
      #expect(Self.lines(result.todo) == ["call mom", "pay rent +home"])
      #expect(Self.lines(result.done) == [])
    }
  }

  /// Found by the property test: one side appended to a done task, archived it, and added
  /// a task written like it; the look-alike is a new task, the archived line is the task.
  @Test func aTaskEditedAndArchivedBesideALookAlikeIsTheArchivedLineOnce() {
    let base = ["x 2026-11-20 2026-11-01 water the plants w2", "(B) water the plants w4"]
    let todo: Sides = (base, ["(B) water the plants w4"], ["water the plants kb2"])
    let done: Sides = (
      [], ["x 2026-11-20 2026-11-01 water the plants w2"],
      ["x 2026-11-20 2026-11-01 water the plants w2 more"]
    )
    for result in [
      Self.merge(todo: todo, done: done),
      Self.merge(todo: Self.swapped(todo), done: Self.swapped(done)),
    ] {
      #expect(result.todo.isClean && result.done.isClean)
      #expect(Self.lines(result.todo) == ["water the plants kb2"])
      #expect(Self.lines(result.done) == ["x 2026-11-20 2026-11-01 water the plants w2 more"])
    }
  }

  /// Found by the property test: a task edited by adding words is that task, before a new
  /// task that resembles it more but lost one of its words; deleted on the other side, the
  /// conflict is about the edited task, and the new task is added.
  @Test func anEditThatKeptEveryWordIsTheTaskBeforeACloserLookAlike() {
    let base = ["x 2026-11-20 2026-11-01 water the plants w1", "Submit timesheet week w2"]
    let edited = "x 2026-11-20 2026-11-01 water the plants w1 more again and again"
    let theirs = [edited, "Submit timesheet week w2", "water the plants kb1"]
    let result = MergeTests.merge(base, ["Submit timesheet week w2"], theirs)
    #expect(result.conflicts.map(\.reason) == [.deletedAndChanged])
    #expect(result.conflicts.first?.theirs?.line == edited)
    #expect(Self.lines(result).filter { $0 == "water the plants kb1" }.count == 1)
    #expect(Self.lines(result).filter { $0 == edited }.count == 1)
  }

  // MARK: A conflict across both files

  /// Item 4: an edit of a task the other side archived conflicts in todo.txt, and the
  /// conflict names the line the archiving side put in done.txt, which `resolve` reads.
  @Test func anEditOfATaskTheOtherSideArchivedNamesTheArchivedLine() throws {
    let base = ["2026-11-01 File taxes", "2026-11-01 Call mom"]
    let edited = "(A) 2026-11-01 File taxes"
    let archivedLine = "x 2026-12-01 2026-11-01 File taxes"
    let todo: Sides = (base, [edited, "2026-11-01 Call mom"], ["2026-11-01 Call mom"])
    let done: Sides = ([], [], [archivedLine])
    let result = Self.merge(todo: todo, done: done)
    #expect(result.todo.conflicts.map(\.reason) == [.deletedAndChanged])
    #expect(result.todo.conflicts.first?.ours?.line == edited)
    #expect(result.todo.conflicts.first?.theirs == nil)
    #expect(result.todo.conflicts.first?.theirsMovedTo?.task.line == archivedLine)
    #expect(result.todo.conflicts.first?.oursMovedTo == nil)
    #expect(
      Self.lines(result.todo) == [
        "<<<<<<< ours", edited, "=======", ">>>>>>> theirs, moved to done.txt: " + archivedLine,
        "2026-11-01 Call mom",
      ])
    #expect(result.done.isClean && Self.lines(result.done) == [archivedLine])
    let blocks = try ConflictBlocks(result.todo.list).blocks
    #expect(blocks.count == 1)
    #expect(
      blocks.first?.theirsMove == ConflictBlocks.Move(file: .done, line: Array(archivedLine.utf8)))
    #expect(blocks.first?.oursMove == nil)

    let mirrored = Self.merge(todo: Self.swapped(todo), done: Self.swapped(done))
    #expect(mirrored.todo.conflicts.first?.oursMovedTo?.task.line == archivedLine)
    #expect(mirrored.todo.conflicts.first?.theirs?.line == edited)
    #expect(
      Self.lines(mirrored.todo) == [
        "<<<<<<< ours, moved to done.txt: " + archivedLine, "=======", edited, ">>>>>>> theirs",
        "2026-11-01 Call mom",
      ])
    let mirroredBlocks = try ConflictBlocks(mirrored.todo.list).blocks
    #expect(
      mirroredBlocks.first?.oursMove
        == ConflictBlocks.Move(file: .done, line: Array(archivedLine.utf8)))
  }

  /// The conflict keeps naming the archived line when the merge follows their order.
  @Test func theArchivedLineIsNamedWhenTheirOrderIsFollowed() {
    let base = ["a task", "b task", "2026-11-01 File taxes"]
    let archivedLine = "x 2026-12-01 2026-11-01 File taxes"
    // Theirs reordered and archived; ours edited.
    let todo: Sides = (
      base, ["a task", "b task", "(A) 2026-11-01 File taxes"], ["b task", "a task"]
    )
    let done: Sides = ([], [], [archivedLine])
    let result = Self.merge(todo: todo, done: done)
    #expect(result.todo.conflicts.first?.theirsMovedTo?.task.line == archivedLine)
    #expect(result.todo.conflicts.first?.ours?.line == "(A) 2026-11-01 File taxes")
    #expect(
      Self.lines(result.todo) == [
        "b task", "<<<<<<< ours", "(A) 2026-11-01 File taxes", "=======",
        ">>>>>>> theirs, moved to done.txt: " + archivedLine, "a task",
      ])
  }

  // MARK: When git takes done.txt from one side

  /// Git runs no driver for a file only one side changed: done.txt is then the archiving
  /// side's, as it is. The todo.txt merge carries what done.txt would have needed: a
  /// conflict naming the archived line, which `resolve` keeps or removes.
  @Test func whenGitTakesDoneFromTheArchivingSideTheTodoMergeCarriesTheDeletion() throws {
    let cases: [(base: [String], archiving: [String], line: String, reason: MergeConflictReason)] =
      [
        (
          ["x 2026-11-30 2026-11-01 File taxes", "2026-11-01 Call mom"], ["2026-11-01 Call mom"],
          "x 2026-11-30 2026-11-01 File taxes", .deletedAndMoved
        ),
        (
          ["2026-11-01 Buy milk", "2026-11-01 Call mom"], ["2026-11-01 Call mom"],
          "x 2026-12-01 2026-11-01 Buy milk", .deletedAndChanged
        ),
      ]
    for item in cases {
      let deleted = ["", "2026-11-01 Call mom"]
      let result = TodoMerge.merge(
        Self.versions((item.base, deleted, item.archiving)), as: .todo,
        other: Self.versions(([], [], [item.line])), otherMergedBy: .git)
      #expect(result.conflicts.map(\.reason) == [item.reason])
      #expect(result.conflicts.first?.theirsMovedTo?.task.line == item.line)
      #expect(
        Self.lines(result) == [
          "", "<<<<<<< ours", "=======", ">>>>>>> theirs, moved to done.txt: " + item.line,
          "2026-11-01 Call mom",
        ])
      let mirrored = TodoMerge.merge(
        Self.versions((item.base, item.archiving, deleted)), as: .todo,
        other: Self.versions(([], [item.line], [])), otherMergedBy: .git)
      #expect(mirrored.conflicts.first?.oursMovedTo?.task.line == item.line)
      #expect(Self.lines(mirrored).contains("<<<<<<< ours, moved to done.txt: " + item.line))
      // When both sides changed done.txt, its own driver settles it there: nothing here.
      let bothChanged = TodoMerge.merge(
        Self.versions((item.base, deleted, item.archiving)), as: .todo,
        other: Self.versions(
          (
            ["x 2026-01-01 old"], ["x 2026-01-01 old", "x 2026-12-01 other"],
            ["x 2026-01-01 old", item.line]
          )),
        otherMergedBy: .git)
      #expect(bothChanged.isClean && Self.lines(bothChanged) == deleted)
    }
  }

  // MARK: A recurring task completed on one side, edited on the other

  /// Item 5: the edit made on the other side lands on the completed task and on the next
  /// occurrence its completion added, as if the edit had been made before it was completed.
  @Test(arguments: [
    (
      "(B) water plants due:2026-12-01 rec:2w",
      "x 2026-12-01 water plants due:2026-12-01 rec:2w pri:B",
      "(B) water plants due:2026-12-15 rec:2w"
    ),
    (
      "(B) water plants due:2026-12-01 rec:1w +garden",
      "x 2026-12-01 water plants due:2026-12-01 rec:1w +garden pri:B",
      "(B) water plants due:2026-12-08 rec:1w +garden"
    ),
    (
      "(A) water plants due:2026-12-01 rec:1w",
      "x 2026-12-01 water plants due:2026-12-01 rec:1w pri:A",
      "(A) water plants due:2026-12-08 rec:1w"
    ),
    (
      "(B) water plants due:2026-12-01 rec:+1w t:2026-11-29",
      "x 2026-12-01 water plants due:2026-12-01 rec:+1w t:2026-11-29 pri:B",
      "(B) water plants due:2026-12-08 rec:+1w t:2026-12-06"
    ),
  ])
  func anEditOfARecurringTaskTheOtherSideCompletedLandsOnTheNextOccurrenceToo(
    edited: String, done: String, next: String
  ) {
    let base = ["(B) water plants due:2026-12-01 rec:1w", "call mom"]
    let completed = [
      "x 2026-12-01 water plants due:2026-12-01 rec:1w pri:B", "call mom",
      "(B) water plants due:2026-12-08 rec:1w",
    ]
    let changed = [edited, "call mom"]
    for result in [
      MergeTests.merge(base, completed, changed), MergeTests.merge(base, changed, completed),
    ] {
      #expect(result.isClean, "\(result.conflicts)")
      #expect(Self.lines(result) == [done, "call mom", next])
    }
  }

  /// When the completing side changed the next occurrence too, both changes are kept, and
  /// the same field changed both ways is a conflict.
  @Test func aNextOccurrenceChangedOnTheCompletingSideTakesTheOtherSidesEditOrConflicts() {
    let base = ["(B) water plants due:2026-12-01 rec:1w"]
    let completed = [
      "x 2026-12-01 water plants due:2026-12-01 rec:1w pri:B",
      "(B) water plants due:2026-12-08 rec:1w @home",
    ]
    let both = MergeTests.merge(base, completed, ["(A) water plants due:2026-12-01 rec:1w"])
    #expect(both.isClean)
    #expect(
      Self.lines(both) == [
        "x 2026-12-01 water plants due:2026-12-01 rec:1w pri:A",
        "(A) water plants due:2026-12-08 rec:1w @home",
      ])
    let reprioritized = [
      "x 2026-12-01 water plants due:2026-12-01 rec:1w pri:B",
      "(C) water plants due:2026-12-08 rec:1w",
    ]
    let clash = MergeTests.merge(base, reprioritized, ["(A) water plants due:2026-12-01 rec:1w"])
    #expect(clash.conflicts.map(\.reason) == [.priority])
    #expect(clash.conflicts.first?.ours?.line == "(C) water plants due:2026-12-08 rec:1w")
    #expect(clash.conflicts.first?.theirs?.line == "(A) water plants due:2026-12-08 rec:1w")
  }

  /// A list large enough that its two pairings with the base are made on two threads
  /// (``TodoMerge``'s `SidePairings`, from 20,000 lines): the merge of both files is the same
  /// as each file's merge alone, whose pairings are made one after the other. Each side
  /// edits, completes, archives and adds tasks of its own, and some of the same tasks.
  @Test(arguments: [UInt64(1), 2])
  func aLargeListsPairingsMadeAtOnceMergeAsOneAfterTheOther(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let base = (0..<25_000).map { "2026-11-\(10 + $0 % 18) task \($0) +p\($0 % 40) @c\($0 % 7)" }
    func side(_ name: String) -> (todo: [String], done: [String]) {
      var todo: [String] = []
      var done: [String] = []
      for line in base {
        switch random.below(100) {
        case 0: continue  // deleted
        case 1: done.append("x 2026-12-01 " + line)  // archived
        case 2: todo.append("x 2026-12-01 " + line)  // completed
        case 3: todo.append("(B) " + line)
        case 4: todo.append(line + " on the " + name)
        default: todo.append(line)
        }
        if random.below(500) == 0 { todo.append("new from the \(name) \(random.below(1_000))") }
      }
      return (todo, done)
    }
    let (ours, theirs) = (side("laptop"), side("phone"))
    let result = Self.merge(
      todo: (base, ours.todo, theirs.todo), done: ([], ours.done, theirs.done))
    #expect(result.todo.list.count > 20_000)
  }
}
