import Dispatch

/// A task that two versions of a file changed in ways that do not fit together.
public struct MergeConflict: Hashable, Sendable {
  /// The task as it was before either side changed it (`nil` in a two-way merge).
  public var base: Task?
  /// Our version; `nil` when our side deleted the task.
  public var ours: Task?
  /// Their version; `nil` when their side deleted the task.
  public var theirs: Task?
  /// Why the two changes could not both be made.
  public var reason: MergeConflictReason
  /// Where our side put the task when it moved it to the other list file (archived it, or
  /// moved it back): that file's merge keeps the line, so settling the conflict for us keeps
  /// it there, and for them removes it. `nil` when our side did not move the task.
  public var oursMovedTo: MovedLine? = nil
  /// The same for their side.
  public var theirsMovedTo: MovedLine? = nil

  /// The same conflict seen from the other side.
  func swapped() -> MergeConflict {
    MergeConflict(
      base: base, ours: theirs, theirs: ours, reason: reason, oursMovedTo: theirsMovedTo,
      theirsMovedTo: oursMovedTo)
  }
}

/// A side's line for a task in the other list file, where that side moved the task.
public struct MovedLine: Hashable, Sendable {
  /// The list file the task went to.
  public var file: TodoMerge.ListFile
  /// The task as that side wrote it there.
  public var task: Task

  /// A side's line `task` in `file`.
  public init(file: TodoMerge.ListFile, task: Task) {
    self.file = file
    self.task = task
  }
}

/// What a merge produced.
public struct MergeResult: Sendable {
  /// The merged file, in our file's line endings and byte order mark; conflicts are written
  /// into it as ``TodoMerge/ConflictStyle`` says.
  public var list: TodoList
  /// The conflicts, in the order they appear in ``list``.
  public var conflicts: [MergeConflict]
  /// No conflicts.
  public var isClean: Bool { conflicts.isEmpty }
}

/// Merges versions of a todo.txt file task by task, not line by line.
///
/// Tasks are matched across versions by content, never by line number: first the same line,
/// then the same body once the completion mark and date, the priority, the creation date and
/// the `key:value` tags are taken away, then (for a base and a side) the same body but for the
/// names of its projects and contexts (a rename), then the most alike lines that
/// share more than half of their non-tag words. A task whose text was rewritten beyond that is
/// a deleted task and a new one. Lines that are the same bytes are first paired by their place,
/// as a line diff pairs them (see ``LinePairing``), so of two tasks with the same text each
/// side's edit lands on the copy it was made to.
///
/// Then, for each task:
///
/// - added on one side: added; added on both sides (the same line, or the same body): once;
///   the next occurrences of a recurring task both sides completed: the earlier one;
/// - deleted on one side and untouched or only completed on the other: deleted (archiving
///   a task moves it to done.txt); deleted on one side and changed on the other: a conflict;
/// - changed on both sides when a side's line was matched to the task by resemblance only
///   and lost words of it or got another creation date: a conflict, for it may be a new
///   task written like the old one, and the other side's change may not belong to it;
/// - a copy of a line lost on one side next to another copy of it (nothing tells which of the
///   two it lost) while the other side changed either copy: a conflict;
/// - changed on one side: that side's version; changed on both sides: merged field by field
///   (completion, priority, creation date, each tag, the text): completed on one side and
///   edited on the other gives the edited task, completed; the priority, a tag or the text
///   changed on both sides to different values is a conflict.
///
/// The result follows our order (theirs when only they reordered the tasks both kept, as a
/// `reorder` does); a task added on their side goes after the task it follows
/// there (after tasks we added at the same place). The result is our list edited: every line
/// in place of one of ours keeps its line ending, new lines get our file's usual one (and a
/// last line without one gets it when lines follow), and the byte order mark is ours.
///
/// ``merge(todo:done:conflictStyle:)`` merges todo.txt and done.txt as one list, so that a
/// task archived on one side is its done line, not a look-alike written after it.
///
/// This is a pure function of its inputs: no files, no clock.
public enum TodoMerge {
  /// How a conflict is written into the merged file.
  public enum ConflictStyle: Sendable, Equatable {
    /// As git does: `<<<<<<< ours`, our line, `=======`, their line, `>>>>>>> theirs`, with
    /// these labels.
    case markers(ours: String, theirs: String)
    /// Our line followed by theirs (only the remaining one when a side deleted the task), so
    /// that the file stays a plain todo.txt file and nothing is lost.
    case keepBoth
  }

