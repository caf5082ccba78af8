import Foundation
import Testing
import TodoTestSupport

/// Three machines with real git, as in ``SyncPropertyTests``, that also archive: each adds,
/// completes, edits and deletes only its own open tasks, and archives whenever it likes, which
/// moves every machine's done tasks. Syncing in a seeded random order, each run one of the
/// three ways, no sync may conflict, all machines must end the same, and every task must be
/// there once (in todo.txt or done.txt), as its owner last left it.
@Suite("Sync archive properties")
struct SyncArchivePropertyTests {
  typealias Way = SyncPropertyTests.Way
  typealias Machine = SyncPropertyTests.Machine

  /// The lines of todo.txt and done.txt, without blank ones.
  static func lines(_ box: Sandbox) -> [String] {
    (SyncTests.lines(box, "todo.txt") + SyncTests.lines(box, "done.txt")).filter { !$0.isEmpty }
  }

  static func hasWord(_ line: String, _ word: String) -> Bool {
    line.split(separator: " ").contains(Substring(word))
  }

  /// What the owner sees of its task now, in either file.
  static func refresh(_ machine: Machine, _ word: String) {
    machine.mine[word] = lines(machine.box).first { hasWord($0, word) }
  }

  static func edit(_ machine: Machine, _ random: inout SyncPropertyGenerator) throws {
    let box = machine.box
    let todo = SyncTests.lines(box, "todo.txt")
    // Own open tasks by their line number.
    let open = machine.mine.keys.sorted().compactMap { word -> (String, Int)? in
      guard let index = todo.firstIndex(where: { hasWord($0, word) }), !todo[index].hasPrefix("x ")
      else { return nil }
      return (word, index + 1)
    }
    let choice = random.below(10)
    if choice < 2 {
      #expect(try box.todo("archive").status == 0)
      for word in machine.mine.keys { refresh(machine, word) }
      return
    }
    if open.isEmpty || choice < 5 {
      machine.added += 1
      let word = "\(machine.name)t\(machine.added)"
      let text =
        "\(SyncPropertyTests.texts[random.below(SyncPropertyTests.texts.count)]) \(machine.added) \(word)"
      #expect(try box.todo("add", text).status == 0)
      refresh(machine, word)
      return
    }
    let (word, number) = open[random.below(open.count)]
    let item = String(number)
    let arguments: [String] =
      switch random.below(4) {
      case 0, 1: ["do", item]
      case 2: ["append", item, "more\(random.below(100))"]
      default: ["-f", "del", item]
      }
    let run = try box.run("todo", arguments)
    #expect(run.status == 0, "\(arguments): \(run.stderr)")
    if arguments[0] == "-f" {
      machine.mine[word] = nil
    } else {
      refresh(machine, word)
    }
  }

  @Test(arguments: [(Way.sync, 31 as UInt64), (.pull, 32), (.rebase, 34)])
  func threeMachinesArchivingNeverConflictAndKeepEveryTaskOnce(way: Way, seed: UInt64) throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "todo-sync-archive-property-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    let machines = try SyncPropertyTests.makeMachines(3, root: root)
    var random = SyncPropertyGenerator(state: seed)
    var conflicts = 0
    for _ in 0..<36 {
      let machine = machines[random.below(machines.count)]
      if random.below(4) == 0 {
        if try SyncPropertyTests.sync(machine, way) { conflicts += 1 }
        for word in machine.mine.keys { Self.refresh(machine, word) }
      } else {
        try Self.edit(machine, &random)
      }
    }
    for _ in 0..<2 {
      for machine in machines where try SyncPropertyTests.sync(machine, way) { conflicts += 1 }
    }
    #expect(conflicts == 0, "\(way) seed \(seed)")
    let final = Self.lines(machines[0].box)
    for machine in machines.dropFirst() {
      #expect(
        SyncTests.lines(machine.box, "todo.txt") == SyncTests.lines(machines[0].box, "todo.txt"))
      #expect(
        SyncTests.lines(machine.box, "done.txt") == SyncTests.lines(machines[0].box, "done.txt"))
    }
    // The run did archive, and left tasks in both files.
    let done = SyncTests.lines(machines[0].box, "done.txt").filter { !$0.isEmpty }
    #expect(!done.isEmpty && final.count > done.count, "\(way) seed \(seed): \(final)")
    let expected = machines.flatMap { $0.mine.values }.sorted()
    #expect(final.sorted() == expected, "\(way) seed \(seed)")
  }
}
