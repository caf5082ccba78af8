import CalDAVSync
import Foundation
import Testing
import TodoCalendar
import TodoStore
import TodoTestSupport
import TodoTxt

/// A list in a temporary folder, its own state directory, and a collection in memory.
final class SyncBench {
  let folder: String
  let server = InMemoryCollection()
  var uids = 0
  /// Whether the sync is given the notes folder (an app using the library may not).
  var syncsNotes = true

  init() {
    folder = NSTemporaryDirectory() + "caldav-sync-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: folder + "/state", withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: folder) }

  var todoFile: String { folder + "/todo.txt" }
  var doneFile: String { folder + "/done.txt" }
  var store: TodoStore { TodoStore(stateDirectory: folder + "/state") }

  func write(_ text: String, to path: String? = nil) {
    FileManager.default.createFile(atPath: path ?? todoFile, contents: Data(text.utf8))
  }

  func read(_ path: String? = nil) -> String {
    (try? String(contentsOfFile: path ?? todoFile, encoding: .utf8)) ?? ""
  }

  var lines: [String] { read().split(separator: "\n").map(String.init) }

  func sync(dryRun: Bool = false, confirmed: Bool = false) throws(SyncError) -> CalDAVSync.Result {
    let engine = CalDAVSync(
      collection: server,
      environment: CalDAVSync.Environment(
        todoFile: todoFile, doneFile: doneFile, notesFolder: syncsNotes ? folder + "/notes" : nil, collectionURL: "http://127.0.0.1:1/cal/tasks/", store: store,
        mapping: VTODOMapping(), today: TaskDate("2026-06-10")!, now: 1_781_049_600,
        newUID: { [self] in
          uids += 1
          return "uid-\(uids)"
        }))
    return try engine.run(dryRun: dryRun, confirmed: confirmed)
  }

  /// The tasks of the server, by UID, as the mapping reads them.
  var serverTasks: [String: TaskFields] {
    var result: [String: TaskFields] = [:]
    for body in server.bodies {
      guard let document = try? ICalendarDocument(parsing: Array(body.utf8)) else { continue }
      for todo in document.todos where todo.recurrenceID == nil {
        if let uid = todo.uid { result[uid] = VTODOMapping().fields(of: todo) }
      }
    }
    return result
  }

  /// The tasks of both files, by UID, with their notes' texts.
  var listTasks: [String: TaskFields] {
    var result: [String: TaskFields] = [:]
    for text in [read(), read(doneFile)] {
      for line in text.split(separator: "\n") {
        let task = Task(parsing: line)
        guard let tag = task.tagValue("uid"), let uid = LocalUID.uid(fromTagValue: tag) else { continue }
        result[uid] = TaskFields(task, note: task.note.flatMap { noteText($0) })
      }
    }
    return result
  }

  func noteText(_ name: String) -> String? {
    FileManager.default.contents(atPath: folder + "/notes/" + name).flatMap { NoteText.normalized(file: Array($0)) }
  }

  /// The UIDs of todo.txt's tasks, in line order, each once.
  var todoUIDs: [String] {
    var seen: Set<String> = []
    return lines.compactMap { line in
      Task(parsing: line).tagValue("uid").flatMap(LocalUID.uid(fromTagValue:)).flatMap { seen.insert($0).inserted ? $0 : nil }
    }
  }

  var taskCount: Int { (read() + read(doneFile)).split(separator: "\n").count }

  /// Both sides hold the same tasks under the same UIDs, each once, with the same notes; the
  /// server's numbers of the manual order increase along todo.txt's lines.
  func expectConsistent(_ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
    var local = listTasks
    let server = serverTasks
    let numbers = todoUIDs.map { server[$0]?.sortOrder.flatMap { Int($0) } }
    #expect(!numbers.contains(nil), "a task of todo.txt without a number on the server", sourceLocation: sourceLocation)
    let known = numbers.compactMap { $0 }
    #expect(zip(known, known.dropFirst()).allSatisfy { $0 < $1 }, "the server's order is not todo.txt's", sourceLocation: sourceLocation)
    for uid in local.keys { local[uid]?.sortOrder = server[uid]?.sortOrder }
    #expect(local.count == taskCount, "a task without uid", sourceLocation: sourceLocation)
    #expect(local == server, comment, sourceLocation: sourceLocation)
  }
}

func vtodo(_ uid: String, _ lines: String) -> String {
  "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//phone//EN\nBEGIN:VTODO\nUID:\(uid)\nDTSTAMP:20260601T100000Z\n\(lines)\nEND:VTODO\nEND:VCALENDAR\n"
}

@Suite struct CalDAVSyncTests {
  @Test func aFirstSyncSendsTheListAndASecondChangesNothing() throws {
    let bench = SyncBench()
    bench.write("(A) Call Mum due:2026-06-12 +family\nBuy milk @shop\n")
    bench.write("x 2026-06-01 Paid rent\n", to: bench.doneFile)
    let first = try bench.sync()
    #expect(first.serverDone == 3)
    #expect(bench.lines.allSatisfy { $0.contains(" uid:uid-") })
    bench.expectConsistent()
    let listed = bench.read()
    let writes = bench.server.writes
    let second = try bench.sync()
    #expect(second.plan.isEmpty)
    #expect(bench.server.writes == writes)
    #expect(bench.read() == listed)
  }

