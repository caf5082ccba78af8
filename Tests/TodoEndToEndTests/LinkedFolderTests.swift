import Foundation
import Testing

/// Nothing in a todo directory can make the tool read or write outside it through a link: a
/// conflicted copy, `.todo-conflicts` or `attachments` that arrives as a symbolic link (by
/// sync, or planted in a shared folder) is refused, and what it points at is untouched.
@Suite struct LinkedFolderTests {
  static let secret = "-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n"

  /// A conflicted copy that is a link to a private file: not merged, named on stderr, exit 1;
  /// the real copy beside it is still merged, and the link stays where it is.
  @Test(arguments: ["todo (conflicted copy 2026-12-01).txt", "done.sync-conflict-20261201-101500-ABCDEFG.txt"])
  func aConflictedCopyThatIsALinkIsNotRead(_ name: String) throws {
    let box = try Sandbox()
    try box.write("outside/id_rsa", LinkedFolderTests.secret)
    try box.write("todo.txt", "call mom\n")
    try box.write("done.txt", "x 2026-11-30 file taxes\n")
    try FileManager.default.createSymbolicLink(atPath: box.path(name), withDestinationPath: box.path("outside/id_rsa"))
    try box.write("todo (Sam's conflicted copy 2026-12-01).txt", "call mom\nbuy milk\n")
    let run = try box.todo("conflicts")
    #expect(run.status == 1)
    #expect(run.stderr == "todo: cannot read '\(box.path(name))': it is a symbolic link to '\(box.path("outside/id_rsa"))'; not followed; not merged\n")
    #expect(box.read("todo.txt") == "call mom\nbuy milk\n")
    #expect(box.read("done.txt") == "x 2026-11-30 file taxes\n")
    #expect(box.read("outside/id_rsa") == LinkedFolderTests.secret)
    #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: box.path(name))) == box.path("outside/id_rsa"))
  }

  /// `.todo-conflicts` as a link to a folder bash sources: refused before anything is merged,
  /// and the copy is still where it was, so a later run (with the folder fixed) merges it once.
  @Test func aLinkedConflictsFolderReceivesNothing() throws {
    let box = try Sandbox()
    try FileManager.default.createDirectory(atPath: box.path("bashrc.d"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: box.path(".todo-conflicts"), withDestinationPath: box.path("bashrc.d"))
    try box.write("todo.txt", "call mom\n")
    let copy = "todo (conflicted copy 2026-12-01).txt"
    try box.write(copy, "call mom\nbuy milk\n")
    let run = try box.todo("conflicts")
    #expect(run.status == 1)
    #expect(run.stderr.contains("'\(box.path(".todo-conflicts"))'") && run.stderr.contains("never followed"), "\(run.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: box.path("bashrc.d")).isEmpty)
    #expect(box.read("todo.txt") == "call mom\n")
    #expect(box.exists(copy))
    try FileManager.default.removeItem(atPath: box.path(".todo-conflicts"))
    #expect(try box.todo("conflicts").status == 0)
    #expect(box.read("todo.txt") == "call mom\nbuy milk\n")
  }

  /// A run killed after writing the merge and before moving the copy aside: the next run
  /// sees the merge in the undo log (same copy, same bytes), moves the copy, and merges
  /// nothing a second time.
  @Test func aKilledConflictsRunIsNotMergedTwice() throws {
    let box = try Sandbox()
    #expect(try box.todo("-T", "add", "call mom").status == 0)
    #expect(try box.todo("-T", "add", "pay rent").status == 0)
    let copy = "todo (conflicted copy 2026-12-01).txt"
    try box.write(copy, "call mom\npay rent\nbuy milk\n")
    let killed = try box.todo("conflicts", environment: ["TODO_FAULT": "rename:KILL@1:.todo-conflicts"])
    #expect(killed.status == 128 + SIGKILL || killed.status == SIGKILL)
    #expect(box.read("todo.txt") == "call mom\npay rent\nbuy milk\n")
    #expect(box.exists(copy))
    #expect(try box.todo("-f", "del", "2").status == 0)
    let run = try box.todo("conflicts")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("already merged"), "\(run.stdout)")
    // The task deleted meanwhile (its line kept empty, as `todo del` keeps numbers) is not
    // brought back by a second merge.
    #expect(box.read("todo.txt") == "call mom\n\nbuy milk\n")
    #expect(!box.exists(copy) && box.exists(".todo-conflicts/" + copy))
  }

