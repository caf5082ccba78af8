import Foundation
import Testing
import TodoCalendar
import TodoTestSupport

@testable import CalDAVClient

/// A login costs its round trips once, not on every request: against a server that checks
/// Digest (each nonce count once) or Basic logins, the requests it answers are counted.
@Suite struct LoginRoundTripTests {
  struct Answered: Decodable {
    var method: String
    var status: Int
    var authorization: String
  }

  /// The login server (Fixtures/login_server.py) on a free port; stopped by the caller.
  static func start(_ scheme: String, log: URL) throws -> (Process, Int) {
    try CalendarServer.require(CalendarServer.python, ["-c", "import hashlib"], package: "python3")
    let port = try CalendarServer.freePort()
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/login_server.py")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CalendarServer.python)
    process.arguments = [script.path, String(port), scheme, "alice", "pa ss\"wörd", log.path]
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let deadline = ContinuousClock.now + .seconds(20)
    while !CalendarServer.accepts(port: port) {
      guard process.isRunning, ContinuousClock.now < deadline else {
        throw CalendarServer.MissingServer(description: "login_server.py did not start")
      }
      usleep(20_000)
    }
    return (process, port)
  }

  @Test(arguments: ["digest", "basic"])
  func aLoginIsPaidOnceForTheSession(scheme: String) throws {
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("login-\(UUID().uuidString).log")
    defer { try? FileManager.default.removeItem(at: log) }
    let (server, port) = try Self.start(scheme, log: log)
    defer {
      kill(server.processIdentifier, SIGKILL)
      server.waitUntilExit()
    }
    let collection = try CalDAVCollection(
      url: ServerURL("http://127.0.0.1:\(port)/cal/tasks/"), user: "alice",
      environment: .testing(variables: ["TODO_CALDAV_PASSWORD_COMMAND": "printf '%s' 'pa ss\"wörd'"]))
    // A sync's worth of requests: the report, writes, a delete, the report again.
    _ = try collection.changes(since: nil)
    var written: [RemoteVersion] = []
    for index in 0..<6 {
      written.append(
        try collection.create(name: "t\(index).ics", body: CalDAVCollectionTests.vtodo("t\(index)", "task \(index)")))
    }
    try collection.delete(written[0])
    _ = try collection.update(written[1], body: CalDAVCollectionTests.vtodo("t1", "changed"))
    _ = try collection.changes(since: nil)
    let sent = 10

    let answered = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map {
      try JSONDecoder().decode(Answered.self, from: Data($0.utf8))
    }
    let refused = answered.filter { $0.status == 401 }
    // Ours without a login, and no other: the kept handle read the Digest challenge of that
    // first answer, and answers it with the password once it has one.
    #expect(refused.count == 1, "\(answered.map { "\($0.method) \($0.status)" })")
    #expect(answered.count == sent + refused.count)
    // After the login, each request goes once, with the login, and is answered.
    let afterLogin = answered.drop { $0.status == 401 || $0.authorization.isEmpty }
    #expect(afterLogin.count == sent)
    #expect(afterLogin.allSatisfy { $0.authorization == scheme && (200..<300).contains($0.status) })
    #expect(collection.requestCount == sent + 1)
  }
}