  @Test func aPhoneEditReachesTheListAndPropertiesTheToolDoesNotMapSurvive() throws {
    let bench = SyncBench()
    bench.server.put(
      "phone-1.ics",
      vtodo(
        "phone-1",
        "SUMMARY:Water plants\nPRIORITY:5\nX-PHONE-COLOUR:green\nBEGIN:VALARM\nACTION:DISPLAY\nTRIGGER:-PT15M\nDESCRIPTION:x\nEND:VALARM"
      ))
    _ = try bench.sync()
    #expect(bench.lines == ["(B) Water plants uid:phone-1"])
    // An edit here goes to the server without the phone's own properties lost.
    bench.write("(A) Water plants uid:phone-1 due:2026-06-20\n")
    _ = try bench.sync()
    let body = try #require(bench.server.bodies.first)
    #expect(body.contains("X-PHONE-COLOUR:green"))
    #expect(body.contains("TRIGGER:-PT15M"))
    #expect(bench.serverTasks["phone-1"]?.due == TaskDate("2026-06-20"))
    bench.expectConsistent()
  }

  @Test func aSyncIsOneUndoOfTheList() throws {
    let bench = SyncBench()
    bench.write("Buy milk\n")
    _ = try bench.sync()
    let synced = bench.read()
    bench.server.put("phone-2.ics", vtodo("phone-2", "SUMMARY:Book flights"))
    _ = try bench.sync()
    #expect(bench.lines.count == 2)
    let undone = try bench.store.undo(1, files: [bench.todoFile, bench.doneFile])
    #expect(undone.count == 1)
    #expect(bench.read() == synced)
  }

  /// A conflict's choice is its own change of the list: undoing it gives the list its value
  /// back and the next sync sends that value, while what the phone changed elsewhere (another
  /// field, another task) stays, on both sides.
  @Test func undoingAConflictTakesBackOnlyTheChoice() throws {
    let bench = SyncBench()
    bench.server.put("phone-3.ics", vtodo("phone-3", "SUMMARY:Buy milk"))
    bench.server.put("phone-4.ics", vtodo("phone-4", "SUMMARY:Call Mum"))
    _ = try bench.sync()
    #expect(bench.lines == ["Buy milk uid:phone-3", "Call Mum uid:phone-4"])
    // Both sides change the title of one task; the phone also gives it a due date and
    // completes the other task.
    bench.write("Buy milk and bread uid:phone-3\nCall Mum uid:phone-4\n")
    bench.server.put("phone-3.ics", vtodo("phone-3", "SUMMARY:Buy oat milk\nDUE;VALUE=DATE:20260620"))
    bench.server.put("phone-4.ics", vtodo("phone-4", "SUMMARY:Call Mum\nSTATUS:COMPLETED\nCOMPLETED:20260609T120000Z"))
    let result = try bench.sync()
    #expect(result.plan.conflicts.map(\.uid) == ["phone-3"])
    #expect(bench.lines == ["Buy oat milk uid:phone-3 due:2026-06-20", "x 2026-06-09 Call Mum uid:phone-4"])
    let undone = try bench.store.undo(1, files: [bench.todoFile, bench.doneFile])
    #expect(undone.count == 1)
    #expect(bench.lines == ["Buy milk and bread uid:phone-3 due:2026-06-20", "x 2026-06-09 Call Mum uid:phone-4"])
    _ = try bench.sync()
    #expect(bench.serverTasks["phone-3"]?.title == "Buy milk and bread")
    #expect(bench.serverTasks["phone-3"]?.due == TaskDate("2026-06-20"))
    #expect(bench.serverTasks["phone-4"]?.isCompleted == true)
    bench.expectConsistent()
  }

