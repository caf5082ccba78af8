import Foundation
import Testing
import TodoTestSupport

func ics(_ uid: String, _ lines: String) -> String {
  ("BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//phone//EN\nBEGIN:VTODO\nUID:\(uid)\nDTSTAMP:20260601T100000Z\n\(lines)\nEND:VTODO\nEND:VCALENDAR\n")
    .replacingOccurrences(of: "\n", with: "\r\n")
}

/// `todo caldav` against Radicale and Xandikos, with python3-caldav as the phone. One server
/// of each kind serves the whole suite; each test syncs a calendar of its own.
@Suite(.sharedCalendarServers) struct CalDAVCommandTests {
  static let kinds = CalendarServer.Kind.allCases

  /// A sandbox set up with `todo caldav setup` for a new task calendar of the server.
  func setUp(_ kind: CalendarServer.Kind) throws -> (Sandbox, CalendarServer, String) {
    let server = try SharedCalendarServers.server(kind)
    let calendar = try server.makeTaskCalendar()
    let box = try Sandbox()
    box.environment["TODO_CALDAV_PASSWORD_COMMAND"] = "echo '\(server.password)'"
    let setup = try box.todo("caldav", "setup", calendar, "--user", server.user)
    #expect(setup.status == 0, "\(setup.stderr)")
    #expect(box.read("todo.cfg").contains("export TODO_CALDAV_URL='\(calendar)'"))
    #expect(!box.read("todo.cfg").contains(server.password), "no password in the configuration")
    return (box, server, calendar)
  }

  /// The list's tasks by uid: tag, and the server's open or completed items by UID, match.
  func expectSame(
    _ box: Sandbox, _ server: CalendarServer, _ calendar: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    var list: [String: Bool] = [:]
    for line in (box.read("todo.txt") + box.read("done.txt")).split(separator: "\n") {
      let uid = line.split(separator: " ").first { $0.hasPrefix("uid:") }.map { String($0.dropFirst(4)) }
      #expect(uid != nil, "a line without uid: \(line)", sourceLocation: sourceLocation)
      if let uid { list[uid] = line.hasPrefix("x ") }
    }
    var remote: [String: Bool] = [:]
    for item in try server.dump(calendar) where !item.occurrence { remote[item.uid] = item.status == "COMPLETED" }
    #expect(list == remote, sourceLocation: sourceLocation)
  }

  /// A sync that found nothing to do on either side: it says so, and neither the list nor
  /// the collection changed (the collection's sync token moves with every write, so an
  /// unchanged token is a sync that sent no PUT and no DELETE).
  func expectIdle(
    _ box: Sandbox, _ server: CalendarServer, _ calendar: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let before = (box.read("todo.txt"), box.read("done.txt"), try server.phone([["token", calendar]]))
    let sync = try box.todo("caldav", "sync")
    #expect(sync.status == 0, "\(sync.stdout) \(sync.stderr)", sourceLocation: sourceLocation)
    #expect(sync.stdout.contains("changed the list +0 ~0 -0, the server +0 ~0 -0"), sourceLocation: sourceLocation)
    #expect(box.read("todo.txt") == before.0, sourceLocation: sourceLocation)
    #expect(box.read("done.txt") == before.1, sourceLocation: sourceLocation)
    #expect(try server.phone([["token", calendar]]) == before.2, "a write reached the server", sourceLocation: sourceLocation)
  }

  static func uid(_ line: some StringProtocol) -> String {
    line.split(separator: " ").first { $0.hasPrefix("uid:") }.map { String($0.dropFirst(4)) } ?? ""
  }

  /// Discovery from the server's root (each server's is tested in CalDAVDiscoveryTests).
  @Test func setupFromTheServerListsItsTaskCollections() throws {
    let server = try SharedCalendarServers.server(.radicale)
    let first = try server.makeTaskCalendar()
    let second = try server.makeTaskCalendar()
    let box = try Sandbox()
    box.environment["TODO_CALDAV_PASSWORD_COMMAND"] = "echo '\(server.password)'"
    let listed = try box.todo("caldav", "setup", server.root, "--user", server.user)
    #expect(listed.status == 2)
    #expect(listed.stderr.contains("  \(first)  "), "\(listed.stderr)")
    #expect(listed.stderr.contains("  \(second)  "), "\(listed.stderr)")
    #expect(!box.read("todo.cfg").contains("TODO_CALDAV_URL"))
    let chosen = try box.todo("caldav", "setup", second, "--user", server.user)
    #expect(chosen.status == 0, "\(chosen.stderr)")
    #expect(box.read("todo.cfg").contains("export TODO_CALDAV_URL='\(second)'"))
  }

