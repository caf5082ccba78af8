import Foundation
import Testing
import TodoStore

@testable import TodoCommands

/// A list in a temporary folder on which command lines run in-process, through the command
/// line's entry (``TodoCLI/run(arguments:environment:console:input:shell:cache:)``), under
/// either of the tool's names, with a capturing console and the clock pinned to 2009-02-13
/// (`TODO_TEST_TIME`, as todo.sh's own suite pins it).
///
/// Each test makes its own fixture; the folder goes when the fixture does.
final class CommandFixture {
  let directory: URL
  var environment: [String: String]

  /// What one command line did.
  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
    /// Both streams in the order written (as `2>&1` shows them).
    var combined: String
  }

  /// - Parameters:
  ///   - todo: the contents of todo.txt (`nil`: no file).
  ///   - done: the contents of done.txt (`nil`: no file).
  ///   - config: the contents of todo.cfg, which `TODOTXT_CFG_FILE` names; by default it sets
  ///     only `TODO_DIR` to the folder.
  init(todo: String? = "", done: String? = nil, config: String? = nil) throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("todo-commands-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    environment = [
      "HOME": directory.path, "PATH": "/usr/bin:/bin", "LANG": "C", "LC_ALL": "C", "TZ": "UTC", "TERM": "dumb",
      "TODO_TEST_TIME": "1234500000",  // 2009-02-13T04:40:00Z
      "XDG_STATE_HOME": directory.appendingPathComponent("state").path,
      "XDG_DATA_HOME": directory.appendingPathComponent("data").path,
      "XDG_CONFIG_HOME": directory.appendingPathComponent("config").path,
      "TODOTXT_CFG_FILE": directory.appendingPathComponent("todo.cfg").path,
    ]
    try write("todo.cfg", config ?? "export TODO_DIR=\"\(directory.path)\"\n")
    if let todo { try write("todo.txt", todo) }
    if let done { try write("done.txt", done) }
  }

  deinit { try? FileManager.default.removeItem(at: directory) }

  func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  func write(_ name: String, _ text: String) throws { try write(name, bytes: Array(text.utf8)) }

  func write(_ name: String, bytes: [UInt8]) throws {
    let url = directory.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(bytes).write(to: url)
  }

  /// Writes an executable (an add-on) through a descriptor closed on exec: a child another
  /// test starts meanwhile must not hold it open for writing, or running it fails as busy.
  func writeExecutable(_ name: String, _ text: String) throws {
    let url = directory.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
    defer { close(fd) }
    let bytes = Array(text.utf8)
    guard bytes.withUnsafeBytes({ Glibc.write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
      throw CocoaError(.fileWriteUnknown)
    }
  }

  /// The file's text; "" when it is missing.
  func read(_ name: String) -> String { String(decoding: bytes(name), as: UTF8.self) }

  func bytes(_ name: String) -> [UInt8] {
    (try? Data(contentsOf: directory.appendingPathComponent(name))).map { [UInt8]($0) } ?? []
  }

  func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

  /// The list's two files, to show that a refused command changed neither.
  var files: [String] { [read("todo.txt"), read("done.txt")] }

  /// Runs `NAME WORDS` in-process: `name` is the program's name (`todo` or `todo.sh`);
  /// `terminal` makes standard input and output a terminal 80 columns wide.
  @discardableResult
  func run(
    _ name: String, _ words: [String], input: String = "", environment extra: [String: String] = [:],
    terminal: Bool = false
  ) -> Run {
    let console = CapturingConsole(isTerminal: terminal, columns: terminal ? 80 : nil)
    let status = TodoCLI.run(
      arguments: [name] + words, environment: environment.merging(extra) { $1 }, console: console,
      input: ScriptedInput(input, isTerminal: terminal))
    return Run(
      status: status.rawValue, stdout: console.outputText, stderr: console.errorText, combined: console.combinedText)
  }

  /// Runs `todo WORDS` (the tool's own behaviour).
  @discardableResult
  func todo(_ words: String..., input: String = "", environment extra: [String: String] = [:]) -> Run {
    run("todo", words, input: input, environment: extra)
  }

  /// Runs `todo.sh WORDS` (todo.sh's behaviour).
  @discardableResult
  func sh(_ words: String..., input: String = "", environment extra: [String: String] = [:]) -> Run {
    run("todo.sh", words, input: input, environment: extra)
  }
}

extension CommandFixture {
  /// The context a command line under the name `todo` would run with here, for the parts a
  /// command is made of that take one (the git wrapper); `console` receives its output.
  func context(console: CapturingConsole = CapturingConsole()) throws -> CommandContext {
    let loader = ConfigurationLoader(
      environment: environment, mode: .native, programPath: "todo", runner: ProcessRunner(), outputIsTerminal: false)
    let clock = Clock.current(environment: environment)
    return CommandContext(
      settings: try loader.load(GlobalOptions()), console: console, clock: clock,
      store: TodoStore(stateDirectory: path("state/todo")), input: ScriptedInput())
  }
}

extension CommandFixture.Run {
  /// Failed with exit status 1, one line on standard error holding `fragment`, and nothing
  /// on standard output.
  func expectOneLineError(containing fragment: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(status == 1, "status", sourceLocation: sourceLocation)
    #expect(stdout == "", "stdout: \(stdout)", sourceLocation: sourceLocation)
    #expect(stderr.hasSuffix("\n"), "stderr: \(stderr)", sourceLocation: sourceLocation)
    #expect(stderr.dropLast().contains("\n") == false, "more than one line: \(stderr)", sourceLocation: sourceLocation)
    #expect(stderr.contains(fragment), "stderr: \(stderr)", sourceLocation: sourceLocation)
  }
}
