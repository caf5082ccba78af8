import Foundation
import Testing

/// The manual pages: lint-clean in mandoc and groff, and in step with the command table.
@Suite struct ManPageTests {
  static let manDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("man")

  static let pages = ["todo.1", "todo-config.5", "todo.txt.5"]

  /// Runs a program from the system in the man directory, so that cross references between
  /// the pages (`.Xr todo.txt 5`) resolve to the files next to them.
  static func run(_ program: String, _ arguments: [String]) throws -> Sandbox.Run {
    let path = ["/usr/bin/", "/bin/", "/usr/local/bin/"].map { $0 + program }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
    guard let path else {
      Issue.record("\(program) is not installed (.ci/run installs it)")
      return Sandbox.Run(status: -1, stdout: "", stderr: "")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.currentDirectoryURL = manDirectory
    process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "MANPATH": "/nonexistent"]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Sandbox.Run(
      status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
      stderr: String(decoding: err, as: UTF8.self))
  }

  @Test(arguments: pages)
  func mandocLintReportsNothing(page: String) throws {
    let run = try ManPageTests.run("mandoc", ["-Tlint", page])
    #expect(run.stdout + run.stderr == "")
    #expect(run.status == 0)
  }

  @Test(arguments: pages)
  func groffWarnsAboutNothing(page: String) throws {
    let run = try ManPageTests.run("groff", ["-mdoc", "-Tutf8", "-ww", "-z", page])
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  static func manual() throws -> String {
    try String(contentsOf: manDirectory.appendingPathComponent("todo.1"), encoding: .utf8)
  }

  /// Every action and alias the tool completes (the table's listed commands) is named with
  /// `Cm` in todo.1.
  @Test func everyActionAndAliasIsInTodo1() throws {
    let manual = try ManPageTests.manual()
    let box = try Sandbox()
    let names = CompletionTests.lines(try box.todo("__complete", "").stdout).map {
      String($0.prefix { $0 != "\t" })
    }
    #expect(names.count > 30)
    for name in names {
      let mentioned =
        manual.contains("Cm \(name) ") || manual.contains("Cm \(name)\n")
        || manual.contains("Cm \(name) ,")
      #expect(mentioned, "man/todo.1 does not describe the action '\(name)'")
    }
  }

  /// Every global option has its own `.It Fl` entry in todo.1.
  @Test func everyOptionIsInTodo1() throws {
    let manual = try ManPageTests.manual()
    let box = try Sandbox()
    let options = CompletionTests.lines(try box.todo("__complete", "-").stdout).map {
      String($0.prefix { $0 != "\t" })
    }
    #expect(options.contains("-d") && options.contains("--config"))
    for option in options {
      var name = String(option.dropFirst())
      if name.hasSuffix("=") { name = String(name.dropLast()) + " Ns = Ns" }
      #expect(
        manual.contains(".It Fl \(name)"), "man/todo.1 has no entry for the option '\(option)'")
    }
  }

  // MARK: Strictly against the dump of the command tree

  /// The command tree as `todo __dump` prints it.
  static func tree() throws -> [String: Any] {
    let box = try Sandbox()
    let json = try box.todo("__dump").stdout
    return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
  }

  /// The lines of one section of todo.1 (`.Sh NAME` up to the next `.Sh`).
  static func section(_ name: String, of manual: String) -> [String] {
    let lines = manual.components(separatedBy: "\n")
    guard let start = lines.firstIndex(of: ".Sh \(name)") else { return [] }
    let end = lines[(start + 1)...].firstIndex { $0.hasPrefix(".Sh ") } ?? lines.count
    return Array(lines[(start + 1)..<end])
  }

  /// The entry that starts at `lines[start]`: up to the next `.It` of the same list.
  static func entry(at start: Int, in lines: [String]) -> [String] {
    var depth = 0
    var end = start + 1
    while end < lines.count {
      let line = lines[end]
      if line.hasPrefix(".Bl") { depth += 1 }
      if line.hasPrefix(".El") {
        if depth == 0 { break }
        depth -= 1
      }
      if depth == 0, line.hasPrefix(".It") { break }
      end += 1
    }
    return Array(lines[start..<end])
  }

  /// An `.It` line of mdoc as the words it shows: `.It Cm del Ar NR Oo Ar TERM Oc , Cm rm …`
  /// is `del NR [TERM], rm …`.
  static func shown(_ line: String) -> String {
    var words: [String] = []
    var glue = false
    func add(_ text: String) {
      if glue, !words.isEmpty { words[words.count - 1] += text } else { words.append(text) }
    }
    for token in line.split(separator: " ").dropFirst().map(String.init) {
      switch token {
      case "Cm", "Ar", "Fl": continue
      case "Ns": glue = true
      case "Oo", "Qo":
        add(token == "Oo" ? "[" : "\"")
        glue = true
      case "Oc", "Qc", ",":
        glue = true
        add(token == "Oc" ? "]" : token == "Qc" ? "\"" : ",")
        glue = false
      default:
        add(token)
        glue = false
      }
    }
    return words.joined(separator: " ")
  }