  @Test(arguments: kinds)
  func twoWayEditsADryRunAndAConflict(kind: CalendarServer.Kind) throws {
    let (box, server, calendar) = try setUp(kind)
    try box.write("todo.txt", "(A) Call Mum due:2026-06-12\nBuy milk +shop\n")
    try server.phone([["save", calendar, ics("phone-1", "SUMMARY:Book flights\nPRIORITY:1\nX-PHONE:kept")]])
    var sync = try box.todo("caldav", "sync")
    #expect(sync.status == 0, "\(sync.stderr)")
    try expectSame(box, server, calendar)
    #expect(box.read("todo.txt").contains("(A) Book flights uid:phone-1"))

    // Both sides change different tasks; a dry run says so and changes nothing.
    let milk = try #require(box.read("todo.txt").split(separator: "\n").first { $0.contains("Buy milk") })
    try box.write("todo.txt", box.read("todo.txt").replacingOccurrences(of: milk, with: milk + " @store"))
    try server.phone([["edit", calendar, "phone-1", "SUMMARY", "Book flights to Lisbon"]])
    let before = (box.read("todo.txt"), try server.dump(calendar))
    let dry = try box.todo("caldav", "sync", "--dry-run")
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(dry.stdout.contains("would change the list +0 ~1 -0, the server +0 ~1 -0"))
    #expect(box.read("todo.txt") == before.0)
    #expect(try server.dump(calendar) == before.1)
    sync = try box.todo("caldav", "sync")
    #expect(sync.status == 0, "\(sync.stderr)")
    #expect(box.read("todo.txt").contains("(A) Book flights to Lisbon uid:phone-1"))
    #expect(try server.dump(calendar).contains { $0.summary == "Buy milk +shop @store" })

    // The same field changed differently on both: the server's kept, both reported.
    try box.write("todo.txt", box.read("todo.txt").replacingOccurrences(of: "Book flights to Lisbon", with: "Book flights to Porto"))
    try server.phone([["edit", calendar, "phone-1", "SUMMARY", "Book flights to Faro"]])
    sync = try box.todo("caldav", "sync")
    #expect(sync.status == 1)
    #expect(sync.stdout.contains("\"Book flights to Porto\" here"))
    #expect(sync.stdout.contains("\"Book flights to Faro\" on the server"))
    #expect(box.read("todo.txt").contains("Book flights to Faro"))
    // The list's value is one undo away, and the next sync sends it.
    #expect(try box.todo("undo").status == 0)
    #expect(box.read("todo.txt").contains("Book flights to Porto"))
    #expect(try box.todo("caldav", "sync").status == 0)
    #expect(try server.dump(calendar).contains { $0.summary == "Book flights to Porto" })
    try expectIdle(box, server, calendar)
    try expectSame(box, server, calendar)
    // The phone's own property is still on the item, after three writes of ours.
    #expect(try server.stored(calendar).contains { $0.contains("UID:phone-1") && $0.contains("X-PHONE:kept") })
  }

  /// What a phone does to tasks (adds one, edits, completes, deletes) reaches the list, and
  /// the sync after that one has nothing to do: no write to the server, no new `uid:`.
  @Test(arguments: kinds)
  func aPhonesAddEditCompletionAndDeletionReachTheList(kind: CalendarServer.Kind) throws {
    let (box, server, calendar) = try setUp(kind)
    try box.write("todo.txt", "Water plants\nPay rent +home\nFix bike\n")
    #expect(try box.todo("caldav", "sync").status == 0)
    let lines = box.read("todo.txt").split(separator: "\n").map(String.init)
    #expect(lines.count == 3)
    try expectIdle(box, server, calendar)
    let uids = lines.map(CalDAVCommandTests.uid)
    try server.phone([
      ["save", calendar, ics("phone-new", "SUMMARY:Book dentist\nDUE;VALUE=DATE:20260701")],
      ["edit", calendar, uids[0], "SUMMARY", "Water all plants"],
      ["complete", calendar, uids[1]],
      ["delete", calendar, uids[2]],
    ])
    let sync = try box.todo("caldav", "sync")
    #expect(sync.status == 0, "\(sync.stdout) \(sync.stderr)")
    let tasks = (box.read("todo.txt") + box.read("done.txt")).split(separator: "\n")
    #expect(tasks.count == 3, "\(tasks)")
    #expect(tasks.contains { $0.hasPrefix("Water all plants") && $0.contains("uid:\(uids[0])") }, "\(tasks)")
    #expect(tasks.contains { $0.hasPrefix("Book dentist") && $0.contains("due:2026-07-01") && $0.contains("uid:phone-new") })
    #expect(tasks.contains { $0.hasPrefix("x 2026-06-10 Pay rent +home") && $0.contains("uid:\(uids[1])") }, "\(tasks)")
    #expect(!tasks.contains { $0.contains("Fix bike") }, "\(tasks)")
    try expectSame(box, server, calendar)
    try expectIdle(box, server, calendar)
  }

