import Foundation
import Testing
import TodoTestSupport

/// Three machines with real git (a bare repository, a clone and a home each), editing only
/// their own tasks with the tool's commands and syncing in a seeded random order, each run
/// one of the three ways a list is synced: `todo sync`, `git pull` with the merge driver,
/// and `git pull --rebase` with it. No sync may conflict, all machines must end the same,
/// and every task must be there once, as its owner last left it.
@Suite("Sync properties")
struct SyncPropertyTests {
  enum Way: String, CaseIterable, Sendable { case sync, pull, rebase }

  final class Machine {
    let box: Sandbox
    let name: String
    /// Own tasks by their unique word, as this machine last saw them.
    var mine: [String: String] = [:]
    var added = 0

    init(_ box: Sandbox, name: String) {
      self.box = box
      self.name = name
    }
  }

  static func makeMachines(_ count: Int, root: URL) throws -> [Machine] {
    let remote = root.appendingPathComponent("remote.git")
    var machines: [Machine] = []
    for number in 0..<count {
      let box = try Sandbox(config: "export TODO_DIR=\"$HOME/list\"\n")
      box.environment["GIT_CONFIG_NOSYSTEM"] = "1"
      if number == 0 {
        try SyncTests.git(box, ["init", "-q", "--bare", "-b", "main", remote.path], in: root)
      }
      try SyncTests.git(box, ["clone", "-q", remote.path, box.path("list")], in: root)
      try SyncTests.git(box, ["checkout", "-q", "-B", "main"])
      try SyncTests.git(box, ["config", "user.name", "m\(number)"])
      try SyncTests.git(box, ["config", "user.email", "m\(number)@example.com"])
      try SyncTests.git(box, ["config", "pull.rebase", "false"])
      machines.append(Machine(box, name: "m\(number)"))
    }
    // One history to start from, with the merge drivers registered.
    let first = machines[0].box
    #expect(try first.todo("git-setup").status == 0)
    try first.write("list/todo.txt", "")
    try first.write("list/done.txt", "")
    try SyncTests.git(first, ["add", "-A"])
    try SyncTests.git(first, ["commit", "-q", "-m", "start"])
    try SyncTests.git(first, ["push", "-q", "-u", "origin", "main"])
    for machine in machines.dropFirst() {
      try SyncTests.git(machine.box, ["pull", "-q", "origin", "main"])
      try SyncTests.git(machine.box, ["branch", "-q", "--set-upstream-to=origin/main"])
    }
    return machines
  }

  /// The line numbers of todo.txt, by each own task's unique word.
  static func lineNumber(of word: String, in box: Sandbox) -> Int? {
    SyncTests.lines(box, "todo.txt").firstIndex { $0.split(separator: " ").contains(Substring(word)) }
      .map { $0 + 1 }
  }

  static func refresh(_ machine: Machine, _ word: String) {
    let lines = SyncTests.lines(machine.box, "todo.txt")
    machine.mine[word] = lines.first { $0.split(separator: " ").contains(Substring(word)) }
  }

  static let texts = ["Submit timesheet week", "call about invoice", "water the plants"]

  static func edit(_ machine: Machine, _ random: inout SyncPropertyGenerator) throws {
    let own = machine.mine.keys.sorted()
    if own.isEmpty || random.below(10) < 4 {
      machine.added += 1
      let word = "\(machine.name)t\(machine.added)"
      let text = "\(texts[random.below(texts.count)]) \(machine.added) \(word)"
      #expect(try machine.box.todo("add", text).status == 0)
      refresh(machine, word)
      return
    }
    let word = own[random.below(own.count)]
    guard let number = lineNumber(of: word, in: machine.box) else {
      Issue.record("\(word) of \(machine.name) is gone")
      machine.mine[word] = nil
      return
    }
    let item = String(number)
    let arguments: [String] =
      switch random.below(4) {
      case 0: ["do", item]
      case 1: ["pri", item, ["A", "B", "C"][random.below(3)]]
      case 2: ["append", item, "more\(random.below(100))"]
      default: ["-f", "del", item]
      }
    let run = try machine.box.run("todo", arguments)
    if arguments[0] == "-f" {
      #expect(run.status == 0, "\(arguments): \(run.stderr)")
      machine.mine[word] = nil
    } else {
      refresh(machine, word)
    }
  }

  /// Syncs one machine the given way; returns whether it ended in a conflict.
  static func sync(_ machine: Machine, _ way: Way) throws -> Bool {
    let box = machine.box
    switch way {
    case .sync:
      let run = try box.todo("sync")
      return run.status != 0
    case .pull, .rebase:
      #expect(try box.todo("git-setup").status == 0)
      _ = try SyncSafetyTests.gitStatus(box, ["add", "-A", "--", "todo.txt", "done.txt", ".gitattributes"])
      _ = try SyncSafetyTests.gitStatus(box, ["commit", "-q", "-m", "edit"])
      let (hasRemote, _) = try SyncSafetyTests.gitStatus(
        box, ["ls-remote", "--exit-code", "origin", "main"])
      if hasRemote == 0 {
        let (pulled, _) = try SyncSafetyTests.gitStatus(
          box, ["pull", "-q", way == .rebase ? "--rebase" : "--no-rebase", "origin", "main"])
        if pulled != 0 {
          let (_, status) = try SyncSafetyTests.gitStatus(box, ["status", "--short"])
          Issue.record("\(way) on \(machine.name): \(status)")
          return true
        }
      }
      let (pushed, _) = try SyncSafetyTests.gitStatus(box, ["push", "-q", "origin", "HEAD:main"])
      return pushed != 0
    }
  }

  @Test(arguments: [(Way.sync, 11 as UInt64), (.pull, 12), (.rebase, 13)])
  func threeMachinesEditingTheirOwnTasksNeverConflictAndConverge(way: Way, seed: UInt64) throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "todo-sync-property-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    let machines = try Self.makeMachines(3, root: root)
    var random = SyncPropertyGenerator(state: seed)
    var conflicts = 0
    for _ in 0..<36 {
      let machine = machines[random.below(machines.count)]
      if random.below(4) == 0 {
        if try Self.sync(machine, way) { conflicts += 1 }
        for word in machine.mine.keys { Self.refresh(machine, word) }
      } else {
        try Self.edit(machine, &random)
      }
    }
    for _ in 0..<2 {
      for machine in machines where try Self.sync(machine, way) { conflicts += 1 }
    }
    #expect(conflicts == 0, "\(way) seed \(seed)")
    let final = SyncTests.lines(machines[0].box, "todo.txt").filter { !$0.isEmpty }
    for machine in machines.dropFirst() {
      #expect(SyncTests.lines(machine.box, "todo.txt").filter { !$0.isEmpty } == final)
    }
    let expected = machines.flatMap { $0.mine.values }.sorted()
    #expect(final.sorted() == expected, "\(way) seed \(seed)")
  }
}

/// SplitMix64, seeded, so a failing run can be replayed.
struct SyncPropertyGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
