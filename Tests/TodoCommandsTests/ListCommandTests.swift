import Testing

/// `ls`: the tasks of todo.txt, sorted as todo.sh sorts (by the line ignoring case), numbered
/// by their line; blank lines skipped but counted.
@Suite struct ListCommandTests {
  static let todo = "Call mom\n(B) Buy milk\nx 2009-02-10 Done thing\n\n(A) Pay rent +home @phone\n"

  @Test func todoShListsEveryTaskWithItsSummary() throws {
    let list = try CommandFixture(todo: ListCommandTests.todo)
    let run = list.sh("-p", "ls")
    #expect(run.status == 0)
    #expect(
      run.stdout
        == "5 (A) Pay rent +home @phone\n2 (B) Buy milk\n1 Call mom\n3 x 2009-02-10 Done thing\n--\nTODO: 4 of 4 tasks shown\n")
    #expect(run.stderr == "")
  }

  @Test func nativeHidesDoneTasksAndSummarizesOnStandardErrorWhenPiped() throws {
    let list = try CommandFixture(todo: ListCommandTests.todo)
    let run = list.todo("ls")
    #expect(run.status == 0)
    #expect(run.stdout == "5 (A) Pay rent +home @phone\n2 (B) Buy milk\n1 Call mom\n")
    #expect(run.stderr == "--\nTODO: 3 of 4 tasks shown\n")
    let all = list.todo("ls", "-a")
    #expect(all.stdout == "5 (A) Pay rent +home @phone\n2 (B) Buy milk\n1 Call mom\n3 x 2009-02-10 Done thing\n")
    #expect(all.stderr == "--\nTODO: 4 of 4 tasks shown\n")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func termsMustAllMatchAndADashHides(name: String) throws {
    let list = try CommandFixture(todo: ListCommandTests.todo)
    let found = list.run(name, ["-p", "ls", "PAY", "+home"])
    #expect(found.stdout.hasPrefix("5 (A) Pay rent +home @phone\n"))
    #expect(found.combined.hasSuffix("TODO: 1 of 4 tasks shown\n"))
    let hidden = list.run(name, ["-p", "ls", "-milk", "-rent"])
    #expect(hidden.stdout.hasPrefix("1 Call mom\n"))
    #expect(!hidden.stdout.contains("milk"))
  }

  @Test func todoShTermsSeeTheNumberNativeTermsDoNot() throws {
    let list = try CommandFixture(todo: "Call mom\nBuy milk\n")
    #expect(list.sh("-p", "ls", "2").stdout == "2 Buy milk\n--\nTODO: 1 of 2 tasks shown\n")
    let native = list.todo("ls", "2")
    #expect(native.stdout == "")
    #expect(native.stderr == "--\nTODO: 0 of 2 tasks shown\n")
  }

  @Test func todoShZeroPadsNumbersToTheLineCount() throws {
    let list = try CommandFixture(todo: (1...10).map { "t\($0)\n" }.joined())
    let run = list.sh("-p", "ls")
    #expect(
      run.stdout
        == "01 t1\n10 t10\n02 t2\n03 t3\n04 t4\n05 t5\n06 t6\n07 t7\n08 t8\n09 t9\n--\nTODO: 10 of 10 tasks shown\n")
  }

  @Test func anEmptyListShowsOnlyTheSummary() throws {
    let list = try CommandFixture(todo: "")
    #expect(list.sh("-p", "ls").stdout == "--\nTODO: 0 of 0 tasks shown\n")
  }

  @Test func nativeSortsByLineWhenAsked() throws {
    let list = try CommandFixture(todo: ListCommandTests.todo)
    #expect(list.todo("ls", "--sort", "line").stdout == "1 Call mom\n2 (B) Buy milk\n5 (A) Pay rent +home @phone\n")
  }

  @Test func nativeRefusesBadOptionsAndControls() throws {
    let list = try CommandFixture(todo: ListCommandTests.todo)
    list.todo("ls", "--sortt", "line").expectOneLineError(containing: "did you mean '--sort'?")
    list.todo("ls", "--sort", "colour").expectOneLineError(containing: "colour")
    list.todo("ls", "a\u{1B}[2J").expectOneLineError(containing: "control character U+001B")
    #expect(list.read("todo.txt") == ListCommandTests.todo)
    #expect(!list.exists("done.txt"))
  }

  /// A user's sort command orders the rows by the lines it writes back; the layout still
  /// draws them, and a line the command made up is shown as it is.
  @Test func aUsersSortCommandKeepsTheLayout() throws {
    let list = try CommandFixture(todo: "alpha due:2009-02-13\nbeta\ngamma\n")
    let sort = "sort -r; echo made up"
    let run = list.run(
      "todo", ["ls"], environment: ["TODO_LAYOUT": "readable", "TODOTXT_PLAIN": "1", "TODOTXT_SORT_COMMAND": sort])
    #expect(run.status == 0)
    // The layout writes the due date as a distance from today (2009-02-13 here).
    #expect(run.stdout == "3 gamma\n2 beta\n1 alpha due:2009-02-13 (today)\nmade up\n", "\(run.stdout)")
  }

  /// The final filter is the one text stage at the very end: it sees all a listing writes,
  /// `--group`'s headings included.
  @Test func theFinalFilterSeesTheWholeGroupedListing() throws {
    let list = try CommandFixture(todo: "alpha +one\nbeta +two\n")
    let run = list.todo("-p", "ls", "--group", "project", environment: ["TODOTXT_FINAL_FILTER": "tr a-z A-Z"])
    #expect(run.status == 0)
    #expect(run.stdout == "+ONE\n1 ALPHA +ONE\n\n+TWO\n2 BETA +TWO\n", "\(run.stdout)")
  }

  /// A line a user's sort command makes up is no task: grouped and noted listings leave it
  /// out and keep every task with its own line, before and after it.
  @Test func aMadeUpLineIsLeftOutOfAGroupedListing() throws {
    let list = try CommandFixture(todo: "alpha +one\nbeta +two\ngamma +one\n")
    let madeUp = ["TODOTXT_SORT_COMMAND": "sort; echo 9 made up +one"]
    #expect(list.todo("-p", "ls", "--group", "project", environment: madeUp).stdout == "+one\n1 alpha +one\n3 gamma +one\n\n+two\n2 beta +two\n")
    let noted = list.todo("-p", "ls", "--notes", environment: ["TODOTXT_SORT_COMMAND": "echo 0 first; sort -r"])
    #expect(noted.stdout == "3 gamma +one\n2 beta +two\n1 alpha +one\n")
  }

  /// The configured order (`TODO_SORT`) is the listing's unless `--sort` says otherwise, and
  /// `--why` explains the order the listing used.
  @Test func theConfiguredOrderIsTheOneWhyExplains() throws {
    let list = try CommandFixture(todo: ListCommandTests.todo)
    let configured = ["TODO_SORT": "line"]
    #expect(list.todo("ls", environment: configured).stdout == "1 Call mom\n2 (B) Buy milk\n5 (A) Pay rent +home @phone\n")
    let why = list.todo("ls", "--why", environment: configured).stdout
    #expect(why.contains("1 Call mom\n    shown 1st: sorted by line 1, then line number\n"), "\(why)")
    let asked = list.todo("ls", "--sort", "-line", "--why", environment: configured).stdout
    #expect(asked.hasPrefix("5 (A) Pay rent +home @phone\n    shown 1st: sorted by line (descending) 5"), "\(asked)")
  }
}
