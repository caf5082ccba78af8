import Foundation
import Testing
import TodoTxt

@testable import TodoStore

/// A clock for undo entries that the test moves.
final class TestClock: @unchecked Sendable {
  var seconds: Int64 = 1_767_225_600
  var now: @Sendable () -> Int64 { { self.seconds } }
}

@Suite struct UndoTests {
  @Test func undoAndRedoManyLevels() throws {
    let dir = Scratch()
    dir.write("todo.txt", "a\nb\n")
    let clock = TestClock()
    let store = dir.store(now: clock.now)
    let todo = dir.file("todo.txt")
    try store.update(todo, label: "do 1") { $0.replace(number: 1, with: Task(parsing: "x a")) }
    clock.seconds += 60
    try store.append([bytes("c")], to: todo, label: "add")
    clock.seconds += 60
    try store.update(todo, label: "del 2") { $0.remove(at: 1) }
    #expect(dir.read("todo.txt") == "x a\nc\n")
    let history = store.history(files: [todo])
    #expect(history.map(\.label) == ["del 2", "add", "do 1"])
    #expect(history.map(\.time) == [1_767_225_720, 1_767_225_660, 1_767_225_600])
    // Each entry keeps the file's size after it: "x a\nc\n", "x a\nb\nc\n", "x a\nb\n".
    #expect(history[0].changes == [UndoEntry.FileChange(path: todo, removed: ["b"], added: [], size: 6)])
    #expect(history.map { $0.changes[0].size } == [6, 8, 6])
    #expect(try store.undo(2, files: [todo]).map(\.label) == ["del 2", "add"])
    #expect(dir.read("todo.txt") == "x a\nb\n")
    #expect(try store.redo(files: [todo]).map(\.label) == ["add"])
    #expect(dir.read("todo.txt") == "x a\nb\nc\n")
    #expect(try store.undo(5, files: [todo]).map(\.label) == ["add", "do 1"])
    #expect(dir.read("todo.txt") == "a\nb\n")
    #expect(throws: StoreError(.nothingToUndo, path: todo, operation: .undo(label: ""))) {
      try store.undo(files: [todo])
    }
    // A new change forgets what could be redone.
    try store.append([bytes("d")], to: todo, label: "add")
    #expect(throws: StoreError(.nothingToRedo, path: todo, operation: .redo(label: ""))) {
      try store.redo(files: [todo])
    }
  }

  @Test func undoAppliesAfterOutsideEditsAndRefusesOverChangedLines() throws {
    let dir = Scratch()
    dir.write("todo.txt", "a\nb\nc\n")
    let store = dir.store()
    let todo = dir.file("todo.txt")
    try store.update(todo, label: "do 2") { $0.replace(number: 2, with: Task(parsing: "x b")) }
    try store.update(todo, label: "do 3") { $0.replace(number: 3, with: Task(parsing: "x c")) }
    dir.write("todo.txt", "new\na edited\nx b\nx c\n")
    try store.undo(files: [todo])
    #expect(dir.read("todo.txt") == "new\na edited\nx b\nc\n")
    dir.write("todo.txt", "new\na edited\nx b edited\nc\n")
    #expect(
      throws: StoreError(
        .conflict(line: 2, was: "x b", now: "x b edited"), path: todo,
        operation: .undo(label: "do 2"))
    ) { try store.undo(files: [todo]) }
    #expect(dir.read("todo.txt") == "new\na edited\nx b edited\nc\n")
  }

  /// Lines a change took from the end of the file go back after their line before, when
  /// lines were added at the end since (an editor, a sync): the added lines stay last, and
  /// the restored run is whole (a merge conflict's markers around their side, not split by
  /// the new line). With the file's end unchanged they go back at the end.
  @Test func undoOfARemovalAtTheEndGoesBackAfterItsLineBefore() throws {
    let dir = Scratch()
    let conflicted = "first\n<<<<<<< ours\nmine\n=======\ntheirs\n>>>>>>> theirs\n"
    dir.write("todo.txt", conflicted)
    let store = dir.store()
    let todo = dir.file("todo.txt")
    try store.update(todo, label: "resolve ours") { list in
      list.removeAll { [bytes("<<<<<<< ours"), bytes("======="), bytes("theirs"), bytes(">>>>>>> theirs")].contains(Array($0.bytes)) }
    }
    #expect(dir.read("todo.txt") == "first\nmine\n")
    dir.write("todo.txt", "first\nmine\nadded by an editor\n")
    try store.undo(files: [todo])
    #expect(dir.read("todo.txt") == conflicted + "added by an editor\n")
    // Redone and undone again with nothing added: back at the end, as before.
    try store.redo(files: [todo])
    #expect(dir.read("todo.txt") == "first\nmine\nadded by an editor\n")
    dir.write("todo.txt", "first\nmine\n")
    try store.undo(files: [todo])
    #expect(dir.read("todo.txt") == conflicted)
  }

  @Test func undoOfAMoveRestoresBothFiles() throws {
    let dir = Scratch()
    dir.write("todo.txt", "a\nx b\n")
    dir.write("done.txt", "x old\n")
    let store = dir.store()
    let files = [dir.file("todo.txt"), dir.file("done.txt")]
    try store.update(files, label: "archive") { lists in lists[1].append(lists[0].remove(at: 1)) }
    #expect(store.history(files: [dir.file("done.txt")]).map(\.label) == ["archive"])
    try store.undo(files: files)
    #expect(dir.read("todo.txt") == "a\nx b\n")
    #expect(dir.read("done.txt") == "x old\n")
    try store.redo(files: files)
    #expect(dir.read("todo.txt") == "a\n")
    #expect(dir.read("done.txt") == "x old\nx b\n")
  }

  @Test func logIsBoundedAndHidden() throws {
    let dir = Scratch()
    let store = TodoStore(stateDirectory: dir.file("state"), undoLimit: 5, undoByteLimit: 200)
    let todo = dir.file("todo.txt")
    for i in 1...8 { try store.append([bytes("task \(i)")], to: todo, label: "add \(i)") }
    #expect(
      store.history(files: [todo]).map(\.label) == ["add 8", "add 7", "add 6", "add 5", "add 4"])
    try store.update(todo, label: "big") { list in
      list.append(Task(parsing: String(repeating: "long ", count: 100)))
    }
    #expect(store.history(files: [todo]).first?.isRecorded == false)
    #expect(throws: StoreError(.notRecorded, path: todo, operation: .undo(label: "big"))) {
      try store.undo(files: [todo])
    }
    #expect(dir.entries.filter { $0.hasSuffix(".txt") } == ["todo.txt"])
    // Other files' changes are not undone through this one.
    #expect(store.history(files: [dir.file("other.txt")]).isEmpty)
  }
}
