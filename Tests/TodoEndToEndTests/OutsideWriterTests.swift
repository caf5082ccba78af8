import Foundation
import Testing
import TodoTestSupport

/// Programs that write the todo file without the tool's lock (a slow editor saving in place,
/// `echo >>`, an editor saving by rename), racing many `todo pri` and `todo add` runs: no line
/// the program wrote is lost, and every change the tool reports done is in the file, every
/// change it refuses is not.
///
/// The writer is Fixtures/outside_writer.py. It saves until told to stop, logging when each
/// save began and ended, so that the test knows which of its runs raced a save.
@Suite(.serialized) struct OutsideWriterTests {
  static let writer = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/outside_writer.py").path

  static func monotonic() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }

  /// One run of the tool: what it was asked, its exit status and stderr, when it ran.
  struct Outcome: Sendable {
    var arguments: [String]
    var status: Int32
    var stderr: String
    var start: Double
    var end: Double
  }

  final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Outcome] = []
    func add(_ item: Outcome) { lock.withLock { items.append(item) } }
    var all: [Outcome] { lock.withLock { items } }
  }

  /// A save of the writer: its number and when it ran.
  struct Save {
    var number: Int
    var start: Double
    var end: Double
  }

  /// What a race left: the final file, the tool's runs and the writer's saves.
  struct Race {
    var lines: [Substring]
    var outcomes: [Outcome]
    var saves: [Save]

    /// How many of the tool's runs overlapped one of the writer's saves.
    var overlapping: Int {
      outcomes.filter { run in saves.contains { $0.start < run.end && run.start < $0.end } }.count
    }
  }

  /// Runs the writer in `mode` on a list of 200 tasks while `jobs` (each a list of argument
  /// lists, run one after another) run at once, then stops it.
  static func race(mode: String, seed: UInt64, jobs: [[[String]]]) throws -> Race {
    let box = try Sandbox()
    try box.write("todo.txt", (1...200).map { "task tok\($0) +race" }.joined(separator: "\n") + "\n")
    let stop = box.path("stop-writer")
    let log = box.path("writer.log")
    let writer = Process()
    writer.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    writer.arguments = ["python3", OutsideWriterTests.writer, mode, box.path("todo.txt"), stop, String(seed), log]
    writer.standardInput = FileHandle.nullDevice
    try writer.run()
    let outcomes = Outcomes()
    let group = DispatchGroup()
    for job in jobs {
      group.enter()
      DispatchQueue.global().async {
        defer { group.leave() }
        for arguments in job {
          let start = OutsideWriterTests.monotonic()
          let run = try? box.run("todo", arguments, environment: ["TODO_LOCK_TIMEOUT": "30"])
          outcomes.add(
            Outcome(
              arguments: arguments, status: run?.status ?? -1, stderr: run?.stderr ?? "did not start",
              start: start, end: OutsideWriterTests.monotonic()))
        }
      }
    }
    group.wait()
    FileManager.default.createFile(atPath: stop, contents: nil)
    writer.waitUntilExit()
    #expect(writer.terminationStatus == 0, "the writer failed")
    let saves = box.read("writer.log").split(separator: "\n").compactMap { line -> Save? in
      let parts = line.split(separator: " ")
      guard parts.count == 3, let number = Int(parts[0]), let start = Double(parts[1]), let end = Double(parts[2])
      else { return nil }
      return Save(number: number, start: start, end: end)
    }
    return Race(lines: box.read("todo.txt").split(separator: "\n"), outcomes: outcomes.all, saves: saves)
  }

  /// `pri N X` runs over distinct tasks, in `threads` jobs, chosen with `seed`.
  static func priorityJobs(runs: Int, threads: Int, seed: UInt64) -> [[[String]]] {
    var generator = SplitMix64(seed: seed)
    let numbers = Array((1...200).shuffled(using: &generator).prefix(runs))
    let letters = (0..<runs).map { _ in String(UnicodeScalar(UInt8.random(in: 65...90, using: &generator))) }
    var jobs = Array(repeating: [[String]](), count: threads)
    for (index, number) in numbers.enumerated() {
      jobs[index % threads].append(["pri", String(number), letters[index]])
    }
    return jobs
  }

  /// Whether a word is one of the marks that name a line: `tokN` (a task), `wN` (the
  /// writer's), `addN` (added by the tool).
  static func isMark(_ word: Substring) -> Bool {
    for prefix in ["tok", "w", "add"] where word.hasPrefix(prefix) {
      let rest = word.dropFirst(prefix.count)
      if !rest.isEmpty, rest.allSatisfy({ $0.isASCII && $0.isNumber }) { return true }
    }
    return false
  }

  /// Checks what every race must leave: each task and each writer line exactly once, no torn
  /// line, every refusal one line naming the file. Returns the changes the tool reported done
  /// that are not in the file (the caller decides which, if any, are excused).
  static func check(_ race: Race) -> [Outcome] {
    var counts: [String: Int] = [:]
    for line in race.lines {
      let marks = line.split(separator: " ").filter(OutsideWriterTests.isMark)
      #expect(marks.count == 1, "torn or joined line: \(line)")
      for mark in marks { counts[String(mark), default: 0] += 1 }
    }
    for n in 1...200 { #expect(counts["tok\(n)"] == 1, "task tok\(n) appears \(counts["tok\(n)"] ?? 0) times") }
    #expect(!race.saves.isEmpty)
    for save in race.saves {
      #expect(counts["w\(save.number)"] == 1, "writer line w\(save.number) appears \(counts["w\(save.number)"] ?? 0) times")
    }
    var missing: [Outcome] = []
    for outcome in race.outcomes {
      let applied: Bool
      switch outcome.arguments[0] {
      case "pri":
        let token = "tok\(outcome.arguments[1])"
        let line = race.lines.first { $0.split(separator: " ").contains(Substring(token)) }
        applied = line?.hasPrefix("(\(outcome.arguments[2])) ") ?? false
      default:
        let mark = String(outcome.arguments[1].split(separator: " ")[0])
        applied = counts[mark] == 1
      }
      if outcome.status == 0 {
        if !applied { missing.append(outcome) }
      } else {
        #expect(!applied, "\(outcome.arguments) failed but changed the file")
        #expect(
          outcome.stderr.split(separator: "\n").count == 1 && outcome.stderr.contains("todo.txt"),
          "\(outcome.arguments): \(outcome.stderr)")
      }
    }
    return missing
  }

  /// A slow in-place saver (truncate, write half, pause, write the rest) racing 150 `pri`
  /// runs: the tool never reads the file while it is open for writing, so nothing is lost
  /// either way.
  @Test func slowInPlaceSaverRacingPriorityChangesLosesNothing() throws {
    let race = try OutsideWriterTests.race(
      mode: "inplace", seed: 11, jobs: OutsideWriterTests.priorityJobs(runs: 150, threads: 3, seed: 11))
    let missing = OutsideWriterTests.check(race)
    #expect(missing.isEmpty, "reported done, not in the file: \(missing.map(\.arguments))")
    #expect(race.outcomes.count == 150)
    print("in-place saver: \(race.saves.count) saves, \(race.outcomes.count) runs, \(race.overlapping) overlapping a save, \(race.outcomes.filter { $0.status != 0 }.count) refused, \(missing.count) changes lost")
  }

  /// `echo LINE >> todo.txt` racing 150 `pri` and `add` runs.
  @Test func appenderRacingPriorityChangesAndAddsLosesNothing() throws {
    var jobs = OutsideWriterTests.priorityJobs(runs: 100, threads: 2, seed: 12)
    jobs.append((1...50).map { ["add", "add\($0) from the tool"] })
    let race = try OutsideWriterTests.race(mode: "append", seed: 12, jobs: jobs)
    let missing = OutsideWriterTests.check(race)
    #expect(missing.isEmpty, "reported done, not in the file: \(missing.map(\.arguments))")
    #expect(race.outcomes.count == 150)
    print("appender: \(race.saves.count) saves, \(race.outcomes.count) runs, \(race.overlapping) overlapping a save, \(race.outcomes.filter { $0.status != 0 }.count) refused, \(missing.count) changes lost")
  }

  /// An editor saving by rename racing 150 `pri` and `add` runs. No line the editor wrote is
  /// lost. The editor itself drops a change the tool made between its read and its rename
  /// (it saves what it read); such a change, and only such a one, may be missing.
  @Test func renamingEditorRacingPriorityChangesAndAddsLosesNoLine() throws {
    var jobs = OutsideWriterTests.priorityJobs(runs: 100, threads: 2, seed: 13)
    jobs.append((1...50).map { ["add", "add\($0) from the tool"] })
    let race = try OutsideWriterTests.race(mode: "rename", seed: 13, jobs: jobs)
    let missing = OutsideWriterTests.check(race)
    for outcome in missing {
      let overwritten = race.saves.contains { $0.start < outcome.end && outcome.start < $0.end }
      #expect(overwritten, "\(outcome.arguments) reported done, not in the file, and no save overlapped it")
    }
    #expect(race.outcomes.count == 150)
    print("renaming editor: \(race.saves.count) saves, \(race.outcomes.count) runs, \(race.overlapping) overlapping a save, \(race.outcomes.filter { $0.status != 0 }.count) refused, \(missing.count) changes overwritten by the editor's own saves")
  }
}

