import Testing
import TodoTestSupport
import TodoTxt

/// Random histories of two sides that complete, edit, delete, add and archive tasks, merged
/// as todo.txt and done.txt together. Every task carries a word of its own (`w3`), so it can be
/// counted in the result whatever became of it:
///
/// - a task neither side deleted is there once, in done.txt if either side archived it;
/// - a task deleted on one side is gone when the other only moved it or left it alone, and
///   conflicts when the other side completed or edited it;
/// - a task in a conflict is there once after the conflicts are settled for one side,
///   where that side put it, and gone when that side deleted it.
@Suite("Archive merge properties")
struct ArchiveMergePropertyTests {
  struct Lists {
    var todo: TodoList
    var done: TodoList
  }

  /// Where a side has a task: the file and the line, or `nil` when it deleted it.
  struct Place: Equatable {
    var inDone: Bool
    var line: String
  }

  static let texts = ["water the plants", "call about invoice", "Submit timesheet week"]

  static func day(_ text: String) -> TaskDate {
    // swift-format-ignore: NeverForceUnwrap
    TaskDate(text)!  // the tests' own dates
  }

  /// A base of two to six tasks: open or done in todo.txt, or done in done.txt.
  static func randomBase(_ g: inout SplitMix64) -> (lists: Lists, ids: [String]) {
    var todo = TodoList()
    var done = TodoList()
    var ids: [String] = []
    for number in 0..<(2 + g.below(5)) {
      let id = "w\(number)"
      ids.append(id)
      var line = "\(texts[g.below(texts.count)]) \(id)"
      if g.below(2) == 0 { line = "2026-11-01 " + line }
      if g.below(3) == 0 { line = "(\(["A", "B"][g.below(2)])) " + line }
      var task = Task(parsing: line)
      switch g.below(5) {
      case 0:
        task.complete(on: day("2026-11-20"))
        _ = todo.append(task)
      case 1:
        task.complete(on: day("2026-11-20"))
        _ = done.append(task)
      default: _ = todo.append(task)
      }
    }
    return (Lists(todo: todo, done: done), ids)
  }

  /// One side's history: up to four of the commands' edits.
  static func randomSide(_ lists: Lists, _ g: inout SplitMix64, name: String) -> Lists {
    var lists = lists
    let today = day(name == "a" ? "2026-12-01" : "2026-12-02")
    for step in 0..<(1 + g.below(4)) {
      let tasks = lists.todo.indices.filter { !lists.todo[$0].isBlank }
      let open = tasks.filter { !lists.todo[$0].isCompleted }
      switch g.below(7) {
      case 0 where !open.isEmpty:
        let index = open[g.below(open.count)]
        var task = lists.todo[index]
        task.complete(on: today, priorityStyle: g.below(2) == 0 ? .tag : .drop)
        lists.todo.replace(at: index, with: task)
      case 1 where !tasks.isEmpty:
        let index = tasks[g.below(tasks.count)]
        // `todo del` leaves a blank line; todo.sh's removes it.
        if g.below(2) == 0 {
          _ = lists.todo.remove(at: index)
        } else {
          lists.todo.replace(at: index, with: Task(parsing: ""))
        }
      case 2 where !tasks.isEmpty:
        let index = tasks[g.below(tasks.count)]
        var task = lists.todo[index]
        task.appendText("more\(name)\(step)")
        lists.todo.replace(at: index, with: task)
      case 3 where !open.isEmpty:
        let index = open[g.below(open.count)]
        var task = lists.todo[index]
        task.setPriority(Priority(["A", "B", "C"][g.below(3)]))
        lists.todo.replace(at: index, with: task)
      case 4, 5:
        lists.todo.archiveCompleted(into: &lists.done)
      case 6:
        _ = lists.todo.append(Task(parsing: "\(texts[g.below(texts.count)]) k\(name)\(step)"))
      default: break
      }
    }
    return lists
  }

  static func hasWord(_ line: String, _ id: String) -> Bool {
    line.split(separator: " ").contains(Substring(id))
  }

  static func place(of id: String, in lists: Lists) -> Place? {
    if let line = lists.todo.map(\.line).first(where: { hasWord($0, id) }) {
      return Place(inDone: false, line: line)
    }
    return lists.done.map(\.line).first { hasWord($0, id) }.map { Place(inDone: true, line: $0) }
  }

