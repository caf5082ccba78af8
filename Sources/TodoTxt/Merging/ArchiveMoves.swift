/// The three versions of one list file in a merge.
public struct MergeVersions: Sendable {
  /// The version both sides were made from (`nil` in a two-way merge).
  public var base: TodoList?
  /// Our side's version.
  public var ours: TodoList
  /// Their side's version.
  public var theirs: TodoList

  /// The three versions of one file.
  public init(base: TodoList?, ours: TodoList, theirs: TodoList) {
    self.base = base
    self.ours = ours
    self.theirs = theirs
  }
}

/// What one side's other list file says about the base tasks of the file being merged:
/// archiving moves a task from todo.txt to done.txt, and moving it back reopens it, so a base
/// task whose body turns up among the lines that side added to the other file went there.
///
/// Such a task is not the look-alike that side may have written in its place (`add` of the
/// same chore again, or the next occurrence of a recurring one): a line paired with it only by
/// resemblance, or by its body with another creation date, is taken for a new task. Where the
/// side still has a line that may as well be the task itself, the merge cannot tell which of
/// the two is which, and conflicts when the other side changed the task.
struct ArchiveMoves {
  /// Base lines whose pairing with this side's version cannot be trusted.
  var unsure: Set<Int> = []
  /// Base lines whose body this side added to the other file: the tasks it moved there.
  var moved: Set<Int> = []

  /// Reads the other file's versions and corrects `pairing` (base → this side) with them.
  ///
  /// `isTodo`: the file being merged is todo.txt, the other one done.txt. A line left as it
  /// was in todo.txt while its body was added to done.txt may be the task, or a new one after
  /// it was archived; a done line left as it was while its body was added to todo.txt is the
  /// old record of a task done again, nothing to doubt.
  ///
  /// `otherPairing` is the other file's pairing (base → this side) as first made, before
  /// any correction: the merges of both files read the same one.
  init(
    pairing: inout LinePairing, base: some PairedLines, side: some PairedLines,
    otherBase: some PairedLines, otherSide: some PairedLines, otherPairing: LinePairing,
    isTodo: Bool
  ) {
    // The bodies this side added to the other file, by count: the lines it has more of than
    // the base, less the bodies of lines the base has more of. Lines on both cancel first,
    // so that a long done.txt costs a count of its lines, not a parse of each task: they are
    // the lines the other file's merge pairs by the same bytes or the same body (which cancel
    // in the count of bodies all the same), not by resemblance.
    var bodies: [[UInt8]: Int] = [:]
    for index in 0..<otherSide.count where !otherPairing.pairsExactly(new: index) {
      let core = LineKey(otherSide[index]).core
      if !core.isEmpty { bodies[core, default: 0] += 1 }
    }
    for index in 0..<otherBase.count where !otherPairing.pairsExactly(old: index) {
      let core = LineKey(otherBase[index]).core
      if !core.isEmpty { bodies[core, default: 0] -= 1 }
    }
    let added = bodies.filter { $0.value > 0 }
    guard !added.isEmpty else { return }

    // Only a side that added to the other file gets here: then each base task's body is
    // worked out once (the merge itself parses only the lines it could not pair by place).
    var groups: [[UInt8]: [Int]] = [:]
    var baseDates: [Int: TaskDate?] = [:]
    for index in 0..<base.count {
      let task = base[index]
      guard !task.isBlank else { continue }
      let core = LineKey(task).core
      guard added[core] != nil else { continue }
      groups[core, default: []].append(index)
      baseDates[index] = task.creationDate
    }
    for indices in groups.values { moved.formUnion(indices) }
    for (core, indices) in groups {
      var left = added[core] ?? 0
      var lookAlikes: [Int] = []
      var kept: [Int] = []
      for index in indices {
        guard let new = pairing.newForOld[index] else {
          left -= 1  // already gone from this file
          continue
        }
        if pairing.resembling.contains(new) || side[new].creationDate != baseDates[index] ?? nil {
          lookAlikes.append(index)
        } else {
          kept.append(index)
        }
      }
      guard left > 0 else { continue }
      guard left >= lookAlikes.count else {
        // Some of the look-alikes are the tasks moved, some are the tasks edited: which is which
        // is anyone's guess.
        unsure.formUnion(lookAlikes)
        continue
      }
      for index in lookAlikes {
        guard let new = pairing.newForOld[index] else { continue }
        pairing.newForOld[index] = nil
        pairing.oldForNew[new] = nil
        pairing.resembling.remove(new)
      }
      left -= lookAlikes.count
      if left > 0, isTodo { unsure.formUnion(kept) }
    }
  }
}