  /// Merges `ours` and `theirs`, two descendants of `base`.
  ///
  /// Without `base`, every task found on one side only counts as added.
  public static func merge(
    base: TodoList?, ours: TodoList, theirs: TodoList,
    conflictStyle: ConflictStyle = .markers(ours: "ours", theirs: "theirs")
  ) -> MergeResult {
    merge(base: base, ours: ours, theirs: theirs, conflictStyle: conflictStyle) { _, _, _, _, _ in
      (SideMoves(), SideMoves())
    }
  }

  /// The same merge of versions whose bytes are not held in arrays, for a large file: the
  /// same result, byte for byte, as of the same files read into lists.
  package static func merge(
    base: LineBuffer?, ours: LineBuffer, theirs: LineBuffer,
    conflictStyle: ConflictStyle = .markers(ours: "ours", theirs: "theirs")
  ) -> MergeResult {
    merge(base: base, ours: ours, theirs: theirs, conflictStyle: conflictStyle) { _, _, _, _, _ in
      (SideMoves(), SideMoves())
    }
  }

  /// Each side's pairing with the base, as first made (before the other list file corrects
  /// them): the merge of todo.txt and the merge of done.txt each need both files' pairings,
  /// and making them once, not twice, is half the time of a merge of a large todo.txt.
  struct SidePairings: Sendable {
    var ours: LinePairing
    var theirs: LinePairing

    init(base: some PairedLines, ours: some PairedLines, theirs: some PairedLines) {
      self.ours = LinePairing(old: base, new: ours, similar: true)
      self.theirs = LinePairing(old: base, new: theirs, similar: true)
    }

    /// The same, of lists: the two pairings read the lists and nothing else, so a large
    /// list's are made at once on two cores (a merging `sync` of 100,000 tasks waits for
    /// them in its process).
    init(base: TodoList, ours: TodoList, theirs: TodoList) {
      guard base.count + max(ours.count, theirs.count) >= SidePairings.concurrentFrom else {
        self.ours = LinePairing(old: base, new: ours, similar: true)
        self.theirs = LinePairing(old: base, new: theirs, similar: true)
        return
      }
      let made = MadePairings()
      DispatchQueue.concurrentPerform(iterations: 2) { side in
        if side == 0 {
          made.ours = LinePairing(old: base, new: ours, similar: true)
        } else {
          made.theirs = LinePairing(old: base, new: theirs, similar: true)
        }
      }
      self.ours = made.ours!
      self.theirs = made.theirs!
    }

    /// Lines (of the base and the larger side) from which the pairings are made on two
    /// threads; below, starting a thread costs more than it saves.
    static let concurrentFrom = 20_000

    /// The two pairings as the threads make them: each property is written by one thread
    /// only, and read after `concurrentPerform` has returned, which orders the writes
    /// before the reads.
    private final class MadePairings: @unchecked Sendable {
      var ours: LinePairing?
      var theirs: LinePairing?
    }
  }

  /// What the other list file says about a side's base tasks (``ArchiveMoves``).
  struct SideMoves {
    /// Base lines whose pairing it doubts: a change of one of them on the other side is a
    /// conflict.
    var unsure: Set<Int> = []
    /// Base lines whose task this side moved to the other file; `nil` when the merge is of one
    /// file alone and cannot tell. A task a side deleted without moving it was deleted for
    /// good, and its completion on the other side then conflicts with the deletion.
    var moved: Set<Int>? = nil

    /// Base lines whose task this side moved to the other file, with its line there.
    var movedOut: [Int: MovedLine] = [:]
    /// This side's lines that are tasks it moved here from the other file: the task's index
    /// in that file's base, and the task as it was there.
    var movedIn: [Int: (from: Int, task: Task)] = [:]
    /// Base tasks of the other file that this side neither kept there nor moved here:
    /// deleted outright. Asked of done.txt's merge only, for todo.txt's tasks.
    var deletedFromOther: Set<Int> = []
    /// Base lines this side moved to the other file that the other side deleted outright,
    /// when git keeps the moved line as it is (``TodoMerge/OtherFileMerge/git``): each is a
    /// conflict here.
    var carried: Set<Int> = []

