import Foundation
import Testing

/// `unarchive`: an archived task comes back from done.txt, open again.
@Suite struct UnarchiveCommandTests {
  @Test func anArchivedTaskComesBackOpenWithItsPriority() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "one\n")
    try box.write("done.txt", "x 2009-02-01 a\nx 2009-02-10 2009-01-01 b pri:A\nx 2009-02-11 c\n")
    let run = try box.todo("unarchive", "2")
    #expect(run.status == 0)
    #expect(box.read("todo.txt") == "one\n(A) 2009-01-01 b\n")
    #expect(box.read("done.txt") == "x 2009-02-01 a\nx 2009-02-11 c\n")
    #expect(run.stdout == "2 (A) 2009-01-01 b\nTODO: 2 of done.txt is back as task 2.\n")
    // Two at once, numbers of done.txt as it was.
    #expect(try box.todo("unarchive", "1", "2").status == 0)
    #expect(box.read("todo.txt") == "one\n(A) 2009-01-01 b\na\nc\n")
    #expect(box.read("done.txt") == "")
    // Undone as one change of both files.
    #expect(try box.todo("undo").status == 0)
    #expect(box.read("done.txt") == "x 2009-02-01 a\nx 2009-02-11 c\n")
  }

  @Test func aNumberDoneTxtDoesNotHaveChangesNothing() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "one\n")
    try box.write("done.txt", "x 2009-02-01 a\n")
    let run = try box.todo("unarchive", "1", "7")
    #expect(run.status == 1)
    #expect(run.stderr.contains("7"), "\(run.stderr)")
    #expect(box.read("todo.txt") == "one\n")
    #expect(box.read("done.txt") == "x 2009-02-01 a\n")
    #expect(try box.todo("unarchive", "x").status != 0)
    #expect(try box.todo("unarchive").status != 0)
    // Not a command of todo.sh's.
    #expect(try box.sh("unarchive", "1").status != 0)
  }
}