extension TodoMerge {
  /// Merges todo.txt and done.txt as one list of tasks: a task is the same task in either
  /// file, and archiving (or moving a task back) is a move, not a deletion and an addition.
  ///
  /// A base task that a side archived (its body is among the lines that side added to
  /// done.txt) is that done line, never the look-alike new task that side may have in
  /// todo.txt: the other side's completion of it is done already, and another change of it a
  /// conflict with the archiving, while the new task is added as it is. When that side also
  /// kept a line that may be the task itself, a change of the task on the other side is a
  /// conflict, for nobody can say which of the two lines it was made to. Moves back from
  /// done.txt are read the same way round.
  ///
  /// A task is followed into the other file by its line there: the one line a side added to
  /// that file that the base task pairs with as a merge pairs lines (by its bytes, its body,
  /// or a resemblance that kept all its words and its creation date). So:
  ///
  /// - moved on both sides, its two lines in the other file are one task, merged from its
  ///   base version (archived on both sides after an edit on one: the edited done line,
  ///   once);
  /// - archived on one side and deleted outright on the other (neither kept nor archived):
  ///   the done line goes when it is the task as it was, else it conflicts with the
  ///   deletion in done.txt, as a task completed on one side and deleted on the other
  ///   conflicts in todo.txt;
  /// - changed on one side and moved on the other: a conflict in the file the changed
  ///   version is in, whose moving side names its line in the other file (see
  ///   ``MergeConflict/theirsMovedTo``), so that settling it leaves the task once.
  ///
  /// Each file's result is what ``merge(base:ours:theirs:conflictStyle:)`` gives with the
  /// moves taken into account, so a git merge driver that sees one file at a time gets the
  /// same result as this.
  public static func merge(
    todo: MergeVersions, done: MergeVersions,
    conflictStyle: ConflictStyle = .markers(ours: "ours", theirs: "theirs")
  ) -> (todo: MergeResult, done: MergeResult) {
    // Each file's pairings serve both merges: as the file merged, and as the other file.
    let todoPairings = todo.base.map {
      SidePairings(base: $0, ours: todo.ours, theirs: todo.theirs)
    }
    let donePairings = done.base.map {
      SidePairings(base: $0, ours: done.ours, theirs: done.theirs)
    }
    return (
      mergeFile(
        base: todo.base, ours: todo.ours, theirs: todo.theirs, as: .todo, other: done,
        conflictStyle: conflictStyle, otherMergedBy: .sameMerge, pairings: todoPairings,
        otherPairings: donePairings),
      mergeFile(
        base: done.base, ours: done.ours, theirs: done.theirs, as: .done, other: todo,
        conflictStyle: conflictStyle, otherMergedBy: .sameMerge, pairings: donePairings,
        otherPairings: todoPairings)
    )
  }

  /// Which of the two list files a merge is of.
  public enum ListFile: Sendable { case todo, done }

  /// Who makes the other list file's merge, which decides what this file's result carries.
  public enum OtherFileMerge: Sendable {
    /// This same merge, whatever changed (``merge(todo:done:conflictStyle:)``, or `sync`,
    /// which writes both files).
    case sameMerge
    /// Git, which runs a merge driver only on a file both sides changed (and so differently),
    /// and otherwise takes the side that changed it as it is. When that leaves done.txt
    /// holding a task the other side deleted outright, todo.txt's result carries it as a
    /// conflict (``MergeConflictReason/deletedAndMoved``, or
    /// ``MergeConflictReason/deletedAndChanged`` when it was completed or edited too), whose
    /// moving side names the line, for `resolve` to keep or remove.
    case git
  }

  /// One file of ``merge(todo:done:conflictStyle:)``, for a merge driver that writes only
  /// that one: `other` is the other file's versions, merged as `otherMergedBy` says.
  public static func merge(
    _ file: MergeVersions, as kind: ListFile, other: MergeVersions,
    conflictStyle: ConflictStyle = .markers(ours: "ours", theirs: "theirs"),
    otherMergedBy: OtherFileMerge = .sameMerge
  ) -> MergeResult {
    mergeFile(
      base: file.base, ours: file.ours, theirs: file.theirs, as: kind, other: other,
      conflictStyle: conflictStyle, otherMergedBy: otherMergedBy)
  }

  /// The same, with the file's versions held outside arrays (for a large file); the other
  /// file's versions are lists.
  package static func merge(
    base: LineBuffer?, ours: LineBuffer, theirs: LineBuffer, as kind: ListFile,
    other: MergeVersions, conflictStyle: ConflictStyle = .markers(ours: "ours", theirs: "theirs"),
    otherMergedBy: OtherFileMerge = .sameMerge
  ) -> MergeResult {
    mergeFile(
      base: base, ours: ours, theirs: theirs, as: kind, other: other, conflictStyle: conflictStyle,
      otherMergedBy: otherMergedBy)
  }

