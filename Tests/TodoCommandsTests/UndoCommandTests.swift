import TodoTxt
import Testing

@testable import TodoCommands

/// `undo` (and `redo`): the last changes to todo.txt and done.txt stepped back, line by line.
@Suite struct UndoCommandTests {
  @Test func undoesAnAddAndSaysWhatWent() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    #expect(list.todo("add", "Buy", "milk").status == 0)
    let run = list.todo("undo")
    #expect(run.status == 0)
    #expect(run.stdout == "Undone: add 2009-02-13 Buy milk\n  todo.txt - 2009-02-13 Buy milk\n")
    #expect(list.read("todo.txt") == "Call mom\n")
  }

  @Test func undoesADoAndShowsTheLineBackWithItsNumber() throws {
    let list = try CommandFixture(todo: "Call mom\nBuy milk\n")
    #expect(list.todo("do", "2").status == 0)
    let run = list.todo("undo")
    #expect(run.stdout == "Undone: do 2\n  todo.txt - x 2009-02-13 Buy milk\n  todo.txt + 2 Buy milk\n")
    #expect(list.read("todo.txt") == "Call mom\nBuy milk\n")
  }

  /// Lines put back that are there more than once take the next free numbers, in order;
  /// each file's lines are numbered from that file.
  @Test func linesPutBackTwiceTakeTheirNumbersInOrder() throws {
    let list = try CommandFixture(todo: "same\nother\nsame\nsame\n", done: "")
    #expect(list.todo("-f", "do", "1", "3").status == 0)
    let undo = list.todo("undo")
    #expect(undo.stdout.hasSuffix("  todo.txt + 1 same\n  todo.txt + 3 same\n"), "\(undo.stdout)")
    #expect(list.read("todo.txt") == "same\nother\nsame\nsame\n")
    #expect(UndoCommand.numbers(of: [Array("same".utf8)], in: TodoList(parsing: "same\nx\nsame\n")) == [Array("same".utf8): [3, 1]])
  }

  @Test func undoesSeveralAndRedoes() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    #expect(list.todo("add", "Buy", "milk").status == 0)
    #expect(list.todo("pri", "1", "A").status == 0)
    #expect(list.todo("undo", "2").status == 0)
    #expect(list.read("todo.txt") == "Call mom\n")
    #expect(list.todo("redo").status == 0)
    #expect(list.read("todo.txt") == "Call mom\n2009-02-13 Buy milk\n")
  }

  @Test func anArchiveIsUndoneInBothFiles() throws {
    let list = try CommandFixture(todo: "Call mom\nx 2009-02-12 Buy milk\n", done: "x 2009-01-01 Old\n")
    #expect(list.todo("archive").status == 0)
    #expect(list.todo("undo").status == 0)
    #expect(list.files == ["Call mom\nx 2009-02-12 Buy milk\n", "x 2009-01-01 Old\n"])
  }

  @Test func aLineChangedSinceIsNotOverwritten() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    #expect(list.todo("append", "1", "today").status == 0)
    try list.write("todo.txt", "Call mom today and dad\n")
    let run = list.todo("undo")
    #expect(run.status == 1)
    #expect(!run.stderr.isEmpty)
    #expect(list.read("todo.txt") == "Call mom today and dad\n")
  }

  @Test func nothingToUndoAndBadCountsAreRefused() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    list.todo("undo").expectOneLineError(containing: "todo: nothing to undo in '\(list.path("todo.txt"))'")
    #expect(list.todo("undo", "0").status == 1)
    #expect(list.todo("undo", "two").status == 1)
    #expect(list.todo("undo", "1", "2").status == 1)
    #expect(list.read("todo.txt") == "Call mom\n")
  }

  @Test func todoShHasNoUndo() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    #expect(list.sh("add", "Buy milk").status == 0)
    #expect(list.sh("undo").status == 1)
    #expect(list.read("todo.txt") == "Call mom\nBuy milk\n")
  }

  /// Emptying the last line of a file without a final newline (`del` keeps an empty line in
  /// place) leaves a line of no bytes, which no reading of the file has: undoing it looked
  /// for that line, took the empty line before it instead, and lost it.
  @Test(arguments: ["todo", "todo.sh"])
  func undoingTheEmptyingOfAnUnendedLastLineKeepsTheEmptyLineBeforeIt(name: String) throws {
    let list = try CommandFixture(todo: "a\n\nb")
    #expect(list.run(name, ["-f", "del", "3"]).status == 0)
    #expect(list.read("todo.txt") == "a\n\n")
    #expect(list.run("todo", ["undo"]).status == 0)
    #expect(list.read("todo.txt") == "a\n\nb")
    #expect(list.run("todo", ["redo"]).status == 0)
    #expect(list.read("todo.txt") == "a\n\n")
    #expect(list.run("todo", ["undo"]).status == 0)
    #expect(list.read("todo.txt") == "a\n\nb")
  }
}
