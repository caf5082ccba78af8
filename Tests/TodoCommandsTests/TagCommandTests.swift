import Testing

/// `tag`: a key:value tag set, replaced or removed (under the name `todo` only).
@Suite struct TagCommandTests {
  @Test func setsADateTagFromWordsAndEchoes() throws {
    let list = try CommandFixture(todo: "Pay rent\n")
    let run = list.todo("tag", "1", "due", "in", "3", "days")
    #expect(run.status == 0)
    #expect(run.stdout == "1 Pay rent due:2009-02-16\n")
    #expect(list.read("todo.txt") == "Pay rent due:2009-02-16\n")
  }

  @Test func replacesTheFirstTagOnlyAndTagsSeveralTasks() throws {
    let list = try CommandFixture(todo: "Pay rent area:work x area:old\nCall mom\n")
    let run = list.todo("tag", "1", "2", "area", "home")
    #expect(run.stdout == "1 Pay rent area:home x area:old\n2 Call mom area:home\n")
    #expect(list.read("todo.txt") == "Pay rent area:home x area:old\nCall mom area:home\n")
  }

  @Test func withoutAValueEveryTagOfTheKeyGoes() throws {
    let list = try CommandFixture(todo: "Pay rent area:work x area:old\n")
    #expect(list.todo("tag", "1", "area").status == 0)
    #expect(list.read("todo.txt") == "Pay rent x\n")
    list.todo("tag", "1", "area").expectOneLineError(containing: "TODO: 1 has no area: tag.")
  }

  @Test func refusesBadKeysValuesAndTasks() throws {
    let list = try CommandFixture(todo: "Pay rent\n")
    list.todo("tag", "1", "a:b", "x").expectOneLineError(containing: "'a:b' cannot be a tag key")
    list.todo("tag", "1", "+proj", "x").expectOneLineError(containing: "cannot be a tag key")
    list.todo("tag", "1", "area", "a:b").expectOneLineError(containing: "cannot be a tag value")
    list.todo("tag", "1", "due", "someday-never").expectOneLineError(containing: "is not a date")
    list.todo("tag", "4", "area", "home").expectOneLineError(containing: "TODO: No task 4.")
    list.todo("tag", "1", "area", "ho\u{1B}me").expectOneLineError(containing: "control character U+001B")
    #expect(list.todo("tag", "1").status == 1)
    #expect(list.read("todo.txt") == "Pay rent\n")
  }

  @Test func todoShHasNoTagAction() throws {
    let list = try CommandFixture(todo: "Pay rent\n")
    let run = list.sh("tag", "1", "area", "home")
    #expect(run.status == 1)
    #expect(run.stdout.hasPrefix("Usage: todo.sh "))
    #expect(list.read("todo.txt") == "Pay rent\n")
  }
}
