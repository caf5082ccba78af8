import Testing

/// `unarchive`: tasks of done.txt moved back to the end of todo.txt, open again.
@Suite struct UnarchiveCommandTests {
  @Test func reopensTheTaskAndBringsItsPriorityBack() throws {
    let list = try CommandFixture(todo: "Call mom\n", done: "x 2009-02-01 Old one pri:B\nx 2009-02-02 2009-01-20 Other\n")
    let run = list.todo("unarchive", "1")
    #expect(run.status == 0)
    #expect(run.stdout == "2 (B) Old one\nTODO: 1 of done.txt is back as task 2.\n")
    #expect(list.files == ["Call mom\n(B) Old one\n", "x 2009-02-02 2009-01-20 Other\n"])
  }

  @Test func keepsTheCreationDate() throws {
    let list = try CommandFixture(todo: "", done: "x 2009-02-02 2009-01-20 Other\n")
    #expect(list.todo("unarchive", "1").status == 0)
    #expect(list.files == ["2009-01-20 Other\n", ""])
  }

  @Test func refusesAMissingTaskAndChangesNeitherFile() throws {
    let list = try CommandFixture(todo: "Call mom\n", done: "x 2009-02-01 Old one\n")
    list.todo("unarchive", "5").expectOneLineError(containing: "DONE: No task 5.")
    list.todo("unarchive", "1", "5").expectOneLineError(containing: "DONE: No task 5.")
    #expect(list.todo("unarchive", "one").status == 1)
    #expect(list.todo("unarchive").status == 1)
    #expect(list.files == ["Call mom\n", "x 2009-02-01 Old one\n"])
    #expect(list.sh("unarchive", "1").status == 1)
    #expect(list.files == ["Call mom\n", "x 2009-02-01 Old one\n"])
  }
}
