import Testing

/// `find QUERY`: the tasks a query selects, listed as `ls` lists them.
@Suite struct FindCommandTests {
  static let todo =
    "Call mom +family\n(A) Pay rent +home due:2009-02-10\n(B) Buy milk +home @store\nx 2009-02-12 Old +home\n"

  @Test func aProjectSelectsItsOpenTasks() throws {
    let list = try CommandFixture(todo: FindCommandTests.todo)
    let run = list.todo("find", "+home")
    #expect(run.status == 0)
    #expect(run.stdout == "2 (A) Pay rent +home due:2009-02-10\n3 (B) Buy milk +home @store\n")
    #expect(run.stderr == "--\nTODO: 2 of 4 tasks shown\n")
  }

  @Test func datesPrioritiesAndOr() throws {
    let list = try CommandFixture(todo: FindCommandTests.todo)
    #expect(list.todo("find", "due:<today").stdout == "2 (A) Pay rent +home due:2009-02-10\n")
    #expect(list.todo("find", "pri:A or +family").stdout == "2 (A) Pay rent +home due:2009-02-10\n1 Call mom +family\n")
    #expect(list.todo("find", "+home", "not", "@store").stdout == "2 (A) Pay rent +home due:2009-02-10\n")
    #expect(list.todo("find", "-a", "done").stdout == "4 x 2009-02-12 Old +home\n")
  }

  @Test func aMalformedQueryIsRefusedWithAPointer() throws {
    let list = try CommandFixture(todo: FindCommandTests.todo)
    let run = list.todo("find", "(")
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr.hasPrefix("todo: query error"))
    #expect(list.read("todo.txt") == FindCommandTests.todo)
  }

  @Test func controlCharactersAreRefused() throws {
    let list = try CommandFixture(todo: FindCommandTests.todo)
    list.todo("find", "+home\u{1B}[2J").expectOneLineError(containing: "control character U+001B")
  }

  @Test func todoShHasNoFind() throws {
    let list = try CommandFixture(todo: FindCommandTests.todo)
    let run = list.sh("find", "+home")
    #expect(run.status == 1)
    #expect(run.stdout.hasPrefix("Usage: todo.sh "))
  }
}
