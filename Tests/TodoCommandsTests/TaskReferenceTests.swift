import Testing

/// Task numbers as every command reads them: digits only, leading zeros allowed and echoed
/// as typed, naming a line that is not empty.
@Suite struct TaskReferenceTests {
  @Test(arguments: ["todo", "todo.sh"])
  func leadingZerosAreEchoedAsTyped(name: String) throws {
    let list = try CommandFixture(todo: "Call mom\nBuy milk\n")
    let run = list.run(name, ["pri", "02", "a"])
    #expect(run.status == 0)
    #expect(run.stdout == "02 (A) Buy milk\nTODO: 02 prioritized (A).\n")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func zeroAnEmptyLineAndAHugeNumberNameNoTask(name: String) throws {
    let list = try CommandFixture(todo: "Call mom\n\nBuy milk\n")
    for number in ["0", "2", "4", "99999999999999999999999"] {
      let run = list.run(name, ["append", number, "x"])
      #expect(run.status == 1, "\(number)")
      #expect(run.stderr == "TODO: No task \(number).\n", "\(number)")
    }
    #expect(list.read("todo.txt") == "Call mom\n\nBuy milk\n")
  }

  @Test func aLineOfSpacesIsATaskOnlyForTodoSh() throws {
    let list = try CommandFixture(todo: "Call mom\n  \t\n")
    list.todo("append", "2", "x").expectOneLineError(containing: "TODO: No task 2.")
    #expect(list.sh("append", "2", "x").status == 0)
    #expect(list.read("todo.txt") == "Call mom\n  \t x\n")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func commasAndSpacesSeparateNumbers(name: String) throws {
    let list = try CommandFixture(todo: "a\nb\nc\n")
    #expect(list.run(name, ["depri", "1,3"]).status == 1)
    #expect(list.run(name, ["pri", "1", "A", "3", "B"]).status == 0)
    let run = list.run(name, ["depri", "3,1"])
    #expect(run.status == 0)
    #expect(run.stdout == "3 c\nTODO: 3 deprioritized.\n1 a\nTODO: 1 deprioritized.\n")
  }

  @Test(arguments: ["-1", "1.0", "one", "+2", " 1", "\u{661}"])
  func anythingButDigitsIsTheUsage(word: String) throws {
    let list = try CommandFixture(todo: "Call mom\n")
    let run = list.todo("append", word, "x")
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr.contains("append NR"))
    #expect(list.read("todo.txt") == "Call mom\n")
  }
}