  @Test(arguments: kinds)
  func deletedOnOneSideEditedOnTheOtherIsKept(kind: CalendarServer.Kind) throws {
    let (box, server, calendar) = try setUp(kind)
    try box.write("todo.txt", "Water plants\nPay rent\nFix bike\n")
    #expect(try box.todo("caldav", "sync").status == 0)
    let lines = box.read("todo.txt").split(separator: "\n").map(String.init)
    // Here: Water plants deleted, Pay rent edited. There: Pay rent deleted, Water plants edited.
    try box.write("todo.txt", lines[1] + " due:2026-07-01\n" + lines[2] + "\n")
    try server.phone([
      ["delete", calendar, CalDAVCommandTests.uid(lines[1])],
      ["edit", calendar, CalDAVCommandTests.uid(lines[0]), "SUMMARY", "Water all plants"],
    ])
    let sync = try box.todo("caldav", "sync")
    #expect(sync.status == 1)
    #expect(sync.stdout.contains("kept: Water all plants"))
    #expect(sync.stdout.contains("kept: Pay rent"))
    try expectSame(box, server, calendar)
    #expect(box.read("todo.txt").split(separator: "\n").count == 3)
  }

  @Test(arguments: kinds, ["safe", "thisandfuture", "copy"])
  func aRecurringTaskCompletedOnThePhoneIsOneCompletionAndOneNext(kind: CalendarServer.Kind, style: String) throws {
    let (box, server, calendar) = try setUp(kind)
    try server.phone([[
      "save", calendar,
      ics("water", "SUMMARY:Water plants\nDTSTART;VALUE=DATE:20260610\nDUE;VALUE=DATE:20260610\nRRULE:FREQ=WEEKLY\nSTATUS:NEEDS-ACTION"),
    ]])
    #expect(try box.todo("caldav", "sync").status == 0)
    switch style {
    case "copy":
      try server.phone([
        ["complete", calendar, "water", "plain"],
        ["save", calendar, ics("water-next", "SUMMARY:Water plants\nDTSTART;VALUE=DATE:20260617\nDUE;VALUE=DATE:20260617\nRRULE:FREQ=WEEKLY")],
      ])
    default:
      try server.phone([["complete", calendar, "water", style]])
    }
    let sync = try box.todo("caldav", "sync")
    #expect(sync.status == 0, "\(sync.stdout) \(sync.stderr)")
    let tasks = (box.read("todo.txt") + box.read("done.txt")).split(separator: "\n")
    #expect(tasks.filter { $0.hasPrefix("x ") }.count == 1, "\(tasks)")
    let open = tasks.filter { !$0.hasPrefix("x ") }
    #expect(open.count == 1, "\(tasks)")
    #expect(open.first?.contains("due:2026-06-17") == true, "\(tasks)")
    try expectSame(box, server, calendar)
    let items = try server.dump(calendar)
    #expect(items.filter { !$0.occurrence && $0.status == "COMPLETED" }.count == 1, "\(items)")
    #expect(items.allSatisfy { !$0.occurrence }, "\(items)")
    try expectIdle(box, server, calendar)
  }

