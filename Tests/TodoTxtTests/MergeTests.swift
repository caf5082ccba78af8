import Testing
import TodoTxt
import TodoTestSupport

/// Three-way and two-way merges of todo lists, task by task.
@Suite("Merge")
struct MergeTests {
  /// A list from lines, each ended with a line feed.
  static func list(_ lines: [String]) -> TodoList {
    TodoList(parsing: lines.map { $0 + "\n" }.joined())
  }

  /// The merge of lists, checked against the same merge of the files held outside arrays
  /// (``LineBuffer``, as `todo merge` reads them).
  static func merge(
    _ base: [String], _ ours: [String], _ theirs: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> MergeResult {
    let result = TodoMerge.merge(base: list(base), ours: list(ours), theirs: list(theirs))
    func buffer(_ lines: [String]) -> LineBuffer? { LineBuffer.copying(list(lines).serialized()) }
    if let base = buffer(base), let ours = buffer(ours), let theirs = buffer(theirs) {
      let buffered = TodoMerge.merge(base: base, ours: ours, theirs: theirs)
      #expect(buffered.list.serialized() == result.list.serialized(), sourceLocation: sourceLocation)
      #expect(buffered.conflicts == result.conflicts, sourceLocation: sourceLocation)
    } else {
      Issue.record("no line buffer", sourceLocation: sourceLocation)
    }
    return result
  }

  static func lines(_ result: MergeResult) -> [String] { result.list.map(\.line) }

  // MARK: One side

  @Test func changesOnOneSideAreTaken() {
    let base = ["(A) call mom", "buy milk", "water plants"]
    let ours = ["(A) call mom", "buy milk @store", "water plants"]
    let result = Self.merge(base, ours, base)
    #expect(result.isClean)
    #expect(Self.lines(result) == ours)
    #expect(Self.lines(Self.merge(base, base, ours)) == ours)
  }

  /// A project or context renamed on one side is the same task: a completion, priority or
  /// tag on the other side joins it, however few the other words; both sides renaming it
  /// differently conflicts; two tasks added that differ in a project stay two.
  @Test(arguments: [
    ("call +Mom", "call +Mother", "x 2026-01-02 call +Mom", "x 2026-01-02 call +Mother"),
    ("paint fence +Home @garden", "paint fence +House @yard", "(A) paint fence +Home @garden", "(A) paint fence +House @yard"),
    ("fix bike +Home due:2026-01-05", "fix bike +House due:2026-01-05", "fix bike +Home due:2026-02-01", "fix bike +House due:2026-02-01"),
  ])
  func aRenameMergesWithOtherChanges(_ base: String, _ renamed: String, _ changed: String, _ both: String) {
    for (ours, theirs) in [(renamed, changed), (changed, renamed)] {
      let result = Self.merge([base, "other"], [ours, "other"], [theirs, "other"])
      #expect(result.isClean, "\(ours) / \(theirs)")
      #expect(Self.lines(result) == [both, "other"])
    }
    let twice = Self.merge([base], [renamed], [changed.replacingOccurrences(of: "+Mom", with: "+Mum")
      .replacingOccurrences(of: "+Home", with: "+Flat")])
    #expect(twice.conflicts.map(\.reason) == [.text], "\(Self.lines(twice))")
    let added = Self.merge(["other"], ["other", "call mom +family"], ["other", "call mom +work"])
    #expect(added.isClean)
    #expect(Self.lines(added) == ["other", "call mom +family", "call mom +work"])
  }

  @Test func deletedOnOneSideAndUntouchedOnTheOtherIsDeleted() {
    let base = ["a task", "b task", "c task"]
    let result = Self.merge(base, ["a task", "c task"], base)
    #expect(result.isClean)
    #expect(Self.lines(result) == ["a task", "c task"])
    #expect(Self.lines(Self.merge(base, base, ["a task", "c task"])) == ["a task", "c task"])
  }

  @Test func deletedOnOneSideAndChangedOnTheOtherConflicts() {
    let base = ["a task", "b task"]
    let result = Self.merge(base, ["a task"], ["a task", "(B) b task"])
    #expect(result.conflicts.map(\.reason) == [.deletedAndChanged])
    #expect(
      Self.lines(result) == ["a task", "<<<<<<< ours", "=======", "(B) b task", ">>>>>>> theirs"])
    let mirrored = Self.merge(base, ["a task", "(B) b task"], ["a task"])
    #expect(
      Self.lines(mirrored) == ["a task", "<<<<<<< ours", "(B) b task", "=======", ">>>>>>> theirs"])
  }

  @Test func aTaskOnlyResemblingTheOldOneNeverTakesTheOtherSidesChange() {
    // Ours archived week 48 and added week 49; theirs completed week 48.
    let base = ["Submit timesheet week 48 +work"]
    let ours = ["2026-12-01 Submit timesheet week 49 +work"]
    let theirs = ["x 2026-12-01 Submit timesheet week 48 +work"]
    for result in [Self.merge(base, ours, theirs), Self.merge(base, theirs, ours)] {
      #expect(result.conflicts.map(\.reason) == [.uncertainMatch])
      #expect(!Self.lines(result).contains("x 2026-12-01 Submit timesheet week 49 +work"))
      #expect(Self.lines(result).contains(ours[0]) && Self.lines(result).contains(theirs[0]))
    }
    // A priority set on the old task does not move onto the new one either.
    let prioritized = Self.merge(base, ours, ["(A) Submit timesheet week 48 +work"])
    #expect(prioritized.conflicts.map(\.reason) == [.uncertainMatch])
  }

  @Test func aTaskOnlyResemblingTheOldOneIsTakenWhenTheOtherSideLeftItAlone() {
    let base = ["Submit timesheet week 48 +work", "call mom"]
    let ours = ["Submit timesheet week 49 +work", "call mom"]
    let result = Self.merge(base, ours, ["Submit timesheet week 48 +work", "(A) call mom"])
    #expect(result.isClean)
    #expect(Self.lines(result) == ["Submit timesheet week 49 +work", "(A) call mom"])
  }

  @Test func theOrderOfTheSideThatReorderedIsKept() {
    let base = ["a task", "b task", "c task", "d task"]
    let reordered = ["c task", "a task", "b task", "d task"]
    let edited = ["a task", "(A) b task", "c task", "d task", "e task"]
    let expected = ["c task", "a task", "(A) b task", "d task", "e task"]
    let ours = Self.merge(base, edited, reordered)
    #expect(ours.isClean)
    #expect(Self.lines(ours) == expected)
    let theirs = Self.merge(base, reordered, edited)
    #expect(theirs.isClean)
    #expect(Self.lines(theirs) == expected)
  }

  @Test func aConflictKeepsItsSidesWhenTheirOrderIsFollowed() {
    let base = ["a task", "b task"]
    let result = Self.merge(base, ["a task", "(A) b task"], ["(B) b task", "a task"])
    #expect(result.conflicts.count == 1)
    #expect(result.conflicts.first?.ours?.line == "(A) b task")
    #expect(result.conflicts.first?.theirs?.line == "(B) b task")
    #expect(
      Self.lines(result) == [
        "<<<<<<< ours", "(A) b task", "=======", "(B) b task", ">>>>>>> theirs", "a task",
      ])
  }

  @Test func archivedOnOneSideAndCompletedOnTheOtherIsNoConflict() {
    let base = ["(B) call mom", "buy milk"]
    let archived = ["buy milk"]
    for completed in [["x 2026-12-01 call mom", "buy milk"], ["x 2026-12-02 call mom pri:B", "buy milk"]] {
      for result in [Self.merge(base, archived, completed), Self.merge(base, completed, archived)] {
        #expect(result.isClean)
        #expect(Self.lines(result) == ["buy milk"])
      }
    }
    // Completed and edited is still a conflict with the deletion.
    let edited = Self.merge(base, archived, ["x 2026-12-01 call mom tonight", "buy milk"])
    #expect(edited.conflicts.map(\.reason) == [.deletedAndChanged])
  }

  // MARK: todo.txt and done.txt as one list

  /// Both files merged as one list, each side's todo.txt and done.txt given as lines.
  static func mergeLists(
    todo: (base: [String], ours: [String], theirs: [String]),
    done: (base: [String], ours: [String], theirs: [String])
  ) -> (todo: MergeResult, done: MergeResult) {
    TodoMerge.merge(
      todo: MergeVersions(base: list(todo.base), ours: list(todo.ours), theirs: list(todo.theirs)),
      done: MergeVersions(base: list(done.base), ours: list(done.ours), theirs: list(done.theirs)))
  }

  @Test func aTaskDeletedOnOneSideAndCompletedOnTheOtherConflictsUnlessItWasArchived() {
    let base = ["buy milk", "call mom"]
    let completed = ["x 2026-12-01 buy milk", "call mom"]
    // Deleted (or rewritten past recognition) with done.txt untouched: which was meant, the
    // deletion or the completion, is the user's to say.
    for (ours, theirs) in [(["call mom"], completed), (completed, ["call mom"])] {
      let deleted = Self.mergeLists(todo: (base, ours, theirs), done: ([], [], []))
      #expect(deleted.todo.conflicts.map(\.reason) == [.deletedAndChanged])
      #expect(deleted.done.isClean)
    }
    // Archived: the task went to done.txt, done already; the completion there is no conflict.
    let archived = Self.mergeLists(
      todo: (base, ["call mom"], completed), done: ([], ["x 2026-11-30 buy milk"], []))
    #expect(archived.todo.isClean && archived.done.isClean)
    #expect(Self.lines(archived.todo) == ["call mom"])
    #expect(Self.lines(archived.done) == ["x 2026-11-30 buy milk"])
    // One file alone cannot tell an archiving from a deletion and keeps reading it as one.
    #expect(Self.merge(base, ["call mom"], completed).isClean)
  }

  @Test func aTaskArchivedOnOneSideIsItsDoneLineNotTheLookAlikeAddedAfterIt() {
    let base = ["Submit timesheet week 48 +work", "call mom"]
    let archiving = ["2026-12-01 Submit timesheet week 49 +work", "call mom"]
    let archived = ["x 2026-12-01 Submit timesheet week 48 +work"]
    let completed = ["x 2026-12-02 Submit timesheet week 48 +work", "call mom"]
    for swapped in [false, true] {
      let result =
        swapped
        ? Self.mergeLists(todo: (base, completed, archiving), done: ([], [], archived))
        : Self.mergeLists(todo: (base, archiving, completed), done: ([], archived, []))
      #expect(result.todo.isClean && result.done.isClean, "\(swapped)")
      #expect(Self.lines(result.todo) == ["2026-12-01 Submit timesheet week 49 +work", "call mom"])
      #expect(Self.lines(result.done) == archived)
    }
    // Merged alone, todo.txt cannot know it: unsure which task was completed, a conflict.
    let alone = Self.merge(base, archiving, completed)
    #expect(alone.conflicts.map(\.reason) == [.uncertainMatch])
  }

  @Test func aChangeOfATaskTheOtherSideArchivedConflictsAndLeavesTheLookAlikeAlone() {
    let base = ["Submit timesheet week 48 +work"]
    let archiving = ["2026-12-01 Submit timesheet week 49 +work"]
    let archived = ["x 2026-12-01 Submit timesheet week 48 +work"]
    for edited in ["(A) Submit timesheet week 48 +work", "Submit timesheet week 48 +work by friday"] {
      let result = Self.mergeLists(todo: (base, [edited], archiving), done: ([], [], archived))
      #expect(result.todo.conflicts.map(\.reason) == [.deletedAndChanged])
      #expect(result.todo.conflicts.first?.ours?.line == edited)
      // Their new task heads their file, so it heads the result. Their side of the conflict
      // is the archived line, named after their label (it stays in done.txt).
      #expect(
        Self.lines(result.todo) == [
          "2026-12-01 Submit timesheet week 49 +work",
          "<<<<<<< ours", edited, "=======", ">>>>>>> theirs, moved to done.txt: " + archived[0],
        ])
      #expect(result.done.isClean && Self.lines(result.done) == archived)
    }
  }

  @Test func aLineLeftAsItWasBesideItsArchivedCopyIsUnsureWhenTheOtherSideChangedIt() {
    // "water plants" archived and written again, or a copy of it added and archived: which
    // line is the task is unknown, so the other side's change of it joins neither.
    let base = ["water plants"]
    let done = ["x 2026-12-01 water plants"]
    let completed = Self.mergeLists(
      todo: (base, base, ["x 2026-12-02 water plants"]), done: ([], done, []))
    #expect(completed.todo.conflicts.map(\.reason) == [.uncertainMatch])
    let deleted = Self.mergeLists(todo: (base, [], base), done: ([], [], done))
    #expect(deleted.todo.conflicts.map(\.reason) == [.uncertainMatch])
    #expect(Self.lines(deleted.todo) == ["<<<<<<< ours", "=======", "water plants", ">>>>>>> theirs"])
    // Left alone on the other side: nothing to doubt.
    let alone = Self.mergeLists(todo: (base, base, base), done: ([], done, []))
    #expect(alone.todo.isClean && Self.lines(alone.todo) == base)
    #expect(Self.lines(alone.done) == done)
  }

  @Test func aTaskMovedBackFromDoneOnBothSidesIsNotTheLookAlikeArchivedOnOne() {
    let todoBase = ["call mom"]
    let reopened = ["call mom", "Submit timesheet week 48 +work"]
    let doneBase = ["x 2026-11-20 Submit timesheet week 48 +work"]
    let archived = ["x 2026-12-01 Submit timesheet week 49 +work"]
    let result = Self.mergeLists(
      todo: (todoBase, reopened, reopened), done: (doneBase, archived, []))
    #expect(result.todo.isClean && result.done.isClean)
    #expect(Self.lines(result.todo) == reopened)
    #expect(Self.lines(result.done) == archived)
    // done.txt merged alone takes week 49's line for the old week 48 changed: a conflict.
    #expect(Self.merge(doneBase, archived, []).conflicts.map(\.reason) == [.deletedAndChanged])
  }

  /// With done.txt the same everywhere the two-file merge is the one-file merge, but for one
  /// thing only done.txt can tell: a task deleted on one side without being archived, and
  /// completed on the other, is a conflict, not a deletion.
  @Test func withNothingMovedBothFilesMergeAsEachAloneButForDeletionsOfCompletedTasks() {
    var g = SplitMix64(seed: 7)
    for _ in 0..<100 {
      let todo = Self.randomList(&g)
      let done = Self.randomList(&g)
      let ours = Self.randomEdit(todo, &g)
      let theirs = Self.randomEdit(todo, &g)
      // done.txt the same on every side: nothing was archived or moved back.
      let joint = TodoMerge.merge(
        todo: MergeVersions(base: todo, ours: ours, theirs: theirs),
        done: MergeVersions(base: done, ours: done, theirs: done))
      let alone = TodoMerge.merge(base: todo, ours: ours, theirs: theirs)
      #expect(alone.conflicts.allSatisfy(joint.todo.conflicts.contains))
      let extra = joint.todo.conflicts.filter { !alone.conflicts.contains($0) }
      for conflict in extra {
        let kept = conflict.ours ?? conflict.theirs
        #expect(conflict.reason == .deletedAndChanged && (conflict.ours == nil) != (conflict.theirs == nil))
        #expect(kept.map { $0.isCompleted } == true && conflict.base.map { !$0.isCompleted } == true, "\(conflict)")
      }
      if extra.isEmpty { #expect(joint.todo.list.serialized() == alone.list.serialized()) }
      #expect(joint.done.list.serialized() == done.serialized())
    }
  }

  @Test func aBulkEditBeyondTheAllPairsLimitStillMergesWithTheOtherSidesCompletions() {
    // 600 x 600 candidate pairs, beyond the limit; the bulk edit adds a project to each.
    let count = 600
    let base = (0..<count).map { "task \($0) review the report +work" }
    let renamed = (0..<count).map { "task \($0) review the report +work +q4" }
    let done = Set(stride(from: 7, to: count, by: 40))
    let completed = base.indices.map { done.contains($0) ? "x 2026-12-01 " + base[$0] : base[$0] }
    let expected = renamed.indices.map {
      done.contains($0) ? "x 2026-12-01 " + renamed[$0] : renamed[$0]
    }
    for result in [Self.merge(base, renamed, completed), Self.merge(base, completed, renamed)] {
      #expect(result.isClean, "\(result.conflicts.count) conflicts")
      #expect(Self.lines(result) == expected)
    }
  }

  // MARK: Tasks with the same text

  @Test func anEditToOneOfTwoTasksWithTheSameTextLandsOnThatOne() {
    // Ours completes the second "call mom" (by its number); theirs gives the first a priority.
    let base = ["call mom", "water plants", "call mom"]
    let ours = ["call mom", "water plants", "x 2026-12-01 call mom"]
    let theirs = ["(A) call mom", "water plants", "call mom"]
    let expected = ["(A) call mom", "water plants", "x 2026-12-01 call mom"]
    for result in [Self.merge(base, ours, theirs), Self.merge(base, theirs, ours)] {
      #expect(result.isClean)
      #expect(Self.lines(result) == expected)
    }
  }

  @Test func twoTasksWithTheSameTextEachCompletedOnOneSideAreBothDone() {
    let base = ["call mom", "call mom", "water plants"]
    let ours = ["x 2026-12-01 call mom", "call mom", "water plants"]
    let theirs = ["call mom", "x 2026-12-02 call mom", "water plants"]
    let expected = ["x 2026-12-01 call mom", "x 2026-12-02 call mom", "water plants"]
    for result in [Self.merge(base, ours, theirs), Self.merge(base, theirs, ours)] {
      #expect(result.isClean)
      #expect(Self.lines(result) == expected)
    }
  }

  @Test func oneOfTwoTasksWithTheSameTextDeletedAndTheOtherCompleted() {
    let base = ["call mom", "water plants", "call mom"]
    // Ours deletes the first, theirs completes the second: the second stays, done.
    let first = Self.merge(
      base, ["water plants", "call mom"], ["call mom", "water plants", "x 2026-12-01 call mom"])
    #expect(first.isClean)
    #expect(Self.lines(first) == ["water plants", "x 2026-12-01 call mom"])
    // Ours deletes the second, theirs completes the first.
    let second = Self.merge(
      base, ["x 2026-12-01 call mom", "water plants"], ["call mom", "water plants"])
    #expect(second.isClean)
    #expect(Self.lines(second) == ["x 2026-12-01 call mom", "water plants"])
  }

  @Test func aChangeToTheCopyTheOtherSideDeletedConflicts() {
    // Ours deletes the first "call mom" and completes the second; theirs edits the first.
    let base = ["call mom", "water plants", "call mom"]
    let ours = ["water plants", "x 2026-12-01 call mom"]
    let theirs = ["(A) call mom", "water plants", "call mom"]
    for result in [Self.merge(base, ours, theirs), Self.merge(base, theirs, ours)] {
      #expect(result.conflicts.map(\.reason) == [.deletedAndChanged])
      #expect(Self.lines(result).contains("x 2026-12-01 call mom"))
      #expect(Self.lines(result).contains("(A) call mom"))
    }
  }

  @Test func oneOfTwoNeighbouringCopiesDeletedWhileTheOtherSideChangedOneConflicts() {
    // Nothing tells which of the two neighbours ours deleted: if the one theirs completed,
    // the result is one open task; if the other, one done task.
    let base = ["call mom", "call mom", "water plants"]
    let ours = ["call mom", "water plants"]
    for theirs in [
      ["x 2026-12-01 call mom", "call mom", "water plants"],
      ["call mom", "(B) call mom", "water plants"],
    ] {
      for (result, reversed) in [
        (Self.merge(base, ours, theirs), false), (Self.merge(base, theirs, ours), true),
      ] {
        #expect(!result.isClean, "\(theirs) reversed: \(reversed)")
        #expect(Self.lines(result).contains(theirs.first { $0 != "call mom" } ?? ""))
      }
    }
  }

  @Test func oneOfTwoNeighbouringCopiesDeletedIsCleanWhenTheOtherSideLeftThemAlone() {
    let base = ["call mom", "call mom", "water plants"]
    let ours = ["call mom", "water plants"]
    let theirs = ["call mom", "call mom", "(A) water plants"]
    for result in [Self.merge(base, ours, theirs), Self.merge(base, theirs, ours)] {
      #expect(result.isClean)
      #expect(Self.lines(result) == ["call mom", "(A) water plants"])
    }
  }

  // MARK: Both sides

  @Test func aTaskAddedOnBothSidesIsAddedOnce() {
    let base = ["a task"]
    let result = Self.merge(
      base, ["a task", "new one", "ours only"], ["a task", "theirs only", "new one"])
    #expect(result.isClean)
    // Their addition goes where they put it: before the task both added.
    #expect(Self.lines(result) == ["a task", "theirs only", "new one", "ours only"])
  }

  @Test func additionsAtTheEndKeepOursFirstThenTheirs() {
    let base = ["one", "two"]
    let result = Self.merge(base, ["one", "two", "three"], ["one", "two", "four", "five"])
    #expect(Self.lines(result) == ["one", "two", "three", "four", "five"])
  }

  @Test func theirAdditionStaysWhereTheyPutIt() {
    let base = ["one", "two", "three"]
    let result = Self.merge(
      base, ["one", "two", "three", "mine"], ["one", "inserted", "two", "three"])
    #expect(Self.lines(result) == ["one", "inserted", "two", "three", "mine"])
  }

  @Test func completedOnOneSideAndEditedOnTheOtherIsTheEditedTaskCompleted() {
    let base = ["(A) 2026-01-02 call mom +family", "buy milk"]
    let ours = ["x 2026-03-01 2026-01-02 call mom +family pri:A", "buy milk"]
    let theirs = ["(A) 2026-01-02 call mom tonight +family due:2026-03-04", "buy milk"]
    let result = Self.merge(base, ours, theirs)
    #expect(result.isClean)
    #expect(
      Self.lines(result) == [
        "x 2026-03-01 2026-01-02 call mom tonight +family due:2026-03-04 pri:A", "buy milk",
      ])
    // The same from the other side.
    let mirrored = Self.merge(base, theirs, ours)
    #expect(Self.lines(mirrored) == Self.lines(result))
  }

  @Test func priorityRemovedOnOneSideAndCompletedOnTheOtherIsDoneWithoutIt() {
    // Completing keeps the priority as pri:A; the other side's removal of it still holds.
    for (ours, theirs) in [(["plan trip"], ["x 2009-02-13 plan trip pri:A"]), (["x 2009-02-13 plan trip pri:A"], ["plan trip"])] {
      let result = Self.merge(["(A) plan trip"], ours, theirs)
      #expect(result.isClean, "\(ours) \(theirs)")
      #expect(Self.lines(result) == ["x 2009-02-13 plan trip"])
    }
  }

  @Test func completedTheTodoShWayKeepsNoPriority() {
    let base = ["(B) pay rent"]
    let result = Self.merge(base, ["x 2026-03-01 pay rent"], ["(B) pay rent @home"])
    #expect(result.isClean)
    #expect(Self.lines(result) == ["x 2026-03-01 pay rent @home"])
  }

  @Test func differentFieldsChangedOnEachSideAreCombined() {
    let base = ["(C) plan trip +travel due:2026-05-01"]
    let result = Self.merge(
      base, ["(A) plan trip +travel due:2026-05-01"], ["(C) plan trip +travel due:2026-06-01 @desk"]
    )
    #expect(result.isClean)
    #expect(Self.lines(result) == ["(A) plan trip +travel due:2026-06-01 @desk"])
  }

  @Test func priorityChangedOnBothSidesConflicts() {
    let base = ["(C) plan trip", "other"]
    let result = Self.merge(base, ["(A) plan trip", "other"], ["(B) plan trip", "other"])
    #expect(result.conflicts.map(\.reason) == [.priority])
    #expect(
      Self.lines(result) == [
        "<<<<<<< ours", "(A) plan trip", "=======", "(B) plan trip", ">>>>>>> theirs", "other",
      ])
  }

  @Test func aTagChangedOnBothSidesConflicts() {
    let base = ["plan trip due:2026-05-01"]
    let result = Self.merge(base, ["plan trip due:2026-05-02"], ["plan trip due:2026-05-03"])
    #expect(result.conflicts.map(\.reason) == [.tag("due")])
  }

  @Test func theSameChangeOnBothSidesIsNoConflict() {
    let base = ["(C) plan trip due:2026-05-01"]
    let both = ["(A) plan trip due:2026-05-09"]
    let result = Self.merge(base, both, both)
    #expect(result.isClean)
    #expect(Self.lines(result) == both)
  }

  @Test func textRewrittenOnBothSidesConflicts() {
    let base = ["write the annual report for the board"]
    let result = Self.merge(
      base, ["write the annual report for the board today"],
      ["write the annual report for the whole board"])
    #expect(result.conflicts.map(\.reason) == [.text])
  }

  @Test func conflictLabelsAndKeepBoth() {
    let base = TodoList(parsing: "(C) x1\n")
    let ours = TodoList(parsing: "(A) x1\n")
    let theirs = TodoList(parsing: "(B) x1\n")
    let labelled = TodoMerge.merge(
      base: base, ours: ours, theirs: theirs, conflictStyle: .markers(ours: "a", theirs: "b"))
    #expect(labelled.list.text == "<<<<<<< a\n(A) x1\n=======\n(B) x1\n>>>>>>> b\n")
    let both = TodoMerge.merge(base: base, ours: ours, theirs: theirs, conflictStyle: .keepBoth)
    #expect(both.list.text == "(A) x1\n(B) x1\n")
    #expect(both.conflicts.count == 1)
  }

  // MARK: Bytes

  @Test func lineEndingsAndByteOrderMarkAreOurs() {
    let base = TodoList(bytes: utf8("one\ntwo\nthree"))
    let ours = TodoList(bytes: TodoList.byteOrderMark + utf8("one\r\ntwo\r\nthree"))
    let theirs = TodoList(bytes: utf8("one\n(A) two\nthree\nfour\n"))
    let result = TodoMerge.merge(base: base, ours: ours, theirs: theirs)
    #expect(
      result.list.serialized() == TodoList.byteOrderMark
        + utf8("one\r\n(A) two\r\nthree\r\nfour\r\n"))
    #expect(result.list.changes().count == 4)
  }

  @Test func mixedEndingsStayOnTheirLines() {
    let base = TodoList(bytes: utf8("a\nb\nc\n"))
    let ours = TodoList(bytes: utf8("a\r\nb\nc\r\n"))
    let theirs = TodoList(bytes: utf8("a\nb +p\nc\n"))
    #expect(
      TodoMerge.merge(base: base, ours: ours, theirs: theirs).list.serialized()
        == utf8("a\r\nb +p\nc\r\n"))
  }

  @Test func blankLinesLeftByTodoShDeletionsStay() {
    let base = ["one", "two", "three"]
    let result = Self.merge(base, ["one", "", "three"], ["one", "two", "three", "four"])
    #expect(Self.lines(result) == ["one", "", "three", "four"])
  }

  // MARK: Two-way and union

  @Test func twoWayWithoutBaseKeepsEverything() {
    let result = TodoMerge.merge(
      base: nil, ours: Self.list(["a", "(A) b", "c"]),
      theirs: Self.list(["a", "x 2026-02-02 b pri:A", "d"]))
    #expect(result.isClean)
    #expect(Self.lines(result) == ["a", "x 2026-02-02 b pri:A", "c", "d"])
  }

  @Test func unionKeepsOrderWithoutDuplicates() {
    let ours = Self.list(["x 2026-01-01 a", "x 2026-01-02 b"])
    let theirs = Self.list([
      "x 2026-01-01 a", "x 2026-01-03 c", "", "x 2026-01-02 b", "x 2026-01-03 c",
    ])
    let result = TodoMerge.union(ours: ours, theirs: theirs)
    #expect(result.isClean)
    #expect(Self.lines(result) == ["x 2026-01-01 a", "x 2026-01-03 c", "x 2026-01-02 b"])
  }

  // MARK: Properties

  /// Lines that look like real tasks, with parts that merges care about.
  static func randomTask(_ g: inout SplitMix64) -> String {
    let words = [
      "call", "mom", "buy", "milk", "plan", "trip", "fix", "bike", "read", "book", "pay", "rent",
    ]
    var parts: [String] = []
    if g.next() % 5 == 0 { parts.append("x 2026-0\(1 + g.next() % 9)-1\(g.next() % 10)") }
    if g.next() % 3 == 0 { parts.append("(\(["A", "B", "C"][Int(g.next() % 3)]))") }
    for _ in 0..<(1 + Int(g.next() % 4)) {
      parts.append(words[Int(g.next() % UInt64(words.count))])
    }
    if g.next() % 3 == 0 { parts.append("+p\(g.next() % 3)") }
    if g.next() % 3 == 0 { parts.append("due:2026-05-0\(1 + g.next() % 9)") }
    if g.next() % 9 == 0 { parts.append("") }
    return parts.joined(separator: " ")
  }

  static func randomList(_ g: inout SplitMix64) -> TodoList {
    if g.next() % 4 == 0 { return TodoList(bytes: PropertyTests.randomFile(&g)) }
    return list((0..<Int(g.next() % 8)).map { _ in randomTask(&g) })
  }

  /// Edits a list the ways the commands do: add, delete, complete, change priority or tags,
  /// append text.
  static func randomEdit(_ list: TodoList, _ g: inout SplitMix64) -> TodoList {
    var list = list
    for _ in 0..<Int(g.next() % 4) {
      let index = list.isEmpty ? 0 : Int(g.next() % UInt64(list.count))
      switch g.next() % 6 {
      case 0: list.append(Task(parsing: randomTask(&g)))
      case 1 where !list.isEmpty: list.remove(at: index)
      case 2 where !list.isEmpty:
        var task = list[index]
        task.complete(on: day("2026-04-0\(1 + g.next() % 9)"))
        list.replace(at: index, with: task)
      case 3 where !list.isEmpty:
        var task = list[index]
        task.setPriority(Priority(["A", "B", "C"][Int(g.next() % 3)]))
        list.replace(at: index, with: task)
      case 4 where !list.isEmpty:
        var task = list[index]
        task.setTag("due", "2026-06-0\(1 + g.next() % 9)")
        list.replace(at: index, with: task)
      case 5 where !list.isEmpty:
        var task = list[index]
        task.appendText("soon")
        list.replace(at: index, with: task)
      default: break
      }
    }
    return list
  }

  @Test("merging a list with itself, or with an unchanged base, gives the list")
  func mergeWithItselfIsIdentity() {
    var g = SplitMix64(seed: 0x3E4E)
    for seed in 1...1_500 {
      let x = Self.randomList(&g)
      let other = Self.randomList(&g)
      let bytes = x.serialized()
      #expect(
        TodoMerge.merge(base: x, ours: x, theirs: x).list.serialized() == bytes, "case \(seed)")
      #expect(
        TodoMerge.merge(base: other, ours: x, theirs: x).list.serialized() == bytes, "case \(seed)")
      #expect(
        TodoMerge.merge(base: nil, ours: x, theirs: x).list.serialized() == bytes, "case \(seed)")
      #expect(TodoMerge.merge(base: x, ours: x, theirs: x).isClean, "case \(seed)")
    }
  }

  @Test("a side merged with an unchanged base and other side gives that side")
  func unchangedOtherSideGivesTheChangedSide() {
    var g = SplitMix64(seed: 0xBA5E)
    for seed in 1...1_500 {
      let base = Self.randomList(&g)
      let changed = Self.randomEdit(base, &g)
      let ours = TodoMerge.merge(base: base, ours: changed, theirs: base)
      #expect(ours.isClean, "case \(seed)")
      #expect(ours.list.serialized() == changed.serialized(), "case \(seed)")
      // From the other side the lines are theirs, in our file's bytes (the same file here).
      let theirs = TodoMerge.merge(base: base, ours: base, theirs: changed)
      #expect(theirs.isClean, "case \(seed)")
      // A task added again as it was before an edit may pair with the old one and trade places.
      #expect(theirs.list.map(\.line).sorted() == changed.map(\.line).sorted(), "case \(seed)")
    }
  }

  @Test("independent edits merge to the same tasks from either side")
  func mergesAreSymmetricInContent() {
    var g = SplitMix64(seed: 0x5EED)
    for seed in 1...1_500 {
      let base = Self.list((0..<Int(g.next() % 8)).map { _ in Self.randomTask(&g) })
      let ours = Self.randomEdit(base, &g)
      let theirs = Self.randomEdit(base, &g)
      let forward = TodoMerge.merge(base: base, ours: ours, theirs: theirs)
      let backward = TodoMerge.merge(base: base, ours: theirs, theirs: ours)
      #expect(forward.conflicts.count == backward.conflicts.count, "case \(seed)")
      if forward.isClean {
        #expect(
          forward.list.map(\.line).sorted() == backward.list.map(\.line).sorted(), "case \(seed)")
      }
    }
  }

  @Test("a clean merge keeps every task added on either side")
  func cleanMergesKeepAdditions() {
    var g = SplitMix64(seed: 0xADD)
    for seed in 1...1_000 {
      let base = Self.list((0..<Int(g.next() % 6)).map { _ in Self.randomTask(&g) })
      var ours = base
      var theirs = base
      let mine = Task(parsing: "mine \(seed) +sync")
      let yours = Task(parsing: "yours \(seed) @sync")
      ours.append(mine)
      theirs.insert(yours, at: Int(g.next() % UInt64(theirs.count + 1)))
      let result = TodoMerge.merge(base: base, ours: ours, theirs: theirs)
      #expect(result.isClean, "case \(seed)")
      #expect(result.list.contains(mine) && result.list.contains(yours), "case \(seed)")
      #expect(result.list.count == base.count + 2, "case \(seed)")
    }
  }
}
