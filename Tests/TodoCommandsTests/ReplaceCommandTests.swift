import Testing

/// `replace`: the text of a task replaced, its priority and creation date kept.
@Suite struct ReplaceCommandTests {
  @Test(arguments: ["todo", "todo.sh"])
  func keepsPriorityAndDateAndShowsBothVersions(name: String) throws {
    let list = try CommandFixture(todo: "(A) 2009-02-01 Call mom\nBuy milk\n")
    let run = list.run(name, ["replace", "1", "Call", "dad"])
    #expect(run.status == 0)
    #expect(run.stdout == "1 (A) 2009-02-01 Call mom\nTODO: Replaced task with:\n1 (A) 2009-02-01 Call dad\n")
    #expect(list.read("todo.txt") == "(A) 2009-02-01 Call dad\nBuy milk\n")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func aNewPriorityOrDateReplacesTheOld(name: String) throws {
    let list = try CommandFixture(todo: "(A) 2009-02-01 Call mom\n(C) 2009-01-01 Buy milk\n")
    #expect(list.run(name, ["replace", "1", "(B) Call dad"]).status == 0)
    #expect(list.run(name, ["replace", "2", "2009-02-10 Buy bread"]).status == 0)
    #expect(list.read("todo.txt") == "(B) 2009-02-01 Call dad\n(C) 2009-02-10 Buy bread\n")
  }

  @Test func nativeKeepsTagsWithMeaningUnlessAll() throws {
    let list = try CommandFixture(todo: "Pay rent due:2009-03-01\nPay tax due:2009-04-15\n")
    let run = list.todo("replace", "1", "Pay the rent")
    #expect(run.status == 0)
    #expect(run.stdout.hasSuffix("TODO: Kept due:2009-03-01 ('replace --all' replaces them too).\n"))
    #expect(list.todo("replace", "--all", "2", "Pay the tax").status == 0)
    #expect(list.read("todo.txt") == "Pay the rent due:2009-03-01\nPay the tax\n")
  }

  @Test func todoShReplacesTheTagsToo() throws {
    let list = try CommandFixture(todo: "Pay rent due:2009-03-01\n")
    #expect(list.sh("replace", "1", "Pay the rent").status == 0)
    #expect(list.read("todo.txt") == "Pay the rent\n")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func aMissingTaskIsRefused(name: String) throws {
    let list = try CommandFixture(todo: "Call mom\n")
    let run = list.run(name, ["replace", "2", "x"])
    #expect(run.status == 1)
    #expect(run.combined == "TODO: No task 2.\n")
    #expect(list.read("todo.txt") == "Call mom\n")
  }

  @Test func nativeRefusesBadText() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    list.todo("replace", "1", "a\u{0}b").expectOneLineError(containing: "control character U+0000")
    list.todo("replace", "1", "a\rb").expectOneLineError(containing: "line break")
    list.todo("replace", "1", " ").expectOneLineError(containing: "empty")
    #expect(list.todo("replace", "x1", "new").status == 1)
    #expect(list.read("todo.txt") == "Call mom\n")
  }
}
