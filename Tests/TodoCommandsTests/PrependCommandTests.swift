import Testing

/// `prepend`: text put at the start of a task, after its priority and creation date.
@Suite struct PrependCommandTests {
  @Test(arguments: ["todo", "todo.sh"])
  func keepsThePriorityAndDateInFront(name: String) throws {
    let list = try CommandFixture(todo: "(A) 2009-02-01 Call mom\n")
    let run = list.run(name, ["prepend", "1", "Urgent:"])
    #expect(run.status == 0)
    #expect(run.stdout == "1 (A) 2009-02-01 Urgent: Call mom\n")
    #expect(list.read("todo.txt") == "(A) 2009-02-01 Urgent: Call mom\n")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func aPlainTaskGetsTheTextFirst(name: String) throws {
    let list = try CommandFixture(todo: "Buy milk\nCall mom\n")
    #expect(list.run(name, ["prep", "2", "Really"]).status == 0)
    #expect(list.read("todo.txt") == "Buy milk\nReally Call mom\n")
  }

  @Test func nativeResolvesDateWords() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    #expect(list.todo("prepend", "1", "t:tomorrow").status == 0)
    #expect(list.read("todo.txt") == "t:2009-02-14 Call mom\n")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func aMissingTaskIsRefused(name: String) throws {
    let list = try CommandFixture(todo: "Call mom\n")
    let run = list.run(name, ["prepend", "3", "x"])
    #expect(run.status == 1)
    #expect(run.combined == "TODO: No task 3.\n")
    #expect(list.read("todo.txt") == "Call mom\n")
  }

  @Test func nativeRefusesControlCharacters() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    list.todo("prepend", "1", "\u{1B}[31mred").expectOneLineError(containing: "control character U+001B")
    #expect(list.read("todo.txt") == "Call mom\n")
  }
}
