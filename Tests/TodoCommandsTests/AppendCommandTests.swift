import Testing

/// `append`: text added at the end of one task.
@Suite struct AppendCommandTests {
  @Test(arguments: ["todo", "todo.sh"])
  func appendsWithASpaceAndEchoesTheTask(name: String) throws {
    let list = try CommandFixture(todo: "2009-02-01 Call mom\nBuy milk\n")
    let run = list.run(name, ["append", "1", "about", "the", "party"])
    #expect(run.status == 0)
    #expect(run.stdout == "1 2009-02-01 Call mom about the party\n")
    #expect(list.read("todo.txt") == "2009-02-01 Call mom about the party\nBuy milk\n")
  }

  @Test(arguments: [",", ".", ":", ";"])
  func aSentenceDelimiterJoinsWithoutASpace(delimiter: String) throws {
    let list = try CommandFixture(todo: "Buy milk\n")
    #expect(list.sh("app", "1", "\(delimiter) skimmed").status == 0)
    #expect(list.read("todo.txt") == "Buy milk\(delimiter) skimmed\n")
  }

  @Test func nativeSetsATagWithMeaningInPlaceAndNamesTheOldValue() throws {
    let list = try CommandFixture(todo: "Pay rent due:2009-02-20 +home\n")
    let run = list.todo("append", "1", "due:2009-03-01")
    #expect(run.status == 0)
    #expect(run.stdout == "TODO: due:2009-03-01 replaces due:2009-02-20.\n1 Pay rent due:2009-03-01 +home\n")
    #expect(list.read("todo.txt") == "Pay rent due:2009-03-01 +home\n")
  }

  @Test func todoShAppendsARepeatedTagAsTyped() throws {
    let list = try CommandFixture(todo: "Pay rent due:2009-02-20\n")
    #expect(list.sh("append", "1", "due:2009-03-01").status == 0)
    #expect(list.read("todo.txt") == "Pay rent due:2009-02-20 due:2009-03-01\n")
  }

  @Test func nativeResolvesADateWord() throws {
    let list = try CommandFixture(todo: "Pay rent\n")
    #expect(list.todo("append", "1", "t:tomorrow").status == 0)
    #expect(list.read("todo.txt") == "Pay rent t:2009-02-14\n")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func aMissingTaskIsRefused(name: String) throws {
    let list = try CommandFixture(todo: "Buy milk\n")
    let run = list.run(name, ["append", "7", "x"])
    #expect(run.status == 1)
    #expect(run.combined == "TODO: No task 7.\n")
    #expect(list.read("todo.txt") == "Buy milk\n")
  }

  @Test func nativeRefusesAMalformedNumberAndControls() throws {
    let list = try CommandFixture(todo: "Buy milk\n")
    #expect(list.todo("append", "one", "x").status == 1)
    list.todo("append", "1", "x\u{1B}]52;c;AAAA\u{07}").expectOneLineError(
      containing: "argument 2 holds the control character U+001B")
    list.todo("append", "1", "two\nlines").expectOneLineError(containing: "line break")
    #expect(list.todo("append", "1").status == 1)
    #expect(list.read("todo.txt") == "Buy milk\n")
  }
}
