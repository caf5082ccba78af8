import Testing

/// `import`: tasks read as JSON from standard input and appended in one change.
@Suite struct ImportCommandTests {
  @Test func objectsBecomeLinesWithTheirHeadAndTags() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    let input = """
      {"text":"Buy milk","priority":"high","due":"tomorrow"}
      {"text":"Walk dog","projects":["family"],"contexts":["@park"],"created":null}
      [{"text":"Pay rent","done":true,"completed":"2009-02-12","created":"2009-02-01"}]

      """
    let run = list.todo("import", input: input)
    #expect(run.status == 0)
    #expect(
      run.stdout
        == "2 (A) 2009-02-13 Buy milk due:2009-02-14\nTODO: 2 added.\n3 Walk dog +family @park\nTODO: 3 added.\n"
        + "4 x 2009-02-12 2009-02-01 Pay rent\nTODO: 4 added.\n")
    #expect(
      list.read("todo.txt")
        == "Call mom\n(A) 2009-02-13 Buy milk due:2009-02-14\nWalk dog +family @park\nx 2009-02-12 2009-02-01 Pay rent\n")
  }

  @Test func whatTheTextAlreadySaysIsNotAddedTwice() throws {
    let list = try CommandFixture(todo: "")
    #expect(list.todo("import", input: #"{"text":"Walk dog +family","projects":["family"],"created":null}"#).status == 0)
    #expect(list.read("todo.txt") == "Walk dog +family\n")
  }

  @Test(arguments: [
    (#"{"txt":"x"}"#, #"todo: import: task 2: needs "text""#),
    (#"{"text":"#, "todo: import: line "),
    (#"{"text":"x","priority":"Q9"}"#, #""priority" should be a letter"#),
    (#"{"text":"x","due":"someday-never"}"#, #""due" is not a date"#),
    (#"{"text":"x","projects":["two words"]}"#, "cannot be a name"),
    (#"{"text":"x","tags":[["a:b","c"]]}"#, "cannot be a tag"),
    (#"{"text":"x\u0000y"}"#, "control character U+0000"),
    (#"{"text":"x","contexts":["a\u001bb"]}"#, "control character U+001B"),
  ])
  func badInputChangesNothing(input: String, message: String) throws {
    let list = try CommandFixture(todo: "Call mom\n")
    let run = list.todo("import", input: #"{"text":"Fine"}"# + "\n" + input + "\n")
    run.expectOneLineError(containing: message)
    #expect(list.read("todo.txt") == "Call mom\n")
  }

  @Test func todoShHasNoImport() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    #expect(list.sh("import", input: #"{"text":"x"}"#).status == 1)
    #expect(list.read("todo.txt") == "Call mom\n")
  }
}
