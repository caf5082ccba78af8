import Testing

/// `caldav setup|sync`: the words checked here, before the helper `todo-caldav` is run (the
/// helper and its servers are tested with it).
@Suite struct CalDAVCommandTests {
  @Test func aSubcommandIsNeededAndMustBeOne() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    #expect(list.todo("caldav").status == 1)
    list.todo("caldav", "frob").expectOneLineError(containing: "'caldav' has no subcommand 'frob'; it has setup, sync")
    list.todo("caldav", "sycn").expectOneLineError(containing: "did you mean 'sync'?")
    #expect(list.read("todo.txt") == "Call mom\n")
  }

  @Test func setupTakesOneUrlAndSyncNone() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    let noURL = list.todo("caldav", "setup")
    #expect(noURL.status == 1)
    #expect(noURL.stderr.contains("caldav setup URL"))
    #expect(list.todo("caldav", "setup", "https://a.example", "https://b.example").status == 1)
    #expect(list.todo("caldav", "sync", "now").status == 1)
    list.todo("caldav", "sync", "--dryrun").expectOneLineError(containing: "did you mean '--dry-run'?")
    list.todo("caldav", "setup", "--user").expectOneLineError(containing: "option '--user' needs a value")
    #expect(list.read("todo.txt") == "Call mom\n")
    #expect(list.read("todo.cfg") == "export TODO_DIR=\"\(list.directory.path)\"\n")
  }

  @Test func controlCharactersInTheUrlOrUserAreRefused() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    list.todo("caldav", "setup", "https://a.example/\u{1B}[2J").expectOneLineError(containing: "control character U+001B")
    list.todo("caldav", "setup", "https://a.example", "--user", "a\u{0}b").expectOneLineError(
      containing: "control character U+0000")
    #expect(list.read("todo.cfg") == "export TODO_DIR=\"\(list.directory.path)\"\n")
  }

  @Test func todoShHasNoCaldav() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    let run = list.sh("caldav", "sync")
    #expect(run.status == 1)
    #expect(run.stdout.hasPrefix("Usage: todo.sh "))
  }
}