  /// The lines of a merged file that hold the task, and whether they are in done.txt.
  static func occurrences(of id: String, todo: TodoList, done: TodoList) -> [Bool] {
    todo.map(\.line).filter {
      hasWord($0, id) && !$0.hasPrefix(">>>>>>>") && !$0.hasPrefix("<<<<<<<")
    }
    .map { _ in false }
      + done.map(\.line).filter {
        hasWord($0, id) && !$0.hasPrefix(">>>>>>>") && !$0.hasPrefix("<<<<<<<")
      }
      .map { _ in true }
  }

  /// The task words a conflict is about.
  static func ids(in conflict: MergeConflict, among ids: [String]) -> Set<String> {
    let lines = [
      conflict.base, conflict.ours, conflict.theirs, conflict.oursMovedTo?.task,
      conflict.theirsMovedTo?.task,
    ].compactMap { $0?.line }
    return Set(ids.filter { id in lines.contains { hasWord($0, id) } })
  }

  static func versions(_ base: TodoList, _ ours: TodoList, _ theirs: TodoList) -> MergeVersions {
    MergeVersions(base: base, ours: ours, theirs: theirs)
  }

  /// A merged file and its conflicts.
  typealias Merged = (list: TodoList, conflicts: [MergeConflict])

  /// Both files merged as `todo sync` merges them: as one list.
  static func syncMerge(base: Lists, ours: Lists, theirs: Lists, seed: UInt64) -> (
    todo: Merged, done: Merged
  ) {
    let result = TodoMerge.merge(
      todo: versions(base.todo, ours.todo, theirs.todo),
      done: versions(base.done, ours.done, theirs.done))
    // The driver of each file, given the other's versions, agrees.
    let todoAlone = TodoMerge.merge(
      versions(base.todo, ours.todo, theirs.todo), as: .todo,
      other: versions(base.done, ours.done, theirs.done))
    let doneAlone = TodoMerge.merge(
      versions(base.done, ours.done, theirs.done), as: .done,
      other: versions(base.todo, ours.todo, theirs.todo))
    #expect(todoAlone.list.serialized() == result.todo.list.serialized(), "seed \(seed)")
    #expect(doneAlone.list.serialized() == result.done.list.serialized(), "seed \(seed)")
    return ((result.todo.list, result.todo.conflicts), (result.done.list, result.done.conflicts))
  }

  /// Both files merged as `git pull` merges them with the drivers: a file only one side
  /// changed (or both the same way) is that side's, as it is; the driver merges the others,
  /// one at a time. `nil` when git would run no driver on todo.txt, where nothing can carry
  /// what done.txt needs.
  static func gitMerge(base: Lists, ours: Lists, theirs: Lists) -> (todo: Merged, done: Merged)? {
    func merge(_ file: MergeVersions, as kind: TodoMerge.ListFile, other: MergeVersions) -> Merged?
    {
      let (o, t, b) = (
        file.ours.serialized(), file.theirs.serialized(), file.base?.serialized() ?? []
      )
      if o == t || t == b { return (file.ours, []) }
      if o == b { return (file.theirs, []) }
      let result = TodoMerge.merge(file, as: kind, other: other, otherMergedBy: .git)
      return (result.list, result.conflicts)
    }
    let todo = versions(base.todo, ours.todo, theirs.todo)
    let done = versions(base.done, ours.done, theirs.done)
    let (o, t, b) = (ours.todo.serialized(), theirs.todo.serialized(), base.todo.serialized())
    guard o != t, o != b, t != b, let todoMerged = merge(todo, as: .todo, other: done),
      let doneMerged = merge(done, as: .done, other: todo)
    else { return nil }
    return (todoMerged, doneMerged)
  }

