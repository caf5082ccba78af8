import Testing

/// `lsp`: the tasks with a priority, or with the priorities asked for.
@Suite struct ListPriorityCommandTests {
  static let todo = "Call mom\n(B) Buy milk\n(A) Pay rent\n(C) Walk dog\n"

  @Test func todoShListsEveryPrioritizedTask() throws {
    let list = try CommandFixture(todo: ListPriorityCommandTests.todo)
    let run = list.sh("-p", "lsp")
    #expect(run.status == 0)
    #expect(run.stdout == "3 (A) Pay rent\n2 (B) Buy milk\n4 (C) Walk dog\n--\nTODO: 3 of 4 tasks shown\n")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func oneLetterOrARange(name: String) throws {
    let list = try CommandFixture(todo: ListPriorityCommandTests.todo)
    #expect(list.run(name, ["-p", "lsp", "b"]).stdout.hasPrefix("2 (B) Buy milk\n"))
    let range = list.run(name, ["-p", "lsp", "A-B"])
    #expect(range.stdout.hasPrefix("3 (A) Pay rent\n2 (B) Buy milk\n"))
    #expect(range.combined.hasSuffix("TODO: 2 of 4 tasks shown\n"))
  }

  @Test func aPriorityAndATerm() throws {
    let list = try CommandFixture(todo: ListPriorityCommandTests.todo)
    #expect(list.sh("-p", "lsp", "C", "dog").stdout == "4 (C) Walk dog\n--\nTODO: 1 of 4 tasks shown\n")
    #expect(list.sh("-p", "lsp", "A", "dog").stdout == "--\nTODO: 0 of 4 tasks shown\n")
  }

  @Test func nativeTakesPriorityWords() throws {
    let list = try CommandFixture(todo: ListPriorityCommandTests.todo)
    #expect(list.todo("lsp", "high").stdout == "3 (A) Pay rent\n")
    #expect(list.todo("lsp", "high-medium").stdout == "3 (A) Pay rent\n2 (B) Buy milk\n")
  }

  /// The priority test runs with the search terms (no row is made for a task it drops), but
  /// todo.sh's debug line still names it after them, where todo.sh 2.11 puts it.
  @Test func todoShNamesThePriorityFilterAfterTheTerms() throws {
    let list = try CommandFixture(todo: ListPriorityCommandTests.todo)
    #expect(
      list.sh("-p", "-vv", "lsp", "C", "dog").stdout
        == "4 (C) Walk dog\nTODO DEBUG: Filter Command was: grep -i dog | grep '^ *[0-9]\\+ ([C]) '\n--\nTODO: 1 of 4 tasks shown\n")
  }

  /// Only `(X) ` with a letter asked for starts a prioritized task: a parenthesis before other
  /// text, a lower-case letter, two letters or no blank after it do not.
  @Test(arguments: ["todo", "todo.sh"])
  func onlyAPriorityAtTheStartCounts(name: String) throws {
    let list = try CommandFixture(
      todo: "(b) lower\n(AB) two letters\n(A)no blank\nsee (A) inside\n( A) spaced\n(A) real one\n(Z) last\n")
    let tasks = { (words: [String]) in list.run(name, words).stdout.split(separator: "\n").filter { $0.first?.isNumber == true } }
    #expect(tasks(["-p", "lsp"]) == ["6 (A) real one", "7 (Z) last"])
    #expect(tasks(["-p", "lsp", "B-Y"]) == [])
  }

  /// The test of the text sits beside every order of the native listing: `--sort`, the
  /// listing's own, and the query's path (`-q`).
  @Test func nativeOrdersAndQueriesKeepThePriorityTest() throws {
    let list = try CommandFixture(
      todo: "(B) b task due:2026-01-05\nplain due:2026-01-01\n(A) a task due:2026-01-09\n(C) c task\n")
    #expect(list.todo("lsp", "--sort", "due").stdout == "1 (B) b task due:2026-01-05\n3 (A) a task due:2026-01-09\n4 (C) c task\n")
    #expect(list.todo("lsp", "A-B").stdout == "3 (A) a task due:2026-01-09\n1 (B) b task due:2026-01-05\n")
    #expect(list.todo("lsp", "-q", "has:due").stdout == "3 (A) a task due:2026-01-09\n1 (B) b task due:2026-01-05\n")
    #expect(list.todo("lsp", "C", "--format", "{n}").stdout == "4\n")
  }

  @Test func nativeRefusesAControlCharacter() throws {
    let list = try CommandFixture(todo: ListPriorityCommandTests.todo)
    list.todo("lsp", "A", "\u{07}").expectOneLineError(containing: "control character U+0007")
  }
}