  /// - Parameters:
  ///   - pairings: this file's sides paired with its base, when already made.
  ///   - otherPairings: the other file's, made from `other.base`, when already made.
  private static func mergeFile<Lines: MergedLines>(
    base: Lines?, ours: Lines, theirs: Lines, as kind: ListFile, other: MergeVersions,
    conflictStyle: ConflictStyle, otherMergedBy: OtherFileMerge, pairings: SidePairings? = nil,
    otherPairings: SidePairings? = nil
  ) -> MergeResult {
    let isTodo = kind == .todo
    // A done.txt the base lacks is an empty one: all its lines are added (`moves` is not
    // asked without a base).
    return merge(
      base: base, ours: ours, theirs: theirs, conflictStyle: conflictStyle, pairings: pairings
    ) { base, ours, oursFromBase, theirs, theirsFromBase in
      let otherBase = other.base ?? TodoList()
      let otherMade = other.base == nil ? nil : otherPairings
      var otherOursFromBase =
        otherMade?.ours ?? LinePairing(old: otherBase, new: other.ours, similar: true)
      var otherTheirsFromBase =
        otherMade?.theirs ?? LinePairing(old: otherBase, new: other.theirs, similar: true)
      // Each file's pairings are corrected with the other's as first made, the same way in
      // the merge of either file, so that the drivers of the two files agree on every task.
      let (firstOurs, firstTheirs) = (oursFromBase, theirsFromBase)
      let (firstOtherOurs, firstOtherTheirs) = (otherOursFromBase, otherTheirsFromBase)
      let ourMoves = ArchiveMoves(
        pairing: &oursFromBase, base: base, side: ours, otherBase: otherBase,
        otherSide: other.ours, otherPairing: firstOtherOurs, isTodo: isTodo)
      let theirMoves = ArchiveMoves(
        pairing: &theirsFromBase, base: base, side: theirs, otherBase: otherBase,
        otherSide: other.theirs, otherPairing: firstOtherTheirs, isTodo: isTodo)
      let otherOurMoves = ArchiveMoves(
        pairing: &otherOursFromBase, base: otherBase, side: other.ours, otherBase: base,
        otherSide: ours, otherPairing: firstOurs, isTodo: !isTodo)
      let otherTheirMoves = ArchiveMoves(
        pairing: &otherTheirsFromBase, base: otherBase, side: other.theirs, otherBase: base,
        otherSide: theirs, otherPairing: firstTheirs, isTodo: !isTodo)

      // Then each side's moves between the files, todo.txt's first in the merge of either.
      func crossMoves(
        _ side: Lines, _ fromBase: inout LinePairing, otherSide: TodoList,
        otherFromBase: inout LinePairing
      ) -> (out: [Int: Int], into: [Int: Int]) {
        if isTodo {
          let moves = ArchiveMoves.crossMoves(
            todoBase: base, todoSide: side, todoPairing: &fromBase, doneBase: otherBase,
            doneSide: otherSide, donePairing: &otherFromBase)
          return (moves.archived, moves.reopened)
        }
        let moves = ArchiveMoves.crossMoves(
          todoBase: otherBase, todoSide: otherSide, todoPairing: &otherFromBase, doneBase: base,
          doneSide: side, donePairing: &fromBase)
        return (moves.reopened, moves.archived)
      }
      let oursCross = crossMoves(
        ours, &oursFromBase, otherSide: other.ours, otherFromBase: &otherOursFromBase)
      let theirsCross = crossMoves(
        theirs, &theirsFromBase, otherSide: other.theirs, otherFromBase: &otherTheirsFromBase)

      func sideMoves(
        _ moves: ArchiveMoves, _ cross: (out: [Int: Int], into: [Int: Int]),
        otherMoves: ArchiveMoves, otherSide: TodoList, otherFromBase: LinePairing
      ) -> SideMoves {
        let (out, into) = cross
        var result = SideMoves(unsure: moves.unsure)
        // Moves tell a deletion from an archiving only in todo.txt; in done.txt a line
        // dropped is a task reopened or a record cleared, which its completion elsewhere
        // does not change.
        if isTodo { result.moved = moves.moved.union(out.keys) }
        for (baseIndex, line) in out {
          result.movedOut[baseIndex] = MovedLine(
            file: isTodo ? .done : .todo, task: otherSide[line])
        }
        for (baseIndex, line) in into { result.movedIn[line] = (baseIndex, otherBase[baseIndex]) }
        if !isTodo {
          // todo.txt's tasks this side neither kept nor archived: deleted for good.
          let archived = Set(into.keys).union(otherMoves.moved)
          for index in 0..<otherBase.count
          where !otherFromBase.newForOld.isPaired(index) && !otherFromBase.ambiguous.contains(index)
            && !archived.contains(index) && !otherBase.isBlankLine(index)
          {
            result.deletedFromOther.insert(index)
          }
        }
        return result
      }
      var oursSide = sideMoves(
        ourMoves, oursCross, otherMoves: otherOurMoves, otherSide: other.ours,
        otherFromBase: otherOursFromBase)
      var theirsSide = sideMoves(
        theirMoves, theirsCross, otherMoves: otherTheirMoves, otherSide: other.theirs,
        otherFromBase: otherTheirsFromBase)
      // Git takes a done.txt only one side changed from that side as it is: a task archived
      // there that the other side deleted outright stays, unless the conflict is carried here.
      if isTodo, otherMergedBy == .git {
        let (o, t, b) = (other.ours.serialized(), other.theirs.serialized(), otherBase.serialized())
        if o == b || t == b || o == t {
          func carried(_ side: SideMoves, other: SideMoves, _ otherFromBase: LinePairing)
            -> Set<Int>
          {
            Set(
              side.movedOut.keys.filter {
                otherFromBase.newForOld[$0] == nil && !otherFromBase.ambiguous.contains($0)
                  && other.deletedOutright($0)
              })
          }
          oursSide.carried = carried(oursSide, other: theirsSide, theirsFromBase)
          theirsSide.carried = carried(theirsSide, other: oursSide, oursFromBase)
        }
      }
      return (oursSide, theirsSide)
    }
  }
}

