import Foundation
import Testing

/// `listaddons`: the executable add-ons of the actions folder.
@Suite struct ListAddonsCommandTests {
  @Test(arguments: ["todo", "todo.sh"])
  func listsExecutableFilesAndFoldersWithTheirOwnExecutable(name: String) throws {
    let list = try CommandFixture(todo: "")
    try list.write(".todo/actions/hello", "#!/bin/sh\n")
    try list.write(".todo/actions/dir/dir", "#!/bin/sh\n")
    try list.write(".todo/actions/plain", "not executable\n")
    #expect(chmod(list.path(".todo/actions/hello"), 0o755) == 0)
    #expect(chmod(list.path(".todo/actions/dir/dir"), 0o755) == 0)
    let run = list.run(name, ["listaddons"])
    #expect(run.status == 0)
    #expect(run.stdout.hasPrefix("dir\nhello\n"))
    #expect(run.combined == "dir\nhello\n--\nTODO: 2 valid addon actions found.\n")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func aMissingOrEmptyFolderIsSaid(name: String) throws {
    let list = try CommandFixture(todo: "")
    let missing = list.run(name, ["listaddons"])
    #expect(missing.status == 1)
    #expect(missing.stderr == "TODO: '\(list.path(".todo/actions"))' does not exist.\n")
    try list.write(".todo/actions/plain", "not executable\n")
    let empty = list.run(name, ["listaddons"])
    #expect(empty.status == 1)
    #expect(empty.stderr == "TODO: '\(list.path(".todo/actions"))' does not contain valid actions.\n")
  }
}
