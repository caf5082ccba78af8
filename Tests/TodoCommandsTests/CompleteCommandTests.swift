import Testing

/// `__complete WORDS`: what the shell completion scripts ask for, through the command line.
@Suite struct CompleteCommandTests {
  static let todo = "Call mom +family @phone\nx 2009-02-12 Done\nBuy milk +shop\n"

  @Test func actionsByPrefixWithTheirAbstract() throws {
    let list = try CommandFixture(todo: CompleteCommandTests.todo)
    let run = list.todo("__complete", "ad")
    #expect(run.status == 0)
    #expect(
      run.stdout
        == "add\tAdd a task at the end of todo.txt.\naddm\tAdd several tasks at once, one per line of the text.\n"
        + "addto\tAdd a task to another file in the todo directory.\n")
  }

  @Test func taskNumbersByWhatTheActionTakes() throws {
    let list = try CommandFixture(todo: CompleteCommandTests.todo)
    #expect(list.todo("__complete", "do", "").stdout == "1\tCall mom +family @phone\n3\tBuy milk +shop\n")
    // todo.sh's completion offers every task.
    #expect(
      list.sh("__complete", "do", "").stdout == "1\tCall mom +family @phone\n2\tx 2009-02-12 Done\n3\tBuy milk +shop\n")
  }

  @Test func projectsContextsAndOptions() throws {
    let list = try CommandFixture(todo: CompleteCommandTests.todo)
    #expect(list.todo("__complete", "ls", "+").stdout == "+family\n+shop\n")
    #expect(list.todo("__complete", "ls", "@").stdout == "@phone\n")
    #expect(list.todo("__complete", "ls", "--so").stdout.hasPrefix("--sort\t"))
  }

  @Test func completingCreatesNoFiles() throws {
    let list = try CommandFixture(todo: nil)
    #expect(list.sh("__complete", "ls", "").status == 0)
    #expect(!list.exists("todo.txt") && !list.exists("done.txt") && !list.exists("report.txt"))
  }

  @Test func hostileTaskTextIsOfferedAsOneLine() throws {
    let list = try CommandFixture(todo: "Call\u{1B}]52;c;AAAA\u{07} mom\n")
    let run = list.todo("__complete", "do", "")
    #expect(run.status == 0)
    #expect(run.stdout.split(separator: "\n").count == 1)
  }
}
