import Testing

/// `dep`: tasks waiting for other tasks, with topydo's `id:`/`p:` tags.
@Suite struct DependencyTests {
  @Test func waitingTasksAreHiddenUntilTheyAreFree() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "ship release\nwrite notes\nrun tests\nunrelated\n")
    var run = try box.todo("dep", "add", "1", "2", "3")
    #expect(run.stdout == "TODO: 1 waits for 2.\nTODO: 1 waits for 3.\n")
    #expect(box.read("todo.txt") == "ship release id:1\nwrite notes p:1\nrun tests p:1\nunrelated\n")
    run = try box.todo("ls", merged: true)
    #expect(run.stdout == "3 run tests p:1\n4 unrelated\n2 write notes p:1\n--\nTODO: 3 of 4 tasks shown\n")
    #expect(try box.todo("ls", "--all").stdout.hasPrefix("3 run tests p:1\n1 ship release id:1\n"))
    #expect(try box.todo("dep", "ls", "2").stdout == "2 write notes p:1\n  needed by 1 ship release id:1\n")
    #expect(try box.todo("do", "2").stdout == "2 x 2009-02-13 write notes p:1\nTODO: 2 marked as done.\n")
    run = try box.todo("do", "3")
    #expect(
      run.stdout
        == "3 x 2009-02-13 run tests p:1\nTODO: 3 marked as done.\nTODO: 1 no longer waits for anything:\n1 ship release id:1\n")
    #expect(try box.todo("ls", "ship", merged: true).stdout == "1 ship release id:1\n--\nTODO: 1 of 4 tasks shown\n")
  }

  @Test func secondIdAndRemoval() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "a id:1\nb p:1\nc\nd\n")
    try box.todo("dep", "add", "3", "4")
    #expect(box.read("todo.txt") == "a id:1\nb p:1\nc id:2\nd p:2\n")
    #expect(try box.todo("dep", "rm", "3", "4").stdout == "TODO: 3 no longer waits for 4.\n")
    // The id nothing refers to any more goes too.
    #expect(box.read("todo.txt") == "a id:1\nb p:1\nc\nd\n")
  }

  @Test func refusals() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "a id:1\nb p:1\nc\n")
    let before = box.read("todo.txt")
    var run = try box.todo("dep", "add", "2", "1")
    #expect(run.stderr == "TODO: 1 already waits for 2; 2 cannot wait for 1 too.\n")
    #expect(run.status == 1)
    run = try box.todo("dep", "add", "3", "3")
    #expect(run.stderr == "TODO: 3 cannot wait for itself.\n")
    run = try box.todo("dep", "rm", "3", "1")
    #expect(run.stderr == "TODO: 3 does not wait for any task.\n")
    run = try box.todo("dep", "rm", "1", "3")
    #expect(run.stderr == "TODO: 1 does not wait for 3.\n")
    run = try box.todo("dep", "frob")
    #expect(run.status == 1)
    #expect(run.stderr == "todo: 'dep' has no subcommand 'frob'; it has add, rm, ls\n")
    run = try box.todo("dep")
    #expect(run.stderr.hasPrefix("usage: todo dep "))
    #expect(box.read("todo.txt") == before)
  }
}
