import Foundation
import Testing

/// The task-manager example, run as a user runs it: the built binary in a temporary folder,
/// the list file's bytes checked against values written out here by hand.
@Suite("task-manager example")
struct TaskManagerTests {
  /// A temporary folder (the working directory of every run), removed at the end.
  final class Folder {
    let path = NSTemporaryDirectory() + "task-manager-" + UUID().uuidString
    init() { try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }
    func write(_ name: String, _ bytes: [UInt8]) throws { try Data(bytes).write(to: URL(fileURLWithPath: file(name))) }
    func write(_ name: String, _ text: String) throws { try write(name, Array(text.utf8)) }
    func bytes(_ name: String) -> [UInt8]? { FileManager.default.contents(atPath: file(name)).map { Array($0) } }
    func text(_ name: String) -> String? { bytes(name).map { String(decoding: $0, as: UTF8.self) } }
    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: file(name)) }

    /// The one note in `notes/`, which must be named after the task's words `stem` and four
    /// random base32 characters (`STEM-XXXX.txt`): read from the folder, as it is random.
    func noteName(_ stem: String) -> String {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: file("notes"))) ?? []
      #expect(names.count == 1 && names[0].wholeMatch(of: /[a-z0-9-]+-[a-z2-7]{4}\.txt/) != nil, "\(names)")
      #expect(names.first?.hasPrefix(stem + "-") == true, "\(names)")
      return names.first ?? ""
    }

    struct Run {
      var status: Int32
      var output: String
      var error: String
    }

    /// Runs task-manager with `arguments` here; `input` is its standard input.
    @discardableResult
    func run(_ arguments: [String], input: String = "", environment: [String: String] = [:]) throws -> Run {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("task-manager")
      process.arguments = arguments
      process.currentDirectoryURL = URL(fileURLWithPath: path)
      // UTC, as `today` below; the undo log stays in this folder.
      process.environment = ["TZ": "UTC", "HOME": path, "XDG_STATE_HOME": file("state"), "PATH": "/usr/bin:/bin"]
        .merging(environment) { $1 }
      let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
      (process.standardInput, process.standardOutput, process.standardError) = (stdin, stdout, stderr)
      try process.run()
      stdin.fileHandleForWriting.write(Data(input.utf8))
      try stdin.fileHandleForWriting.close()
      let output = stdout.fileHandleForReading.readDataToEndOfFile()
      let error = stderr.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      return Run(
        status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
        error: String(decoding: error, as: UTF8.self))
    }

    /// Runs a command that must succeed; returns its output.
    @discardableResult
    func ok(_ arguments: String..., input: String = "") throws -> String {
      let run = try run(arguments, input: input)
      #expect(run.status == 0, "\(arguments): \(run.error)")
      #expect(run.error.isEmpty)
      return run.output
    }

    /// Runs a command that must fail with one line on standard error and leave every file
    /// as it was; returns that line.
    @discardableResult
    func fails(_ arguments: [String], input: String = "") throws -> String {
      let before = try FileManager.default.subpathsOfDirectory(atPath: path).sorted().map { ($0, bytes($0)) }
      let run = try run(arguments, input: input)
      #expect(run.status != 0, "\(arguments) succeeded")
      #expect(run.output.isEmpty)
      #expect(run.error.hasPrefix("task-manager: "))
      #expect(run.error.filter { $0 == "\n" }.count == 1 && run.error.hasSuffix("\n"), "not one line: \(run.error)")
      #expect(!run.error.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0 || $0 == "\r" })
      let after = try FileManager.default.subpathsOfDirectory(atPath: path).sorted().map { ($0, bytes($0)) }
      #expect(before.map(\.0) == after.map(\.0), "files made or removed by \(arguments)")
      #expect(before.map(\.1) == after.map(\.1), "files changed by \(arguments)")
      return run.error
    }
  }

  /// Today in UTC as `YYYY-MM-DD` (the date the runs stamp on created and done tasks).
  static var today: String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter.string(from: Date())
  }

  @Test("add with every field, then show")
  func addAndShow() throws {
    let folder = Folder()
    let today = Self.today
    let added = try folder.ok(
      "add", "Buy", "oat", "milk", "--category", "shopping", "--priority", "high", "--due", "2026-05-08",
      "--note", "two litres, the barista kind")
    #expect(added == "added 1: Buy oat milk\n")
    let note = folder.noteName("buy-oat-milk")
    #expect(folder.text("tasks.txt") == "(A) \(today) Buy oat milk +shopping due:2026-05-08 note:\(note)\n")
    #expect(folder.text("notes/\(note)") == "two litres, the barista kind")
    #expect(
      try folder.ok("show", "1") == """
        title:    Buy oat milk
        category: shopping
        priority: high
        due:      2026-05-08
        created:  \(today)
        done:     no
        note:     two litres, the barista kind

        """)
  }

  @Test("update changes the fields given and keeps the others")
  func update() throws {
    let folder = Folder()
    let today = Self.today
    try folder.ok("add", "Call mom", "--category", "family", "--note", "ask about Sunday")
    let note = folder.noteName("call-mom")
    #expect(folder.text("tasks.txt") == "\(today) Call mom +family note:\(note)\n")
    try folder.ok("update", "1", "--title", "Call  mum", "--priority", "low", "--due", "2026-06-01")
    #expect(folder.text("tasks.txt") == "(C) \(today) Call mum +family note:\(note) due:2026-06-01\n")
    let output = try folder.ok("update", "1", "--category", "personal", "--priority", "medium", "--due", "none")
    #expect(output == "1 [ ] Call mum  (personal, medium, note)\n")
    #expect(folder.text("tasks.txt") == "(B) \(today) Call mum +personal note:\(note)\n")
    try folder.ok("update", "1", "--priority", "none", "--note", "ask about Saturday")
    #expect(folder.text("tasks.txt") == "\(today) Call mum +personal note:\(note)\n")
    #expect(folder.text("notes/\(note)") == "ask about Saturday")
    #expect(folder.noteName("call-mom") == note)
  }

  @Test("complete, then list open, done or all tasks")
  func completeAndList() throws {
    let folder = Folder()
    let today = Self.today
    try folder.ok("add", "Pay rent", "--priority", "high", "--category", "home")
    try folder.ok("add", "Water the plants")
    #expect(try folder.ok("complete", "1") == "1 [x] Pay rent  (home, high)\n")
    #expect(folder.text("tasks.txt") == "x \(today) \(today) Pay rent +home pri:A\n\(today) Water the plants\n")
    #expect(try folder.ok("show", "1").contains("priority: high\ndue:      -\ncreated:  \(today)\ndone:     yes, \(today)\n"))
    #expect(try folder.ok("list") == "2 [ ] Water the plants\n")
    #expect(try folder.ok("list", "--open") == "2 [ ] Water the plants\n")
    #expect(try folder.ok("list", "--done") == "1 [x] Pay rent  (home, high)\n")
    #expect(try folder.ok("list", "--all") == "1 [x] Pay rent  (home, high)\n2 [ ] Water the plants\n")
    try folder.fails(["list", "--done", "--open"])
  }

  @Test("search finds every word, in any case, in title, category or note")
  func search() throws {
    let folder = Folder()
    try folder.ok("add", "Buy milk", "--category", "shopping")
    try folder.ok("add", "Call the bank", "--note", "ask about the MORTGAGE rate")
    try folder.ok("add", "Milk the cow", "--category", "farm")
    #expect(try folder.ok("search", "milk") == "1 [ ] Buy milk  (shopping)\n3 [ ] Milk the cow  (farm)\n")
    #expect(try folder.ok("search", "Mortgage") == "2 [ ] Call the bank  (note)\n")
    #expect(try folder.ok("search", "bank", "call") == "2 [ ] Call the bank  (note)\n")
    #expect(try folder.ok("search", "SHOPPING") == "1 [ ] Buy milk  (shopping)\n")
    #expect(try folder.ok("search", "milk", "bank") == "")
  }

  @Test("list sorted by due date, by priority, and in the manual order")
  func sorting() throws {
    let folder = Folder()
    try folder.ok("add", "A", "--due", "2026-07-01", "--priority", "low")
    try folder.ok("add", "B", "--priority", "high")
    try folder.ok("add", "C", "--due", "2026-06-01", "--priority", "medium")
    try folder.ok("add", "D")
    func numbers(_ output: String) -> [String] { output.split(separator: "\n").map { String($0.prefix(1)) } }
    #expect(numbers(try folder.ok("list", "--sort", "date")) == ["3", "1", "2", "4"])
    #expect(numbers(try folder.ok("list", "--sort", "priority")) == ["2", "3", "1", "4"])
    #expect(numbers(try folder.ok("list", "--sort", "manual")) == ["1", "2", "3", "4"])
    #expect(numbers(try folder.ok("list")) == ["1", "2", "3", "4"])
    try folder.fails(["list", "--sort", "colour"])
  }

  @Test("move reorders the lines, the manual order")
  func move() throws {
    let folder = Folder()
    try folder.write("tasks.txt", "one\ntwo\nthree\nfour\n")
    #expect(try folder.ok("move", "4", "1") == "1 [ ] four\n")
    #expect(folder.text("tasks.txt") == "four\none\ntwo\nthree\n")
    try folder.ok("move", "1", "3")
    #expect(folder.text("tasks.txt") == "one\ntwo\nfour\nthree\n")
    try folder.fails(["move", "1", "5"])
  }

  @Test("note writes the note's file and links it; a second note replaces the text")
  func note() throws {
    let folder = Folder()
    let today = Self.today
    try folder.ok("add", "Plan the trip")
    try folder.ok("note", "1", "book", "the", "train")
    let note = folder.noteName("plan-the-trip")
    #expect(folder.text("tasks.txt") == "\(today) Plan the trip note:\(note)\n")
    #expect(folder.text("notes/\(note)") == "book the train")
    try folder.ok("note", "1", "-", input: "book the train\npack light\n")
    #expect(folder.text("tasks.txt") == "\(today) Plan the trip note:\(note)\n")
    #expect(folder.text("notes/\(note)") == "book the train\npack light")
    #expect(folder.noteName("plan-the-trip") == note)
    #expect(try folder.ok("show", "1").hasSuffix("note:     book the train\n          pack light\n"))
  }

  @Test("attach copies a photo beside the list and links it with att:")
  func attach() throws {
    let folder = Folder()
    // The PNG signature and an empty IHDR chunk header: bytes enough for a copy to compare.
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0xFF]
    try FileManager.default.createDirectory(atPath: folder.file("photos"), withIntermediateDirectories: true)
    try folder.write("photos/receipt.png", png)
    let list = folder.file("lists/tasks.txt")
    try FileManager.default.createDirectory(atPath: folder.file("lists"), withIntermediateDirectories: true)
    try folder.write("lists/tasks.txt", "Return the kettle\n")
    let output = try folder.ok("--file", list, "attach", "1", folder.file("photos/receipt.png"))
    #expect(output == "attached \(folder.file("lists/attachments/receipt.png"))\n")
    #expect(folder.bytes("lists/attachments/receipt.png") == png)
    #expect(folder.text("lists/tasks.txt") == "Return the kettle att:receipt.png\n")
    #expect(try folder.ok("show", "1", "--file", list).hasSuffix("photo:    \(folder.file("lists/attachments/receipt.png"))\n"))
    // $TASKS_FILE names the list too.
    let viaEnvironment = try folder.run(["list"], environment: ["TASKS_FILE": list])
    #expect(viaEnvironment.output == "1 [ ] Return the kettle  (photo)\n")
    try folder.fails(["--file", list, "attach", "1", folder.file("photos/missing.png")])
  }

  @Test("hostile input: one clear line on stderr, a failure status, every file as it was")
  func hostileInput() throws {
    let folder = Folder()
    let list = "(B) 2026-01-02 Keep me +home\nno date or priority in front\n"
    try folder.write("tasks.txt", list)
    for title in ["two\nlines", "carriage\rreturn", "escape \u{1B}[31m red", "tab\there", "\u{85}next line"] {
      let error = try folder.fails(["add", title, "--note", "a note"])
      #expect(error.contains("a title is one line"))
      try folder.fails(["update", "1", "--title", title])
    }
    // NUL cannot be passed in an argument; standard input can carry it.
    #expect(try folder.fails(["add", "-"], input: "nul\u{0}byte").contains("a title is one line"))
    #expect(try folder.fails(["add", "Tidy up", "--priority", "urgent"]).contains("not a priority"))
    try folder.fails(["add", "Tidy up", "--priority", "D"])
    #expect(try folder.fails(["add", "Tidy up", "--due", "someday"]).contains("not a date"))
    try folder.fails(["add", "Tidy up", "--category", "two words"])
    try folder.fails(["add", "Tidy up", "--category", "esc\u{1B}ape"])
    // todo.txt has no escaping: these would read back as a project, a tag, a done task.
    try folder.fails(["add", "Email +team"])
    try folder.fails(["add", "due:2026-01-01"])
    try folder.fails(["update", "2", "--title", "x marks the spot"])
    try folder.fails(["update", "2", "--title", "2026-05-01 party"])
    try folder.fails(["add", " "])
    for number in ["3", "0", "-1", "abc", "99999999999999999999"] {
      #expect(try folder.fails(["complete", number]).contains("no task"))
      try folder.fails(["show", number])
    }
    try folder.fails(["move", "1", "3"])
    try folder.fails(["add", "Tidy up", "--colour", "red"])
    try folder.fails(["complete", "1", "--sort", "date"])
    try folder.fails(["frobnicate"])
    try folder.fails(["add"])
    #expect(folder.text("tasks.txt") == list)
  }

  @Test("an outside edit between two commands survives, in the file's own line endings")
  func outsideEdit() throws {
    let folder = Folder()
    let today = Self.today
    try folder.ok("add", "Buy milk")
    // An editor (or a phone's sync) rewrites the file between two runs, with CRLF endings.
    try folder.write("tasks.txt", "(B) \(today) Buy milk @store\r\n2026-01-02 Call the bank +personal\r\n")
    try folder.ok("complete", "2")
    try folder.ok("add", "Pay the bill")
    #expect(
      folder.text("tasks.txt")
        == "(B) \(today) Buy milk @store\r\nx \(today) 2026-01-02 Call the bank +personal\r\n\(today) Pay the bill\r\n")
    try folder.ok("update", "1", "--title", "Buy oat milk")
    #expect(folder.text("tasks.txt")?.hasPrefix("(B) \(today) Buy oat milk @store\r\nx ") == true)
    // A control character another program wrote is shown escaped, never sent to the terminal.
    try folder.write("tasks.txt", "Call \u{1B}[2J Bob\n")
    #expect(try folder.ok("list") == "1 [ ] Call \\u{1B}[2J Bob\n")
    #expect(folder.text("tasks.txt") == "Call \u{1B}[2J Bob\n")
  }
}