    /// Whether the side is known to have dropped the task at `baseIndex` without moving it.
    func deletedOutright(_ baseIndex: Int) -> Bool { moved.map { !$0.contains(baseIndex) } ?? false }
  }

  /// The merge, with `moves` to correct each side's pairing with the base by what the other
  /// list file says (``ArchiveMoves``).
  ///
  /// Without `base`, `moves` is not asked: every line is an addition.
  ///
  /// - Parameter pairings: each side's pairing with `base`, when the caller already made them
  ///   (the merge of the other list file needs the same ones); made here otherwise.
  static func merge<Lines: MergedLines>(
    base: Lines?, ours: Lines, theirs: Lines, conflictStyle: ConflictStyle,
    pairings: SidePairings? = nil,
    moves: (
      _ base: Lines, _ ours: Lines, _ oursFromBase: inout LinePairing,
      _ theirs: Lines, _ theirsFromBase: inout LinePairing
    ) -> (SideMoves, SideMoves)
  ) -> MergeResult {
    // The pairings are gone before the merged file is put together: for a large file it holds
    // a copy of ours, and nothing else need be held beside it.
    let layout = layOut(
      base: base, ours: ours, theirs: theirs, conflictStyle: conflictStyle, pairings: pairings,
      moves: moves)
    var result = layout.result()
    if layout.sidesSwapped { result.conflicts = result.conflicts.map { $0.swapped() } }
    return result
  }

  /// What becomes of each line: the merge before the merged file is made.
  private static func layOut<Lines: MergedLines>(
    base: Lines?, ours: Lines, theirs: Lines, conflictStyle: ConflictStyle,
    pairings: SidePairings?,
    moves: (
      _ base: Lines, _ ours: Lines, _ oursFromBase: inout LinePairing,
      _ theirs: Lines, _ theirsFromBase: inout LinePairing
    ) -> (SideMoves, SideMoves)
  ) -> Layout<Lines> {
    // What the pairing read of the files need not be held while the result is made.
    defer {
      base?.letGo()
      ours.letGo()
      theirs.letGo()
    }
    var oursFromBase: LinePairing
    var theirsFromBase: LinePairing
    var oursMoves = SideMoves()
    var theirsMoves = SideMoves()
    if let base {
      let made = pairings ?? SidePairings(base: base, ours: ours, theirs: theirs)
      oursFromBase = made.ours
      theirsFromBase = made.theirs
      (oursMoves, theirsMoves) = moves(base, ours, &oursFromBase, theirs, &theirsFromBase)
    } else {
      oursFromBase = LinePairing(old: [Task](), new: ours, similar: true)
      theirsFromBase = LinePairing(old: [Task](), new: theirs, similar: true)
    }
    // The result follows one side's order: ours, unless only theirs reordered the tasks
    // both kept (a `reorder` on their machine must survive an edit on ours).
    guard
      !reordered(oursFromBase, other: theirsFromBase)
        && reordered(theirsFromBase, other: oursFromBase)
    else {
      return merge(
        base: base, ours: ours, oursFromBase: oursFromBase, oursMoves: oursMoves, theirs: theirs,
        theirsFromBase: theirsFromBase, theirsMoves: theirsMoves, conflictStyle: conflictStyle)
    }
    return merge(
      base: base, ours: theirs, oursFromBase: theirsFromBase, oursMoves: theirsMoves, theirs: ours,
      theirsFromBase: oursFromBase, theirsMoves: oursMoves, conflictStyle: conflictStyle,
      sidesSwapped: true)
  }

  /// Whether `side` changed the order of the base tasks that both sides kept.
  private static func reordered(_ side: LinePairing, other: LinePairing) -> Bool {
    var last = -1
    for case let baseIndex? in side.oldForNew where other.newForOld[baseIndex] != nil {
      if baseIndex < last { return true }
      last = baseIndex
    }
    return false
  }

