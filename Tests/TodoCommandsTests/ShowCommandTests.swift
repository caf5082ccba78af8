import Testing

/// `show NR`: one task with everything it holds, a line each.
@Suite struct ShowCommandTests {
  @Test func namesTheDatesNamesAndTags() throws {
    let list = try CommandFixture(todo: "(A) 2009-02-01 Call mom +family @phone due:2009-02-14 ref:77\n")
    let run = list.todo("show", "1")
    #expect(run.status == 0)
    #expect(
      run.stdout == """
        1 (A) 2009-02-01 Call mom +family @phone due:2009-02-14 ref:77
          title:    Call mom ref:77
          priority: A (high)
          created:  2009-02-01 (12d ago)
          due:      2009-02-14 (tomorrow)
          projects: +family
          contexts: @phone
          tags:     ref:77

        """)
  }

  /// `dep add 1 2` gives task 1 `id:` and task 2 `p:`: task 1 waits for task 2 (todo(1),
  /// `dep ls`, and `ls`, which hides task 1 while task 2 is open).
  @Test func dependenciesReadAsDepSaysThem() throws {
    let list = try CommandFixture(todo: "Ship release\nFix bug\n")
    #expect(list.todo("dep", "add", "1", "2").status == 0)
    #expect(list.todo("dep", "ls", "1").stdout == "1 Ship release id:1\n  waits for 2 Fix bug p:1\n")
    #expect(list.todo("show", "1").stdout == "1 Ship release id:1\n  title:     Ship release\n  waits for: 2\n")
    #expect(list.todo("show", "2").stdout == "2 Fix bug p:1\n  title:         Fix bug\n  waited for by: 1\n")
  }

  @Test func aDoneTaskAndItsRule() throws {
    let list = try CommandFixture(todo: "x 2009-02-12 Water plants rec:1w h:1\n")
    let run = list.todo("show", "1")
    #expect(run.stdout.contains("  done:    2009-02-12 (yesterday)\n"))
    #expect(run.stdout.contains("  repeats: 1w\n"))
    #expect(run.stdout.contains("  hidden:  yes (h:1)\n"))
  }

  @Test func refusesMissingAndMalformedNumbers() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    list.todo("show", "9").expectOneLineError(containing: "TODO: No task 9.")
    #expect(list.todo("show").status == 1)
    #expect(list.todo("show", "1", "2").status == 1)
    #expect(list.todo("show", "x").status == 1)
    #expect(list.sh("show", "1").status == 1)
  }

  @Test func controlCharactersOfTheTaskAreShownNotSent() throws {
    let list = try CommandFixture(todo: "Call\u{1B}[2J mom ref:a\u{07}b\n")
    let run = list.run("todo", ["show", "1"], terminal: true)
    #expect(run.status == 0)
    #expect(!run.stdout.contains("\u{1B}[2J"))
    #expect(!run.stdout.contains("\u{07}"))
  }
}
