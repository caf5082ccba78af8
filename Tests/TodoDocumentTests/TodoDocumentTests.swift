import Foundation
import Testing
import TodoStore
import TodoTxt

/// The store's guarantees as an app sees them: only the public API of the `TodoStore` and
/// `TodoTxt` products, as an app would use them (no `@testable`).
@Suite("TodoDocument, as an app uses it")
struct TodoDocumentTests {
  /// A fresh folder, removed at the end.
  final class Folder {
    let path: String
    init() {
      path = NSTemporaryDirectory() + "todo-document-" + UUID().uuidString
      try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    func file(_ name: String) -> String { path + "/" + name }
    func write(_ name: String, _ text: String) {
      _ = FileManager.default.createFile(atPath: file(name), contents: Data(text.utf8))
    }
    func read(_ name: String) -> String? {
      FileManager.default.contents(atPath: file(name)).map { String(decoding: $0, as: UTF8.self) }
    }
    /// A store whose undo log stays in this folder.
    var store: TodoStore { TodoStore(lockTimeout: 30, stateDirectory: file("state")) }
    func open() throws -> TodoDocument { try TodoDocument(path: file("todo.txt"), store: store) }
  }

  static var probe: String {
    URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
      .appendingPathComponent("todo-store-probe").path
  }

