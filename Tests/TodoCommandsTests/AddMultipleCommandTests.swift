import Testing

/// `addm`: one task per line of the text.
@Suite struct AddMultipleCommandTests {
  @Test func todoShAddsEachNonEmptyLine() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    let run = list.sh("addm", "Buy milk\n\nPay rent")
    #expect(run.status == 0)
    #expect(run.stdout == "2 Buy milk\nTODO: 2 added.\n3 Pay rent\nTODO: 3 added.\n")
    #expect(list.read("todo.txt") == "Call mom\nBuy milk\nPay rent\n")
  }

  @Test func nativeDatesEachLine() throws {
    let list = try CommandFixture(todo: "")
    #expect(list.todo("addm", "Buy milk\n(B) Pay rent").status == 0)
    #expect(list.read("todo.txt") == "2009-02-13 Buy milk\n(B) 2009-02-13 Pay rent\n")
  }

  @Test func nativeRefusesAControlCharacterOnAnyLine() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    list.todo("addm", "Buy milk\nPay\u{1B}[2J rent").expectOneLineError(containing: "control character U+001B")
    #expect(list.read("todo.txt") == "Call mom\n")
  }

  @Test func nativeWithoutTextIsAUsageError() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    #expect(list.todo("addm").status == 1)
    #expect(list.read("todo.txt") == "Call mom\n")
  }
}
