import Dispatch
import Foundation
import Testing

@testable import TodoCommands

/// ``ProcessRunner``: children get only the descriptors they are given, input and output
/// travel whole, and runs on several threads at once keep to their own pipes.
@Suite struct ProcessRunnerTests {
  static let environment = ["PATH": "/usr/bin:/bin", "LC_ALL": "C"]

  /// The descriptors a child sees, by number.
  static func childDescriptors(_ runner: ProcessRunner) -> Set<Int32> {
    let listed = runner.run(
      ["bash", "-c", "ls /proc/$$/fd"], environment: environment, captureOutput: true)
    return Set(String(decoding: listed.output, as: UTF8.self).split(separator: "\n").compactMap { Int32($0) })
  }

  /// A pipe the runner made is closed on exec: a child started while it is open does not
  /// inherit either end.
  @Test func aPipeItMadeIsNotInheritedByAChild() throws {
    var fds: [Int32] = [-1, -1]
    try #require(ProcessRunner.makePipe(&fds))
    defer {
      close(fds[0])
      close(fds[1])
    }
    let seen = Self.childDescriptors(ProcessRunner())
    #expect(seen.contains(1), "the child's own standard output is there: \(seen)")
    #expect(!seen.contains(fds[0]) && !seen.contains(fds[1]), "\(fds) in \(seen)")
  }

  /// Input larger than a pipe holds goes in while the output comes out, and both are whole.
  @Test func largeInputAndOutputTravelWhole() {
    let input = (0..<200_000).map { UInt8(ascii: "a") + UInt8($0 % 26) }
    let result = ProcessRunner().run(["cat"], environment: Self.environment, input: input, captureOutput: true)
    #expect(result.status == 0)
    #expect(result.output == input)
  }

  /// Two threads running children at once (as `sync` reads the local lists while `git fetch`
  /// runs): each run gets its own child's output and status, and none waits on the other's
  /// long child (which would hold its pipe open).
  @Test func runsOnTwoThreadsKeepToTheirOwnPipes() {
    let runner = ProcessRunner()
    let group = DispatchGroup()
    final class Results: @unchecked Sendable {
      var wrong: [String] = []
      let lock = NSLock()
      func add(_ text: String) {
        lock.lock()
        wrong.append(text)
        lock.unlock()
      }
    }
    let results = Results()
    for thread in 0..<2 {
      DispatchQueue.global().async(group: group) {
        for run in 0..<40 {
          let word = "t\(thread)r\(run)"
          let result = runner.run(
            ["bash", "-c", "cat; exit \(run % 3)"], environment: Self.environment,
            input: Array(word.utf8), captureOutput: true)
          if String(decoding: result.output, as: UTF8.self) != word || result.status != Int32(run % 3) {
            results.add("\(word): \(result.status) \(String(decoding: result.output, as: UTF8.self))")
          }
        }
      }
    }
    group.wait()
    #expect(results.wrong.isEmpty, "\(results.wrong)")
  }

  /// A script without a `#!` line runs under bash, as todo.sh's add-ons do.
  @Test func aScriptWithoutAnInterpreterLineRunsUnderBash() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("runner-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = directory.appendingPathComponent("plain")
    // Written through a descriptor closed on exec: a child another test starts meanwhile
    // must not hold the script open for writing, or running it fails as busy.
    let fd = open(script.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
    try #require(fd >= 0)
    let text = Array("echo \"${BASH_VERSION:+bash}\"\n".utf8)
    #expect(text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == text.count)
    close(fd)
    let result = ProcessRunner().run([script.path], environment: Self.environment, captureOutput: true)
    #expect(result.status == 0)
    #expect(String(decoding: result.output, as: UTF8.self) == "bash\n")
  }
}
