import Testing

/// `projects` (and `contexts`): open, overdue and done tasks counted per name, done.txt too.
@Suite struct NameCountsCommandTests {
  static let todo = "(A) Call mom +family due:2009-02-10\nPlan +family +trip\nx 2009-02-12 Book +trip\nCase +Family\n"

  @Test func aTableSortedByName() throws {
    let list = try CommandFixture(todo: NameCountsCommandTests.todo, done: "x 2009-02-01 Old +family\n")
    let run = list.todo("projects")
    #expect(run.status == 0)
    #expect(
      run.stdout
        == "PROJECT  OPEN  OVERDUE  DONE\n+Family     1        0     0\n+family     2        1     1\n+trip       1        0     1\n")
  }

  @Test func jsonAndADescendingSort() throws {
    let list = try CommandFixture(todo: NameCountsCommandTests.todo, done: "x 2009-02-01 Old +family\n")
    #expect(
      list.todo("projects", "--format", "json", "--sort", "-done,name").stdout
        == "[\n{\"name\":\"family\",\"open\":2,\"overdue\":1,\"done\":1},\n{\"name\":\"trip\",\"open\":1,\"overdue\":0,\"done\":1},\n"
        + "{\"name\":\"Family\",\"open\":1,\"overdue\":0,\"done\":0}\n]\n")
  }

  @Test func contextsToo() throws {
    let list = try CommandFixture(todo: "Call mom @phone\nx 2009-02-12 Text @phone\n")
    #expect(list.todo("contexts", "--format", "json").stdout == "[\n{\"name\":\"phone\",\"open\":1,\"overdue\":0,\"done\":1}\n]\n")
  }

  @Test func refusesBadKeysAndFormats() throws {
    let list = try CommandFixture(todo: NameCountsCommandTests.todo)
    list.todo("projects", "--sort", "size").expectOneLineError(containing: "size")
    list.todo("projects", "--format", "xml").expectOneLineError(containing: "--format")
    #expect(list.sh("projects").status == 1)
  }
}
