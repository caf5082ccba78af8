import Foundation
#if canImport(Glibc)
  import Glibc
#endif
import Testing
import TodoTxt

@testable import TodoStore

/// Another program (an editor, a sync client) changes the file while a change is being made.
@Suite struct OutsideEditTests {
  @Test func editOfAnotherLineIsKept() throws {
    let dir = Scratch()
    dir.write("todo.txt", "a\nb\nc\n")
    try dir.store().update(dir.file("todo.txt"), label: "do 3") { list in
      dir.write("todo.txt", "new first\na\nb changed\nc\nadded\n")
      list.replace(number: 3, with: Task(parsing: "x c"))
      list.remove(at: 0)
      list.insert(Task(parsing: "after b"), at: 1)
    }
    #expect(dir.read("todo.txt") == "new first\nb changed\nafter b\nx c\nadded\n")
  }

  /// A large file read before a change is not read again if it is unchanged; one rewritten
  /// in place between the read and the change, to the same size, must still be seen.
  @Test func inPlaceRewriteAfterAReadIsSeen() throws {
    let dir = Scratch()
    let line = String(repeating: "x", count: 99)
    let original = (0..<20_000).map { "task \($0) \(line)\n" }.joined()
    dir.write("todo.txt", original)
    let store = dir.store()
    #expect(try store.read(dir.file("todo.txt")).count == 20_000)
    // Same length, other bytes, written into the same file (same inode).
    let handle = try #require(FileHandle(forWritingAtPath: dir.file("todo.txt")))
    try handle.write(contentsOf: Data("TASK".utf8))
    try handle.close()
    try store.update(dir.file("todo.txt"), label: "do 2") { list in
      list.replace(number: 2, with: Task(parsing: "x task 1"))
    }
    let lines = try #require(dir.read("todo.txt")).split(separator: "\n")
    #expect(lines[0].hasPrefix("TASK 0 "))
    #expect(lines[1] == "x task 1")
    #expect(lines.count == 20_000)
  }

  /// File times are coarse: a rewrite in the same tick keeps the identity, and only the
  /// bytes tell. A kept version (larger than the one-megabyte buffer) is compared with the
  /// file's new bytes.
  @Test func keptBytesAreCheckedByteForByte() throws {
    let dir = Scratch()
    let original = String(repeating: "a task line\n", count: 200_000)
    dir.write("todo.txt", original)
    let bytes = Array(original.utf8)
    func offered() -> Bool {
      let fd = open(dir.file("todo.txt"), O_RDONLY)
      defer { close(fd) }
      return ReadCache.file(fd, holds: bytes)
    }
    #expect(offered())
    let handle = try #require(FileHandle(forWritingAtPath: dir.file("todo.txt")))
    try handle.seek(toOffset: UInt64(bytes.count - 5))
    try handle.write(contentsOf: Data("LINE\n".utf8))
    try handle.close()
    #expect(!offered())
    #expect(!ReadCache.file(-1, holds: bytes))
  }

  @Test func aChangeRightAfterAReadGivesTheSameFile() throws {
    let dir = Scratch()
    let original = (0..<20_000).map { "task \($0) with some words to make the file large\n" }.joined()
    dir.write("todo.txt", original)
    let store = dir.store()
    _ = try store.read(dir.file("todo.txt"))
    try store.update(dir.file("todo.txt"), label: "do 3") { list in
      list.replace(number: 3, with: Task(parsing: "x done"))
    }
    var expected = original.split(separator: "\n").map(String.init)
    expected[2] = "x done"
    #expect(dir.read("todo.txt") == expected.joined(separator: "\n") + "\n")
    _ = try store.undo(1, files: [dir.file("todo.txt")])
    #expect(dir.read("todo.txt") == original)
  }

  @Test func appendGoesAfterLinesAddedMeanwhile() throws {
    let dir = Scratch()
    dir.write("todo.txt", "a\n")
    try dir.store().update(dir.file("todo.txt"), label: "add") { list in
      dir.write("todo.txt", "a\nfrom phone\n")
      list.append(Task(parsing: "from here"))
    }
    #expect(dir.read("todo.txt") == "a\nfrom phone\nfrom here\n")
  }