  private static func merge<Lines: MergedLines>(
    base: Lines?, ours: Lines, oursFromBase: LinePairing, oursMoves: SideMoves,
    theirs: Lines, theirsFromBase: LinePairing, theirsMoves: SideMoves,
    conflictStyle: ConflictStyle, sidesSwapped: Bool = false
  ) -> Layout<Lines> {

    // Tasks both sides moved here from the other file: one task, merged from its version
    // there.
    var theirsForAdded: [Int: Int] = [:]
    var oursForAdded: [Int: Int] = [:]
    var baseForAdded: [Int: Task] = [:]
    var theirsMovedIn: [Int: Int] = [:]
    for (index, origin) in theirsMoves.movedIn { theirsMovedIn[origin.from] = index }
    for (index, origin) in oursMoves.movedIn {
      guard let theirIndex = theirsMovedIn[origin.from] else { continue }
      theirsForAdded[index] = theirIndex
      oursForAdded[theirIndex] = index
      baseForAdded[index] = origin.task
    }
    // Other tasks added on both sides: the same line, or the same task in another state.
    let ourAdded = (0..<ours.count).filter {
      oursFromBase.oldForNew[$0] == nil && theirsForAdded[$0] == nil
    }
    let theirAdded = (0..<theirs.count).filter {
      theirsFromBase.oldForNew[$0] == nil && oursForAdded[$0] == nil
    }
    let added = LinePairing(
      old: ourAdded.map { ours[$0] }, new: theirAdded.map { theirs[$0] }, similar: false)
    for (position, match) in added.newForOld.enumerated() {
      guard let match else { continue }
      theirsForAdded[ourAdded[position]] = theirAdded[match]
      oursForAdded[theirAdded[match]] = ourAdded[position]
    }
    let nextOccurrences = NextOccurrences(
      base: base, ours: ours, oursFromBase: oursFromBase, oursMoves: oursMoves,
      oursAdded: ourAdded.filter { theirsForAdded[$0] == nil && oursMoves.movedIn[$0] == nil },
      theirs: theirs, theirsFromBase: theirsFromBase, theirsMoves: theirsMoves,
      theirsAdded: theirAdded.filter { oursForAdded[$0] == nil && theirsMoves.movedIn[$0] == nil })

    var layout = Layout(ours: ours, conflictStyle: conflictStyle)
    layout.sidesSwapped = sidesSwapped
    for index in 0..<ours.count {
      if let baseIndex = oursFromBase.oldForNew[index], let base {
        // Most lines are the same on all three sides: nothing to parse.
        let theirIndex = theirsFromBase.newForOld[baseIndex]
        if let theirIndex, ours.line(index, equals: theirs, theirIndex) {
          layout.keep(index, isOursOnly: false)
          continue
        }
        let task = ours[index]
        let original = base[baseIndex]
        if let theirIndex {
          let mine = theirs[theirIndex]
          var outcome = TaskMerge.merge(base: original, ours: task, theirs: mine)
          if case .merged = outcome, task != mine, task != original, mine != original,
            oursFromBase.isUncertain(index, old: original, new: task)
              || theirsFromBase.isUncertain(theirIndex, old: original, new: mine)
          {
            outcome = .conflict(.uncertainMatch)
          }
          // When a side lost one of two copies of a line with nothing kept between them,
          // which one it lost cannot be told: the other side's change to the copy it kept may
          // have been made to the one it lost.
          if case .merged = outcome,
            oursFromBase.ambiguous.contains(baseIndex) && mine != original
              || theirsFromBase.ambiguous.contains(baseIndex) && task != original
          {
            outcome = .conflict(.uncertainMatch)
          }
          // A side's line that may be the task or a new one after it was archived: the other
          // side's change may not belong to it.
          if oursMoves.unsure.contains(baseIndex) && mine != original
            || theirsMoves.unsure.contains(baseIndex) && task != original
          {
            outcome = .conflict(.uncertainMatch)
          }
          layout.place(outcome, at: index, base: original, ours: task, theirs: mine)
        } else if task != original,
          theirsFromBase.ambiguous.contains(baseIndex) || !TaskMerge.onlyCompleted(original, task)
        {
          layout.conflict(
            MergeConflict(
              base: original, ours: task, theirs: nil, reason: .deletedAndChanged,
              theirsMovedTo: theirsMoves.movedOut[baseIndex]),
            at: index)
        } else if oursMoves.unsure.contains(baseIndex) {
          layout.conflict(
            MergeConflict(base: original, ours: task, theirs: nil, reason: .uncertainMatch),
            at: index)
        } else if task != original, theirsMoves.deletedOutright(baseIndex) {
          // Completed here, deleted (not archived) there: the deletion may be of a task
          // rewritten past recognition; which of the two was meant is the user's to say.
          layout.conflict(
            MergeConflict(base: original, ours: task, theirs: nil, reason: .deletedAndChanged),
            at: index)
        } else {
          layout.drop(index)
        }
      } else if let theirIndex = theirsForAdded[index] {
        let task = ours[index]
        let original = baseForAdded[index]
        var outcome = TaskMerge.merge(base: original, ours: task, theirs: theirs[theirIndex])
        if case .conflict = outcome, original == nil,
          let next = TaskMerge.nextOccurrence(task, theirs[theirIndex])
        {
          outcome = .merged(next)
        }
        layout.place(outcome, at: index, base: original, ours: task, theirs: theirs[theirIndex])
      } else if let next = nextOccurrences.ours[index] {
        layout.keep(index, isOursOnly: true)
        layout.place(
          next.outcome, at: index, base: next.generated, ours: ours[index], theirs: next.remade)
      } else if let origin = oursMoves.movedIn[index],
        theirsMoves.deletedFromOther.contains(origin.from)
      {
        // Moved here (archived) by us, deleted outright by them: gone if we only moved it,
        // a conflict if we completed or changed it too.
        let task = ours[index]
        if task == origin.task {
          layout.drop(index)
        } else {
          layout.conflict(
            MergeConflict(base: origin.task, ours: task, theirs: nil, reason: .deletedAndChanged),
            at: index)
        }
      } else {
        layout.keep(index, isOursOnly: true)
      }
    }

    // Where each of their lines stands in the result, to place what they added.
    var previous: Int?
    for index in 0..<theirs.count {
      var anchor: Int?
      defer { if let anchor { previous = anchor } }
      if let baseIndex = theirsFromBase.oldForNew[index] {
        if let ourIndex = oursFromBase.newForOld[baseIndex] {
          if layout.isPresent(ourIndex) { anchor = ourIndex }
          continue
        }
        guard let base else { continue }
        // Deleted on our side: gone if they left it alone, a conflict if they changed it.
        // Completed is no change that matters to a side that deleted (archived) it.
        let original = base[baseIndex]
        let task = theirs[index]
        let changed =
          task != original
          && (oursFromBase.ambiguous.contains(baseIndex) || !TaskMerge.onlyCompleted(original, task)
            || oursMoves.deletedOutright(baseIndex))
        guard changed || theirsMoves.unsure.contains(baseIndex) else { continue }
        layout.insert(
          conflict: MergeConflict(
            base: original, ours: nil, theirs: task,
            reason: changed ? .deletedAndChanged : .uncertainMatch,
            oursMovedTo: changed ? oursMoves.movedOut[baseIndex] : nil),
          after: previous)
      } else if let ourIndex = oursForAdded[index] {
        anchor = ourIndex
      } else if let next = nextOccurrences.theirs[index] {
        switch next.outcome {
        case .merged(let task): layout.insert(task, after: previous)
        case .conflict(let reason):
          layout.insert(
            conflict: MergeConflict(
              base: next.generated, ours: next.remade, theirs: theirs[index], reason: reason),
            after: previous)
        }
      } else if let origin = theirsMoves.movedIn[index],
        oursMoves.deletedFromOther.contains(origin.from)
      {
        let task = theirs[index]
        guard task != origin.task else { continue }
        layout.insert(
          conflict: MergeConflict(
            base: origin.task, ours: nil, theirs: task, reason: .deletedAndChanged),
          after: previous)
      } else {
        layout.insert(theirs[index], after: previous)
      }
    }

    // Tasks moved to the other file on one side and deleted outright on the other, which
    // that file keeps as the moving side left it: a conflict here, where the task was.
    if let base, !oursMoves.carried.isEmpty || !theirsMoves.carried.isEmpty {
      for baseIndex in 0..<base.count {
        let ourMove = oursMoves.carried.contains(baseIndex) ? oursMoves.movedOut[baseIndex] : nil
        let theirMove =
          theirsMoves.carried.contains(baseIndex) ? theirsMoves.movedOut[baseIndex] : nil
        guard let moved = ourMove ?? theirMove else { continue }
        let original = base[baseIndex]
        var before: Int?
        for earlier in stride(from: baseIndex - 1, through: 0, by: -1) {
          if let ourIndex = oursFromBase.newForOld[earlier], layout.isPresent(ourIndex) {
            before = ourIndex
            break
          }
        }
        layout.insert(
          conflict: MergeConflict(
            base: original, ours: nil, theirs: nil,
            reason: moved.task == original ? .deletedAndMoved : .deletedAndChanged,
            oursMovedTo: ourMove, theirsMovedTo: theirMove),
          after: before)
      }
    }
    return layout
  }

