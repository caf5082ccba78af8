import Testing

/// `addto`: a new task at the end of another file of the todo directory.
@Suite struct AddToCommandTests {
  @Test func todoShAddsAsAddDoesWithTheFilesPrefix() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    try list.write("garden.txt", "Plant tulips")
    let run = list.sh("addto", "garden.txt", "(a) Water", "roses")
    #expect(run.status == 0)
    #expect(run.stdout == "2 (A) Water roses\nGARDEN: 2 added.\n")
    #expect(list.read("garden.txt") == "Plant tulips\n(A) Water roses\n")
    #expect(list.read("todo.txt") == "Call mom\n")
  }

  @Test func nativeDatesTheTask() throws {
    let list = try CommandFixture(todo: "")
    try list.write("garden.txt", "")
    #expect(list.todo("addto", "garden.txt", "Water", "roses", "due:tomorrow").stdout == "1 2009-02-13 Water roses due:2009-02-14\nGARDEN: 1 added.\n")
    #expect(list.read("garden.txt") == "2009-02-13 Water roses due:2009-02-14\n")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func aMissingDestinationIsRefused(name: String) throws {
    let list = try CommandFixture(todo: "Call mom\n")
    let run = list.run(name, ["addto", "garden.txt", "Water roses"])
    #expect(run.status == 1)
    #expect(run.stderr == "TODO: Destination file \(list.path("garden.txt")) does not exist.\n")
    #expect(!list.exists("garden.txt"))
  }

  @Test(arguments: ["todo", "todo.sh"])
  func withoutTextItIsAUsageError(name: String) throws {
    let list = try CommandFixture(todo: "Call mom\n")
    try list.write("garden.txt", "")
    let run = list.run(name, ["addto", "garden.txt"])
    #expect(run.status == 1)
    #expect(run.stderr.contains("addto DEST \"TODO ITEM\""))
    #expect(list.read("garden.txt") == "")
  }

  @Test func nativeRefusesControlsAndLineBreaks() throws {
    let list = try CommandFixture(todo: "")
    try list.write("garden.txt", "")
    list.todo("addto", "garden.txt", "a\u{1B}[8mb").expectOneLineError(containing: "control character U+001B")
    list.todo("addto", "garden.txt", "a\nb").expectOneLineError(containing: "line break")
    #expect(list.read("garden.txt") == "")
  }
}
