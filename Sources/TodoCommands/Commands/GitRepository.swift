@preconcurrency import Glibc

/// The git repository that holds the todo directory, driven through the `git` program.
///
/// Every call runs `git -C DIRECTORY …` with the tool's environment, never asks for a password
/// on the terminal (`GIT_TERMINAL_PROMPT=0`), and collects standard output and error together:
/// on success it is the answer, on failure git's own explanation.
struct GitRepository {
  struct Outcome {
    var status: Int32
    var output: String

    var succeeded: Bool { status == 0 }

    /// The answer of a query: the output without its final newline.
    var value: String {
      var text = Substring(output)
      // CR LF is one Character in Swift, so it is named too.
      while let last = text.last, last == "\n" || last == "\r" || last == "\r\n" { text.removeLast() }
      return String(text)
    }

    /// The first line that says something, without git's `fatal:`/`error:` prefix.
    var reason: String {
      let lines = output.split(separator: "\n").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
      let line = lines.first { $0.hasPrefix("fatal:") || $0.hasPrefix("error:") } ?? lines.first
      guard var line else { return status == 127 ? "git is not installed" : "status \(status)" }
      for prefix in ["fatal: ", "error: "] where line.hasPrefix(prefix) {
        line.removeFirst(prefix.count)
      }
      return line
    }
  }

  /// The todo directory, where git is started.
  let directory: String
  let runner: ProcessRunner
  private(set) var environment: [String: String]

  init(directory: String, context: CommandContext) {
    self.directory = directory
    runner = context.runner
    var environment = context.childEnvironment
    environment["GIT_TERMINAL_PROMPT"] = "0"
    self.environment = environment
  }

  /// The same repository with `extra` added to git's environment (another index file, a
  /// replayed commit's author).
  func adding(environment extra: [String: String]) -> GitRepository {
    var copy = self
    copy.environment.merge(extra) { _, new in new }
    return copy
  }

  /// Runs git with `input` on its standard input.
  @discardableResult
  func run(_ arguments: [String], input: [UInt8] = []) -> Outcome {
    let result = runner.run(
      ["git", "-C", directory] + arguments, environment: environment, input: input,
      captureOutput: true,
      capturingErrors: true)
    return Outcome(status: result.status, output: String(decoding: result.output, as: UTF8.self))
  }

  /// The output of a query that succeeded, else `nil`.
  func value(_ arguments: [String]) -> String? {
    let outcome = run(arguments)
    return outcome.succeeded ? outcome.value : nil
  }

  /// The exact bytes a query printed (a blob: `cat-file blob :2:todo.txt`), else `nil`.
  ///
  /// Standard error goes elsewhere, so that a warning cannot end up in a file's contents.
  func bytes(_ arguments: [String]) -> [UInt8]? {
    let result = runner.run(
      ["git", "-C", directory] + arguments, environment: environment, input: [],
      captureOutput: true)
    return result.status == 0 ? result.output : nil
  }

  /// For each of `names` (`COMMIT:PATH`), the object's contents, or `nil` when there is no
  /// such object; `nil` for all when git fails. One `cat-file --batch` for all, not two
  /// processes per name.
  func contents(of names: [String]) -> [[UInt8]?]? {
    guard !names.contains(where: { $0.contains("\n") }) else { return nil }
    let result = runner.run(
      ["git", "-C", directory, "cat-file", "--batch"], environment: environment,
      input: Array(names.map { $0 + "\n" }.joined().utf8), captureOutput: true)
    guard result.status == 0 else { return nil }
    // Each answer: `OID TYPE SIZE` LF, SIZE bytes, LF; or `NAME missing` LF.
    let output = result.output
    var found: [[UInt8]?] = []
    var at = 0
    for name in names {
      guard let end = output[at...].firstIndex(of: 0x0A) else { return nil }
      let header = String(decoding: output[at..<end], as: UTF8.self)
      at = end + 1
      if header == name + " missing" {
        found.append(nil)
        continue
      }
      let fields = header.split(separator: " ")
      guard fields.count == 3, let size = Int(fields[2]), size >= 0, at + size < output.count,
        output[at + size] == 0x0A
      else { return nil }
      found.append(Array(output[at..<(at + size)]))
      at += size + 1
    }
    return at == output.count ? found : nil
  }

  /// For each of `names` (`COMMIT:PATH`), the object's id, or `nil` when there is no such
  /// object; `nil` for all when git fails. One `cat-file --batch-check` for all.
  func objectIDs(of names: [String]) -> [String?]? {
    guard !names.contains(where: { $0.contains("\n") }) else { return nil }
    let result = runner.run(
      ["git", "-C", directory, "cat-file", "--batch-check=%(objectname)"], environment: environment,
      input: Array(names.map { $0 + "\n" }.joined().utf8), captureOutput: true)
    guard result.status == 0 else { return nil }
    let lines = String(decoding: result.output, as: UTF8.self).split(separator: "\n").map(String.init)
    guard lines.count == names.count else { return nil }
    return zip(names, lines).map { name, line in line == name + " missing" ? nil : line }
  }

  /// Runs a step that must succeed.
  func require(_ action: String, _ arguments: [String]) throws(TodoError) {
    let outcome = run(arguments)
    guard outcome.succeeded else { throw .gitFailed(action: action, detail: outcome.reason) }
  }

  /// The top directory of the work tree, or `notAGitRepository`.
  func topLevel() throws(TodoError) -> String {
    let outcome = run(["rev-parse", "--show-toplevel"])
    guard outcome.succeeded, !outcome.value.isEmpty else {
      if outcome.status == 127 { throw .gitFailed(action: "rev-parse", detail: outcome.reason) }
      throw .notAGitRepository(directory)
    }
    return outcome.value
  }

  /// `text` quoted for the shell that git runs merge drivers with.
  static func shellQuoted(_ text: String) -> String {
    "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''")
      + "'"
  }
}
