import Testing

/// `report`: archive, then a time-stamped line of open and done counts in report.txt.
@Suite struct ReportCommandTests {
  @Test(arguments: ["todo", "todo.sh"])
  func archivesThenAppendsTheCounts(name: String) throws {
    let list = try CommandFixture(todo: "Call mom\nx 2009-02-12 Buy milk\nPay rent\n", done: "x 2009-01-01 Old\n")
    let run = list.run(name, ["report"])
    #expect(run.status == 0)
    #expect(
      run.stdout
        == "x 2009-02-12 Buy milk\nTODO: \(list.path("todo.txt")) archived.\n2009-02-13T04:40:00 2 2\nTODO: Report file updated.\n")
    #expect(list.read("report.txt") == "2009-02-13T04:40:00 2 2\n")
    #expect(list.read("todo.txt") == "Call mom\nPay rent\n")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func theSameCountsAgainAppendNothing(name: String) throws {
    let list = try CommandFixture(todo: "Call mom\n", done: "")
    try list.write("report.txt", "2009-02-01T10:00:00 1 0\n")
    let run = list.run(name, ["report"])
    #expect(run.status == 0)
    #expect(run.stdout.hasSuffix("2009-02-01T10:00:00 1 0\nTODO: Report file is up-to-date.\n"))
    #expect(list.read("report.txt") == "2009-02-01T10:00:00 1 0\n")
  }

  @Test func quietTodoShReportFailsAsTodoShDoes() throws {
    let list = try CommandFixture(todo: "Call mom\n", done: "")
    let quiet = ["TODOTXT_VERBOSE": "0"]
    let run = list.sh("report", environment: quiet)
    #expect(run.status == 1)
    #expect(run.stdout == "2009-02-13T04:40:00 1 0\n")
    let native = try CommandFixture(todo: "Call mom\n", done: "")
    let nativeRun = native.todo("report", environment: quiet)
    #expect(nativeRun.status == 0)
    #expect(nativeRun.stdout == "2009-02-13T04:40:00 1 0\n")
  }
}