  /// Two items with one UID (both servers refuse the second one themselves, so it is put in
  /// their storage, as a server that checks nothing holds it): reported with both, neither
  /// synced, nothing written, until one is gone.
  @Test(arguments: kinds)
  func aDuplicateUIDOnTheServerIsReportedAndLeftAlone(kind: CalendarServer.Kind) throws {
    let (box, server, calendar) = try setUp(kind)
    try box.write("todo.txt", "Pay rent\n")
    try server.phone([["save", calendar, ics("twice", "SUMMARY:Call Mum")]])
    // The server's own check: a second name for the UID is refused.
    let refused = try server.phone([["put", calendar, "twice-copy.ics", ics("twice", "SUMMARY:Call Dad")]])
    #expect(refused != "201" && refused != "204", "\(kind) took a second item with one UID")
    try server.plant("twice-copy.ics", in: calendar, ics("twice", "SUMMARY:Call Dad"))
    let token = try server.phone([["token", calendar]])
    #expect(try server.dump(calendar).filter { $0.uid == "twice" }.count == 2)

    let sync = try box.todo("caldav", "sync")
    #expect(sync.status == 1, "\(sync.stdout) \(sync.stderr)")
    let report = try #require(sync.stdout.split(separator: "\n").first { $0.hasPrefix("duplicate: 2 items") })
    #expect(report.contains("twice.ics") && report.contains("twice-copy.ics"), "\(report)")
    #expect(!box.read("todo.txt").contains("Call"))
    // Only the list's own task was sent.
    #expect(try server.dump(calendar).map(\.summary).sorted() == ["Call Dad", "Call Mum", "Pay rent"])
    #expect(try server.phone([["token", calendar]]) != token)
    let again = try box.todo("caldav", "sync")
    #expect(again.status == 1)
    #expect(again.stdout.contains("changed the list +0 ~0 -0, the server +0 ~0 -0"))
  }

  /// A collection emptied on the server (a phone's account reset) does not empty the list:
  /// the sync stops, says what it would delete, and does it only when confirmed.
  @Test(arguments: kinds)
  func anEmptiedCollectionIsRefusedUntilConfirmed(kind: CalendarServer.Kind) throws {
    let (box, server, calendar) = try setUp(kind)
    try box.write("todo.txt", "Water plants\nPay rent\n")
    #expect(try box.todo("caldav", "sync").status == 0)
    let synced = box.read("todo.txt")
    let uids = synced.split(separator: "\n").map(CalDAVCommandTests.uid)
    try server.phone(uids.map { ["delete", calendar, $0] })
    #expect(try server.dump(calendar).isEmpty)
    let refused = try box.todo("caldav", "sync")
    #expect(refused.status == 5, "\(refused.stdout) \(refused.stderr)")
    #expect(refused.stderr.contains("the collection is empty: syncing would delete 2 tasks of the list"))
    #expect(box.read("todo.txt") == synced)
    let confirmed = try box.todo("caldav", "sync", "--yes")
    #expect(confirmed.status == 0, "\(confirmed.stderr)")
    #expect(box.read("todo.txt").isEmpty)
    try expectIdle(box, server, calendar)
  }

  @Test(arguments: kinds)
  func aSyncKilledWhileWritingIsFinishedByTheNext(kind: CalendarServer.Kind) throws {
    let (box, server, calendar) = try setUp(kind)
    try box.write("todo.txt", (1...80).map { "Task number \($0)\n" }.joined())
    // The helper itself, as todo caldav runs it, killed while it sends the 80 new items.
    let helper = Process()
    helper.executableURL = Sandbox.productsDirectory.appendingPathComponent("todo-caldav")
    helper.arguments = ["sync"]
    helper.environment = box.environment.merging([
      "TODO_FILE": box.path("todo.txt"), "DONE_FILE": box.path("done.txt"), "TODO_CALDAV_URL": calendar,
      "TODO_CALDAV_USER": server.user,
    ]) { $1 }
    helper.standardOutput = FileHandle.nullDevice
    helper.standardError = FileHandle.nullDevice
    try helper.run()
    let deadline = ContinuousClock.now + .seconds(30)
    while server.storedCount(calendar) < 10, helper.isRunning, ContinuousClock.now < deadline {
      usleep(20_000)
    }
    kill(helper.processIdentifier, SIGKILL)
    helper.waitUntilExit()
    let sync = try box.todo("caldav", "sync")
    #expect(sync.status == 0, "\(sync.stderr)")
    try expectSame(box, server, calendar)
    #expect(try server.dump(calendar).count == 80)
    try expectIdle(box, server, calendar)
  }

