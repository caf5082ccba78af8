import Foundation
import Testing

/// A priority right after a byte order mark: the commands that read and set priorities agree
/// on whether there is one (issue 18, item 17).
@Suite struct ByteOrderMarkPriorityTests {
  static let file = "\u{FEFF}(A) first\n(B) second\n"

  @Test func nativeModeSeesThePriorityAfterTheMark() throws {
    let sandbox = try Sandbox()
    try sandbox.write("todo.txt", ByteOrderMarkPriorityTests.file)
    let listed = try sandbox.todo("lsp")
    #expect(listed.stdout.hasPrefix("1 (A) first\n2 (B) second\n"))
    let run = try sandbox.todo("pri", "1", "B")
    #expect(run.stdout.contains("re-prioritized from (A) to (B)"))
    #expect(sandbox.read("todo.txt") == "\u{FEFF}(B) first\n(B) second\n")
  }

  @Test func todoShModeSeesNoPriorityAfterTheMark() throws {
    let sandbox = try Sandbox()
    try sandbox.write("todo.txt", ByteOrderMarkPriorityTests.file)
    let listed = try sandbox.sh("lsp")
    #expect(!listed.stdout.contains("first"))
    let depri = try sandbox.sh("depri", "1")
    #expect(depri.stderr == "TODO: 1 is not prioritized.\n")
    let run = try sandbox.sh("pri", "1", "B")
    #expect(run.stdout == "1 (B) (A) first\nTODO: 1 prioritized (B).\n")
    // The mark stays at the start of the file.
    #expect(sandbox.read("todo.txt") == "\u{FEFF}(B) (A) first\n(B) second\n")
  }
}
