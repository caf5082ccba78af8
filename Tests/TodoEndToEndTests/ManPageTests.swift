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
