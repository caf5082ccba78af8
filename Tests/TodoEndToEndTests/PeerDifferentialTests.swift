import Foundation
import Testing
import TodoTestSupport

/// Reads and edits a corpus of awkward todo.txt lines with this tool and with other todo.txt
/// programs, and requires the same result wherever the differences table does not say why not.
///
/// The peers are other people's programs, installed by `.ci/run`: two Python libraries read
/// the corpus (Fixtures/peer_parse.py prints what they read), and the todo.sh script edits it.
/// Where one is missing on a developer's machine its test is skipped; under CI (`CI=true`) a
/// missing peer is a failure, so the comparison cannot quietly stop running.
///
/// Fixtures/peer-differences.tsv lists every deliberate difference (line, peer, field,
/// reason). A difference not in the table fails, and so does an entry whose difference no
/// longer occurs, so the table and todo(1)'s section on differences stay true.
@Suite(.serialized) struct PeerDifferentialTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
  static let corpus = fixtures.appendingPathComponent("peer-corpus.txt")
  static var inCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

  /// One field of one line on which this tool and a peer disagree.
  struct Difference: Hashable, CustomStringConvertible {
    var line: Int
    var peer: String
    var field: String
    var description: String { "\(line)\t\(peer)\t\(field)" }
  }

  /// The table of deliberate differences, without its reasons.
  static func expectedDifferences(peer: String) throws -> Set<Difference> {
    let text = try String(contentsOf: fixtures.appendingPathComponent("peer-differences.tsv"), encoding: .utf8)
    var result: Set<Difference> = []
    for row in text.split(separator: "\n") where !row.hasPrefix("#") {
      let columns = row.split(separator: "\t", omittingEmptySubsequences: false)
      guard columns.count == 4, let line = Int(columns[0]), !columns[3].isEmpty else {
        Issue.record("peer-differences.tsv: a row needs line, peer, field and a reason: \(row)")
        continue
      }
      if columns[1] == peer { result.insert(Difference(line: line, peer: peer, field: String(columns[2]))) }
    }
    return result
  }

  /// Checks the differences found against the table, naming each value that differs.
  static func check(_ found: [Difference: String], peer: String) throws {
    let expected = try expectedDifferences(peer: peer)
    for difference in found.keys.sorted(by: { ($0.line, $0.field) < ($1.line, $1.field) })
    where !expected.contains(difference) {
      Issue.record("difference not in peer-differences.tsv: \(difference)\n\(found[difference] ?? "")")
    }
    for difference in expected.sorted(by: { ($0.line, $0.field) < ($1.line, $1.field) })
    where found[difference] == nil {
      Issue.record("listed in peer-differences.tsv but no longer differs: \(difference)")
    }
  }

  struct Output {
    var status: Int32
    var stdout: [UInt8]
    var stderr: String
  }

  /// Runs a program outside the sandbox's `bin` (a Python interpreter, the peer script).
  static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> Output {
    let result = try ChildProcess.run(executable, arguments, environment: environment)
    return Output(status: result.status, stdout: result.outputBytes, stderr: result.errors)
  }

  /// The first Python interpreter on this machine that can run `probe` (it imports the peer):
  /// Debian's packages live in the system Python, pip's in whichever `python3` comes first.
  static func python(probe: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    var candidates = path.split(separator: ":").map { "\($0)/python3" }
    candidates += ["/usr/bin/python3", "/usr/local/bin/python3"]
    for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
      if let output = try? run(candidate, ["-c", probe]), output.status == 0 { return candidate }
    }
    return nil
  }

  static let topydoPython = python(probe: "import sys; sys.path.insert(0, '/usr/share/topydo'); import topydo.lib.Todo")
  static let pytodotxtPython = python(probe: "import pytodotxt")
  static let todoShPeer = "/usr/bin/todo-txt"
  static var hasTodoSh: Bool { FileManager.default.isExecutableFile(atPath: todoShPeer) }

  /// Whether a peer can run here; under CI its absence is recorded as a failure (the test
  /// runs there whether or not the peer is found, see the tests' `.enabled` traits).
  static func available(_ peer: String, _ found: Bool) -> Bool {
    if !found, inCI { Issue.record("\(peer) is missing under CI, where .ci/run installs it") }
    return found
  }

  // MARK: Reading

  /// One line as read: the fields both sides print, as comparable strings.
  typealias Reading = [String: String]

  static func words(_ text: String) -> String {
    // By scalars: a U+FEFF would join the next character into one Character and be lost.
    text.unicodeScalars.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
      .map { String(String.UnicodeScalarView($0)) }.joined(separator: " ")
  }

  static func strings(_ value: Any?) -> String {
    guard let value, !(value is NSNull) else { return "null" }
    if let flag = value as? Bool { return flag ? "true" : "false" }
    if let list = value as? [Any] { return "[" + list.map { strings($0) }.joined(separator: ", ") + "]" }
    return "\(value)"
  }

  /// What `todo ls --all --format jsonl` reads from the corpus, by line number.
  static func ourReadings(of corpus: [UInt8]) throws -> [Int: Reading] {
    let sandbox = try Sandbox()
    try sandbox.write("todo.txt", bytes: corpus)
    let run = try sandbox.todo("ls", "--all", "--format", "jsonl")
    #expect(run.status == 0, "\(run.stderr)")
    var result: [Int: Reading] = [:]
    for row in run.stdout.split(separator: "\n") {
      guard let object = try JSONSerialization.jsonObject(with: Data(row.utf8)) as? [String: Any],
        let line = object["line"] as? Int
      else {
        Issue.record("not a JSON object with a line number: \(row)")
        continue
      }
      let tags = (object["tags"] as? [[String: String]] ?? []).map { [$0["key"] ?? "", $0["value"] ?? ""] }
      result[line] = [
        "done": strings(object["done"]), "priority": strings(object["priority"]),
        "completed": strings(object["completed"]), "created": strings(object["created"]),
        "projects": strings(Set(object["projects"] as? [String] ?? []).sorted()),
        "contexts": strings(Set(object["contexts"] as? [String] ?? []).sorted()),
        "tags": strings(tags.sorted { $0.lexicographicallyPrecedes($1) }),
        "text": words(object["text"] as? String ?? ""),
      ]
    }
    return result
  }

  /// What a peer reads, by line number; a skipped line is absent, a refused one is `error`.
  static func peerReadings(_ peer: String, python: String) throws -> [Int: Reading] {
    let script = fixtures.appendingPathComponent("peer_parse.py").path
    let output = try run(python, [script, peer, corpus.path])
    #expect(output.status == 0, "\(peer): \(output.stderr)")
    var result: [Int: Reading] = [:]
    for row in output.stdout.split(separator: UInt8(ascii: "\n")) {
      guard let object = try JSONSerialization.jsonObject(with: Data(row)) as? [String: Any],
        let line = object["line"] as? Int
      else { continue }
      if object["skipped"] != nil { continue }
      if let error = object["error"] {
        result[line] = ["error": strings(error)]
        continue
      }
      var reading: Reading = [:]
      for field in ["done", "priority", "completed", "created", "projects", "contexts", "text"] {
        reading[field] = strings(object[field])
      }
      reading["tags"] = strings(object["tags"])
      result[line] = reading
    }
    return result
  }

  static func compareReadings(peer: String, python: String) throws {
    let bytes = [UInt8](try Data(contentsOf: corpus))
    let ours = try ourReadings(of: bytes)
    let theirs = try peerReadings(peer, python: python)
    var found: [Difference: String] = [:]
    for line in Set(ours.keys).union(theirs.keys) {
      switch (ours[line], theirs[line]) {
      case (let mine?, let other?):
        if other["error"] != nil {
          found[Difference(line: line, peer: peer, field: "error")] =
            "  \(peer) refuses the line: \(other["error"] ?? "")"
          continue
        }
        for (field, value) in mine where other[field] != value {
          found[Difference(line: line, peer: peer, field: field)] =
            "  todo: \(value)\n  \(peer): \(other[field] ?? "-")"
        }
      case (.some, nil):
        found[Difference(line: line, peer: peer, field: "task")] = "  todo reads a task, \(peer) skips the line"
      case (nil, .some):
        found[Difference(line: line, peer: peer, field: "task")] = "  \(peer) reads a task, todo skips the line"
      case (nil, nil): break
      }
    }
    try check(found, peer: peer)
  }

  @Test(.enabled(if: inCI || topydoPython != nil, "topydo is not installed (apt-get install topydo)"))
  func readsTheCorpusAsTopydoDoes() throws {
    let python = PeerDifferentialTests.topydoPython
    guard PeerDifferentialTests.available("topydo", python != nil), let python else { return }
    try PeerDifferentialTests.compareReadings(peer: "topydo", python: python)
  }

  @Test(.enabled(if: inCI || pytodotxtPython != nil, "pytodotxt is not installed (python3 -m pip install pytodotxt)"))
  func readsTheCorpusAsPytodotxtDoes() throws {
    let python = PeerDifferentialTests.pytodotxtPython
    guard PeerDifferentialTests.available("pytodotxt", python != nil), let python else { return }
    try PeerDifferentialTests.compareReadings(peer: "pytodotxt", python: python)
  }

  // MARK: Editing

  /// The edits run on every line: line N gets the edits at N mod count and (N + 3) mod count,
  /// each on a fresh copy of the corpus, so each line is edited twice, in two ways.
  /// `#` stands for the line's number.
  static let edits: [(name: String, arguments: [String])] = [
    ("pri", ["pri", "#", "B"]),
    ("depri", ["depri", "#"]),
    ("do", ["do", "#"]),
    ("append", ["append", "#", "more words"]),
    ("prepend", ["prepend", "#", "first"]),
    ("replace", ["replace", "#", "(C) new text +p"]),
    ("del", ["-f", "del", "#"]),
  ]

  /// The files and output of one command under one program, its directory's path hidden.
  struct Outcome: Equatable {
    var todo: [UInt8]
    var done: [UInt8]
    var output: String
    var status: Int32

    func describe(against other: Outcome) -> String {
      var parts: [String] = []
      if todo != other.todo { parts.append("todo.txt differs:\n\(Outcome.changed(todo, other.todo))") }
      if done != other.done { parts.append("done.txt differs:\n\(Outcome.changed(done, other.done))") }
      if output != other.output {
        parts.append("output: ours \(output.debugDescription)\n  peer \(other.output.debugDescription)")
      }
      if status != other.status { parts.append("status: ours \(status), peer \(other.status)") }
      return parts.joined(separator: "\n")
    }

    /// The first line that differs, both ways, with its bytes visible.
    static func changed(_ ours: [UInt8], _ theirs: [UInt8]) -> String {
      let a = ours.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      let b = theirs.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      for index in 0..<max(a.count, b.count) {
        let left = index < a.count ? String(decoding: a[index], as: UTF8.self).debugDescription : "(none)"
        let right = index < b.count ? String(decoding: b[index], as: UTF8.self).debugDescription : "(none)"
        if left != right { return "  line \(index + 1): ours \(left)\n  line \(index + 1): peer \(right)" }
      }
      return "  (same lines, different bytes)"
    }
  }

  /// Runs one command on a fresh copy of the corpus in `directory` under `program`.
  static func outcome(
    _ program: String, _ arguments: [String], in directory: String, sandbox: Sandbox, corpus: [UInt8]
  ) throws -> Outcome {
    let todoFile = "\(directory)/todo.txt"
    let doneFile = "\(directory)/done.txt"
    var run: Sandbox.Run
    var attempts = 0
    while true {
      try sandbox.write(todoFile, bytes: corpus)
      try? FileManager.default.removeItem(atPath: sandbox.path(doneFile))
      run = try sandbox.run(program, ["-d", sandbox.path("\(directory)/todo.cfg"), "-p"] + arguments, merged: true)
      attempts += 1
      // The fake `date` this test wrote can be "busy" for an instant (a child another test
      // thread starts holds the descriptor it was written through until it calls exec, as
      // ``Sandbox/run(_:_:input:environment:merged:)`` says): the run is made again on a
      // fresh copy.
      guard run.stdout.contains("Text file busy"), attempts < 20 else { break }
      Thread.sleep(forTimeInterval: 0.05)
    }
    return Outcome(
      todo: sandbox.bytes(todoFile), done: sandbox.bytes(doneFile),
      // One deliberate difference is made here rather than in the table, because it touches
      // every CR LF line: the CR of a line's ending is not echoed (todo(1), DIFFERENCES).
      output: run.stdout.replacingOccurrences(of: sandbox.path(directory), with: "DIR")
        .replacingOccurrences(of: "\r\n", with: "\n"),
      status: run.status)
  }

  @Test(.enabled(if: inCI || hasTodoSh, "todo.sh is not installed (apt-get install todotxt-cli)"))
  func editsTheCorpusAsTodoShDoes() throws {
    let peerScript = PeerDifferentialTests.todoShPeer
    guard PeerDifferentialTests.available("todo.sh (todo-txt)", PeerDifferentialTests.hasTodoSh) else { return }
    let sandbox = try Sandbox()
    // The peer asks `date` for today; the fake one answers the sandbox's fixed day, as
    // TODO_TEST_TIME does for this tool.
    let bin = sandbox.home.appendingPathComponent("bin")
    // Under its own name, in a directory of its own, so its messages name it as ours do.
    let peerBin = sandbox.home.appendingPathComponent("peer-bin")
    try FileManager.default.createDirectory(at: peerBin, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      at: peerBin.appendingPathComponent("todo.sh"), withDestinationURL: URL(fileURLWithPath: peerScript))
    let fakeDate = bin.appendingPathComponent("date")
    try Data("#!/bin/sh\ncase \"$*\" in *%Y-%m-%d*) echo 2009-02-13 ;; *) exec /bin/date \"$@\" ;; esac\n".utf8)
      .write(to: fakeDate)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fakeDate.path)
    for directory in ["peer", "ours"] {
      let path = sandbox.path(directory)
      try sandbox.write(
        "\(directory)/todo.cfg",
        "export TODO_DIR=\"\(path)\"\nexport TODO_FILE=\"$TODO_DIR/todo.txt\"\n"
          + "export DONE_FILE=\"$TODO_DIR/done.txt\"\nexport REPORT_FILE=\"$TODO_DIR/report.txt\"\n")
    }
    let corpus = [UInt8](try Data(contentsOf: PeerDifferentialTests.corpus))
    let lineCount = corpus.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
    var runs: [(line: Int, name: String, arguments: [String])] = [(0, "archive", ["archive"])]
    for line in 1...lineCount {
      for offset in [0, 3] {
        let edit = PeerDifferentialTests.edits[(line + offset) % PeerDifferentialTests.edits.count]
        runs.append((line, edit.name, edit.arguments.map { $0 == "#" ? "\(line)" : $0 }))
      }
    }
    var found: [Difference: String] = [:]
    for run in runs {
      let theirs = try PeerDifferentialTests.outcome(
        "../peer-bin/todo.sh", run.arguments, in: "peer", sandbox: sandbox, corpus: corpus)
      let ours = try PeerDifferentialTests.outcome(
        "todo.sh", run.arguments, in: "ours", sandbox: sandbox, corpus: corpus)
      if ours != theirs {
        found[Difference(line: run.line, peer: "todo.sh", field: run.name)] =
          "  \(run.arguments.joined(separator: " "))\n" + ours.describe(against: theirs)
      }
    }
    try PeerDifferentialTests.check(found, peer: "todo.sh")
  }
}
