import Foundation
import Testing

/// `show NR` and `ls --notes`: a task's note and everything it holds, without an editor.
@Suite struct ShowCommandTests {
  func box() throws -> Sandbox {
    let box = try Sandbox()
    try box.write(
      "todo.txt",
      "(A) 2009-02-01 Call Mom +family @phone due:2009-02-16 note:call.txt id:m ref:77 att:a.pdf\ngather photos p:m\nplain task\n")
    try box.write("notes/call.txt", "bring photos\r\nand \u{1B}[31mcake\n")
    try box.write("attachments/a.pdf", "%PDF")
    return box
  }

  @Test func showNamesEveryPartOfTheTask() throws {
    let box = try box()
    let run = try box.todo("show", "1")
    #expect(run.status == 0)
    let notes = box.path("notes")
    let attachments = box.path("attachments")
    #expect(
      run.stdout == """
        1 (A) 2009-02-01 Call Mom +family @phone due:2009-02-16 note:call.txt id:m ref:77 att:a.pdf
          title:      Call Mom ref:77
          priority:   A (high)
          created:    2009-02-01 (12d ago)
          due:        2009-02-16 (in 3d)
          projects:   +family
          contexts:   @phone
          waits for:  2
          tags:       ref:77
          attachment: \(attachments)/a.pdf
          note:       \(notes)/call.txt

              bring photos
              and \u{1B}[31mcake

        """)
    #expect(try box.todo("show", "2").stdout.contains("  waited for by: 1\n"))
    #expect(try box.todo("show", "9").status == 1)
    #expect(try box.todo("show").status != 0)
  }

  @Test func lsNotesShowsEachNoteUnderItsTask() throws {
    let box = try box()
    try box.write("todo.txt", "(A) Call Mom note:call.txt\nplain task\n")
    let run = try box.todo("ls", "--notes")
    #expect(run.stdout == "1 (A) Call Mom note:call.txt\n      bring photos\n      and \u{1B}[31mcake\n2 plain task\n")
    // Into a pipe the summary goes to standard error.
    #expect(run.stderr == "--\nTODO: 2 of 2 tasks shown\n")
    // A note that is a link is not read.
    try FileManager.default.removeItem(atPath: box.path("notes/call.txt"))
    try box.write("secret.txt", "secret\n")
    try FileManager.default.createSymbolicLink(atPath: box.path("notes/call.txt"), withDestinationPath: box.path("secret.txt"))
    #expect(!(try box.todo("ls", "--notes").stdout.contains("secret")))
  }

  @Test func onATerminalANotesControlCharactersAreShown() throws {
    let box = try box()
    try box.write("todo.txt", "(A) Call Mom note:call.txt\nplain task\n")
    let screen = try box.onTerminal(["ls", "--notes", "Call"], environment: ["NO_COLOR": "1"])
    #expect(screen.contains("and ^[[31mcake"), "\(screen)")
  }
}
