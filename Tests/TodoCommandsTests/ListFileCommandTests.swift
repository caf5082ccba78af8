import Testing

/// `listfile`: the .txt files of the todo directory, or the tasks of one.
@Suite struct ListFileCommandTests {
  @Test func nativeListsTheTextFilesThatExist() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    try list.write("garden.txt", "")
    try list.write(".hidden.txt", "")
    let run = list.todo("listfile")
    #expect(run.status == 0)
    #expect(run.stdout == "Files in the todo.txt directory:\ngarden.txt\ntodo.txt\n")
  }

  @Test func todoShHasMadeTheListsFilesFirst() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    try list.write("garden.txt", "")
    #expect(list.sh("lf").stdout == "Files in the todo.txt directory:\ndone.txt\ngarden.txt\nreport.txt\ntodo.txt\n")
  }

  @Test func todoShListsOneFileWithItsPrefix() throws {
    let list = try CommandFixture(todo: "")
    try list.write("garden.txt", "Water roses\nPlant tulips\n")
    let run = list.sh("-p", "listfile", "garden.txt")
    #expect(run.stdout == "2 Plant tulips\n1 Water roses\n--\nGARDEN: 2 of 2 tasks shown\n")
    // The name without .txt is found too, and terms filter.
    #expect(list.sh("-p", "listfile", "garden", "roses").stdout == "1 Water roses\n--\nGARDEN: 1 of 2 tasks shown\n")
  }

  @Test func nativeSummaryOnStandardError() throws {
    let list = try CommandFixture(todo: "")
    try list.write("garden.txt", "Water roses\nPlant tulips\n")
    let run = list.todo("listfile", "garden.txt")
    #expect(run.stdout == "2 Plant tulips\n1 Water roses\n")
    #expect(run.stderr == "--\nGARDEN: 2 of 2 tasks shown\n")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func aMissingFileIsRefused(name: String) throws {
    let list = try CommandFixture(todo: "")
    let run = list.run(name, ["listfile", "garden.txt"])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr == "TODO: File garden.txt does not exist.\n")
  }
}