extension ArchiveMoves {
  /// The tasks a side moved between its list files: base todo.txt tasks it archived (base
  /// index → line in its done.txt), then base done.txt tasks it moved back (base index →
  /// line in its todo.txt), each file's pairing corrected by them (see ``moves(base:side:
  /// pairing:to:pairing:)``). Both files' merges make them in this order, so that the
  /// drivers of the two files agree.
  static func crossMoves(
    todoBase: some PairedLines, todoSide: some PairedLines, todoPairing: inout LinePairing,
    doneBase: some PairedLines, doneSide: some PairedLines, donePairing: inout LinePairing
  ) -> (archived: [Int: Int], reopened: [Int: Int]) {
    let archived = moves(
      base: todoBase, side: todoSide, pairing: &todoPairing, to: doneSide, pairing: donePairing)
    let reopened = moves(
      base: doneBase, side: doneSide, pairing: &donePairing, to: todoSide, pairing: todoPairing)
    return (archived, reopened)
  }

  /// The base tasks of one list file that a side moved to the other file, as base index →
  /// index in the side's other file.
  ///
  /// A base line the side no longer has in its file, or has only as a line that resembles it
  /// but lost some of its words or its creation date (a new task written like it, perhaps),
  /// is paired with a line the side added to the other file, as a merge pairs lines (the
  /// same bytes, the same body, else the most alike), except a pair that only resembles that
  /// way too. A base line so moved is no longer paired with its look-alike, which is then a
  /// task of its own, added.
  static func moves(
    base: some PairedLines, side: some PairedLines, pairing: inout LinePairing,
    to otherSide: some PairedLines, pairing otherPairing: LinePairing
  ) -> [Int: Int] {
    let news = (0..<otherSide.count).filter {
      !otherPairing.oldForNew.isPaired($0) && !otherSide.isBlankLine($0)
    }
    guard !news.isEmpty else { return [:] }
    var olds = (0..<base.count).filter { !pairing.newForOld.isPaired($0) && !base.isBlankLine($0) }
    for new in pairing.resembling {
      guard let old = pairing.oldForNew[new],
        pairing.isUncertain(new, old: base[old], new: side[new])
      else { continue }
      olds.append(old)
    }
    guard !olds.isEmpty else { return [:] }
    olds.sort()
    let oldTasks = olds.map { base[$0] }
    let newTasks = news.map { otherSide[$0] }
    let pairs = LinePairing(old: oldTasks, new: newTasks, similar: true)
    var moved: [Int: Int] = [:]
    for (position, match) in pairs.newForOld.enumerated() {
      guard let match, !pairs.isUncertain(match, old: oldTasks[position], new: newTasks[match])
      else { continue }
      let old = olds[position]
      moved[old] = news[match]
      if let lookAlike = pairing.newForOld[old] {
        pairing.newForOld[old] = nil
        pairing.oldForNew[lookAlike] = nil
        pairing.resembling.remove(lookAlike)
      }
    }
    return moved
  }
}

extension LinePairing {
  /// Whether new line `index` is paired by its bytes or its body, not by resemblance: what a
  /// pairing made without resemblance pairs.
  func pairsExactly(new index: Int) -> Bool {
    oldForNew.isPaired(index) && !resembling.contains(index)
  }

  /// Whether old line `index` is paired by its bytes or its body.
  func pairsExactly(old index: Int) -> Bool {
    newForOld[index].map { !resembling.contains($0) } ?? false
  }
}
