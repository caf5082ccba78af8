import Foundation
import Testing
import TodoTestSupport

/// Three machines with real git that edit the SAME tasks (complete, prioritize, append,
/// delete, add) and sync in a seeded random order. Each merge is checked against the two
/// orders of the sides' edits: a clean merge must equal applying one side's edits after the
/// other's (task by task, field by field: completion, priority, words), and a conflict must
/// lose no side's version of a task. On the same histories plain `git merge-file` is run too,
/// and both conflict counts are printed, so the report the issue asks for is in every CI log.
@Suite("Sync properties, shared tasks")
struct SyncSharedTasksPropertyTests {
  typealias Machine = SyncPropertyTests.Machine

  /// What a line says, as far as the edits of this test go.
  struct Fields: Equatable, CustomStringConvertible {
    var done: Bool
    var priority: Character?
    var words: [String]

    init(line: String) {
      var tokens = line.split(separator: " ").map(String.init)
      done = tokens.first == "x"
      if done { tokens.removeFirst() }
      priority = nil
      if let head = tokens.first, head.count == 3, head.first == "(", head.last == ")" {
        priority = head.dropFirst().first
        tokens.removeFirst()
      }
      while let head = tokens.first, Fields.isDate(head) { tokens.removeFirst() }
      if let kept = tokens.firstIndex(where: { $0.hasPrefix("pri:") && $0.count == 5 }) {
        if priority == nil { priority = tokens[kept].last }
        tokens.remove(at: kept)
      }
      words = tokens
    }

    init(done: Bool, priority: Character?, words: [String]) {
      self.done = done
      self.priority = priority
      self.words = words
    }

    static func isDate(_ token: String) -> Bool {
      token.count == 10 && token.enumerated().allSatisfy { index, character in
        index == 4 || index == 7 ? character == "-" : character.isASCII && character.isNumber
      }
    }

    var description: String { "\(done ? "x " : "")\(priority.map { "(\($0)) " } ?? "")\(words.joined(separator: " "))" }
  }

  /// One side's edit of one task, read off the base and the side's version.
  enum Edit {
    case delete
    case add(Fields)
    case change(done: Bool?, priority: Character??, words: Words?)

    enum Words { case append([String]), replace([String]) }

    init?(base: Fields?, side: Fields?) {
      switch (base, side) {
      case (nil, nil): return nil
      case (.some, nil): self = .delete
      case (nil, .some(let side)): self = .add(side)
      case (.some(let base), .some(let side)):
        if base == side { return nil }
        let words: Words? =
          base.words == side.words
          ? nil
          : side.words.starts(with: base.words)
            ? .append(Array(side.words.dropFirst(base.words.count))) : .replace(side.words)
        self = .change(
          done: base.done == side.done ? nil : side.done,
          priority: base.priority == side.priority ? nil : .some(side.priority), words: words)
      }
    }

    /// Whether one of these versions of the task carries this edit (a deletion is nothing
    /// to keep).
    func isKept(in versions: [Fields]) -> Bool {
      switch self {
      case .delete: return true
      case .add(let added): return versions.contains(added)
      case .change(let done, let priority, let words):
        return versions.contains { version in
          if let done, version.done != done { return false }
          if let priority, version.priority != priority { return false }
          switch words {
          case .append(let more):
            return (0...max(0, version.words.count - more.count)).contains {
              version.words.dropFirst($0).starts(with: more)
            }
          case .replace(let all): return version.words == all
          case nil: return true
          }
        }
      }
    }

    /// The task after this edit, or nil when the edit does not apply (a change of a task the
    /// other side deleted): that order of the two sides does not exist.
    func applied(to fields: Fields??) -> Fields?? {
      switch self {
      case .delete: return .some(nil)
      case .add(let added): return fields == .some(nil) || fields == nil ? .some(added) : nil
      case .change(let done, let priority, let words):
        guard case .some(.some(var task)) = fields else { return nil }
        if let done { task.done = done }
        if let priority { task.priority = priority }
        switch words {
        case .append(let more): task.words += more
        case .replace(let all): task.words = all
        case nil: break
        }
        return .some(task)
      }
    }
  }

  /// Tasks by their unique word (every task has one: `s3`, `m1t2`).
  static func tasks(_ text: String) -> [String: Fields] {
    var tasks: [String: Fields] = [:]
    for line in text.split(separator: "\n").map(String.init) where !line.isEmpty {
      let fields = Fields(line: line)
      guard let key = fields.words.first(where: isKey) else { continue }
      tasks[key] = fields
    }
    return tasks
  }

  static func isKey(_ word: String) -> Bool {
    (word.hasPrefix("s") || (word.hasPrefix("m") && word.contains("t"))) && word.dropFirst().allSatisfy { $0.isNumber || $0 == "t" }
      && word.count >= 2 && word.last!.isNumber
  }

