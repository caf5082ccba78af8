import Testing

/// `resolve`: the merge conflicts left in todo.txt listed, or settled by keeping a side.
@Suite struct ResolveCommandTests {
  static let conflicted = "Call mom\n<<<<<<< ours\n(A) Buy milk\n=======\n(C) Buy milk\n>>>>>>> theirs\nPay rent\n"

  @Test func listsEachConflictWithBothSides() throws {
    let list = try CommandFixture(todo: ResolveCommandTests.conflicted)
    let run = list.todo("resolve")
    #expect(run.status == 0)
    #expect(run.stdout.hasPrefix("1: todo.txt line 2\n  ours:    (A) Buy milk\n  theirs:  (C) Buy milk\n"))
    #expect(list.read("todo.txt") == ResolveCommandTests.conflicted)
  }

  @Test func otherCommandsRefuseTheMarkedList() throws {
    let list = try CommandFixture(todo: ResolveCommandTests.conflicted)
    list.todo("ls").expectOneLineError(containing: "holds both sides of a merge conflict")
    list.todo("add", "x").expectOneLineError(containing: "holds both sides of a merge conflict")
    #expect(list.read("todo.txt") == ResolveCommandTests.conflicted)
  }

  @Test(arguments: [
    ("ours", "Call mom\n(A) Buy milk\nPay rent\n"), ("theirs", "Call mom\n(C) Buy milk\nPay rent\n"),
    ("both", "Call mom\n(A) Buy milk\n(C) Buy milk\nPay rent\n"),
  ])
  func keepingASide(side: String, result: String) throws {
    let list = try CommandFixture(todo: ResolveCommandTests.conflicted)
    let run = list.todo("resolve", side)
    #expect(run.status == 0)
    #expect(run.stdout.hasPrefix("Settled 1 conflict, keeping "))
    #expect(list.read("todo.txt") == result)
    #expect(list.todo("resolve").stdout == "No merge conflicts in todo.txt or done.txt.\n")
  }

  @Test func refusesBadNumbersAndSides() throws {
    let list = try CommandFixture(todo: ResolveCommandTests.conflicted)
    list.todo("resolve", "ours", "x").expectOneLineError(containing: "todo: resolve: 'x' is not a conflict number")
    list.todo("resolve", "ours", "2").expectOneLineError(containing: "todo: resolve: no conflict 2 (there is 1)")
    list.todo("resolve", "mine").expectOneLineError(containing: "'resolve' has no subcommand 'mine'")
    #expect(list.read("todo.txt") == ResolveCommandTests.conflicted)
    let clean = try CommandFixture(todo: "Call mom\n")
    clean.todo("resolve", "ours").expectOneLineError(containing: "no merge conflicts")
  }
}
