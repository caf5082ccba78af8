import Testing

/// `mv`: a task moved from one file of the todo directory to the end of another.
@Suite struct MoveCommandTests {
  @Test(arguments: ["todo", "todo.sh"])
  func forcedMoveBlanksTheSourceLineAndAppends(name: String) throws {
    let list = try CommandFixture(todo: "Call mom\nBuy milk\n")
    try list.write("someday.txt", "Learn go")
    let run = list.run(name, ["-f", "mv", "1", "someday.txt"])
    #expect(run.status == 0)
    #expect(run.stdout == "1 Call mom\nTODO: 1 moved to 2 in SOMEDAY.\n")
    #expect(list.read("todo.txt") == "\nBuy milk\n")
    #expect(list.read("someday.txt") == "Learn go\nCall mom\n")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func fromAnotherFileBackToTodo(name: String) throws {
    let list = try CommandFixture(todo: "Call mom\n")
    try list.write("someday.txt", "Learn go\nLearn rust\n")
    let run = list.run(name, ["-f", "-n", "mv", "1", "todo.txt", "someday.txt"])
    #expect(run.stdout == "1 Learn go\nSOMEDAY: 1 moved to 2 in TODO.\n")
    #expect(list.read("someday.txt") == "Learn rust\n")
    #expect(list.read("todo.txt") == "Call mom\nLearn go\n")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func onlyYesMoves(name: String) throws {
    let list = try CommandFixture(todo: "Call mom\n")
    try list.write("someday.txt", "")
    let no = list.run(name, ["mv", "1", "someday.txt"], input: "n")
    #expect(no.status == 1)
    #expect(no.stderr == "TODO: No tasks moved.\n")
    #expect(list.read("todo.txt") == "Call mom\n")
    #expect(list.read("someday.txt") == "")
    let yes = list.run(name, ["mv", "1", "someday.txt"], input: "y")
    #expect(yes.status == 0)
    #expect(list.read("someday.txt") == "Call mom\n")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func missingFilesAndTasksAreRefused(name: String) throws {
    let list = try CommandFixture(todo: "Call mom\n")
    try list.write("someday.txt", "")
    let destination = list.run(name, ["-f", "mv", "1", "garden.txt"])
    #expect(destination.status == 1)
    #expect(destination.stderr == "TODO: Destination file \(list.path("garden.txt")) does not exist.\n")
    let source = list.run(name, ["-f", "mv", "1", "someday.txt", "garden.txt"])
    #expect(source.stderr == "TODO: Source file \(list.path("garden.txt")) does not exist.\n")
    let task = list.run(name, ["-f", "mv", "4", "someday.txt"])
    #expect(task.status == 1)
    #expect(task.stderr == "TODO: No task 4.\n")
    #expect(list.read("todo.txt") == "Call mom\n")
    #expect(list.read("someday.txt") == "")
  }

  @Test func nativeRefusesAControlCharacterInAFileName() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    list.todo("-f", "mv", "1", "some\u{1B}day.txt").expectOneLineError(containing: "control character U+001B")
    #expect(list.read("todo.txt") == "Call mom\n")
  }
}