  @Test func editOfTheSameLineIsRefusedAndTheFileKept() throws {
    let dir = Scratch()
    dir.write("todo.txt", "a\nb\nc\n")
    let store = dir.store()
    #expect(
      throws: StoreError(
        .conflict(line: 2, was: "b", now: "b edited"), path: dir.file("todo.txt"), operation: .write
      )
    ) {
      try store.update(dir.file("todo.txt"), label: "do 2") { list in
        dir.write("todo.txt", "a\nb edited\nc\n")
        list.replace(number: 2, with: Task(parsing: "x b"))
      }
    }
    #expect(dir.read("todo.txt") == "a\nb edited\nc\n")
    let error = StoreError(
      .conflict(line: 2, was: "b", now: "b edited"), path: "/x/todo.txt", operation: .write)
    #expect(
      error.description
        == "cannot write '/x/todo.txt': line 2 changed meanwhile: was 'b', now 'b edited'")
  }

  @Test func deletedLineIsReportedAsRemoved() throws {
    let dir = Scratch()
    dir.write("todo.txt", "a\nb\nc\n")
    #expect(
      throws: StoreError(
        .conflict(line: 2, was: "b", now: nil), path: dir.file("todo.txt"), operation: .write)
    ) {
      try dir.store().update(dir.file("todo.txt"), label: "del 2") { list in
        dir.write("todo.txt", "a\nc\n")
        list.remove(at: 1)
      }
    }
    #expect(dir.read("todo.txt") == "a\nc\n")
  }

  @Test func duplicateLinesAreFoundNearestToTheirPlace() throws {
    let dir = Scratch()
    dir.write("todo.txt", "same\nx\nsame\ny\nsame\n")
    try dir.store().update(dir.file("todo.txt"), label: "do 3") { list in
      dir.write("todo.txt", "top\nsame\nx\nsame\ny\nsame\n")
      list.replace(number: 3, with: Task(parsing: "x same"))
    }
    #expect(dir.read("todo.txt") == "top\nsame\nx\nx same\ny\nsame\n")
  }

  @Test func patchRoundTripsThroughItsEncoding() throws {
    var list = TodoList(parsing: "a\r\nb\r\nc")
    list.replace(number: 2, with: Task(parsing: "B"))
    list.append(Task(parsing: "d"))
    let patch = Patch(edits: list)
    var writer = ByteWriter(magic: "test")
    writer.patch(patch)
    var reader = try ByteReader(writer.sealed, magic: "test")
    #expect(try reader.patch() == patch)
    #expect(try patch.apply(to: Array("a\r\nb\r\nc".utf8)).bytes == list.serialized())
    #expect(try patch.inverted.apply(to: list.serialized()).bytes == Array("a\r\nb\r\nc".utf8))
  }

  // MARK: Edits of a list read earlier, written later (a person was asked in between)

  @Test func editsOfAnEarlierReadAreWrittenAsTheyAreWhenNothingChanged() throws {
    let dir = Scratch()
    dir.write("todo.txt", "a\r\nb\r\nc\r\n")
    let store = dir.store()
    var list = try store.read(dir.file("todo.txt"))
    list.replace(number: 2, with: Task(parsing: "x b"))
    #expect(try store.update([dir.file("todo.txt")], label: "do 2", editedAfterReading: [list]) == [3])
    #expect(dir.read("todo.txt") == "a\r\nx b\r\nc\r\n")
    // One undo entry takes it back.
    _ = try store.undo(1, files: [dir.file("todo.txt")])
    #expect(dir.read("todo.txt") == "a\r\nb\r\nc\r\n")
  }

  @Test func editsOfAnEarlierReadKeepWhatOthersChangedMeanwhile() throws {
    let dir = Scratch()
    dir.write("todo.txt", "a\nb\nc\n")
    let store = dir.store()
    var list = try store.read(dir.file("todo.txt"))
    list.replace(number: 2, with: Task(parsing: "x b"))
    list.append(Task(parsing: "d"))
    // Meanwhile (no lock was held): the line before it goes, the one after changes, one is
    // added at the end.
    dir.write("todo.txt", "b\nc changed\nadded\n")
    #expect(try store.update([dir.file("todo.txt")], label: "edit", editedAfterReading: [list]) == [4])
    #expect(dir.read("todo.txt") == "x b\nc changed\nadded\nd\n")
    _ = try store.undo(1, files: [dir.file("todo.txt")])
    #expect(dir.read("todo.txt") == "b\nc changed\nadded\n")
  }

  @Test func editsOfAnEarlierReadToALineChangedMeanwhileAreRefused() throws {
    let dir = Scratch()
    dir.write("todo.txt", "a\nb\nc\n")
    let store = dir.store()
    var list = try store.read(dir.file("todo.txt"))
    list.replace(number: 2, with: Task(bytes: []))
    dir.write("todo.txt", "a\nb, but changed\nc\n")
    #expect(throws: StoreError(.conflict(line: 2, was: "b", now: "b, but changed"), path: dir.file("todo.txt"), operation: .write)) {
      try store.update([dir.file("todo.txt")], label: "del 2", editedAfterReading: [list])
    }
    #expect(dir.read("todo.txt") == "a\nb, but changed\nc\n")
    // Removed meanwhile: refused too, and nothing of a second file is written either.
    dir.write("todo.txt", "a\nc\n")
    dir.write("done.txt", "")
    var done = try store.read(dir.file("done.txt"))
    done.append(Task(parsing: "b"))
    #expect(throws: StoreError(.conflict(line: 2, was: "b", now: nil), path: dir.file("todo.txt"), operation: .write)) {
      try store.update([dir.file("todo.txt"), dir.file("done.txt")], label: "move 2", editedAfterReading: [list, done])
    }
    #expect(dir.read("todo.txt") == "a\nc\n")
    #expect(dir.read("done.txt") == "")
  }

  @Test func anUneditedListWritesNothingAndAMissingFileIsMade() throws {
    let dir = Scratch()
    let store = dir.store()
    #expect(try store.update([dir.file("todo.txt")], label: "edit", editedAfterReading: [TodoList()]) == [0])
    #expect(dir.read("todo.txt") == nil)
    var list = TodoList()
    list.append(Task(parsing: "first"))
    try store.update([dir.file("todo.txt")], label: "edit", editedAfterReading: [list])
    #expect(dir.read("todo.txt") == "first\n")
  }
}
