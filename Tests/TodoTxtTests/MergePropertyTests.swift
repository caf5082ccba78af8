import Testing
import TodoTxt

/// Three machines share one list through a remote, as `sync` does: each syncs by merging its
/// list with the remote's, from the version it last synced, and pushing the result. When each
/// machine edits only its own tasks, no merge may conflict, every machine must end with the
/// same list, and that list must hold every task once, as its owner last wrote it.
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
    var added = 0
  }

  /// Texts alike across machines on purpose: the merge matches edited tasks by resemblance.
  static let texts = [
    "Submit timesheet week", "call about invoice", "buy milk and bread", "water the plants",
    "review pull request", "book dentist appointment",
  ]

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
      machine.lines.insert(text, at: random.below(machine.lines.count + 1))
      machine.mine[number] = text
      return
    }
    let number = own[random.below(own.count)]
    let old = machine.mine[number]!
    guard let index = machine.lines.firstIndex(of: old) else { return }
    var new = old
    switch random.below(6) {
    case 0 where !old.hasPrefix("x "):
      new = "x 2026-12-\(10 + day % 18) " + old
    case 1 where !old.hasPrefix("x ") && !old.hasPrefix("("):
      new = "(\(["A", "B", "C"][random.below(3)])) " + old
    case 2:
      new = old + " note\(random.below(100))"
    case 3:
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
    var remote: [String] = []
    var machines = ["laptop", "phone", "desk"].map {
      Machine(name: $0, lines: [], base: [])
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
    let expected = machines.flatMap { $0.mine.values }.sorted()
    #expect(remote.sorted() == expected, "seed \(seed)")
  }
}
