import CalDAVSync
import Foundation
import Testing
import TodoCalendar
import TodoTxt

extension SyncBench {
  var notesFolder: String { folder + "/notes" }

  func writeNote(_ name: String, _ text: String) {
    try? FileManager.default.createDirectory(atPath: notesFolder, withIntermediateDirectories: true)
    FileManager.default.createFile(atPath: notesFolder + "/" + name, contents: Data(text.utf8))
  }

  func readNote(_ name: String) -> String? {
    FileManager.default.contents(atPath: notesFolder + "/" + name).map { String(decoding: $0, as: UTF8.self) }
  }

  /// The task of todo.txt with this UID.
  func task(_ uid: String) -> Task? {
    (read() + read(doneFile)).split(separator: "\n").map { Task(parsing: $0) }
      .first { $0.tagValue("uid").flatMap(LocalUID.uid(fromTagValue:)) == uid }
  }

  /// A phone's change of the item with this UID: the VTODO's property set (nil removes it).
  func phoneSets(_ uid: String, _ name: String, text: String? = nil, value: String? = nil) {
    let href = server.items.keys.first { href in
      let document = try? ICalendarDocument(parsing: server.items[href]!.body)
      return document?.todos.first?.uid == uid
    }!
    var document = try! ICalendarDocument(parsing: server.items[href]!.body)
    let position = document.todoPositions[0]
    var todo = document[position]!
    if let value { todo.set(name, value: value) } else { todo.set(name, text: text) }
    document[position] = todo
    server.put(String(href.dropFirst(InMemoryCollection.base.count)), document.bytes)
  }

  /// The titles of todo.txt, in line order, blank lines included.
  var titles: [String] {
    read().split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { TaskFields(Task(parsing: $0)).title }
  }
}

@Suite struct NotesSyncTests {
  @Test func aNoteTravelsBothWaysAsDescription() throws {
    let bench = SyncBench()
    bench.write("Call Mum note:call-mum.txt\nBuy milk\n")
    bench.writeNote("call-mum.txt", "Ask about\r\nthe garden\n")
    _ = try bench.sync()
    #expect(bench.serverTasks["uid-1"]?.note == "Ask about\nthe garden")
    #expect(bench.serverTasks["uid-2"]?.note == nil)

    bench.phoneSets("uid-1", "DESCRIPTION", text: "Ask about the roses")
    _ = try bench.sync()
    #expect(bench.readNote("call-mum.txt") == "Ask about the roses\n")
    #expect(try bench.sync().plan.isEmpty)

    // A note the list gave a task reaches the server; one write, nothing else.
    let writes = bench.server.writes
    bench.writeNote("call-mum.txt", "Ask about the roses\nand the plums\n")
    _ = try bench.sync()
    #expect(bench.server.writes == writes + 1)
    #expect(bench.serverTasks["uid-1"]?.note == "Ask about the roses\nand the plums")
    bench.expectConsistent()
  }

  @Test func aPhoneDescriptionBecomesANoteFileWithoutItsControlCharacters() throws {
    let bench = SyncBench()
    bench.write("Buy milk\n")
    bench.server.put("p.ics", vtodo("phone-1", "SUMMARY:Fix gate\nDESCRIPTION:Code 12\\n34\u{1B}[2J\u{9B}"))
    _ = try bench.sync()
    let task = try #require(bench.task("phone-1"))
    let name = try #require(task.note)
    #expect(bench.readNote(name) == "Code 12\n34\u{FFFD}[2J\u{FFFD}\n")
    bench.expectConsistent()
    #expect(try bench.sync().plan.isEmpty)
  }