  /// Every command of the dump has an entry in COMMANDS whose heading is its name and usage,
  /// then each alias with the usage, word for word (a command with subcommands: each
  /// subcommand's usage).
  @Test func everyUsageLineIsTheDeclaredOne() throws {
    let commands = try #require(try ManPageTests.tree()["commands"] as? [[String: Any]])
    let headings = ManPageTests.section("COMMANDS", of: try ManPageTests.manual()).filter { $0.hasPrefix(".It Cm ") }
    #expect(commands.count > 40)
    for command in commands {
      let name = try #require(command["name"] as? String)
      let aliases = try #require(command["aliases"] as? [String])
      let usage = try #require(command["usage"] as? String)
      let subcommands = try #require(command["subcommands"] as? [[String: Any]])
      var parts = ([name] + aliases).map { $0 + (usage.isEmpty ? "" : " " + usage) }
      if !subcommands.isEmpty {
        parts = subcommands.map { sub in
          let usage = sub["usage"] as? String ?? ""
          return "\(name) \(sub["name"] as? String ?? "")" + (usage.isEmpty ? "" : " " + usage)
        }
      }
      let expected = parts.joined(separator: ", ")
      let matching = headings.filter { ManPageTests.shown($0).hasPrefix(name + " ") || ManPageTests.shown($0) == name || ManPageTests.shown($0).hasPrefix(name + ",") }
      #expect(matching.count == 1, "todo.1 has \(matching.count) entries for '\(name)'")
      for heading in matching {
        #expect(ManPageTests.shown(heading) == expected, "todo.1's heading of '\(name)' is not its declared usage: run man/update-options")
      }
    }
  }

