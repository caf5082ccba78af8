import Testing

/// Date and priority words as todo(1)'s DATE WORDS section says them, typed to `tag`,
/// `add --due` and into a `due:` tag, on Friday 2009-02-13.
@Suite struct TypedInputTests {
  @Test(arguments: [
    ("today", "2009-02-13"), ("tomorrow", "2009-02-14"), ("yesterday", "2009-02-12"), ("tom", "2009-02-14"),
    ("fri", "2009-02-20"), ("next fri", "2009-02-20"), ("this fri", "2009-02-13"), ("mon", "2009-02-16"),
    ("3d", "2009-02-16"), ("+2w", "2009-02-27"), ("-1m", "2009-01-13"), ("1y", "2010-02-13"), ("5b", "2009-02-20"),
    ("in 3 days", "2009-02-16"), ("in a month", "2009-03-13"), ("dec 10", "2009-12-10"), ("10 dec", "2009-12-10"),
    ("dec 10 2026", "2026-12-10"), ("feb 13", "2009-02-13"), ("feb 12", "2010-02-12"), ("next week", "2009-02-16"),
    ("next month", "2009-03-01"), ("next year", "2010-01-01"), ("weekend", "2009-02-14"),
    ("next weekend", "2009-02-21"), ("eow", "2009-02-15"), ("eom", "2009-02-28"), ("eoy", "2009-12-31"),
  ])
  func aDateWordBecomesItsDate(words: String, date: String) throws {
    let list = try CommandFixture(todo: "Pay rent\n")
    let run = list.todo(["tag", "1", "due"] + words.split(separator: " ").map(String.init))
    #expect(run.status == 0, "\(run.stderr)")
    #expect(list.read("todo.txt") == "Pay rent due:\(date)\n")
  }

  @Test(arguments: [("next-monday", "2009-02-16"), ("in-3-days", "2009-02-16"), ("dec10", "2009-12-10"), ("10dec", "2009-12-10")])
  func inATagThePhraseIsOneWord(word: String, date: String) throws {
    let list = try CommandFixture(todo: "")
    #expect(list.todo("add", "Pay", "rent", "t:\(word)").status == 0)
    #expect(list.read("todo.txt") == "2009-02-13 Pay rent t:\(date)\n")
  }

  @Test func numericDatesInAnotherOrderAreRefusedWithTheirReadings() throws {
    let list = try CommandFixture(todo: "Pay rent\n")
    list.todo("tag", "1", "due", "03/04/2009").expectOneLineError(
      containing: "write the date as 2009-03-04 (4 March) or 2009-04-03 (3 April)")
    list.todo("tag", "1", "due", "2009-02-30").expectOneLineError(containing: "'2009-02-30' is not a date")
    list.todo("add", "x", "due:someday").expectOneLineError(containing: "'someday' is not a date")
    #expect(list.read("todo.txt") == "Pay rent\n")
  }

  @Test(arguments: [("high", "A"), ("h", "A"), ("medium", "B"), ("m", "B"), ("low", "C"), ("l", "C"), ("z", "Z")])
  func priorityWords(word: String, letter: String) throws {
    let list = try CommandFixture(todo: "")
    #expect(list.todo("add", "--priority", word, "Call", "mom").status == 0)
    #expect(list.read("todo.txt") == "(\(letter)) 2009-02-13 Call mom\n")
  }

  @Test func todoShStoresWordsAsTyped() throws {
    let list = try CommandFixture(todo: "")
    #expect(list.sh("add", "Pay rent due:next-monday t:03/04/2009").status == 0)
    #expect(list.read("todo.txt") == "Pay rent due:next-monday t:03/04/2009\n")
  }
}

extension CommandFixture {
  /// Runs `todo WORDS` with the words as an array.
  @discardableResult
  func todo(_ words: [String], input: String = "") -> Run { run("todo", words, input: input) }
}