  @Test func aDryRunChangesNothingAnywhere() throws {
    let bench = SyncBench()
    bench.write("Buy milk\n")
    bench.server.put("phone-3.ics", vtodo("phone-3", "SUMMARY:Book flights"))
    let result = try bench.sync(dryRun: true)
    #expect(result.plan.serverOperations.count == 1)
    #expect(result.plan.localEdits.count == 2)
    #expect(bench.read() == "Buy milk\n")
    #expect(bench.server.writes == 0)
    #expect(!FileManager.default.fileExists(atPath: bench.folder + "/state/caldav"))
  }

  @Test(arguments: [0, 1, 2, 3, 4, 5])
  func aSyncCutOffAtAnyRequestIsFinishedByTheNext(requests: Int) throws {
    let bench = SyncBench()
    bench.write("Buy milk\nCall Mum\nBook flights\nWater plants\n")
    _ = try bench.sync()
    bench.write("Buy milk uid:uid-1 +shop\nCall Mum uid:uid-2\nWater plants uid:uid-4\nPay bills\nFix bike\n")
    bench.server.put("phone-4.ics", vtodo("phone-4", "SUMMARY:New from phone"))
    bench.server.put("uid-2.ics", vtodo("uid-2", "SUMMARY:Call Mum\nPRIORITY:1"))
    bench.server.requestsLeft = requests
    #expect(throws: SyncError.self) { try bench.sync() }
    bench.server.requestsLeft = nil
    _ = try bench.sync()
    bench.expectConsistent("cut after \(requests) requests")
    let titles = bench.listTasks.values.map(\.title).sorted()
    #expect(titles == ["Buy milk +shop", "Call Mum", "Fix bike", "New from phone", "Pay bills", "Water plants"])
    #expect(bench.listTasks["uid-2"]?.priority == Priority("A"))
    #expect(try bench.sync().plan.isEmpty)
  }

  @Test func aDamagedStateIsAFirstSyncThatDeletesNothing() throws {
    let bench = SyncBench()
    bench.write("Buy milk\nCall Mum\n")
    _ = try bench.sync()
    let stateFolder = bench.folder + "/state/caldav"
    let name = try #require(try FileManager.default.contentsOfDirectory(atPath: stateFolder).first)
    let path = stateFolder + "/" + name
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    // Cut short, then a forged record with a good shape but no checksum of ours.
    try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
    bench.write("Buy milk uid:uid-1\n")
    let result = try bench.sync()
    #expect(result.stateProblem != nil)
    #expect(bench.serverTasks.count == 2)
    #expect(bench.listTasks.count == 2)
    bench.expectConsistent()
  }

  @Test func anEmptiedCollectionIsRefusedUntilConfirmed() throws {
    let bench = SyncBench()
    bench.write("Buy milk\nCall Mum\n")
    _ = try bench.sync()
    bench.server.removeAll()
    #expect(throws: SyncError.self) { try bench.sync() }
    #expect(bench.lines.count == 2)
    _ = try bench.sync(confirmed: true)
    #expect(bench.read().isEmpty)
  }

  @Test func anItemThatDoesNotReadIsReportedAndLeftAlone() throws {
    let bench = SyncBench()
    bench.write("Buy milk\n")
    bench.server.put("bad.ics", Array("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY:\u{0}\u{1B}[31m\r\n".utf8) + [0xFF, 0xFE])
    let result = try bench.sync()
    #expect(result.problems.count == 1)
    #expect(result.problems.first?.hasPrefix(InMemoryCollection.base + "bad.ics: ") == true)
    #expect(bench.server.bodies.count == 2)
    #expect(bench.lines.count == 1)
  }

  @Test func hostileTextFromThePhoneStaysOneLine() throws {
    let bench = SyncBench()
    var random = SplitMix64(seed: 37)
    let noise = AwkwardLines.line(&random)
    let summary = "Call\\nMum\r\n \u{0}\u{1B}]0;x\u{7}\u{85}" + String(decoding: noise, as: UTF8.self)
      + String(repeating: "y", count: 1 << 20)
    bench.server.put("h.ics", Array(vtodo("h", "SUMMARY:" + summary).utf8))
    _ = try bench.sync()
    #expect(bench.lines.count == 1)
    #expect(!bench.read().contains("\u{1B}"))
    #expect(!bench.read().contains("\u{0}"))
    #expect(try bench.sync().plan.isEmpty)
  }