  /// `ls WORD` searches notes, but only regular files of the notes folder: a note that is a
  /// link to a private file is not read (its words do not match), a FIFO is not waited on.
  @Test func aWordSearchReadsNoLinkedNoteAndWaitsOnNoFIFO() throws {
    let box = try Sandbox()
    try box.write("outside/secret.txt", "the passphrase is swordfish\n")
    try FileManager.default.createDirectory(atPath: box.path("notes"), withIntermediateDirectories: true)
    #expect(mkfifo(box.path("notes/fifo.txt"), 0o600) == 0)
    try FileManager.default.createSymbolicLink(atPath: box.path("notes/link.txt"), withDestinationPath: box.path("outside/secret.txt"))
    try box.write("notes/plain.txt", "about swordfish\n")
    try box.write("todo.txt", "one note:fifo.txt\ntwo note:link.txt\nthree note:plain.txt\n")
    let run = try box.todo("ls", "swordfish")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("3 three") && !run.stdout.contains("two") && !run.stdout.contains("one"), "\(run.stdout)")
  }

  /// The state a run stopped between merge and move leaves (the copy merged, still in place),
  /// made without a kill: the next run moves the copy and merges nothing again. Merged again,
  /// the first merge would be the base, and the task only this machine had (water plants,
  /// which the copy never held) would read as deleted by the other machine.
  @Test func aCopyAlreadyMergedIsOnlyMovedAside() throws {
    let box = try Sandbox()
    for task in ["call mom", "pay rent"] { #expect(try box.todo("-T", "add", task).status == 0) }
    let copy = "todo (conflicted copy 2026-12-01).txt"
    try box.write(copy, "call mom\npay rent\nbuy milk\n")
    #expect(try box.todo("-T", "add", "water plants").status == 0)
    #expect(try box.todo("conflicts").status == 0)
    let merged = box.read("todo.txt")
    #expect(Set(merged.split(separator: "\n")) == ["call mom", "pay rent", "water plants", "buy milk"], "\(merged)")
    #expect(rename(box.path(".todo-conflicts/" + copy), box.path(copy)) == 0)
    let run = try box.todo("conflicts")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("already merged"), "\(run.stdout)")
    #expect(box.read("todo.txt") == merged)
    // Once the merge is undone, the copy moved back is merged again, as the help says.
    #expect(try box.todo("undo").status == 0)
    #expect(rename(box.path(".todo-conflicts/" + copy), box.path(copy)) == 0)
    #expect(try box.todo("conflicts").stdout.contains("Merged '\(copy)'"))
  }

  /// `attach` with `attachments` linked to another folder writes nothing there.
  @Test func aLinkedAttachmentsFolderReceivesNothing() throws {
    let box = try Sandbox()
    try FileManager.default.createDirectory(atPath: box.path("bashrc.d"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: box.path("attachments"), withDestinationPath: box.path("bashrc.d"))
    try box.write("todo.txt", "call mom\n")
    try box.write("payload.sh", "echo pwned\n")
    let run = try box.todo("attach", "1", box.path("payload.sh"))
    #expect(run.status == 1)
    #expect(run.stderr == "todo: cannot create '\(box.path("attachments"))': it is a symbolic link to '\(box.path("bashrc.d"))'; a folder of the list is never followed elsewhere\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: box.path("bashrc.d")).isEmpty)
    #expect(box.read("todo.txt") == "call mom\n")
  }

  /// An attachment the task names that arrives as a link in the real folder is never read:
  /// the same bytes behind the link do not make the new file "already attached", and the
  /// copy gets a name of its own beside the link.
  @Test func aLinkInsideTheAttachmentsFolderIsNotFollowed() throws {
    let box = try Sandbox()
    try box.write("outside/target.txt", "a picture\n")
    try FileManager.default.createDirectory(atPath: box.path("attachments"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: box.path("attachments/photo.txt"), withDestinationPath: box.path("outside/target.txt"))
    try box.write("todo.txt", "call mom att:photo.txt\n")
    try box.write("photo.txt", "a picture\n")
    let run = try box.todo("attach", "1", box.path("photo.txt"))
    #expect(run.status == 0, "\(run.stderr)")
    #expect(box.read("todo.txt") == "call mom att:photo.txt att:photo-2.txt\n")
    #expect(box.read("outside/target.txt") == "a picture\n")
    #expect(box.read("attachments/photo-2.txt") == "a picture\n")
  }
}

/// Text coming in that would read as a merge conflict's markers is refused wherever it comes
/// from, before anything is written: written, it would lock the whole list as an unresolved
/// merge that `resolve` cannot settle.
@Suite struct MarkerTextTests {
  @Test(arguments: [
    ["import"], ["replace", "1", "<<<<<<< r"], ["-T", "add", ">>>>>>> theirs"], ["prepend", "1", "<<<<<<<"],
    ["-T", "addm", "fine\n||||||| base"],
  ])
  func textThatReadsAsAMarkerIsRefused(_ arguments: [String]) throws {
    let box = try Sandbox()
    try box.write("todo.txt", "call mom\n>>>>>>> mail\n")
    let input = ["<<<<<<< mail", "=======", ">>>>>>> mail"].map { "{\"text\":\"\($0)\",\"created\":null}\n" }.joined()
    let run = try box.run("todo", arguments, input: arguments == ["import"] ? input : "")
    #expect(run.status == 1, "\(arguments)")
    #expect(run.stderr.contains("would read as a merge conflict marker"), "\(arguments): \(run.stderr)")
    #expect(box.read("todo.txt") == "call mom\n>>>>>>> mail\n")
    #expect(try box.todo("ls").status == 0)
  }

  /// A marker inside the text, or one character short or long, is ordinary text.
  @Test func textLikeAMarkerIsKept() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "")
    for text in ["see <<<<<<< here", "<<<<<< six", "<<<<<<<<< nine", "=======x", "======= call"] {
      #expect(try box.todo("-T", "add", text).status == 0, "\(text)")
    }
    #expect(box.read("todo.txt") == "see <<<<<<< here\n<<<<<< six\n<<<<<<<<< nine\n=======x\n======= call\n")
  }
}

/// The todo directory itself may be the user's link into a synced folder: its copies are
/// still found, merged and moved aside there.
@Suite struct LinkedTodoDirectoryTests {
  @Test func conflictsWorksWhenTheTodoDirectoryIsALink() throws {
    let box = try Sandbox(config: "export TODO_DIR=\"$HOME/todo\"\n")
    try box.write("Dropbox/todo/todo.txt", "call mom\n")
    try FileManager.default.createSymbolicLink(atPath: box.path("todo"), withDestinationPath: box.path("Dropbox/todo"))
    let copy = "todo (conflicted copy 2026-12-01).txt"
    try box.write("Dropbox/todo/" + copy, "call mom\nbuy milk\n")
    #expect(try box.todo("ls").stderr.contains("conflicted copy"))
    let run = try box.todo("conflicts")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(box.read("Dropbox/todo/todo.txt") == "call mom\nbuy milk\n")
    #expect(box.exists("Dropbox/todo/.todo-conflicts/" + copy))
  }
}