  /// The result of `first`'s edits then `second`'s, or nil when that order does not exist.
  static func order(base: [String: Fields], _ first: [String: Fields], then second: [String: Fields]) -> [String: Fields]? {
    var result: [String: Fields] = [:]
    for key in Set(base.keys).union(first.keys).union(second.keys) {
      var state: Fields?? = .some(base[key])
      for side in [first, second] {
        guard let edit = Edit(base: base[key], side: side[key]) else { continue }
        guard let next = edit.applied(to: state) else { return nil }
        state = next
      }
      if case .some(.some(let task)) = state { result[key] = task }
    }
    return result
  }

  /// Every version of each task a file holds, conflict blocks included.
  static func versions(_ text: String) -> [String: [Fields]] {
    var versions: [String: [Fields]] = [:]
    for line in text.split(separator: "\n").map(String.init) where !line.isEmpty {
      guard !["<<<<<<<", "=======", ">>>>>>>", "|||||||"].contains(where: line.hasPrefix) else { continue }
      let fields = Fields(line: line)
      guard let key = fields.words.first(where: isKey) else { continue }
      versions[key, default: []].append(fields)
    }
    return versions
  }

  static func lines(_ text: String) -> Set<String> {
    Set(text.split(separator: "\n").map(String.init).filter { !$0.isEmpty })
  }

  struct Tally {
    var merges = 0
    var conflicts = 0
    var gitConflicts = 0
  }

  static func show(_ box: Sandbox, _ revision: String) throws -> String {
    let (status, text) = try SyncSafetyTests.gitStatus(box, ["show", revision + ":todo.txt"])
    return status == 0 ? text : ""
  }

  /// `git merge-file` on the same three versions: whether plain git conflicts.
  static func gitConflicts(base: String, ours: String, theirs: String, in box: Sandbox) throws -> Bool {
    for (name, text) in [("base", base), ("ours", ours), ("theirs", theirs)] {
      try box.write("mf-" + name, text)
    }
    let (status, _) = try SyncSafetyTests.gitStatus(
      box, ["merge-file", "-p", box.path("mf-ours"), box.path("mf-base"), box.path("mf-theirs")])
    return status != 0
  }

