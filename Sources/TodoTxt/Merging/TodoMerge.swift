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

  /// What the other list file says about a side's base tasks (``ArchiveMoves``).
  struct SideMoves {
    /// Base lines whose pairing it doubts: a change of one of them on the other side is a
    /// conflict.
    var unsure: Set<Int> = []
    /// Base lines whose task this side moved to the other file; `nil` when the merge is of one
    /// file alone and cannot tell. A task a side deleted without moving it was deleted for
    /// good, and its completion on the other side then conflicts with the deletion.
    var moved: Set<Int>? = nil

    /// Whether the side is known to have dropped the task at `baseIndex` without moving it.
    func deletedOutright(_ baseIndex: Int) -> Bool { moved.map { !$0.contains(baseIndex) } ?? false }
  }

  /// The merge, with `moves` to correct each side's pairing with the base by what the other
  /// list file says (``ArchiveMoves``).
  ///
  /// Without `base`, `moves` is not asked: every line is an addition.
  static func merge<Lines: MergedLines>(
    base: Lines?, ours: Lines, theirs: Lines, conflictStyle: ConflictStyle,
    moves: (
      _ base: Lines, _ ours: Lines, _ oursFromBase: inout LinePairing,
      _ theirs: Lines, _ theirsFromBase: inout LinePairing
    ) -> (SideMoves, SideMoves)
  ) -> MergeResult {
    // The pairings are gone before the merged file is put together: for a large file it holds
    // a copy of ours, and nothing else need be held beside it.
    let layout = layOut(base: base, ours: ours, theirs: theirs, conflictStyle: conflictStyle, moves: moves)
    var result = layout.result()
    if layout.sidesSwapped {
      result.conflicts = result.conflicts.map {
        MergeConflict(base: $0.base, ours: $0.theirs, theirs: $0.ours, reason: $0.reason)
      }
    }
    return result
  }

  /// What becomes of each line: the merge before the merged file is made.
  private static func layOut<Lines: MergedLines>(
    base: Lines?, ours: Lines, theirs: Lines, conflictStyle: ConflictStyle,
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
      oursFromBase = LinePairing(old: base, new: ours, similar: true)
      theirsFromBase = LinePairing(old: base, new: theirs, similar: true)
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

    // Tasks added on both sides: the same line, or the same task in another state.
    let ourAdded = (0..<ours.count).filter { oursFromBase.oldForNew[$0] == nil }
    let theirAdded = (0..<theirs.count).filter { theirsFromBase.oldForNew[$0] == nil }
    let added = LinePairing(
      old: ourAdded.map { ours[$0] }, new: theirAdded.map { theirs[$0] }, similar: false)
    var theirsForAdded: [Int: Int] = [:]
    var oursForAdded: [Int: Int] = [:]
    for (position, match) in added.newForOld.enumerated() {
      guard let match else { continue }
      theirsForAdded[ourAdded[position]] = theirAdded[match]
      oursForAdded[theirAdded[match]] = ourAdded[position]
    }

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
            MergeConflict(base: original, ours: task, theirs: nil, reason: .deletedAndChanged),
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
        var outcome = TaskMerge.merge(base: nil, ours: task, theirs: theirs[theirIndex])
        if case .conflict = outcome, let next = TaskMerge.nextOccurrence(task, theirs[theirIndex]) {
          outcome = .merged(next)
        }
        layout.place(outcome, at: index, base: nil, ours: task, theirs: theirs[theirIndex])
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
            reason: changed ? .deletedAndChanged : .uncertainMatch),
          after: previous)
      } else if let ourIndex = oursForAdded[index] {
        anchor = ourIndex
      } else {
        layout.insert(theirs[index], after: previous)
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
    var ourLine = conflict.ours.map { [Array($0.bytes)] } ?? []
    var theirLine = conflict.theirs.map { [Array($0.bytes)] } ?? []
    if sidesSwapped { swap(&ourLine, &theirLine) }
    switch conflictStyle {
    case .keepBoth: return ourLine + theirLine
    case .markers(let oursLabel, let theirsLabel):
      return [Array("<<<<<<< \(oursLabel)".utf8)] + ourLine + [Array("=======".utf8)] + theirLine
        + [Array(">>>>>>> \(theirsLabel)".utf8)]
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