  /// Every line of `ours`, then every line of `theirs` that `ours` does not have, each placed
  /// after the line it follows in `theirs`; blank lines of `theirs` are left out, and a line is
  /// never added twice. This is how `done.txt`, a log of finished tasks, is merged.
  public static func union(ours: TodoList, theirs: TodoList) -> MergeResult {
    var layout = Layout(ours: ours, conflictStyle: .keepBoth)
    var position: [[UInt8]: Int] = [:]
    for index in ours.indices.reversed() { position[Array(ours[index].bytes)] = index }
    let theirLines = Set(theirs.map { Array($0.bytes) })
    for index in ours.indices {
      layout.keep(index, isOursOnly: !theirLines.contains(Array(ours[index].bytes)))
    }
    var previous: Int?
    for task in theirs {
      let bytes = Array(task.bytes)
      if let here = position[bytes] {
        previous = here
        continue
      }
      guard !task.isBlank else { continue }
      layout.insert(task, after: previous)
      position[bytes] = previous ?? -1
    }
    return layout.result()
  }
}

/// The next occurrences of recurring tasks completed on one side and changed on the other.
///
/// Completing a `rec:` task adds its next occurrence, made from the completed task. A change
/// the other side made to the task (its rule, text, priority, a tag) merges into the
/// completed line, and belongs on the next occurrence as well: that line is made again from
/// the merged completed task, on the same day, and merged with what the completing side has
/// (the line as made, or as it changed it since: a field both changed is a conflict).
private struct NextOccurrences {
  struct Next {
    /// The next occurrence as the completing side's completion made it.
    var generated: Task
    /// The other side's version: the next occurrence made from the merged completed task.
    var remade: Task
    var outcome: TaskMerge.Outcome
  }

