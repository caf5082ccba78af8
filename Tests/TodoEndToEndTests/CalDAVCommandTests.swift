import Foundation
import Testing

/// Radicale on a free loopback port in a temporary folder, for one test; stopped at its end.
final class RadicaleFixture: @unchecked Sendable {
  struct Missing: Error, CustomStringConvertible { var description: String }

  static let python = "/usr/bin/python3"
  let folder: URL
  let port: Int
  private let process = Process()

  init() throws {
    for (module, package) in [("radicale", "radicale"), ("caldav", "python3-caldav")] {
      let check = try RadicaleFixture.run(RadicaleFixture.python, ["-c", "import \(module)"])
      guard check.status == 0 else {
        throw Missing(description: "\(package) is needed by this test and is not installed: apt-get install \(package) (.ci/run installs it)")
      }
    }
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("radicale-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    port = RadicaleFixture.freePort()
    process.executableURL = URL(fileURLWithPath: RadicaleFixture.python)
    process.arguments = [
      "-m", "radicale", "--server-hosts", "127.0.0.1:\(port)", "--auth-type", "none",
      "--storage-filesystem-folder", folder.appendingPathComponent("storage").path, "--logging-level", "warning",
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let deadline = ContinuousClock.now + .seconds(20)
    while !RadicaleFixture.accepts(port) {
      guard process.isRunning, ContinuousClock.now < deadline else { throw Missing(description: "radicale did not start") }
      usleep(30_000)
    }
  }

  deinit {
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(at: folder)
  }

  var root: String { "http://127.0.0.1:\(port)/" }

  /// Runs the phone; its standard output.
  @discardableResult
  func phone(_ actions: [[Any]]) throws -> String {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/caldav_phone.py")
    let json = String(decoding: try JSONSerialization.data(withJSONObject: actions), as: UTF8.self)
    let result = try RadicaleFixture.run(RadicaleFixture.python, [script.path, root, json])
    guard result.status == 0 else { throw Missing(description: "the phone failed: \(result.errors.suffix(1500))") }
    return result.output
  }

  /// The items as the server keeps them on disk.
  func stored() throws -> [String] {
    let enumerator = FileManager.default.enumerator(atPath: folder.path)
    var bodies: [String] = []
    while let path = enumerator?.nextObject() as? String {
      // Radicale's own cache holds files named as the items too, in a binary form.
      guard path.hasSuffix(".ics"), !path.contains(".Radicale.cache") else { continue }
      bodies.append(try String(contentsOfFile: folder.appendingPathComponent(path).path, encoding: .utf8))
    }
    return bodies
  }

  struct Item: Decodable, Equatable {
    var uid: String
    var summary: String
    var status: String
    var due: String
    var occurrence: Bool
  }

  func dump(_ calendar: String) throws -> [Item] {
    try JSONDecoder().decode([Item].self, from: Data(try phone([["dump", calendar]]).utf8))
  }

  static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let output = out.fileHandleForReading.readDataToEndOfFile()
    let errors = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
  }

  static func freePort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  static func accepts(_ port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    } == 0
  }
}

func ics(_ uid: String, _ lines: String) -> String {
  ("BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//phone//EN\nBEGIN:VTODO\nUID:\(uid)\nDTSTAMP:20260601T100000Z\n\(lines)\nEND:VTODO\nEND:VCALENDAR\n")
    .replacingOccurrences(of: "\n", with: "\r\n")
}

/// `todo caldav` against Radicale, with python3-caldav as the phone.
@Suite(.serialized) struct CalDAVCommandTests {
  /// A sandbox set up with `todo caldav setup` for a new task calendar.
  func setUp() throws -> (Sandbox, RadicaleFixture, String) {
    let server = try RadicaleFixture()
    let calendar = try server.phone([["mkcalendar", "tasks"]]).trimmingCharacters(in: .whitespacesAndNewlines)
    let box = try Sandbox()
    box.environment["TODO_CALDAV_PASSWORD_COMMAND"] = "echo x"
    let setup = try box.todo("caldav", "setup", server.root, "--user", "alice")
    #expect(setup.status == 0, "\(setup.stderr)")
    #expect(box.read("todo.cfg").contains("export TODO_CALDAV_URL='\(calendar)'"))
    #expect(!box.read("todo.cfg").contains("x'"), "no password in the configuration")
    return (box, server, calendar)
  }