  @Test func aNoteChangedOnBothSidesKeepsBothTexts() throws {
    let bench = SyncBench()
    bench.write("Call Mum note:call-mum.txt\n")
    bench.writeNote("call-mum.txt", "Ask about the garden\n")
    _ = try bench.sync()
    bench.writeNote("call-mum.txt", "Ask about the garden and the shed\n")
    bench.phoneSets("uid-1", "DESCRIPTION", text: "Ask about the roses")
    let result = try bench.sync()
    #expect(result.plan.conflicts.flatMap(\.fields).map(\.field) == [.note])
    #expect(bench.readNote("call-mum.txt") == "Ask about the roses\n")
    let kept = try #require(result.notices.first { $0.contains("kept in") })
    let keptPath = try #require(kept.components(separatedBy: "kept in ").last)
    #expect(FileManager.default.contents(atPath: keptPath).map { String(decoding: $0, as: UTF8.self) }
      == "Ask about the garden and the shed\n")
    #expect(keptPath.hasPrefix(bench.notesFolder + "/"))
    bench.expectConsistent()
    #expect(try bench.sync().plan.isEmpty)
  }

  @Test func aNoteTheServerRemovedIsUnlinkedAndItsFileStays() throws {
    let bench = SyncBench()
    bench.write("Call Mum note:call-mum.txt\n")
    bench.writeNote("call-mum.txt", "Ask about the garden\n")
    _ = try bench.sync()
    bench.phoneSets("uid-1", "DESCRIPTION", text: nil)
    let result = try bench.sync()
    #expect(bench.task("uid-1")?.note == nil)
    #expect(bench.readNote("call-mum.txt") == "Ask about the garden\n")
    #expect(result.notices.contains { $0.contains("call-mum.txt") })
    #expect(try bench.sync().plan.isEmpty)
  }

  @Test func withoutANotesFolderTheServersDescriptionIsKeptThroughAConflict() throws {
    let bench = SyncBench()
    bench.syncsNotes = false
    bench.write("Call Mum\n")
    _ = try bench.sync()
    bench.phoneSets("uid-1", "DESCRIPTION", text: "Ask about the roses")
    bench.phoneSets("uid-1", "SUMMARY", text: "Call Mum tonight")
    bench.write("Call Mum today uid:uid-1\n")
    let result = try bench.sync()
    #expect(result.plan.conflicts.flatMap(\.fields).map(\.field) == [.title])
    #expect(result.problems.isEmpty, "\(result.problems)")
    #expect(TaskFields(try #require(bench.task("uid-1"))).title == "Call Mum tonight")
    #expect(!FileManager.default.fileExists(atPath: bench.notesFolder))
    #expect(bench.task("uid-1")?.note == nil)
    #expect(bench.serverTasks["uid-1"]?.note == "Ask about the roses")
  }

  @Test func aNoteBehindALinkIsNeitherReadNorWrittenThrough() throws {
    let bench = SyncBench()
    let outside = bench.folder + "/outside.txt"
    FileManager.default.createFile(atPath: outside, contents: Data("secret\n".utf8))
    try FileManager.default.createDirectory(atPath: bench.notesFolder, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: bench.notesFolder + "/x.txt", withDestinationPath: outside)
    bench.write("Call Mum note:x.txt\n")
    let first = try bench.sync()
    #expect(first.problems.contains { $0.contains("Call Mum") })
    #expect(!bench.server.bodies.joined().contains("secret"))
    // The phone writes a description: the link is not written through, the task's server
    // copy is left for the next sync, and the outside file is as it was.
    bench.phoneSets("uid-1", "DESCRIPTION", text: "overwritten")
    let second = try bench.sync()
    #expect(!second.problems.isEmpty)
    #expect(FileManager.default.contents(atPath: outside) == Data("secret\n".utf8))
  }
}

@Suite struct ManualOrderSyncTests {
  @Test func aTaskMovedInTheListIsTheOneTaskSent() throws {
    let bench = SyncBench()
    bench.write("Buy milk\nCall Mum\nBook flights\nWater plants\n")
    _ = try bench.sync()
    bench.expectConsistent()
    // `reorder 4 1`, as the line order of the file.
    let lines = bench.lines
    bench.write(([lines[3]] + lines[0..<3]).joined(separator: "\n") + "\n")
    let writes = bench.server.writes
    let result = try bench.sync()
    #expect(bench.server.writes == writes + 1)
    #expect(result.plan.serverOperations.map(\.uid) == ["uid-4"])
    bench.expectConsistent()
    #expect(try bench.sync().plan.isEmpty)
  }

