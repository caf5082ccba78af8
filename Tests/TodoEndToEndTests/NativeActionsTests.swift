import Testing

/// Every todo.sh action under the name `todo`: the same output formats, with the native
/// defaults (creation dates on add, done tasks stay until `archive`, no colour in a pipe).
@Suite struct NativeActionsTests {
  @Test func editingActions() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "(A) 2009-02-01 call mom\nbuy milk\n")
    #expect(try box.todo("addm", "first\nsecond").stdout
      == "3 2009-02-13 first\nTODO: 3 added.\n4 2009-02-13 second\nTODO: 4 added.\n")
    try box.write("garden.txt", "")
    #expect(try box.todo("addto", "garden.txt", "plant").stdout == "1 2009-02-13 plant\nGARDEN: 1 added.\n")
    #expect(try box.todo("append", "2", "and bread").stdout == "2 buy milk and bread\n")
    #expect(try box.todo("prepend", "1", "please").stdout == "1 (A) 2009-02-01 please call mom\n")
    #expect(
      try box.todo("replace", "2", "buy cheese").stdout
        == "2 buy milk and bread\nTODO: Replaced task with:\n2 buy cheese\n")
    #expect(try box.todo("pri", "2", "c").stdout == "2 (C) buy cheese\nTODO: 2 prioritized (C).\n")
    #expect(try box.todo("depri", "2").stdout == "2 buy cheese\nTODO: 2 deprioritized.\n")
    #expect(try box.todo("del", "2", "--words", "cheese").stdout == "2 buy cheese\nTODO: Removed 'cheese' from task.\n2 buy\n")
    #expect(box.read("todo.txt") == "(A) 2009-02-01 please call mom\nbuy\n2009-02-13 first\n2009-02-13 second\n")
  }

  @Test func doneTasksStayUntilArchive() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "one\ntwo\nthree\n")
    #expect(try box.todo("do", "2").stdout == "2 x 2009-02-13 two\nTODO: 2 marked as done.\n")
    #expect(box.read("todo.txt") == "one\nx 2009-02-13 two\nthree\n")
    #expect(try box.todo("archive").stdout == "x 2009-02-13 two\nTODO: \(box.path("todo.txt")) archived.\n")
    #expect(box.read("todo.txt") == "one\nthree\n")
    #expect(box.read("done.txt") == "x 2009-02-13 two\n")
    // report archives first, and says so.
    #expect(
      try box.todo("report").stdout
        == "TODO: \(box.path("todo.txt")) does not contain any done tasks.\n2009-02-13T04:40:00 2 1\nTODO: Report file updated.\n")
    // Quiet report still succeeds under the name todo (todo.sh exits 1 there).
    #expect(try box.todo("report", environment: ["TODOTXT_VERBOSE": "0"]).status == 0)
  }

  @Test func moveAndDeduplicate() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "same\nother\nsame\n")
    try box.write("someday.txt", "")
    #expect(try box.todo("-f", "mv", "2", "someday.txt").stdout == "2 other\nTODO: 2 moved to 1 in SOMEDAY.\n")
    #expect(try box.todo("deduplicate").stdout == "TODO: 1 duplicate task(s) removed\n")
    #expect(box.read("todo.txt") == "same\n\n\n")
  }

  @Test func listingActions() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "(B) bravo +proj @home\nalpha +other\n")
    try box.write("done.txt", "x 2009-02-01 done thing +proj\n")
    #expect(try box.todo("lsa", merged: true).stdout == """
      1 (B) bravo +proj @home
      2 alpha +other
      0 x 2009-02-01 done thing +proj
      --
      TODO: 2 of 2 tasks shown
      DONE: 1 of 1 tasks shown
      total 3 of 3 tasks shown

      """)
    #expect(try box.todo("lsp", merged: true).stdout == "1 (B) bravo +proj @home\n--\nTODO: 1 of 2 tasks shown\n")
    #expect(try box.todo("lf", "done", merged: true).stdout == "1 x 2009-02-01 done thing +proj\n--\nDONE: 1 of 1 tasks shown\n")
    #expect(try box.todo("lsprj").stdout == "+other\n+proj\n")
    #expect(try box.todo("lsc").stdout == "@home\n")
    #expect(try box.todo("command", "ls", "alpha", merged: true).stdout == "2 alpha +other\n--\nTODO: 1 of 2 tasks shown\n")
  }

  @Test func helpAndAddons() throws {
    let box = try Sandbox()
    let short = try box.todo("shorthelp").stdout
    #expect(short.hasPrefix("  Usage: todo [-fhpantvV]"))
    // Under the name todo the actions stand under headings, each with what it does.
    #expect(short.contains("\n  Keep the files:\n"))
    #expect(short.contains("\n    undo  "))
    #expect(short.contains("Undo the last change"))
    #expect(try box.todo("-h").stdout == short)
    // todo.sh's name keeps its flat list of usage lines.
    let flat = try box.sh("shorthelp").stdout
    #expect(flat.contains("\n  Actions:\n    add|a \"TODO ITEM\"\n"))
    #expect(!flat.contains("Keep the files"))
    #expect(try box.todo("listaddons").stderr.hasSuffix("does not exist.\n"))
    try box.write(".todo.actions.d/hello", "#!/bin/sh\necho \"hello from $TODO_SH with $#\"\n")
    _ = try Sandbox.makeExecutable(box.path(".todo.actions.d/hello"))
    #expect(try box.todo("hello", "a", "b").stdout == "hello from todo with 3\n")
    #expect(try box.todo("listaddons", merged: true).stdout == "hello\n--\nTODO: 1 valid addon actions found.\n")
  }
}