  /// The list's tasks by uid: tag, and the server's open or completed items by UID, match.
  func expectSame(_ box: Sandbox, _ server: RadicaleFixture, _ calendar: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
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

  @Test func twoWayEditsADryRunAndAConflict() throws {
    let (box, server, calendar) = try setUp()
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
    let again = try box.todo("caldav", "sync")
    #expect(again.stdout.contains("changed the list +0 ~0 -0, the server +0 ~0 -0"))
    try expectSame(box, server, calendar)
    // The phone's own property is still on the item, after three writes of ours.
    #expect(try server.stored().contains { $0.contains("UID:phone-1") && $0.contains("X-PHONE:kept") })
  }

  @Test func deletedOnOneSideEditedOnTheOtherIsKept() throws {
    let (box, server, calendar) = try setUp()
    try box.write("todo.txt", "Water plants\nPay rent\nFix bike\n")
    #expect(try box.todo("caldav", "sync").status == 0)
    let lines = box.read("todo.txt").split(separator: "\n").map(String.init)
    let uid = { (line: String) in String(line.split(separator: " ").first { $0.hasPrefix("uid:") }!.dropFirst(4)) }
    // Here: Water plants deleted, Pay rent edited. There: Pay rent deleted, Water plants edited.
    try box.write("todo.txt", lines[1] + " due:2026-07-01\n" + lines[2] + "\n")
    try server.phone([
      ["delete", calendar, uid(lines[1])], ["edit", calendar, uid(lines[0]), "SUMMARY", "Water all plants"],
    ])
    let sync = try box.todo("caldav", "sync")
    #expect(sync.status == 1)
    #expect(sync.stdout.contains("kept: Water all plants"))
    #expect(sync.stdout.contains("kept: Pay rent"))
    try expectSame(box, server, calendar)
    #expect(box.read("todo.txt").split(separator: "\n").count == 3)
  }

  @Test(arguments: ["safe", "thisandfuture", "copy"])
  func aRecurringTaskCompletedOnThePhoneIsOneCompletionAndOneNext(style: String) throws {
    let (box, server, calendar) = try setUp()
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
    #expect(try box.todo("caldav", "sync").stdout.contains("changed the list +0 ~0 -0, the server +0 ~0 -0"))
  }

  @Test func aSyncKilledWhileWritingIsFinishedByTheNext() throws {
    let (box, server, calendar) = try setUp()
    try box.write("todo.txt", (1...80).map { "Task number \($0)\n" }.joined())
    // The helper itself, as todo caldav runs it, killed while it sends the 80 new items.
    let helper = Process()
    helper.executableURL = Sandbox.productsDirectory.appendingPathComponent("todo-caldav")
    helper.arguments = ["sync"]
    helper.environment = box.environment.merging([
      "TODO_FILE": box.path("todo.txt"), "DONE_FILE": box.path("done.txt"), "TODO_CALDAV_URL": calendar,
      "TODO_CALDAV_USER": "alice",
    ]) { $1 }
    helper.standardOutput = FileHandle.nullDevice
    helper.standardError = FileHandle.nullDevice
    try helper.run()
    let deadline = ContinuousClock.now + .seconds(30)
    while ((try? server.dump(calendar).count) ?? 0) < 10, helper.isRunning, ContinuousClock.now < deadline {
      usleep(20_000)
    }
    kill(helper.processIdentifier, SIGKILL)
    helper.waitUntilExit()
    let sync = try box.todo("caldav", "sync")
    #expect(sync.status == 0, "\(sync.stderr)")
    try expectSame(box, server, calendar)
    #expect(try server.dump(calendar).count == 80)
    #expect(try box.todo("caldav", "sync").stdout.contains("changed the list +0 ~0 -0, the server +0 ~0 -0"))
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
    let process = Process()
    process.executableURL = alone.appendingPathComponent("todo")
    process.arguments = ["caldav", "sync"]
    process.environment = box.environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 1)
    #expect(said == "todo: caldav needs its helper todo-caldav beside todo or on PATH; it was not found (make install puts it there)\n")
  }
}
