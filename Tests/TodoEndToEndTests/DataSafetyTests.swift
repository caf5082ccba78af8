import Foundation
import Testing
import TodoTestSupport

/// Many processes at once, and processes killed in the middle of a write: no line may be lost,
/// doubled or corrupted. Every line carries a unique token (`tok123`), so the check is that
/// each token appears exactly once across todo.txt and done.txt.
@Suite(.serialized) struct DataSafetyTests {
  /// Counts of each `tokN` word in the two files.
  static func tokenCounts(_ box: Sandbox) -> [String: Int] {
    var counts: [String: Int] = [:]
    for file in ["todo.txt", "done.txt"] {
      for line in box.read(file).split(separator: "\n") {
        for word in line.split(separator: " ") where word.hasPrefix("tok") {
          counts[String(word), default: 0] += 1
        }
      }
    }
    return counts
  }

  static func start(_ box: Sandbox, _ arguments: [String]) throws -> Process {
    let process = Process()
    process.executableURL = box.home.appendingPathComponent("bin/todo")
    process.arguments = arguments
    process.currentDirectoryURL = box.home
    process.environment = box.environment.merging(["TODO_LOCK_TIMEOUT": "30"]) { $1 }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return process
  }

  @Test func concurrentProcessesLoseNothing() throws {
    let box = try Sandbox()
    let seeds = (1...40).map { "seed task tok\($0) +home" }
    try box.write("todo.txt", seeds.joined(separator: "\n") + "\n")
    let adders = 4
    let addsEach = 30
    let group = DispatchGroup()
    let failures = Failures()
    // Adders, an editor doing do/pri/append/depri on whatever lines exist, an archiver.
    for worker in 0..<adders {
      group.enter()
      DispatchQueue.global().async {
        defer { group.leave() }
        for k in 0..<addsEach {
          let token = "tok\(1000 + worker * 100 + k)"
          do {
            let p = try DataSafetyTests.start(box, ["add", "worker \(worker) item \(token)"])
            p.waitUntilExit()
            if p.terminationStatus != 0 { failures.add("add \(token) exited \(p.terminationStatus)") }
          } catch { failures.add("\(error)") }
        }
      }
    }
    group.enter()
    DispatchQueue.global().async {
      defer { group.leave() }
      var generator = SplitMix64(seed: 60)
      for step in 0..<60 {
        let number = String(Int.random(in: 1...40, using: &generator))
        let arguments: [String]
        switch step % 4 {
        case 0: arguments = ["do", number]
        case 1: arguments = ["pri", number, "B"]
        case 2: arguments = ["append", number, "more"]
        default: arguments = ["depri", number]
        }
        if let p = try? DataSafetyTests.start(box, arguments) { p.waitUntilExit() }
      }
    }
    group.enter()
    DispatchQueue.global().async {
      defer { group.leave() }
      for _ in 0..<10 {
        if let p = try? DataSafetyTests.start(box, ["archive"]) { p.waitUntilExit() }
        usleep(20_000)
      }
    }
    group.wait()
    #expect(failures.all.isEmpty, "\(failures.all)")
    let counts = DataSafetyTests.tokenCounts(box)
    let expected = (1...40).map { "tok\($0)" }
      + (0..<adders).flatMap { worker in (0..<addsEach).map { "tok\(1000 + worker * 100 + $0)" } }
    for token in expected { #expect(counts[token] == 1, "\(token) appears \(counts[token] ?? 0) times") }
    #expect(counts.count == expected.count)
    // Every line of both files is a whole task: no joined or torn lines.
    for file in ["todo.txt", "done.txt"] {
      for line in box.read(file).split(separator: "\n") {
        #expect(line.split(separator: " ").filter { $0.hasPrefix("tok") }.count == 1, "torn line: \(line)")
      }
      #expect(box.read(file).isEmpty || box.read(file).hasSuffix("\n"))
    }
  }

  @Test func killedWritesLeaveTheOldOrTheNewState() throws {
    let box = try Sandbox()
    let count = 100_000
    var text = ""
    text.reserveCapacity(count * 40)
    for n in 1...count { text += "task number tok\(n) +proj @ctx due:2009-03-01\n" }
    try box.write("todo.txt", text)
    var generator = SplitMix64(seed: 104)
    var kills = 0
    for round in 0..<16 {
      let arguments: [String]
      switch round % 4 {
      case 0: arguments = ["do", String(Int.random(in: 1...count, using: &generator))]
      case 1: arguments = ["archive"]
      case 2: arguments = ["pri", String(Int.random(in: 1...count, using: &generator)), "A"]
      default: arguments = ["append", String(Int.random(in: 1...count, using: &generator)), "x"]
      }
      let process = try DataSafetyTests.start(box, arguments)
      usleep(UInt32.random(in: 0...60_000, using: &generator))
      if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        kills += 1
      }
      process.waitUntilExit()
      // The next start finishes or forgets what the killed one left.
      _ = try box.todo("ls", "tok1$")
      let counts = DataSafetyTests.tokenCounts(box)
      #expect(counts.count == count, "round \(round): \(counts.count) tokens")
      #expect(counts.values.allSatisfy { $0 == 1 }, "round \(round): a line was doubled")
    }
    #expect(kills > 0)
  }
}

/// Failures gathered from several threads.
final class Failures: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [String] = []
  func add(_ item: String) { lock.withLock { items.append(item) } }
  var all: [String] { lock.withLock { items } }
}
