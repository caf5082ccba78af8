import Testing
import TodoTxt
import TodoTestSupport

/// Three machines share one list through a remote, as `sync` does: each syncs by merging its
/// list with the remote's, from the version it last synced, and pushing the result. When each
/// machine edits only its own tasks, no merge may conflict, every machine must end with the
/// same list, and that list must hold every task once, as its owner last wrote it.
///
/// The list starts with tasks of the same text owned by different machines ("call mom"), each
/// right after a task of its owner with a unique text; the owner edits it by that place.
/// Whichever copy a machine edits, the merge must put the edit on that copy. (Two machines
/// adding the same line before syncing add one task: that is no case of two tasks.) The tasks
/// that shared-text tasks follow are never deleted: deleting one with the task after it, next
/// to another copy of that task, leaves a file in which either copy may be the deleted one,
/// and the merge rightly calls that a conflict.
@Suite("Merge properties")
struct MergePropertyTests {
  /// The target's seeded generator, so a failing run can be replayed by its seed.
  typealias Generator = SplitMix64

  struct Machine {
    var name: String
    /// The list on this machine.
    var lines: [String]
    /// The remote's list when this machine last synced: the base of its next merge.
    var base: [String]
    /// This machine's tasks, as it last wrote them, by number.
    var mine: [Int: String] = [:]
    /// The task with a shared text right after own task `number`, as this machine last wrote
    /// it.
    var follower: [Int: String] = [:]
    var added = 0
  }

  /// Texts alike across machines on purpose: the merge matches edited tasks by resemblance.
  static let texts = [
    "Submit timesheet week", "call about invoice", "buy milk and bread", "water the plants",
    "review pull request", "book dentist appointment",
  ]

  /// Texts every machine writes the same, for tasks that differ only by their place.
  static let sharedTexts = ["call mom", "feed the cat"]

  /// Whether a line is one of the tasks with a shared text (in any state).
  static func isFollower(_ line: String) -> Bool {
    sharedTexts.contains { line.contains($0) }
  }

  /// Each machine's tasks at the start, each followed by a shared-text task.
  static let startingTasks = 3

  static func list(_ lines: [String]) -> TodoList {
    TodoList(parsing: lines.map { $0 + "\n" }.joined())
  }

  /// One machine's random edit of one of its own tasks, or a new task.
  static func edit(_ machine: inout Machine, _ random: inout Generator, day: Int) {
    let own = machine.mine.keys.sorted()
    if own.isEmpty || random.below(10) < 3 {
      machine.added += 1
      let number = machine.added
      let text =
        "\(texts[random.below(texts.count)]) \(number) \(machine.name) +p\(random.below(3))"
      // Never between a task and the shared-text task after it.
      var at = random.below(machine.lines.count + 1)
      while at < machine.lines.count, isFollower(machine.lines[at]) { at += 1 }
      machine.lines.insert(text, at: at)
      machine.mine[number] = text
      return
    }
    let number = own[random.below(own.count)]
    let old = machine.mine[number]!
    guard let index = machine.lines.firstIndex(of: old) else { return }
    if let follower = machine.follower[number], random.below(2) == 0 {
      editFollower(&machine, number, follower, after: index, &random, day: day)
      return
    }
    var new = old
    switch random.below(6) {
    case 0 where !old.hasPrefix("x "):
      new = "x 2026-12-\(10 + day % 18) " + old
    case 1 where !old.hasPrefix("x ") && !old.hasPrefix("("):
      new = "(\(["A", "B", "C"][random.below(3)])) " + old
    case 2:
      new = old + " note\(random.below(100))"
    case 3 where number > Self.startingTasks:
      machine.lines.remove(at: index)
      machine.mine[number] = nil
      return
    case 4:
      // Rewrites a word: the text is no longer the same, only alike.
      var words = old.split(separator: " ").map(String.init)
      let at = random.below(words.count)
      words[at] = "w\(random.below(1000))"
      new = words.joined(separator: " ")
      guard !machine.lines.contains(new), !new.hasPrefix("w"), new != old else { return }
    default:
      new = old + " due:2026-12-\(10 + random.below(18))"
    }
    machine.lines[index] = new
    machine.mine[number] = new
  }

  /// An edit of the shared-text task after own task `number`, found by its place.
  static func editFollower(
    _ machine: inout Machine, _ number: Int, _ old: String, after index: Int,
    _ random: inout Generator, day: Int
  ) {
    guard index + 1 < machine.lines.count, machine.lines[index + 1] == old else {
      Issue.record("\(machine.name): the task after own task \(number) is not \(old)")
      return
    }
    var new = old
    switch random.below(4) {
    case 0 where !old.hasPrefix("x "):
      new = "x 2026-12-\(10 + day % 18) " + old
    case 1 where !old.hasPrefix("x ") && !old.hasPrefix("("):
      new = "(\(["A", "B", "C"][random.below(3)])) " + old
    case 2:
      machine.lines.remove(at: index + 1)
      machine.follower[number] = nil
      return
    default:
      new = old + " due:2026-12-\(10 + random.below(18))"
    }
    machine.lines[index + 1] = new
    machine.follower[number] = new
  }

  /// `sync`: merge with the remote from the last synced version, then push.
  static func sync(_ machine: inout Machine, remote: inout [String]) -> [MergeConflict] {
    let result = TodoMerge.merge(
      base: list(machine.base), ours: list(machine.lines), theirs: list(remote))
    let merged = result.list.map(\.line)
    remote = merged
    machine.lines = merged
    machine.base = merged
    return result.conflicts
  }

  @Test(arguments: Array(1...8) as [UInt64])
  func machinesEditingOnlyTheirOwnTasksNeverConflictAndConverge(seed: UInt64) {
    var random = Generator(seed: seed)
    var machines = ["laptop", "phone", "desk"].map {
      Machine(name: $0, lines: [], base: [])
    }
    // Interleaved: every machine's own task, each followed by a task of a shared text.
    var remote: [String] = []
    for number in 1...Self.startingTasks {
      for index in machines.indices {
        let text = "\(Self.texts[random.below(Self.texts.count)]) \(number) \(machines[index].name)"
        let shared = Self.sharedTexts[random.below(Self.sharedTexts.count)]
        remote += [text, shared]
        machines[index].mine[number] = text
        machines[index].follower[number] = shared
        machines[index].added = number
      }
    }
    for index in machines.indices {
      machines[index].lines = remote
      machines[index].base = remote
    }
    var conflicts: [MergeConflict] = []
    for step in 0..<200 {
      let which = random.below(machines.count)
      if random.below(4) == 0 {
        conflicts += Self.sync(&machines[which], remote: &remote)
      } else {
        Self.edit(&machines[which], &random, day: step)
      }
    }
    for _ in 0..<2 {
      for index in machines.indices { conflicts += Self.sync(&machines[index], remote: &remote) }
    }
    #expect(conflicts.isEmpty, "seed \(seed): \(conflicts)")
    for machine in machines { #expect(machine.lines == remote, "seed \(seed): \(machine.name)") }
    let expected = machines.flatMap { Array($0.mine.values) + Array($0.follower.values) }.sorted()
    #expect(remote.sorted() == expected, "seed \(seed)")
    // Each shared-text task is still the one right after its owner's task.
    for machine in machines {
      for (number, follower) in machine.follower {
        let index = remote.firstIndex(of: machine.mine[number] ?? "")
        #expect(
          index.map { $0 + 1 < remote.count && remote[$0 + 1] == follower } == true,
          "seed \(seed): \(machine.name) \(number)")
      }
    }
  }
}