  @Test func aPhoneCompletingAnOccurrenceBesideTheSeriesEndsAsOneCompletionAndOneNext() throws {
    let bench = SyncBench()
    bench.write("Water plants due:2026-06-10 rec:+1w\n")
    _ = try bench.sync()
    let series = "SUMMARY:Water plants\nDUE;VALUE=DATE:20260610\nRRULE:FREQ=WEEKLY\nSTATUS:NEEDS-ACTION"
    let occurrence =
      "END:VTODO\nBEGIN:VTODO\nUID:uid-1\nDTSTAMP:20260610T100000Z\nRECURRENCE-ID;VALUE=DATE:20260610\nSUMMARY:Water plants\nDUE;VALUE=DATE:20260610\nSTATUS:COMPLETED\nCOMPLETED:20260610T090000Z"
    bench.server.put("uid-1.ics", vtodo("uid-1", series + "\n" + occurrence))
    _ = try bench.sync()
    bench.expectConsistent()
    let open = bench.listTasks.values.filter { !$0.isCompleted }
    let done = bench.listTasks.values.filter(\.isCompleted)
    #expect(open.map(\.due) == [TaskDate("2026-06-17")])
    #expect(done.map(\.due) == [TaskDate("2026-06-10")])
    #expect(!bench.server.bodies.joined().contains("RECURRENCE-ID"))
    #expect(try bench.sync().plan.isEmpty)
  }
}

@Suite struct SyncStateFileTests {
  let file = SyncStateFile(stateDirectory: NSTemporaryDirectory() + "state-\(UUID().uuidString)", list: "/l/todo.txt", collection: "http://h/c/")

  var state: SyncState {
    var fields = TaskFields(title: "Call\r\nMum \u{0}\u{1B}", priority: Priority("B"), projects: ["a", "b"], due: TaskDate("2026-01-02"))
    fields.isCompleted = true
    fields.recurrence = Recurrence("+1w")
    fields.note = String(repeating: "n", count: 100_000)
    let record = SyncRecord(
      uid: "u:1 x", version: RemoteVersion(href: "/c/u.ics", etag: "\"1\""), fields: fields, serverCopy: [0xFF, 0x00, 0x0A, 0x0D])
    return SyncState(list: "/l/todo.txt", collection: "http://h/c/", token: "t\n1", records: ["u:1 x": record])
  }

  @Test func aStateReadsBackAsItWasWritten() throws {
    try file.save(state)
    let loaded = file.load()
    #expect(loaded.problem == nil)
    #expect(loaded.state == state)
  }

  @Test func aStateCutShortOrChangedAnywhereIsNotUsed() throws {
    try file.save(state)
    let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: file.path)))
    var random = SplitMix64(seed: 9)
    for _ in 0..<40 {
      var damaged = bytes
      if random.below(2) == 0 {
        damaged = Array(damaged.prefix(random.below(damaged.count)))
      } else {
        damaged[random.below(damaged.count)] ^= UInt8(1 + random.below(255))
      }
      try Data(damaged).write(to: URL(fileURLWithPath: file.path))
      let loaded = file.load()
      #expect(loaded.problem != nil)
      #expect(loaded.state.records.isEmpty)
    }
  }

  @Test func aStateOfAnotherListIsNotUsed() throws {
    let other = SyncStateFile(stateDirectory: file.folderPath.replacingOccurrences(of: "/caldav", with: ""), list: "/other/todo.txt", collection: "http://h/c/")
    try other.save(SyncState(list: "/other/todo.txt", collection: "http://h/c/", records: state.records))
    // Planted under this list's name: its checksum is good, its names are not.
    try FileManager.default.copyItem(atPath: other.path, toPath: file.path)
    let loaded = file.load()
    #expect(loaded.problem == .foreign)
    #expect(loaded.state.records.isEmpty)
  }

  @Test func garbageIsNotAState() {
    var random = SplitMix64(seed: 4)
    for _ in 0..<200 {
      let bytes = (0..<random.below(300)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      #expect(throws: SyncStateError.self) { try SyncState(parsing: bytes) }
    }
    let huge = Array(SyncState.formatName.utf8) + [0x0A] + Array("list 99999999999\n".utf8)
    #expect(throws: SyncStateError.self) { try SyncState(parsing: huge) }
  }
}

extension CalDAVSyncTests {
  @Test func dependenciesAreRelatedByUIDOnTheServer() throws {
    let bench = SyncBench()
    bench.write("Book flights id:trip\nPack bags p:trip\n")
    _ = try bench.sync()
    let parent = try #require(bench.listTasks.first { $0.value.title == "Book flights" }?.key)
    let child = try #require(bench.server.bodies.first { $0.contains("SUMMARY:Pack bags") })
    #expect(child.contains("RELATED-TO;RELTYPE=PARENT:\(parent)") || child.contains("RELATED-TO:\(parent)"))
    #expect(try bench.sync().plan.isEmpty)
    #expect(bench.lines.last?.contains("p:trip") == true)
  }
}
