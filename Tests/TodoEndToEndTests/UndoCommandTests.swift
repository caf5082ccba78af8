import Foundation
import Testing

/// `undo` and `redo` say which task each line put back is now.
@Suite struct UndoCommandTests {
  @Test func aLinePutBackIsShownWithItsTaskNumber() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "call mum\npay rent\nwater plants\n")
    #expect(try box.todo("-f", "del", "2").status == 0)
    // Numbers stay put: the line is emptied.
    #expect(box.read("todo.txt") == "call mum\n\nwater plants\n")
    let undo = try box.todo("undo")
    #expect(undo.status == 0)
    #expect(box.read("todo.txt") == "call mum\npay rent\nwater plants\n")
    #expect(undo.stdout.contains("  todo.txt + 2 pay rent\n"), "\(undo.stdout)")
    // Redo takes it away again: a line taken away has no number to show.
    let redo = try box.todo("redo")
    #expect(redo.stdout.contains("  todo.txt - pay rent\n"), "\(redo.stdout)")
  }

  @Test func anEditUndoneShowsTheOldTextUnderItsNumber() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "one\ntwo\nthree\n")
    #expect(try box.todo("pri", "3", "A").status == 0)
    let undo = try box.todo("undo")
    #expect(undo.stdout.contains("  todo.txt - (A) three\n"), "\(undo.stdout)")
    #expect(undo.stdout.contains("  todo.txt + 3 three\n"), "\(undo.stdout)")
  }
}
