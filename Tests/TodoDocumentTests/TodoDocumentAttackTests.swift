import Foundation
import Testing
import TodoStore
import TodoTxt

/// Hostile inputs to `TodoDocument`, through its public API only.
@Suite("TodoDocument under hostile input")
struct TodoDocumentAttackTests {
  typealias Folder = TodoDocumentTests.Folder

  func bytes(_ folder: Folder, _ name: String) -> [UInt8]? {
    FileManager.default.contents(atPath: folder.file(name)).map { Array($0) }
  }

  @Test("a FIFO put in the list's place after open: the save fails at once, the FIFO stays")
  func fifoAfterOpen() throws {
    let folder = Folder()
    folder.write("todo.txt", "a\n")
    let document = try folder.open()
    document.list.append(Task(parsing: "b"))
    try FileManager.default.removeItem(atPath: folder.file("todo.txt"))
    #expect(mkfifo(folder.file("todo.txt"), 0o600) == 0)
    #expect(throws: StoreError.self) { try document.save() }
    var info = stat()
    #expect(lstat(folder.file("todo.txt"), &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
    #expect(document.hasUnsavedChanges)
  }

  @Test("a directory put in the list's place after open: the save fails, the directory stays")
  func directoryAfterOpen() throws {
    let folder = Folder()
    folder.write("todo.txt", "a\n")
    let document = try folder.open()
    document.list.append(Task(parsing: "b"))
    try FileManager.default.removeItem(atPath: folder.file("todo.txt"))
    try FileManager.default.createDirectory(atPath: folder.file("todo.txt"), withIntermediateDirectories: false)
    #expect(throws: StoreError.self) { try document.save() }
    var isDirectory: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: folder.file("todo.txt"), isDirectory: &isDirectory) && isDirectory.boolValue)
    #expect(throws: StoreError.self) { try document.reload() }
  }

  @Test("a link put in the list's place after open is refused, its target untouched")
  func linkAfterOpen() throws {
    let folder = Folder()
    let elsewhere = Folder()
    elsewhere.write("secret", "keep\n")
    folder.write("todo.txt", "a\n")
    let document = try folder.open()
    document.list.append(Task(parsing: "b"))
    try FileManager.default.removeItem(atPath: folder.file("todo.txt"))
    try FileManager.default.createSymbolicLink(atPath: folder.file("todo.txt"), withDestinationPath: elsewhere.file("secret"))
    #expect(throws: StoreError.self) { try document.save() }
    #expect(elsewhere.read("secret") == "keep\n")
  }

  @Test("the list deleted meanwhile: the app's edit is saved, the other program's deletion of the rest too")
  func deletedMeanwhile() throws {
    let folder = Folder()
    folder.write("todo.txt", "a\nb\n")
    let document = try folder.open()
    document.list.append(Task(parsing: "c"))
    try FileManager.default.removeItem(atPath: folder.file("todo.txt"))
    try document.save()
    let text = try #require(folder.read("todo.txt"))
    #expect(text.contains("c\n"))
    #expect(document.list.text == text)
  }

  @Test("CRLF, a byte order mark and no final newline survive an edit and an added task")
  func oddEncodings() throws {
    let folder = Folder()
    let bom = "\u{FEFF}"
    folder.write("todo.txt", bom + "one\r\ntwo\r\nthree")
    let document = try folder.open()
    var two = document.list[1]
    two.setPriority(Priority("A"))
    document.list.replace(at: 1, with: two)
    document.list.append(Task(parsing: "four"))
    try document.save()
    let text = try #require(folder.read("todo.txt"))
    #expect(text.hasPrefix(bom + "one\r\n(A) two\r\nthree"))
    #expect(text.contains("four"))
    #expect(!text.contains("\n\n") && !text.contains("\r\r"))
    #expect(try folder.open().list.count == 4)
  }

  @Test("an empty file: add, save, reload")
  func emptyFile() throws {
    let folder = Folder()
    folder.write("todo.txt", "")
    let document = try folder.open()
    #expect(document.list.isEmpty)
    document.list.append(Task(parsing: "first"))
    try document.save()
    #expect(folder.read("todo.txt") == "first\n")
    #expect(try document.reload().isEmpty)
  }

  @Test("an outside edit of a file without final newline merged with an app's append")
  func noFinalNewlineMerged() throws {
    let folder = Folder()
    folder.write("todo.txt", "a\nb")
    let document = try folder.open()
    document.list.append(Task(parsing: "mine"))
    folder.write("todo.txt", "a\nb\ntheirs")
    try document.save()
    let text = try #require(folder.read("todo.txt"))
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.contains("mine") && lines.contains("theirs") && lines.contains("b"))
    #expect(document.list.text == text)
  }

  @Test("archive with unsaved edits saves them first, then moves the done ones")
  func archiveUnsaved() throws {
    let folder = Folder()
    folder.write("todo.txt", "a\nb\n")
    let document = try folder.open()
    var a = document.list[0]
    a.complete(on: TaskDate(year: 2026, month: 1, day: 2)!)
    document.list.replace(at: 0, with: a)
    document.list.append(Task(parsing: "c"))
    #expect(try document.archive() == 1)
    #expect(folder.read("todo.txt") == "b\nc\n")
    #expect(folder.read("done.txt") == "x 2026-01-02 a\n")
    #expect(!document.hasUnsavedChanges)
  }

  @Test("undo after another program edited the saved line keeps the file whole")
  func undoAfterOutsideEditOfSameLine() throws {
    let folder = Folder()
    folder.write("todo.txt", "a\nb\n")
    let document = try folder.open()
    document.list.replace(at: 0, with: Task(parsing: "A"))
    try document.save(label: "edit a")
    folder.write("todo.txt", "A changed outside\nb\n")
    do {
      try document.undo()
    } catch {
      // Refusing is fine; the file must then be as the other program left it.
      #expect(folder.read("todo.txt") == "A changed outside\nb\n")
      return
    }
    let text = try #require(folder.read("todo.txt"))
    #expect(text.hasSuffix("b\n"))
    #expect(document.list.text == text)
  }

  @Test("replaceContents between odd lists ends with exactly the other list's bytes")
  func replaceContentsOdd() {
    let cases: [(String, String)] = [
      ("", "a"), ("a", ""), ("a\n", "a"), ("a", "a\n"), ("\u{FEFF}a\n", "a\n"), ("a\n", "\u{FEFF}a\n"),
      ("a\r\nb\r\n", "a\nb\n"), ("\n\n\n", "\n"), ("\n", "\n\n\n"), ("a\nb\na\nb\n", "b\na\nb\na\n"),
      ("x\r\n\r\n", "\r\n"), ("\u{FEFF}", ""), ("", "\u{FEFF}"), ("a\r", "a\r\n"), ("\r\n", "\n"),
    ]
    for (old, new) in cases {
      var list = TodoList(parsing: old)
      let target = TodoList(parsing: new)
      list.replaceContents(with: target)
      #expect(list.serialized() == target.serialized(), "\(old.debugDescription) → \(new.debugDescription)")
      let changes = target.changes(from: TodoList(parsing: old))
      #expect(changes.count >= max(TodoList(parsing: old).count, target.count))
    }
  }

  @Test("a note and an attachment with hostile names stay in their folders")
  func hostileNames() throws {
    let folder = Folder()
    folder.write("todo.txt", "../../etc/passwd\n\u{0}nul\nline\nbreak\n")
    let document = try folder.open()
    try document.setNoteText("x", ofTaskAt: 0)
    for name in ["..", ".", "", "a\nb", "a\u{0}b", "/etc/passwd", "../x", String(repeating: "n", count: 300), "\u{2028}", "a\u{85}b"] {
      do {
        let stored = try document.attach([1, 2, 3], named: name, toTaskAt: 2)
        #expect(ConfinedFolder.isPlainName(stored))
        #expect(!stored.utf8.contains(where: { $0 < 0x20 }))
      } catch {
        #expect(!"\(error)".contains("\n"))
      }
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(names == ["attachments", "notes", "todo.txt"])
    try document.save()
    let reopened = try folder.open()
    #expect(reopened.list.count == 4)
  }

  @Test("an attachment named like a file already there gets another name; the first keeps its bytes")
  func attachExisting() throws {
    let folder = Folder()
    folder.write("todo.txt", "a\n")
    let document = try folder.open()
    let first = try document.attach([1], named: "photo.png", toTaskAt: 0)
    let second = try document.attach([2], named: "photo.png", toTaskAt: 0)
    #expect(first != second)
    #expect(bytes(folder, "attachments/" + first) == [1])
    #expect(bytes(folder, "attachments/" + second) == [2])
  }

  @Test("a notes folder that is a FIFO: an error at once, no hang, the line unchanged")
  func notesFifo() throws {
    let folder = Folder()
    folder.write("todo.txt", "a\n")
    #expect(mkfifo(folder.file("notes"), 0o600) == 0)
    #expect(mkfifo(folder.file("attachments"), 0o600) == 0)
    let document = try folder.open()
    #expect(throws: StoreError.self) { try document.setNoteText("x", ofTaskAt: 0) }
    #expect(throws: StoreError.self) { try document.attach([1], named: "x", toTaskAt: 0) }
    #expect(!document.hasUnsavedChanges)
  }

  @Test("a 10 MB note and attachment are written whole")
  func bigNote() throws {
    let folder = Folder()
    folder.write("todo.txt", "a\n")
    let document = try folder.open()
    let text = String(repeating: "0123456789", count: 1_000_000)
    try document.setNoteText(text, ofTaskAt: 0)
    #expect(try document.noteText(of: document.list[0]) == text)
  }

  @Test("a note: tag naming a file that is a link is not read through")
  func noteLinkNotRead() throws {
    let folder = Folder()
    let elsewhere = Folder()
    elsewhere.write("secret", "secret\n")
    folder.write("todo.txt", "a note:n.txt\n")
    try FileManager.default.createDirectory(atPath: folder.file("notes"), withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(atPath: folder.file("notes/n.txt"), withDestinationPath: elsewhere.file("secret"))
    let document = try folder.open()
    let read = try? document.noteText(of: document.list[0])
    #expect(read != "secret\n")
    try? document.setNoteText("overwrite", ofTaskAt: 0)
    #expect(elsewhere.read("secret") == "secret\n")
  }

  @Test("cancelling the task awaiting outsideChanges ends the stream")
  func watchCancelled() async throws {
    let folder = Folder()
    folder.write("todo.txt", "a\n")
    let document = try folder.open()
    let stream = document.outsideChanges(every: .milliseconds(10))
    let waiter = _Concurrency.Task { () -> Int in
      var count = 0
      for await _ in stream { count += 1 }
      return count
    }
    try await _Concurrency.Task.sleep(for: .milliseconds(50))
    waiter.cancel()
    let clock = ContinuousClock()
    let start = clock.now
    _ = await waiter.value
    // A check that the stream ends at all, not of how fast: a loaded machine (the whole suite
    // on two cores) took over three seconds.
    #expect(clock.now - start < .seconds(60))
  }

  @Test("a dropped outsideChanges stream stops its watcher")
  func watchDropped() async throws {
    let folder = Folder()
    folder.write("todo.txt", "a\n")
    let document = try folder.open()
    do {
      var iterator = document.outsideChanges(every: .milliseconds(10)).makeAsyncIterator()
      folder.write("todo.txt", "b\n")
      _ = await iterator.next()
    }
    try await _Concurrency.Task.sleep(for: .milliseconds(50))
  }
}