  /// Syncs one machine with `todo sync`, checking the merge if there is one.
  static func sync(_ machine: Machine, _ tally: inout Tally, seed: UInt64) throws {
    let box = machine.box
    _ = try SyncSafetyTests.gitStatus(box, ["fetch", "-q", "origin"])
    let (hasRemote, _) = try SyncSafetyTests.gitStatus(box, ["rev-parse", "-q", "--verify", "origin/main"])
    var check: (base: String, ours: String, theirs: String)?
    if hasRemote == 0 {
      let (_, mergeBase) = try SyncSafetyTests.gitStatus(box, ["merge-base", "HEAD", "origin/main"])
      let (_, remote) = try SyncSafetyTests.gitStatus(box, ["rev-parse", "origin/main"])
      let baseRevision = mergeBase.trimmingCharacters(in: .whitespacesAndNewlines)
      if baseRevision != remote.trimmingCharacters(in: .whitespacesAndNewlines) {
        check = (try show(box, baseRevision), box.read("list/todo.txt"), try show(box, "origin/main"))
      }
    }
    let run = try box.todo("sync")
    guard let (base, ours, theirs) = check else {
      #expect(run.status == 0, "seed \(seed): sync on \(machine.name) without a merge: \(run.stderr)")
      return
    }
    tally.merges += 1
    if try gitConflicts(base: base, ours: ours, theirs: theirs, in: box) { tally.gitConflicts += 1 }
    let merged = box.read("list/todo.txt")
    if run.status == 0 {
      let (b, o, t, m) = (tasks(base), tasks(ours), tasks(theirs), tasks(merged))
      let orders = [order(base: b, o, then: t), order(base: b, t, then: o)].compactMap { $0 }
      #expect(
        orders.contains(m),
        "seed \(seed): clean merge on \(machine.name) is neither order\nbase:\n\(base)\nours:\n\(ours)\ntheirs:\n\(theirs)\nmerged:\n\(merged)")
      #expect(!merged.contains("<<<<<<<"), "seed \(seed): markers after a clean sync")
      return
    }
    tally.conflicts += 1
    // Nothing lost: each side's edit of each task is in some version the file keeps.
    let kept = versions(merged)
    let (b, o, t) = (tasks(base), tasks(ours), tasks(theirs))
    for (side, name) in [(o, "ours"), (t, "theirs")] {
      for key in Set(b.keys).union(side.keys) {
        guard let edit = Edit(base: b[key], side: side[key]) else { continue }
        #expect(
          edit.isKept(in: kept[key] ?? []),
          "seed \(seed): conflict on \(machine.name) lost \(name)' edit of \(key)\nbase:\n\(base)\nours:\n\(ours)\ntheirs:\n\(theirs)\nmerged:\n\(merged)")
      }
    }
    #expect(try box.todo("resolve", "both").status == 0, "seed \(seed)")
    let again = try box.todo("sync")
    #expect(again.status == 0, "seed \(seed): sync after resolve: \(again.stderr)")
  }

  static func edit(_ machine: Machine, _ random: inout SyncPropertyGenerator) throws {
    // Numbered as the tool numbers them: a deleted task leaves its line empty.
    let lines = SyncTests.lines(machine.box, "todo.txt")
    let numbers = lines.indices.filter { !lines[$0].isEmpty && !lines[$0].hasPrefix("<<<<<<<") }
    if numbers.isEmpty || random.below(10) < 2 {
      machine.added += 1
      let word = "\(machine.name)t\(machine.added)"
      #expect(try machine.box.todo("add", "\(SyncPropertyTests.texts[random.below(3)]) \(word)").status == 0)
      return
    }
    let index = numbers[random.below(numbers.count)]
    let fields = Fields(line: lines[index])
    let item = String(index + 1)
    let arguments: [String] =
      switch random.below(fields.done ? 2 : 5) {
      case 0: ["append", item, "w\(random.below(100))"]
      case 1: ["-f", "del", item]
      case 2: ["do", item]
      default: ["pri", item, String(["A", "B", "C"].filter { $0 != fields.priority }[random.below(2)])]
      }
    let run = try machine.box.run("todo", arguments)
    #expect(run.status == 0, "\(arguments): \(run.stderr)")
  }

  /// The oracle itself: a merge that keeps both sides' field edits is one of the orders; one
  /// that drops a side's edit, or keeps a task the other side changed after deleting it, is not.
  @Test func theOrdersOfTwoSidesAreWhatEachSideDidAfterTheOther() {
    let base = Self.tasks("(B) call s1\nwater s2\n")
    let ours = Self.tasks("x 2026-12-01 call s1 pri:B\nwater s2 w1\n")
    let theirs = Self.tasks("(A) call s1\nwater s2 w2\n")
    let first = Self.order(base: base, ours, then: theirs)
    let second = Self.order(base: base, theirs, then: ours)
    #expect(first == Self.tasks("x call s1 pri:A\nwater s2 w1 w2\n"))
    #expect(second == Self.tasks("x call s1 pri:A\nwater s2 w2 w1\n"))
    let dropped = Self.tasks("(A) call s1\nwater s2 w1 w2\n")
    #expect(first != dropped && second != dropped)
    // Deleted on one side, changed on the other: only "change, then delete" exists.
    let deleted = Self.tasks("water s2\n")
    #expect(Self.order(base: base, deleted, then: theirs) == nil)
    #expect(Self.order(base: base, theirs, then: deleted) == Self.tasks("water s2 w2\n"))
    #expect(Self.Edit(base: base["s1"], side: ours["s1"])!.isKept(in: [Fields(line: "x call s1 pri:B w9")]))
    #expect(!Self.Edit(base: base["s2"], side: ours["s2"])!.isKept(in: [Fields(line: "water s2 w2")]))
  }

  @Test(arguments: [41 as UInt64, 42, 43])
  func sharedTasksMergeAsOneOrderOfTheEditsOrConflictWithoutLoss(seed: UInt64) throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "todo-shared-property-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    let machines = try SyncPropertyTests.makeMachines(3, root: root)
    let first = machines[0].box
    for number in 1...8 {
      #expect(try first.todo("add", "\(SyncPropertyTests.texts[number % 3]) s\(number)").status == 0)
    }
    #expect(try first.todo("sync").status == 0)
    for machine in machines.dropFirst() { #expect(try machine.box.todo("sync").status == 0) }
    var random = SyncPropertyGenerator(state: seed)
    var tally = Tally()
    for _ in 0..<60 {
      let machine = machines[random.below(machines.count)]
      if random.below(3) == 0 {
        try Self.sync(machine, &tally, seed: seed)
      } else {
        try Self.edit(machine, &random)
      }
    }
    for _ in 0..<2 {
      for machine in machines { try Self.sync(machine, &tally, seed: seed) }
    }
    let final = Self.lines(machines[0].box.read("list/todo.txt"))
    for machine in machines.dropFirst() {
      #expect(Self.lines(machine.box.read("list/todo.txt")) == final, "seed \(seed): machines differ")
    }
    print(
      "shared-task sync, seed \(seed): \(tally.merges) merges with changes on both sides, "
        + "\(tally.conflicts) conflicts; plain git merge-file on the same versions: \(tally.gitConflicts) conflicts")
    #expect(tally.merges > 3, "seed \(seed): too few merges to say anything")
    #expect(tally.conflicts <= tally.gitConflicts, "seed \(seed)")
  }
}