  /// Every command's entry in COMMANDS opens with its declared abstract, word for word (the
  /// one-line help of `todo help`), so the summary is written once; macros and punctuation
  /// aside, the entry's first words are the abstract's.
  @Test func everyEntryOpensWithTheDeclaredAbstract() throws {
    let commands = try #require(try ManPageTests.tree()["commands"] as? [[String: Any]])
    let lines = ManPageTests.section("COMMANDS", of: try ManPageTests.manual())
    let macros: Set<String> = [
      "Pa", "Li", "Ar", "Cm", "Ev", "Ns", "Pq", "Sx", "Qo", "Qc", "Fl", "Nm", "Op", "Oo", "Oc", "Xr", "Em", "Sy", "Dq", "Ic", "Va",
      "Sq", "Ql", "No",
    ]
    func words(_ text: String) -> String {
      let plain = text.replacingOccurrences(of: "\\&", with: "").split(separator: " ").filter { !macros.contains(String($0)) }
      return String(plain.joined(separator: " ").lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) })
    }
    var checked = 0
    for command in commands {
      let name = try #require(command["name"] as? String)
      let abstract = try #require(command["abstract"] as? String)
      guard let start = lines.firstIndex(where: { $0.hasPrefix(".It Cm \(name) ") || $0 == ".It Cm \(name)" }) else {
        continue
      }
      let body = ManPageTests.entry(at: start, in: lines).dropFirst().prefix { !$0.hasPrefix(".Bl") }
        .filter { !$0.hasPrefix(".\\\"") }.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 }
      #expect(words(body.joined(separator: " ")).hasPrefix(words(abstract)), "todo.1's entry of '\(name)' does not open with '\(abstract)'")
      checked += 1
    }
    #expect(checked > 40)
  }

  /// Every option before the action, name by name: its own entry in OPTIONS with the
  /// declared value name, every value of its value list, and its other spellings.
  @Test func everyGlobalOptionIsDescribedAsDeclared() throws {
    let options = try #require(try ManPageTests.tree()["options"] as? [[String: Any]])
    let lines = ManPageTests.section("OPTIONS", of: try ManPageTests.manual())
    #expect(options.count >= 25)
    for option in options {
      let names = try #require(option["names"] as? [String])
      let valueName = option["valueName"] as? String
      let values = option["values"] as? [String] ?? []
      let flag = ".It Fl " + names[0].dropFirst()
      let heading = valueName.map { [flag + " Ar " + $0, flag + " Ns = Ns Ar " + $0] } ?? [flag]
      guard let start = lines.firstIndex(where: { heading.contains($0) }) else {
        Issue.record("todo.1 has no entry '\(heading[0])' for \(names[0])")
        continue
      }
      let entry = ManPageTests.entry(at: start, in: lines)
      for value in values {
        #expect(entry.contains(".Cm \(value) ,") || entry.contains(".Cm \(value)") || entry.contains(".Cm \(value) ."), "the entry of \(names[0]) in todo.1 does not name the value \(value)")
      }
      for other in names.dropFirst() {
        #expect(entry.contains { $0.contains("Fl " + other.dropFirst()) }, "the entry of \(names[0]) in todo.1 does not name \(other)")
      }
    }
  }

  /// Every option of every command, one by one: inside the command's entry, with its names,
  /// its value name and every word of its value list.
  @Test func everyCommandOptionIsInItsEntry() throws {
    let commands = try #require(try ManPageTests.tree()["commands"] as? [[String: Any]])
    let lines = ManPageTests.section("COMMANDS", of: try ManPageTests.manual())
    var checked = 0
    for command in commands {
      let name = try #require(command["name"] as? String)
      guard let start = lines.firstIndex(where: { $0.hasPrefix(".It Cm \(name) ") || $0 == ".It Cm \(name)" }) else { continue }
      let entry = ManPageTests.entry(at: start, in: lines)
      let text = entry.joined(separator: "\n")
      let options = (command["options"] as? [[String: Any]] ?? [])
        + (command["subcommands"] as? [[String: Any]] ?? []).flatMap { $0["options"] as? [[String: Any]] ?? [] }
      for option in options {
        let names = try #require(option["names"] as? [String])
        let ordered = names.filter { !$0.hasPrefix("--") } + names.filter { $0.hasPrefix("--") }
        var heading = ".It " + ordered.map { "Fl " + $0.dropFirst() }.joined(separator: " , ")
        if let valueName = option["valueName"] as? String { heading += " Ar " + valueName }
        #expect(entry.contains(heading), "the entry of '\(name)' in todo.1 lacks '\(heading)'")
        for value in option["values"] as? [String] ?? [] {
          // A priority letter is listed as the range A-Z.
          if value.count == 1, value.allSatisfy(\.isUppercase), text.contains("A-Z") { continue }
          #expect(text.contains(value), "the entry of '\(name)' in todo.1 does not list \(value) for \(names[0])")
        }
        checked += 1
      }
    }
    #expect(checked >= 40)
  }

  @Test func bothNamesAndTheShellAreDescribed() throws {
    let manual = try ManPageTests.manual()
    for section in [
      "SYNOPSIS", "INTERACTIVE SHELL", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES",
    ] {
      #expect(manual.contains(".Sh \(section)\n"))
    }
    #expect(manual.contains(".Nm todo.sh"))
    #expect(manual.contains("XDG_STATE_HOME/todo/history"))
  }

  /// todo-config(5) names every variable the configuration can set.
  @Test func configurationPageCoversEveryVariable() throws {
    let page = try String(
      contentsOf: ManPageTests.manDirectory.appendingPathComponent("todo-config.5"), encoding: .utf8
    )
    let variables = [
      "TODO_DIR", "TODO_FILE", "DONE_FILE", "REPORT_FILE", "TODO_ACTIONS_DIR", "TODOTXT_VERBOSE",
      "TODOTXT_PLAIN",
      "TODOTXT_FORCE", "TODOTXT_PRESERVE_LINE_NUMBERS", "TODOTXT_AUTO_ARCHIVE",
      "TODOTXT_DATE_ON_ADD",
      "TODOTXT_PRIORITY_ON_ADD", "TODOTXT_DEFAULT_ACTION", "TODOTXT_DISABLE_FILTER",
      "TODOTXT_SORT_COMMAND",
      "TODOTXT_FINAL_FILTER", "TODOTXT_SOURCEVAR", "TODOTXT_SIGIL_BEFORE_PATTERN",
      "TODOTXT_SIGIL_VALID_PATTERN",
      "TODOTXT_SIGIL_AFTER_PATTERN", "TODOTXT_CFG_FILE", "TODOTXT_GLOBAL_CFG_FILE",
      "HIDE_CUSTOM_SUBSTITUTION",
      "SENTENCE_DELIMITERS", "PRI_A", "PRI_X", "COLOR_DONE", "COLOR_PROJECT", "COLOR_CONTEXT",
      "COLOR_DATE",
      "COLOR_NUMBER", "COLOR_META", "NO_COLOR", "TODO_TEST_TIME",
    ]
    for variable in variables {
      #expect(page.contains(variable), "man/todo-config.5 does not mention \(variable)")
    }
  }
}
