import Glibc
import Testing
import TodoTxt

import TodoStore

/// `todo merge` maps its files (``Posix/mapLines(_:)``) and trusts a merge only of files that
/// were left alone meanwhile (``Posix/isUnchanged(_:since:)``).
@Suite struct PosixMappingTests {
  /// A fresh file with `bytes` in the system's temporary directory; removed by the caller.
  static func file(_ bytes: [UInt8]) throws -> String {
    var template = Array("/tmp/todo-mapping-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { mkstemp($0) } ?? -1
    }
    try #require(fd >= 0)
    defer { close(fd) }
    _ = bytes.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count) }
    return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  @Test(arguments: ["(A) call mom\r\nbuy milk\nx done", "", "\u{FEFF}one line\n"])
  func mapsAsAListReads(_ text: String) throws {
    let bytes = Array(text.utf8)
    let path = try Self.file(bytes)
    defer { unlink(path) }
    let (lines, _) = try #require(Posix.mapLines(path))
    #expect(lines.list().serialized() == bytes)
    #expect(lines.count == TodoList(bytes: bytes).count)
  }

  @Test func aFileChangedAfterItWasMappedIsNoticed() throws {
    let path = try Self.file(Array("call mom\n".utf8))
    defer { unlink(path) }
    let (_, status) = try #require(Posix.mapLines(path))
    #expect(Posix.isUnchanged(path, since: status))
    let fd = open(path, O_WRONLY | O_APPEND)
    try #require(fd >= 0)
    _ = Array("buy milk\n".utf8).withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    #expect(!Posix.isUnchanged(path, since: status))
    unlink(path)
    #expect(!Posix.isUnchanged(path, since: status))
  }

  @Test func nothingToReadIsNoBuffer() {
    #expect(Posix.mapLines("/nonexistent/todo.txt") == nil)
    #expect(Posix.mapLines("/tmp") == nil)
  }
}
