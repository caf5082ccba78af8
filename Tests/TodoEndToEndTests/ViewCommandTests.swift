import Foundation
import Testing

/// Views for a person who has no configuration file yet: `view` names the file and the line,
/// `view --add` writes it.
@Suite struct ViewCommandTests {
  @Test func withoutAConfigurationViewNamesTheFileAndAddWritesIt() throws {
    let box = try Sandbox(config: nil)
    let config = box.path(".config/todo/config")
    let none = try box.todo("view")
    #expect(none.status == 0)
    #expect(none.stdout.contains("todo view --add today"))
    #expect(none.stdout.contains(config))
    #expect(try box.todo("info").stdout.contains("config:") )

    let add = try box.todo("view", "--add", "today", "due:<=today or pri:A")
    #expect(add.status == 0, "\(add.stderr)")
    #expect(box.read(".config/todo/config") == "export TODO_VIEW_today='due:<=today or pri:A'\n")
    // The file is the user's alone.
    let mode = try FileManager.default.attributesOfItem(atPath: config)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    try box.write(".local/share/todo/todo.txt", "(A) call mum\nwater plants\nlate due:2009-02-01\n")
    let today = try box.todo("view", "today")
    #expect(today.stdout == "1 (A) call mum\n3 late due:2009-02-01\n")
    #expect(today.stderr == "--\nTODO: 2 of 3 tasks shown\n")
    #expect(try box.todo("info").stdout.contains(config))

    // A quote in the query is kept for bash; a second view goes on the next line.
    #expect(try box.todo("view", "--add", "mums", "it's mum").status == 0)
    #expect(box.read(".config/todo/config") == "export TODO_VIEW_today='due:<=today or pri:A'\nexport TODO_VIEW_mums='it'\\''s mum'\n")
    #expect(try box.todo("view").stdout == "mums   it's mum\ntoday  due:<=today or pri:A\n")
  }

  @Test func anExistingConfigurationGetsTheLineAtItsEnd() throws {
    let box = try Sandbox(config: "export TODO_DIR=\"$HOME\"")
    try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: box.path("todo.cfg"))
    #expect(try box.todo("view", "--add", "k", "+Kitchen").status == 0)
    #expect(box.read("todo.cfg") == "export TODO_DIR=\"$HOME\"\nexport TODO_VIEW_k='+Kitchen'\n")
    // Its permissions stay as the user set them.
    #expect(try FileManager.default.attributesOfItem(atPath: box.path("todo.cfg"))[.posixPermissions] as? Int == 0o640)
  }

  @Test func aBadNameQueryOrTakenNameChangesNothing() throws {
    let box = try Sandbox(config: "export TODO_DIR=\"$HOME\"\nexport TODO_VIEW_k='+Kitchen'\n")
    let before = box.read("todo.cfg")
    for arguments in [["--add", "a b", "x"], ["--add", "k", "+Other"], ["--add", "z", "due:<"], ["--add", "z"],
                      ["--add", "z", "line\u{1B}[2J"], ["--add", "", "x"]] {
      let run = try box.run("todo", ["view"] + arguments)
      #expect(run.status != 0, "\(arguments)")
      #expect(run.stderr.hasPrefix("todo: "), "\(arguments): \(run.stderr)")
      #expect(!run.stderr.contains("\u{1B}"))
      #expect(box.read("todo.cfg") == before)
    }
  }

  @Test func aLinkedConfigurationIsNotWrittenThrough() throws {
    let box = try Sandbox(config: nil)
    try box.write("dotfiles/todo.cfg", "export TODO_DIR=\"$HOME\"\n")
    try FileManager.default.createSymbolicLink(atPath: box.path("todo.cfg"), withDestinationPath: box.path("dotfiles/todo.cfg"))
    let run = try box.todo("view", "--add", "k", "+Kitchen")
    #expect(run.status == 1)
    #expect(run.stderr.contains("export TODO_VIEW_k='+Kitchen'"), "\(run.stderr)")
    #expect(box.read("dotfiles/todo.cfg") == "export TODO_DIR=\"$HOME\"\n")
  }
}
