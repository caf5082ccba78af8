import Testing

/// `conflicts`: the conflicted copies a sync service left beside todo.txt merged into it.
@Suite struct ConflictsCommandTests {
  @Test func mergesACopyAndPutsItAway() throws {
    let list = try CommandFixture(todo: "Call mom\nBuy milk\n")
    try list.write("todo (conflicted copy 2026-03-01).txt", "Call mom\nBuy milk\nPay rent\n")
    let run = list.todo("conflicts")
    #expect(run.status == 0)
    #expect(
      run.stdout
        == "Merged 'todo (conflicted copy 2026-03-01).txt' into todo.txt; the copy is now .todo-conflicts/todo (conflicted copy 2026-03-01).txt.\n")
    #expect(list.read("todo.txt") == "Call mom\nBuy milk\nPay rent\n")
    #expect(!list.exists("todo (conflicted copy 2026-03-01).txt"))
    #expect(list.read(".todo-conflicts/todo (conflicted copy 2026-03-01).txt") == "Call mom\nBuy milk\nPay rent\n")
  }

  @Test func aSyncthingCopyOfDoneTxtToo() throws {
    let list = try CommandFixture(todo: "Call mom\n", done: "x 2009-02-01 a\n")
    try list.write("done.sync-conflict-20260301-101500-ABCDEFG.txt", "x 2009-02-01 a\nx 2009-02-02 b\n")
    #expect(list.todo("conflicts").status == 0)
    #expect(list.files == ["Call mom\n", "x 2009-02-01 a\nx 2009-02-02 b\n"])
  }

  @Test func noCopiesIsSaid() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    let run = list.todo("conflicts")
    #expect(run.status == 0)
    #expect(run.stdout == "TODO: No conflicted copies found.\n")
    #expect(list.read("todo.txt") == "Call mom\n")
  }

  @Test func takesNoArgumentsAndTodoShHasNone() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    try list.write("todo (conflicted copy 2026-03-01).txt", "Pay rent\n")
    #expect(list.todo("conflicts", "now").status == 1)
    #expect(list.sh("conflicts").status == 1)
    #expect(list.read("todo.txt") == "Call mom\n")
    #expect(list.exists("todo (conflicted copy 2026-03-01).txt"))
  }
}
