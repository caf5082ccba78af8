import Foundation
import Testing
import TodoTxt

@testable import TodoStore

/// Files written whole through the store (the merge driver's output, git's files): the old
/// file or the new one, never half of either, whichever system call fails.
@Suite struct WholeFileTests {
  @Test(arguments: [SystemCall.open, .write, .fsync, .rename])
  func aFailingCallLeavesTheOldFileAndNoTemporary(call: SystemCall) throws {
    let dir = Scratch()
    dir.write("todo.txt", "(A) call mom\r\nlast")
    let store = dir.store(faults: Faults { failing, path, _ in failing == call && !path.contains("/state/") ? EIO : nil }.injection)
    #expect(throws: StoreError.self) {
      try store.replaceWhole(dir.file("todo.txt"), with: Array("merged\n".utf8))
    }
    #expect(throws: StoreError.self) {
      try store.replaceWhole(dir.file("todo.txt"), with: TodoList(bytes: Array("merged\n".utf8)))
    }
    #expect(dir.read("todo.txt") == "(A) call mom\r\nlast")
    #expect(!dir.entries.contains { $0.contains(".merge-") })
  }

  @Test func replacesKeepingThePermissionsAndRemoves() throws {
    let dir = Scratch()
    dir.write("todo.txt", "old\n")
    #expect(chmod(dir.file("todo.txt"), 0o640) == 0)
    let store = dir.store()
    try store.replaceWhole(dir.file("todo.txt"), with: TodoList(bytes: Array("a\r\nb".utf8)))
    #expect(dir.read("todo.txt") == "a\r\nb")
    var info = stat()
    #expect(stat(dir.file("todo.txt"), &info) == 0 && info.st_mode & 0o7777 == 0o640)
    try store.removeWhole(dir.file("todo.txt"))
    try store.removeWhole(dir.file("todo.txt"))
    #expect(!dir.entries.contains("todo.txt"))
  }
}
