import Testing

/// `attach`, `attachments`: files copied into the attachments folder and linked by `att:`.
@Suite struct AttachCommandTests {
  @Test func copiesTheFileUnderASafeNameAndLinksIt() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    try list.write("outside/my pic:1.png", "PNG")
    let run = list.todo("attach", "1", list.path("outside/my pic:1.png"))
    #expect(run.status == 0)
    #expect(
      run.stdout
        == "1 Call mom att:my-pic-1.png\nTODO: Attached \(list.path("outside/my pic:1.png")) as \(list.path("attachments/my-pic-1.png")).\n")
    #expect(list.read("attachments/my-pic-1.png") == "PNG")
    #expect(list.read("todo.txt") == "Call mom att:my-pic-1.png\n")
  }

  @Test func theSameBytesTwiceAreRefusedOtherBytesGetANewName() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    try list.write("a.png", "one")
    #expect(list.todo("attach", "1", list.path("a.png")).status == 0)
    list.todo("attach", "1", list.path("a.png")).expectOneLineError(
      containing: "TODO: 1 already has this file attached as 'a.png'; nothing done.")
    try list.write("a.png", "two")
    #expect(list.todo("attach", "1", list.path("a.png")).status == 0)
    #expect(list.read("todo.txt") == "Call mom att:a.png att:a-2.png\n")
    #expect(list.read("attachments/a.png") == "one")
    #expect(list.read("attachments/a-2.png") == "two")
    #expect(list.todo("attachments", "1").stdout == "\(list.path("attachments/a.png"))\n\(list.path("attachments/a-2.png"))\n")
  }

  @Test func refusesMissingTasksAndFiles() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    try list.write("a.png", "one")
    list.todo("attach", "9", list.path("a.png")).expectOneLineError(containing: "TODO: No task 9.")
    list.todo("attach", "1", list.path("nothere.png")).expectOneLineError(containing: "cannot copy")
    list.todo("attach", "1", list.path("a\u{1B}.png")).expectOneLineError(containing: "control character U+001B")
    #expect(list.todo("attach", "1").status == 1)
    #expect(list.read("todo.txt") == "Call mom\n")
    #expect(!list.exists("attachments/a.png"))
    #expect(list.sh("attach", "1", list.path("a.png")).status == 1)
  }
}