  /// By the index of the line that ours (theirs) added as the next occurrence.
  var ours: [Int: Next] = [:]
  var theirs: [Int: Next] = [:]

  init<Lines: MergedLines>(
    base: Lines?, ours: Lines, oursFromBase: LinePairing, oursMoves: TodoMerge.SideMoves,
    oursAdded: [Int], theirs: Lines, theirsFromBase: LinePairing, theirsMoves: TodoMerge.SideMoves,
    theirsAdded: [Int]
  ) {
    // Only a side that added a line with a rule can have completed a recurring task.
    let rule = Array((TagMeaning.recurrence.key + ":").utf8)
    func mayRecur(_ lines: Lines, _ index: Int) -> Bool {
      lines.withLineBytes(at: index) { bytes in
        bytes.count >= rule.count
          && (0...(bytes.count - rule.count)).contains {
            bytes[$0..<($0 + rule.count)].elementsEqual(rule)
          }
      }
    }
    var oursLeft = oursAdded.filter { mayRecur(ours, $0) }
    var theirsLeft = theirsAdded.filter { mayRecur(theirs, $0) }
    guard let base, !oursLeft.isEmpty || !theirsLeft.isEmpty else { return }
    for baseIndex in 0..<base.count {
      guard let ourIndex = oursFromBase.newForOld[baseIndex],
        let theirIndex = theirsFromBase.newForOld[baseIndex],
        !ours.line(ourIndex, equals: theirs, theirIndex)
      else { continue }
      let original = base[baseIndex]
      let (mine, yours) = (ours[ourIndex], theirs[theirIndex])
      guard original.recurrence != nil, !original.isCompleted, mine != original, yours != original,
        mine.isCompleted != yours.isCompleted,
        !oursFromBase.isUncertain(ourIndex, old: original, new: mine),
        !theirsFromBase.isUncertain(theirIndex, old: original, new: yours),
        !oursFromBase.ambiguous.contains(baseIndex), !theirsFromBase.ambiguous.contains(baseIndex),
        !oursMoves.unsure.contains(baseIndex), !theirsMoves.unsure.contains(baseIndex),
        case .merged(let merged) = TaskMerge.merge(base: original, ours: mine, theirs: yours)
      else { continue }
      let oursCompleted = mine.isCompleted
      let completed = oursCompleted ? mine : yours
      guard let day = completed.completionDate else { continue }
      // Made with or without catching up to today (a setting of the completing machine):
      // whichever made the line that side has.
      for catchUp in [false, true] {
        guard let generated = completed.nextOccurrence(completedOn: day, catchUp: catchUp),
          let remade = merged.nextOccurrence(completedOn: day, catchUp: catchUp)
        else { continue }
        let lines = oursCompleted ? ours : theirs
        let left = oursCompleted ? oursLeft : theirsLeft
        // The line as made, else the open recurring line most like it (more than half of
        // the words shared, as a merge pairs an edited task).
        let key = LineKey(generated)
        var best: (position: Int, score: Double)?
        for (position, index) in left.enumerated() where lines[index].recurrence != nil {
          let task = lines[index]
          let score =
            task == generated ? 2 : task.isCompleted ? 0 : LineKey(task).similarity(to: key)
          if score > 0.5, score > best?.score ?? 0 { best = (position, score) }
        }
        guard let position = best?.position else { continue }
        let index = left[position]
        let kept = lines[index]
        if oursCompleted {
          oursLeft.remove(at: position)
          self.ours[index] = Next(
            generated: generated, remade: remade,
            outcome: TaskMerge.merge(base: generated, ours: kept, theirs: remade))
        } else {
          theirsLeft.remove(at: position)
          self.theirs[index] = Next(
            generated: generated, remade: remade,
            outcome: TaskMerge.merge(base: generated, ours: remade, theirs: kept))
        }
        break
      }
    }
  }
}

