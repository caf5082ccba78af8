import Foundation
import Testing

/// `note`: a task's note, a text file in the notes folder linked by a `note:` tag; written
/// here without an editor (TEXT, or standard input) and shown with `--show`.
@Suite struct NoteCommandTests {
  static func listWithNote() throws -> CommandFixture {
    let list = try CommandFixture(todo: "Call mom\nBuy milk note:milk.txt\n")
    try list.write("notes/milk.txt", "skimmed\n")
    return list
  }

  @Test func showPrintsTheNote() throws {
    let list = try NoteCommandTests.listWithNote()
    let run = list.todo("note", "2", "--show")
    #expect(run.status == 0)
    #expect(run.stdout == "skimmed\n")
  }

  @Test func textIsAddedAsALineOrReplacesWithReplace() throws {
    let list = try NoteCommandTests.listWithNote()
    let run = list.todo("note", "2", "whole", "fat")
    #expect(run.status == 0)
    #expect(run.stdout == "TODO: Note \(list.path("notes/milk.txt"))\n")
    #expect(list.read("notes/milk.txt") == "skimmed\nwhole fat\n")
    #expect(list.todo("note", "2", "--replace", "only", "this").status == 0)
    #expect(list.read("notes/milk.txt") == "only this\n")
    #expect(list.todo("note", "2", input: "from input\n").status == 0)
    #expect(list.read("notes/milk.txt") == "only this\nfrom input\n")
    #expect(list.read("todo.txt") == "Call mom\nBuy milk note:milk.txt\n")
  }

  @Test func aFirstNoteIsNamedAfterTheTaskAndLinked() throws {
    let list = try NoteCommandTests.listWithNote()
    let run = list.todo("note", "1", "ask", "about", "sunday")
    #expect(run.status == 0)
    let line = list.read("todo.txt").split(separator: "\n").first.map(String.init) ?? ""
    #expect(line.hasPrefix("Call mom note:call-mom-"))
    let name = String(line.dropFirst("Call mom note:".count))
    #expect(name.count == "call-mom-xxxx.txt".count && name.hasSuffix(".txt"))
    #expect(run.stdout == "1 \(line)\nTODO: Note \(list.path("notes/" + name))\n")
    #expect(list.read("notes/" + name) == "ask about sunday\n")
    // ls finds a task by the words of its note.
    #expect(list.todo("ls", "sunday").stdout == "1 \(line)\n")
  }

  @Test func aNoteTagLeadingOutOfTheNotesFolderIsNotFollowed() throws {
    let list = try CommandFixture(todo: "Pay note:../escape.txt\n")
    try list.write("escape.txt", "outside\n")
    list.todo("note", "1", "--show").expectOneLineError(containing: "TODO: 1 has no note.")
    #expect(list.todo("note", "1", "hi").status == 0)
    #expect(list.read("escape.txt") == "outside\n")
  }

  @Test func refusesMissingTasksNotesAndControls() throws {
    let list = try NoteCommandTests.listWithNote()
    list.todo("note", "9", "x").expectOneLineError(containing: "TODO: No task 9.")
    list.todo("note", "1", "--show").expectOneLineError(containing: "TODO: 1 has no note.")
    list.todo("note", "2", "a\u{1B}[2Jb").expectOneLineError(containing: "control character U+001B")
    #expect(list.read("notes/milk.txt") == "skimmed\n")
    #expect(list.read("todo.txt") == "Call mom\nBuy milk note:milk.txt\n")
  }

  @Test func todoShHasNoNote() throws {
    let list = try NoteCommandTests.listWithNote()
    #expect(list.sh("note", "2", "x").status == 1)
    #expect(list.read("notes/milk.txt") == "skimmed\n")
  }
}