  /// Checks one merge of `ours` and `theirs` against what each side did to each task.
  static func check(
    _ result: (todo: Merged, done: Merged), base: Lists, ours: Lists, theirs: Lists, ids: [String],
    seed: UInt64
  ) {
    let conflicts = result.todo.conflicts + result.done.conflicts
    let conflicted = conflicts.reduce(into: Set<String>()) {
      $0.formUnion(Self.ids(in: $1, among: ids))
    }
    let context =
      "seed \(seed)\nours \(ours.todo.map(\.line)) \(ours.done.map(\.line))\n"
      + "theirs \(theirs.todo.map(\.line)) \(theirs.done.map(\.line))\n"
      + "merged \(result.todo.list.map(\.line)) \(result.done.list.map(\.line))"
    for id in ids {
      let was = place(of: id, in: base)
      let mine = place(of: id, in: ours)
      let yours = place(of: id, in: theirs)
      let found = occurrences(of: id, todo: result.todo.list, done: result.done.list)
      guard let was else {
        // Added on one side: there once, where it was put (unless in a conflict).
        if !conflicted.contains(id) {
          #expect(found == (mine ?? yours).map { [$0.inDone] } ?? [], "\(id) added: \(context)")
        }
        continue
      }
      // Deleted on one side, completed or edited on the other: never a clean merge.
      if let kept = mine ?? yours, (mine == nil) != (yours == nil), kept.line != was.line {
        #expect(conflicted.contains(id), "\(id) deleted and changed: \(context)")
        continue
      }
      guard !conflicted.contains(id) else { continue }
      switch (mine, yours) {
      case (nil, nil):
        #expect(found.isEmpty, "\(id) deleted on both sides: \(context)")
      case (nil, _), (_, nil):
        // Deleted on one side, left alone (or only moved) on the other.
        #expect(found.isEmpty, "\(id) deleted on one side: \(context)")
      case (let mine?, let yours?):
        #expect(found == [mine.inDone || yours.inDone], "\(id): \(context)")
      }
    }

    // Settled for one side, each task in a conflict is where that side put it, once.
    guard !conflicts.isEmpty else { return }
    for (side, lists) in [(ConflictBlocks.Side.ours, ours), (.theirs, theirs)] {
      var todo = result.todo.list
      var done = result.done.list
      guard let todoBlocks = try? ConflictBlocks(todo), let doneBlocks = try? ConflictBlocks(done)
      else {
        Issue.record("malformed markers: \(context)")
        return
      }
      let removed = ConflictBlocks.linesRemoved(
        settling: [
          Dictionary(uniqueKeysWithValues: todoBlocks.blocks.indices.map { ($0, side) }),
          Dictionary(uniqueKeysWithValues: doneBlocks.blocks.indices.map { ($0, side) }),
        ],
        in: [(todo, todoBlocks, .todo), (done, doneBlocks, .done)])
      todo.removeAllLines { line, _, _ in removed[0].contains(line) }
      done.removeAllLines { line, _, _ in removed[1].contains(line) }
      for id in conflicted {
        let found = occurrences(of: id, todo: todo, done: done)
        let expected = place(of: id, in: lists).map { [$0.inDone] } ?? []
        #expect(found == expected, "\(id) settled for \(side): \(context)")
      }
    }
  }

  @Test(arguments: [1 as UInt64, 2, 3, 4])
  func everyTaskEndsOnceWhereTheMergeOfItsVersionsPutsIt(seed: UInt64) {
    var g = SplitMix64(seed: seed)
    for _ in 0..<300 {
      let (base, ids) = Self.randomBase(&g)
      let ours = Self.randomSide(base, &g, name: "a")
      let theirs = Self.randomSide(base, &g, name: "b")
      let added =
        (ours.todo.map(\.line) + theirs.todo.map(\.line) + ours.done.map(\.line)
        + theirs.done.map(\.line))
        .flatMap { $0.split(separator: " ") }.map(String.init)
        .filter { $0.hasPrefix("ka") || $0.hasPrefix("kb") }
      let all = ids + Array(Set(added)).sorted()
      for (ours, theirs) in [(ours, theirs), (theirs, ours)] {
        let synced = Self.syncMerge(base: base, ours: ours, theirs: theirs, seed: seed)
        Self.check(synced, base: base, ours: ours, theirs: theirs, ids: all, seed: seed)
      }
    }
  }

  /// The same under `git pull`, whenever git runs todo.txt's driver.
  @Test(arguments: [5 as UInt64, 6, 7, 8])
  func underGitEveryTaskEndsOnceWhenTodoTxtChangedOnBothSides(seed: UInt64) {
    var g = SplitMix64(seed: seed)
    var merged = 0
    for _ in 0..<300 {
      let (base, ids) = Self.randomBase(&g)
      let ours = Self.randomSide(base, &g, name: "a")
      let theirs = Self.randomSide(base, &g, name: "b")
      let added =
        (ours.todo.map(\.line) + theirs.todo.map(\.line) + ours.done.map(\.line)
        + theirs.done.map(\.line))
        .flatMap { $0.split(separator: " ") }.map(String.init)
        .filter { $0.hasPrefix("ka") || $0.hasPrefix("kb") }
      let all = ids + Array(Set(added)).sorted()
      for (ours, theirs) in [(ours, theirs), (theirs, ours)] {
        guard let pulled = Self.gitMerge(base: base, ours: ours, theirs: theirs) else { continue }
        merged += 1
        Self.check(pulled, base: base, ours: ours, theirs: theirs, ids: all, seed: seed)
      }
    }
    #expect(merged > 100)
  }
}