/// A version of a file that a merge can start its result from.
protocol MergedLines: PairedLines {
  /// The version as a list, to be edited into the merged file.
  func list() -> TodoList
}

extension TodoList: MergedLines {
  func list() -> TodoList { self }
}

extension LineBuffer: MergedLines {}

/// The merged file being put together: what becomes of each of our lines, and what goes
/// after each.
///
/// Kept lines are only marked: a large merge keeps nearly every line, and copying each would
/// cost more than the rest of the merge.
private struct Layout<Lines: MergedLines> {
  let ours: Lines
  let conflictStyle: TodoMerge.ConflictStyle
  /// The merge runs with their list in the place of ours (to follow their order): conflict
  /// blocks still show our side first, under our label.
  var sidesSwapped = false
  /// What stands in place of each of our lines: ``kept``, ``dropped``, or the index in
  /// ``replacements`` of the lines that do.
  var fate: [Int32]
  var replacements: [[[UInt8]]] = []
  /// Our lines that only our side added.
  var oursOnly: [Bool]
  /// Lines inserted before our line `k` (key `k`; `ours.count` is the end of the file).
  var inserted: [Int: [[UInt8]]] = [:]
  var conflicts: [(position: Int, order: Int, conflict: MergeConflict)] = []

  static var kept: Int32 { -1 }
  static var dropped: Int32 { -2 }

  init(ours: Lines, conflictStyle: TodoMerge.ConflictStyle) {
    self.ours = ours
    self.conflictStyle = conflictStyle
    fate = Array(repeating: Layout.dropped, count: ours.count)
    oursOnly = Array(repeating: false, count: ours.count)
  }

  func isPresent(_ index: Int) -> Bool { fate[index] != Layout.dropped }

