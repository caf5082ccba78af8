import Foundation
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
    let patch = Patch(from: Array("a\r\nb\r\nc".utf8), to: list)
    var writer = ByteWriter(magic: "test")
    writer.patch(patch)
    var reader = try ByteReader(writer.sealed, magic: "test")
    #expect(try reader.patch() == patch)
    #expect(try patch.apply(to: Array("a\r\nb\r\nc".utf8)).bytes == list.serialized())
    #expect(try patch.inverted.apply(to: list.serialized()).bytes == Array("a\r\nb\r\nc".utf8))
  }
}