  /// A sync state written by another program, with a checksum that matches, that aims the
  /// record of a task deleted on both sides at an item of another calendar with no entity
  /// tag (a trusting sync sends `DELETE` with `If-Match: *` there, as it did before states
  /// were checked): not used, the item stays, and the sync is a first sync.
  @Test func aPlantedStateCannotAimADeleteAtAnotherCalendar() throws {
    let (box, server, calendar) = try setUp(.radicale)
    try box.write("todo.txt", "Water plants\nPay rent\n")
    #expect(try box.todo("caldav", "sync").status == 0)
    let other = try server.makeTaskCalendar()
    #expect(try server.phone([["put", other, "victim.ics", ics("victim", "SUMMARY:Someone else's task")]]) == "201")
    let victim = try #require(URL(string: other)).path + "/victim.ics"
    let lines = box.read("todo.txt").split(separator: "\n").map(String.init)
    let rent = CalDAVCommandTests.uid(try #require(lines.first { $0.hasPrefix("Pay rent") }))
    // Deleted on both sides: the state's record of it is all that is left, and is aimed.
    try box.write("todo.txt", lines.filter { !$0.hasPrefix("Pay rent") }.joined(separator: "\n") + "\n")
    try server.phone([["delete", calendar, rent]])

    let folder = box.home.appendingPathComponent(".local/state/todo/caldav")
    let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".state") })
    let state = folder.appendingPathComponent(name)
    let forged = try PlantedState.retarget(Array(try Data(contentsOf: state)), uid: rent, href: victim)
    try Data(forged).write(to: state)

    let sync = try box.todo("caldav", "sync")
    #expect(sync.status == 0, "\(sync.stdout) \(sync.stderr)")
    #expect(sync.stdout.contains("the sync state was not trusted (an href outside the collection); synced as a first sync"))
    #expect(try server.dump(other).map(\.uid) == ["victim"])
    #expect(!box.read("todo.txt").contains("Pay rent"))
    try expectSame(box, server, calendar)
    try expectIdle(box, server, calendar)
  }

  @Test func aMissingHelperOrCollectionIsAClearError() throws {
    let box = try Sandbox()
    let unset = try box.todo("caldav", "sync")
    #expect(unset.status == 2)
    #expect(unset.stderr == "todo caldav: no collection: run 'todo caldav setup URL' first\n")
    // A copy of todo with no helper beside it and none on PATH.
    let alone = box.home.appendingPathComponent("alone")
    try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: Sandbox.binary, to: alone.appendingPathComponent("todo"))
    let run = try ChildProcess.run(
      alone.appendingPathComponent("todo").path, ["caldav", "sync"],
      environment: box.environment.merging(["PATH": "/usr/bin:/bin"]) { $1 })
    #expect(run.status == 1)
    let said = run.errors
    #expect(said == "todo: caldav needs its helper todo-caldav beside todo or on PATH; it was not found (make install puts it there)\n")
  }
}

/// Rewrites a sync state file as another program could: its fields changed, its checksum
/// computed again, so that only what is in it can give it away.
enum PlantedState {
  /// The state with the record of `uid` moved to `href` and its entity tag dropped.
  static func retarget(_ bytes: [UInt8], uid: String, href: String) throws -> [UInt8] {
    guard let end = bytes.firstIndex(of: 0x0A) else { throw CalendarServer.MissingServer(description: "not a state") }
    var body = Array(bytes[...end])
    var position = end + 1
    var record = ""
    while position < bytes.count {
      guard let lineEnd = bytes[position...].firstIndex(of: 0x0A) else { break }
      let header = String(decoding: bytes[position..<lineEnd], as: UTF8.self).split(separator: " ")
      guard header.count == 2, header[0] != "sha256", let length = Int(header[1]) else { break }
      let name = String(header[0])
      var value = Array(bytes[(lineEnd + 1)..<(lineEnd + 1 + length)])
      position = lineEnd + 1 + length + 1
      if name == "record" { record = String(decoding: value, as: UTF8.self) }
      if record == uid, name == "etag" { continue }
      if record == uid, name == "href" { value = Array(href.utf8) }
      body += Array("\(name) \(value.count)\n".utf8) + value + [0x0A]
    }
    let digest = try ChildProcess.run("/usr/bin/sha256sum", [], input: body)
    let hex = digest.output.prefix { $0 != " " }
    return body + Array("sha256 \(hex)\n".utf8)
  }
}
