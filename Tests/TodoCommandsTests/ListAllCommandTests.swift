import Testing

/// `lsa`: todo.txt and done.txt listed together, done.txt's tasks numbered 0.
@Suite struct ListAllCommandTests {
  @Test func todoShListsBothFilesWithThreeCounts() throws {
    let list = try CommandFixture(todo: "Call mom\n(B) Buy milk\n", done: "x 2009-02-01 Old one\n")
    let run = list.sh("-p", "lsa")
    #expect(run.status == 0)
    #expect(
      run.stdout
        == "2 (B) Buy milk\n1 Call mom\n0 x 2009-02-01 Old one\n--\nTODO: 2 of 2 tasks shown\n"
        + "DONE: 1 of 1 tasks shown\ntotal 3 of 3 tasks shown\n")
  }

  @Test func nativeSameListingWithTheSummaryOnStandardError() throws {
    let list = try CommandFixture(todo: "Call mom\n(B) Buy milk\n", done: "x 2009-02-01 Old one\n")
    let run = list.todo("lsa")
    #expect(run.status == 0)
    #expect(run.stdout == "2 (B) Buy milk\n1 Call mom\n0 x 2009-02-01 Old one\n")
    #expect(run.stderr == "--\nTODO: 2 of 2 tasks shown\nDONE: 1 of 1 tasks shown\ntotal 3 of 3 tasks shown\n")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func aTermFiltersBothFiles(name: String) throws {
    let list = try CommandFixture(todo: "Call mom\n(B) Buy milk\n", done: "x 2009-02-01 Old one\nx 2009-02-02 Old milk\n")
    let run = list.run(name, ["-p", "lsa", "milk"])
    #expect(run.stdout.hasPrefix("2 (B) Buy milk\n0 x 2009-02-02 Old milk\n"))
    #expect(run.combined.hasSuffix("TODO: 1 of 2 tasks shown\nDONE: 1 of 2 tasks shown\ntotal 2 of 4 tasks shown\n"))
  }

  @Test func nativeRefusesAControlCharacterInATerm() throws {
    let list = try CommandFixture(todo: "Call mom\n", done: "x 2009-02-01 Old one\n")
    list.todo("lsa", "\u{9B}2J").expectOneLineError(containing: "control character U+009B")
  }
}
