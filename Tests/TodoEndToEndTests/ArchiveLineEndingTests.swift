import Foundation
import Testing

/// Which line ending a task moved to done.txt gets, and which blank lines archive removes
/// (issue 18, item 15).
@Suite struct ArchiveLineEndingTests {
  static let crlfFile = "a\r\nx 2024-01-01 b\r\n\r\nc\r\n"

  @Test func nativeArchiveOfACrlfFileWritesCrlfToANewDoneFile() throws {
    let sandbox = try Sandbox()
    try sandbox.write("todo.txt", ArchiveLineEndingTests.crlfFile)
    try sandbox.todo("archive")
    // The CR LF blank line is an empty line to todo.txt(5): removed.
    #expect(sandbox.read("todo.txt") == "a\r\nc\r\n")
    #expect(sandbox.read("done.txt") == "x 2024-01-01 b\r\n")
  }

  @Test func nativeArchiveFollowsTheDoneFilesOwnEnding() throws {
    let sandbox = try Sandbox()
    try sandbox.write("todo.txt", ArchiveLineEndingTests.crlfFile)
    try sandbox.write("done.txt", "x 2023-01-01 old\n")
    try sandbox.todo("archive")
    #expect(sandbox.read("done.txt") == "x 2023-01-01 old\nx 2024-01-01 b\n")
  }

  @Test func todoShArchiveKeepsEachLinesEndingAndCrlfBlankLines() throws {
    let sandbox = try Sandbox()
    try sandbox.write("todo.txt", "a\r\nx 2024-01-01 b\r\n\r\n\nx 2024-01-02 c\nd\r\n")
    try sandbox.write("done.txt", "x 2023-01-01 old\n")
    try sandbox.sh("archive")
    // todo.sh's `sed '/./!d'` sees the CR of a CR LF blank line, so only the LF one goes.
    #expect(sandbox.read("todo.txt") == "a\r\n\r\nd\r\n")
    #expect(sandbox.read("done.txt") == "x 2023-01-01 old\nx 2024-01-01 b\r\nx 2024-01-02 c\n")
  }

  @Test func todoShAutoArchiveMovesACrlfLineWithItsCr() throws {
    let sandbox = try Sandbox()
    try sandbox.write("todo.txt", "a\r\nb\r\n")
    try sandbox.sh("do", "2")
    #expect(sandbox.read("todo.txt") == "a\r\n")
    #expect(sandbox.read("done.txt") == "x 2009-02-13 b\r\n")
  }
}