  mutating func keep(_ index: Int, isOursOnly: Bool) {
    fate[index] = Layout.kept
    oursOnly[index] = isOursOnly
  }

  mutating func drop(_ index: Int) { fate[index] = Layout.dropped }

  private mutating func put(_ lines: [[UInt8]], at index: Int) {
    fate[index] = Int32(replacements.count)
    replacements.append(lines)
  }

  mutating func place(
    _ outcome: TaskMerge.Outcome, at index: Int, base: Task?, ours: Task, theirs: Task
  ) {
    switch outcome {
    case .merged(let task):
      if self.ours.line(index, equals: task.bytes) {
        fate[index] = Layout.kept
      } else {
        put([Array(task.bytes)], at: index)
      }
    case .conflict(let reason):
      conflict(MergeConflict(base: base, ours: ours, theirs: theirs, reason: reason), at: index)
    }
  }

  mutating func conflict(_ conflict: MergeConflict, at index: Int) {
    put(lines(for: conflict), at: index)
    conflicts.append((index * 2 + 1, conflicts.count, conflict))
  }

  /// Inserts a line after our line `previous` (`nil`: at the start), and after the lines that
  /// only we added right there.
  mutating func insert(_ task: Task, after previous: Int?) {
    inserted[slot(after: previous), default: []].append(Array(task.bytes))
  }

  mutating func insert(conflict: MergeConflict, after previous: Int?) {
    let slot = slot(after: previous)
    inserted[slot, default: []] += lines(for: conflict)
    conflicts.append((slot * 2, conflicts.count, conflict))
  }

  private func slot(after previous: Int?) -> Int {
    var next = (previous ?? -1) + 1
    while next < ours.count, oursOnly[next] { next += 1 }
    return next
  }

  private func lines(for conflict: MergeConflict) -> [[UInt8]] {
    let conflict = sidesSwapped ? conflict.swapped() : conflict
    let ourLine = conflict.ours.map { [Array($0.bytes)] } ?? []
    let theirLine = conflict.theirs.map { [Array($0.bytes)] } ?? []
    switch conflictStyle {
    case .keepBoth: return ourLine + theirLine
    case .markers(let oursLabel, let theirsLabel):
      // A side that moved the task to the other file names its line there after its label.
      func marker(_ marker: String, _ label: String, _ move: MovedLine?) -> [UInt8] {
        guard let move else { return Array("\(marker) \(label)".utf8) }
        return Array("\(marker) ".utf8)
          + ConflictBlocks.label(label, movedTo: move.file, line: move.task.bytes)
      }
      return [marker("<<<<<<<", oursLabel, conflict.oursMovedTo)] + ourLine
        + [Array("=======".utf8)] + theirLine
        + [marker(">>>>>>>", theirsLabel, conflict.theirsMovedTo)]
    }
  }

  /// Our list, edited into the result line by line, so that its ``TodoList/changes()`` say
  /// what the merge changed and every line left alone keeps its bytes and line ending.
  func result() -> MergeResult {
    var list = ours.list()
    // From the end, so that the indices still to do stay valid (and line `index` is still
    // our line when its turn comes).
    for index in (0..<ours.count).reversed() {
      for (offset, line) in (inserted[index + 1] ?? []).enumerated() {
        list.insert(Task(bytes: line), at: index + 1 + offset)
      }
      let fate = fate[index]
      if fate == Layout.kept { continue }
      if fate == Layout.dropped {
        list.remove(at: index)
        continue
      }
      let lines = replacements[Int(fate)]
      guard let first = lines.first else {
        list.remove(at: index)
        continue
      }
      if !first.elementsEqual(list.lineBytes(at: index)) {
        list.replace(at: index, with: Task(bytes: first))
      }
      for (offset, line) in lines.dropFirst().enumerated() {
        list.insert(Task(bytes: line), at: index + 1 + offset)
      }
    }
    for (offset, line) in (inserted[0] ?? []).enumerated() {
      list.insert(Task(bytes: line), at: offset)
    }
    let ordered = conflicts.sorted { ($0.position, $0.order) < ($1.position, $1.order) }.map(
      \.conflict)
    return MergeResult(list: list, conflicts: ordered)
  }
}
