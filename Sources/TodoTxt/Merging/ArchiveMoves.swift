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
  init(
    pairing: inout LinePairing, base: some PairedLines, side: some PairedLines,
    otherBase: TodoList?, otherSide: TodoList, isTodo: Bool
  ) {
    // The bodies this side added to the other file, by count: the lines it has more of than
    // the base, less the bodies of lines the base has more of. Lines on both cancel first,
    // so that a long done.txt costs a count of its lines, not a parse of each task: they are
    // paired as a merge pairs them, by the same bytes or the same body (which cancel in the
    // count of bodies all the same), with no copy of each line as a dictionary key.
    let otherBase = otherBase ?? TodoList()
    let kept = LinePairing(old: otherBase, new: otherSide, similar: false)
    var bodies: [[UInt8]: Int] = [:]
    for index in otherSide.indices where !kept.oldForNew.isPaired(index) {
      let core = LineKey(otherSide[index]).core
      if !core.isEmpty { bodies[core, default: 0] += 1 }
    }
    for index in otherBase.indices where !kept.newForOld.isPaired(index) {
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
  /// done.txt are read the same way round. Each file's result is what
  /// ``merge(base:ours:theirs:conflictStyle:)`` gives with the moves taken into account, so a
  /// git merge driver that sees one file at a time gets the same result as this.
  public static func merge(
    todo: MergeVersions, done: MergeVersions,
    conflictStyle: ConflictStyle = .markers(ours: "ours", theirs: "theirs")
  ) -> (todo: MergeResult, done: MergeResult) {
    (
      merge(todo, as: .todo, other: done, conflictStyle: conflictStyle),
      merge(done, as: .done, other: todo, conflictStyle: conflictStyle)
    )
  }

  /// Which of the two list files a merge is of.
  public enum ListFile: Sendable { case todo, done }

  /// One file of ``merge(todo:done:conflictStyle:)``, for a merge driver that writes only
  /// that one: `other` is the other file's versions.
  public static func merge(
    _ file: MergeVersions, as kind: ListFile, other: MergeVersions,
    conflictStyle: ConflictStyle = .markers(ours: "ours", theirs: "theirs")
  ) -> MergeResult {
    mergeFile(
      base: file.base, ours: file.ours, theirs: file.theirs, as: kind, other: other,
      conflictStyle: conflictStyle)
  }

  /// The same, with the file's versions held outside arrays (for a large file); the other
  /// file's versions are lists.
  package static func merge(
    base: LineBuffer?, ours: LineBuffer, theirs: LineBuffer, as kind: ListFile,
    other: MergeVersions, conflictStyle: ConflictStyle = .markers(ours: "ours", theirs: "theirs")
  ) -> MergeResult {
    mergeFile(base: base, ours: ours, theirs: theirs, as: kind, other: other, conflictStyle: conflictStyle)
  }

  private static func mergeFile<Lines: MergedLines>(
    base: Lines?, ours: Lines, theirs: Lines, as kind: ListFile, other: MergeVersions,
    conflictStyle: ConflictStyle
  ) -> MergeResult {
    let isTodo = kind == .todo
    // A done.txt the base lacks is an empty one: all its lines are added (`moves` is not
    // asked without a base).
    return merge(
      base: base, ours: ours, theirs: theirs, conflictStyle: conflictStyle
    ) { base, ours, oursFromBase, theirs, theirsFromBase in
      let ours = ArchiveMoves(
        pairing: &oursFromBase, base: base, side: ours, otherBase: other.base,
        otherSide: other.ours, isTodo: isTodo)
      let theirs = ArchiveMoves(
        pairing: &theirsFromBase, base: base, side: theirs,
        otherBase: other.base, otherSide: other.theirs, isTodo: isTodo)
      // Moves tell a deletion from an archiving only in todo.txt; in done.txt a line dropped
      // is a task reopened or a record cleared, which its completion elsewhere does not change.
      return (
        SideMoves(unsure: ours.unsure, moved: isTodo ? ours.moved : nil),
        SideMoves(unsure: theirs.unsure, moved: isTodo ? theirs.moved : nil)
      )
    }
  }
}
