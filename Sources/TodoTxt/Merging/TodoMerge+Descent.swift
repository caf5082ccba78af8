/// What a merge without a sure common version needs to know about the versions it has: how
/// well a candidate accounts for a file as its ancestor, and which tasks it kept twice.
extension TodoMerge {
  /// How much of `descendant` the version `ancestor` accounts for, as the version it was made
  /// from: two points for each of its lines `descendant` has unchanged, one for each it has
  /// changed (the same task completed, retagged or reworded, paired as a merge pairs it).
  ///
  /// A task changed in `descendant` must count for the version that has it: counting only
  /// unchanged lines, a version without the task scores the same as one with it, and taking
  /// the older of the two makes the change read as a new task beside the old one.
  package static func kinship(ancestor: TodoList, descendant: TodoList) -> Int {
    let pairing = LinePairing(old: ancestor, new: descendant, similar: true)
    var points = 0
    for (index, paired) in pairing.newForOld.enumerated() {
      guard let paired else { continue }
      points += ancestor.line(index, equals: descendant, paired) ? 2 : 1
    }
    return points
  }

  /// Pairs of lines of `result`, one that only `ours` has and one that only `theirs` has,
  /// that a merge would take for one task changed on both sides: what a merge without a
  /// common version keeps twice (it cannot tell an edit from a new task), and a person
  /// should be told of.
  package static func lookAlikes(ours: TodoList, theirs: TodoList, in result: TodoList) -> [(
    ours: Task, theirs: Task
  )] {
    var counts: [[UInt8]: (ours: Int, theirs: Int)] = [:]
    for task in ours { counts[Array(task.bytes), default: (0, 0)].ours += 1 }
    for task in theirs { counts[Array(task.bytes), default: (0, 0)].theirs += 1 }
    var oursOnly: [Task] = []
    var theirsOnly: [Task] = []
    for task in result where !task.isBlank {
      guard let count = counts[Array(task.bytes)] else { continue }
      if count.theirs == 0 { oursOnly.append(task) } else if count.ours == 0 { theirsOnly.append(task) }
    }
    guard !oursOnly.isEmpty, !theirsOnly.isEmpty else { return [] }
    let pairing = LinePairing(old: oursOnly, new: theirsOnly, similar: true)
    return oursOnly.indices.compactMap { index in
      pairing.newForOld[index].map { (oursOnly[index], theirsOnly[$0]) }
    }
  }
}
