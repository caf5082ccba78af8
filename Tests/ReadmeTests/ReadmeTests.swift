import Foundation
import Testing
import TodoStore
import TodoTxt

/// README.md's library example: it compiles (it is `ReadmeLibraryExample.swift`), does what
/// the README says, and the README shows exactly that code.
@Suite("README's library example")
struct ReadmeTests {
  static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

  /// The lines of `text` strictly between the first line `start` and the next line that is
  /// `end` (or that `end` accepts).
  static func lines(of text: String, after start: String, until end: (Substring) -> Bool) -> [Substring]? {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard let first = lines.firstIndex(where: { $0 == start }),
      let last = lines[(first + 1)...].firstIndex(where: end)
    else { return nil }
    return Array(lines[(first + 1)..<last])
  }

  @Test("the README's ```swift block under ## The library is the compiled code")
  func readmeShowsTheCompiledCode() throws {
    let readme = try String(contentsOf: Self.here.appendingPathComponent("../../README.md"), encoding: .utf8)
    let example = try String(
      contentsOf: Self.here.appendingPathComponent("ReadmeLibraryExample.swift"), encoding: .utf8)
    let section = try #require(Self.lines(of: readme, after: "## The library", until: { $0.hasPrefix("## ") }))
    let block = try #require(Self.lines(of: section.joined(separator: "\n"), after: "```swift", until: { $0 == "```" }))
    let code = try #require(Self.lines(of: example, after: "// README: begin", until: { $0 == "// README: end" }))
    #expect(!code.isEmpty)
    #expect(block == code)
  }

  @Test("the example adds a task for Friday, completes the first open one and saves")
  func exampleRuns() throws {
    let folder = NSTemporaryDirectory() + "readme-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/todo.txt"
    try Data("(B) call the plumber +home\n".utf8).write(to: URL(fileURLWithPath: path))
    // Monday 4 May 2026: the coming Friday is the 8th.
    let monday = try #require(TaskDate(year: 2026, month: 5, day: 4))
    try planShopping(list: path, today: monday, store: TodoStore(stateDirectory: folder + "/state"))
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(
      String(decoding: bytes, as: UTF8.self)
        == "x 2026-05-04 call the plumber +home pri:B\n(A) 2026-05-04 Buy oat milk +shopping due:2026-05-08\n")
  }
}