  @Test func aTaskThePhoneMovedMovesInTheList() throws {
    let bench = SyncBench()
    bench.write("Buy milk\nCall Mum\n\nBook flights\nWater plants\n")
    _ = try bench.sync()
    let last = try #require(bench.serverTasks["uid-4"]?.sortOrder.flatMap { Int($0) })
    bench.phoneSets("uid-1", "X-APPLE-SORT-ORDER", value: String(last + 1))
    _ = try bench.sync()
    #expect(bench.titles == ["Call Mum", "", "Book flights", "Water plants", "Buy milk"])
    bench.expectConsistent()
    #expect(try bench.sync().plan.isEmpty)
  }

  @Test func aPhoneThatRenumbersEveryTaskReordersTheList() throws {
    let bench = SyncBench()
    bench.write("Buy milk\nCall Mum\nBook flights\nWater plants\n")
    _ = try bench.sync()
    // The phone numbers them 1…4 backwards, as a phone that drags one task renumbers all.
    for (number, uid) in ["uid-4", "uid-3", "uid-2", "uid-1"].enumerated() {
      bench.phoneSets(uid, "X-APPLE-SORT-ORDER", value: String(number + 1))
    }
    let result = try bench.sync()
    #expect(result.plan.conflicts.isEmpty)
    #expect(bench.titles == ["Water plants", "Book flights", "Call Mum", "Buy milk"])
    bench.expectConsistent()
    #expect(try bench.sync().plan.isEmpty)
  }

  @Test func orderNumbersThatDoNotReadAreReplaced() throws {
    let bench = SyncBench()
    bench.write("Buy milk\n")
    bench.server.put("p.ics", vtodo("phone-1", "SUMMARY:Fix gate\nX-APPLE-SORT-ORDER:soon\u{1B}"))
    bench.server.put("q.ics", vtodo("phone-2", "SUMMARY:Oil hinge\nX-APPLE-SORT-ORDER:99999999999999999999999"))
    _ = try bench.sync()
    bench.expectConsistent()
    #expect(try bench.sync().plan.isEmpty)
  }
}

@Suite struct UnplacedFieldsSyncTests {
  @Test func eventsInACalendarThatAlsoHoldsTasksAreNotTheListsAndNoProblem() throws {
    let bench = SyncBench()
    bench.write("Buy milk\n")
    let event = "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//phone//EN\nBEGIN:VEVENT\nUID:meeting\nDTSTAMP:20260601T100000Z\n"
      + "DTSTART:20260612T090000Z\nSUMMARY:Meeting\nEND:VEVENT\nEND:VCALENDAR\n"
    bench.server.put("meeting.ics", event)
    let result = try bench.sync()
    #expect(result.problems.isEmpty, "\(result.problems)")
    #expect(bench.lines.count == 1)
    #expect(bench.server.bodies.contains { $0.contains("VEVENT") })
    #expect(try bench.sync().plan.isEmpty)
  }

  @Test func aPhoneTaskDoneWithoutADateKeepsItsCreationDateOnTheServer() throws {
    let bench = SyncBench()
    bench.write("Buy milk\n")
    bench.server.put("p.ics", vtodo("phone-1", "SUMMARY:Fix gate\nSTATUS:COMPLETED\nCREATED:20260501T120000Z"))
    _ = try bench.sync()
    #expect(bench.read(bench.doneFile).hasPrefix("x Fix gate"))
    #expect(try bench.sync().plan.isEmpty)
    #expect(bench.serverTasks["phone-1"]?.created == TaskDate("2026-05-01"))
  }
}
