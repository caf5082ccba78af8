import Testing

/// `deduplicate`: later copies of a line removed, the first kept.
@Suite struct DeduplicateCommandTests {
  @Test(arguments: ["todo", "todo.sh"])
  func laterCopiesLeaveEmptyLines(name: String) throws {
    let list = try CommandFixture(todo: "a\nb\na\nc\nb\nb \n")
    let run = list.run(name, ["deduplicate"])
    #expect(run.status == 0)
    #expect(run.stdout == "TODO: 2 duplicate task(s) removed\n")
    #expect(list.read("todo.txt") == "a\nb\n\nc\n\nb \n")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func withoutPreservedNumbersTheyGo(name: String) throws {
    let list = try CommandFixture(todo: "a\nb\na\nc\n")
    #expect(list.run(name, ["-n", "deduplicate"]).status == 0)
    #expect(list.read("todo.txt") == "a\nb\nc\n")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func noneIsSaidAndFails(name: String) throws {
    let list = try CommandFixture(todo: "a\nb\n")
    let run = list.run(name, ["deduplicate"])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr == "TODO: No duplicate tasks found\n")
    #expect(list.read("todo.txt") == "a\nb\n")
  }
}