  static func runProbe(_ arguments: [String], state: String) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: probe)
    process.arguments = arguments
    process.environment = ["TODO_PROBE_STATE": state, "PATH": "/usr/bin:/bin"]
    try process.run()
    return process
  }

  @Test("a missing list opens empty and the first save makes it")
  func firstSave() throws {
    let folder = Folder()
    let document = try folder.open()
    #expect(document.list.isEmpty)
    #expect(!document.hasUnsavedChanges)
    var task = Task(parsing: "call the plumber")
    try task.addProject("home")
    document.list.append(task)
    #expect(document.hasUnsavedChanges)
    try document.save()
    #expect(folder.read("todo.txt") == "call the plumber +home\n")
    #expect(!document.hasUnsavedChanges)
    #expect(try folder.open().list.count == 1)
  }

  @Test("an editor's save meanwhile is merged: both changes stay, other lines keep their bytes")
  func outsideEditMerged() throws {
    let folder = Folder()
    folder.write("todo.txt", "(A) one\r\ntwo\r\nthree  spaced\r\nfour\r\n")
    let document = try folder.open()
    var two = document.list[1]
    two.setPriority(Priority("B"))
    document.list.replace(at: 1, with: two)
    // An editor saves by rename: the fourth task changed, one task added at the top.
    folder.write("todo.txt.tmp", "new at top\r\n(A) one\r\ntwo\r\nthree  spaced\r\nfour @phone\r\n")
    try FileManager.default.removeItem(atPath: folder.file("todo.txt"))
    try FileManager.default.moveItem(atPath: folder.file("todo.txt.tmp"), toPath: folder.file("todo.txt"))
    #expect(document.changedOnDisk)
    let outcome = try document.save()
    #expect(outcome.mergedOutsideChanges)
    #expect(outcome.conflicts.isEmpty)
    #expect(folder.read("todo.txt") == "new at top\r\n(A) one\r\n(B) two\r\nthree  spaced\r\nfour @phone\r\n")
    #expect(document.list.text == folder.read("todo.txt"))
  }

  @Test("different parts of one task changed by the app and another program: both kept, in one line")
  func bothChangedDifferentParts() throws {
    let folder = Folder()
    folder.write("todo.txt", "pay rent\nwater plants\n")
    let document = try folder.open()
    var task = document.list[0]
    try task.setDueDate("2026-12-31", today: TaskDate(year: 2026, month: 12, day: 3)!)
    document.list.replace(at: 0, with: task)
    folder.write("todo.txt", "pay rent @bank\nwater plants\n")
    let outcome = try document.save()
    #expect(outcome.conflicts.isEmpty)
    #expect(folder.read("todo.txt") == "pay rent @bank due:2026-12-31\nwater plants\n")
  }

  @Test("the same part of a task changed both ways is kept in both versions, named as a conflict")
  func bothChangedOneTask() throws {
    let folder = Folder()
    folder.write("todo.txt", "pay rent\nwater plants\n")
    let document = try folder.open()
    var task = document.list[0]
    task.setPriority(Priority("A"))
    document.list.replace(at: 0, with: task)
    folder.write("todo.txt", "(C) pay rent\nwater plants\n")
    let outcome = try document.save()
    #expect(outcome.conflicts.count == 1)
    let text = try #require(folder.read("todo.txt"))
    #expect(text.contains("(C) pay rent\n"))
    #expect(text.contains("(A) pay rent\n"))
    #expect(text.hasSuffix("water plants\n"))
    #expect(text.split(separator: "\n").count == 3)
  }

  @Test("reload brings another program's change in, keeps unsaved edits, and says what changed")
  func reloadKeepsEdits() throws {
    let folder = Folder()
    folder.write("todo.txt", "a\nb\nc\n")
    let document = try folder.open()
    document.list.append(Task(parsing: "mine"))
    folder.write("todo.txt", "a\nB\nc\n")
    let changes = try document.reload()
    #expect(document.list.text == "a\nB\nc\nmine\n")
    #expect(changes.contains(.replace(original: 1, current: 1)))
    #expect(document.hasUnsavedChanges)
    try document.save()
    #expect(folder.read("todo.txt") == "a\nB\nc\nmine\n")
    #expect(try document.reload().isEmpty)
  }

  @Test("undo takes back the app's save, by its lines, after another line changed")
  func undoAfterOtherEdits() throws {
    let folder = Folder()
    folder.write("todo.txt", "a\nb\n")
    let document = try folder.open()
    document.list.append(Task(parsing: "c"))
    try document.save(label: "add c")
    #expect(document.history.first?.label == "add c")
    document.list.replace(at: 0, with: Task(parsing: "A"))
    try document.save(label: "edit a")
    try document.undo(2)
    #expect(folder.read("todo.txt") == "a\nb\n")
    try document.redo()
    #expect(folder.read("todo.txt") == "a\nb\nc\n")
  }

  @Test("archive moves done tasks to done.txt in one change of both files")
  func archive() throws {
    let folder = Folder()
    folder.write("todo.txt", "x 2026-12-01 done one\nopen\n\nx done two\n")
    folder.write("done.txt", "x 2026-11-01 old\n")
    let document = try folder.open()
    #expect(try document.archive() == 2)
    #expect(folder.read("todo.txt") == "open\n")
    #expect(folder.read("done.txt") == "x 2026-11-01 old\nx 2026-12-01 done one\nx done two\n")
    #expect(document.list.text == "open\n")
  }

  @Test("the watch stream wakes for another program's write")
  func watch() async throws {
    let folder = Folder()
    folder.write("todo.txt", "a\n")
    let document = try folder.open()
    let stream = document.outsideChanges(every: .milliseconds(20))
    let path = folder.file("todo.txt")
    let writer = _Concurrency.Task {
      try await _Concurrency.Task.sleep(for: .milliseconds(100))
      _ = FileManager.default.createFile(atPath: path, contents: Data("a\nfrom outside\n".utf8))
    }
    var iterator = stream.makeAsyncIterator()
    _ = await iterator.next()
    try await writer.value
    try document.reload()
    #expect(document.list.text == "a\nfrom outside\n")
  }

  @Test("a note and a photo: files in the list's folders, linked by tags, never outside")
  func noteAndAttachment() throws {
    let folder = Folder()
    folder.write("todo.txt", "Call Mum about Sunday\n")
    let document = try folder.open()
    try document.setNoteText("bring the photos\n", ofTaskAt: 0)
    let photo: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    let stored = try document.attach(photo, named: "../../sunday photo:1.png", toTaskAt: 0)
    #expect(!stored.contains("/") && !stored.contains(" ") && !stored.contains(":"))
    try document.save()
    // The note is named after the task's words and four random base32 characters, so that
    // notes two machines write for tasks of the same words never share a file once synced.
    let note = try #require(document.list[0].note)
    #expect(note.wholeMatch(of: /call-mum-about-sunday-[a-z2-7]{4}\.txt/) != nil, "\(note)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("notes")) == [note])
    #expect(folder.read("todo.txt") == "Call Mum about Sunday note:\(note) att:\(stored)\n")
    let task = document.list[0]
    #expect(try document.noteText(of: task) == "bring the photos\n")
    let paths = document.attachmentPaths(of: task)
    #expect(paths == [folder.file("attachments/" + stored)])
    #expect(FileManager.default.contents(atPath: paths[0]).map { Array($0) } == photo)
    // A second note write replaces the text of the linked file; the line does not change.
    try document.setNoteText("bring the photos and cake\n", ofTaskAt: 0)
    #expect(!document.hasUnsavedChanges)
    #expect(try document.noteText(of: task) == "bring the photos and cake\n")
  }

  @Test("a notes folder that is a link receives nothing")
  func linkedNotesFolder() throws {
    let folder = Folder()
    let elsewhere = Folder()
    folder.write("todo.txt", "task\n")
    try FileManager.default.createSymbolicLink(atPath: folder.file("notes"), withDestinationPath: elsewhere.path)
    let document = try folder.open()
    #expect(throws: StoreError.self) { try document.setNoteText("secret", ofTaskAt: 0) }
    #expect((try? FileManager.default.contentsOfDirectory(atPath: elsewhere.path)) == [])
    #expect(!document.hasUnsavedChanges)
  }

  @Test("a task holding a line break is refused on save: it would come back as two tasks")
  func lineBreakRefused() throws {
    let folder = Folder()
    folder.write("todo.txt", "one\n")
    let document = try folder.open()
    var task = document.list[0]
    task.replaceBody("two\nx 2026-01-01 three")
    document.list.replace(at: 0, with: task)
    do {
      try document.save()
      Issue.record("saved a line with a line break")
    } catch {
      guard case .lineBreakInLine = error.kind else {
        Issue.record("\(error)")
        return
      }
      #expect(!error.description.contains("\n"))
    }
    #expect(folder.read("todo.txt") == "one\n")
  }

  @Test("after a merge the outcome says where the app's lines now stand")
  func changesAfterMerge() throws {
    let folder = Folder()
    folder.write("todo.txt", "a\nb\n")
    let document = try folder.open()
    document.list.append(Task(parsing: "mine"))
    folder.write("todo.txt", "first\na\nb\n")
    let outcome = try document.save()
    #expect(folder.read("todo.txt") == "first\na\nb\nmine\n")
    // The app's line 2 (index 2, "mine") is now index 3; a new line stands at index 0.
    #expect(outcome.changes.contains(.keep(original: 2, current: 3)))
    #expect(outcome.changes.contains(.insert(current: 0)))
    document.list.append(Task(parsing: "more"))
    #expect(try document.save().changes.isEmpty)
  }

  @Test("a FIFO or a directory where the list should be is an error, not a hang")
  func notAFile() throws {
    let folder = Folder()
    #expect(mkfifo(folder.file("todo.txt"), 0o600) == 0)
    #expect(throws: StoreError.self) { _ = try folder.open() }
    let other = Folder()
    try FileManager.default.createDirectory(atPath: other.file("todo.txt"), withIntermediateDirectories: false)
    #expect(throws: StoreError.self) { _ = try other.open() }
  }

  @Test("two processes saving the same list lose no task and double none")
  func twoProcesses() throws {
    let folder = Folder()
    folder.write("todo.txt", "")
    let count = 40
    let processes = try ["1", "2"].map { id in
      try Self.runProbe(
        ["document-stress", folder.file("todo.txt"), folder.file("done.txt"), id, String(count)],
        state: folder.file("state"))
    }
    for process in processes {
      process.waitUntilExit()
      #expect(process.terminationStatus == 0)
    }
    let lines = try #require(folder.read("todo.txt")).split(separator: "\n").map(String.init)
    for id in ["1", "2"] {
      for i in 0..<count {
        let done = i % 3 == 1 && i + 1 < count
        let expected = done ? "x 2026-12-03 p\(id) n\(i)" : "p\(id) n\(i)"
        #expect(lines.filter { $0 == expected }.count == 1, "\(expected)")
      }
    }
    #expect(lines.count == 2 * count)
  }

  @Test("a save killed at any write step leaves the old list or the new one, whole")
  func killedSave() throws {
    let before = "first\r\nsecond\r\nthird  kept\r\n"
    let after = "x 2026-12-03 first\r\nthird  kept\r\nadded by the app\r\n"
    var outcomes: Set<String> = []
    for call in ["write", "fsync", "rename", "unlink", "open"] {
      for n in 1...4 {
        let folder = Folder()
        folder.write("todo.txt", before)
        let process = try Self.runProbe(
          ["document-kill", folder.file("todo.txt"), folder.file("done.txt"), call, String(n)],
          state: folder.file("state"))
        process.waitUntilExit()
        let now = folder.read("todo.txt")
        #expect(now == before || now == after, "\(call) #\(n): \(now ?? "missing")")
        // The next process to open it sees a whole list too, and can save.
        let document = try folder.open()
        #expect(document.list.text == before || document.list.text == after)
        document.list.append(Task(parsing: "later"))
        try document.save()
        #expect(folder.read("todo.txt")?.hasSuffix("later\r\n") == true)
        outcomes.insert(now == before ? "old" : "new")
      }
    }
    // Some kills fell before the rename and some after: both outcomes were seen.
    #expect(outcomes == ["old", "new"])
  }
}
