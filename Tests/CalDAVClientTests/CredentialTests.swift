import CalDAVClient
import Foundation
import Testing
import TodoTestSupport
import TodoCalendar

/// Logins: sent only after a 401, from a command, a netrc file or a prompt, in that order;
/// refused passwords and failing commands are one-line authentication errors.
@Suite struct CredentialTests {
  static func temporaryFile(_ text: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "netrc-\(UUID().uuidString)"
    ).path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func credentialsGoOnlyAfterA401AndThenStay() throws {
    let expected = "Basic " + Data("alice:pa ss:wörd".utf8).base64EncodedString()
    let server = try ScriptedServer { request in
      guard request.headers["authorization"] == expected else {
        return .http(401, [("WWW-Authenticate", "Basic realm=\"cal\"")], [])
      }
      return .http(204, [], [])
    }
    defer { server.stop() }
    let prompt = ScriptedPrompt("pa ss:wörd")
    let collection = try CalDAVCollection(
      url: ServerURL("http://alice@127.0.0.1:\(server.port)/cal/"),
      environment: .testing(prompt: prompt))
    try collection.delete(RemoteVersion(href: "a.ics", etag: "\"1\""))
    try collection.delete(RemoteVersion(href: "b.ics", etag: "\"1\""))
    #expect(server.requests.map { $0.headers["authorization"] } == [nil, expected, expected])
    #expect(prompt.questions == ["alice@127.0.0.1"])
  }

  @Test func digestIsAnsweredWhenOffered() throws {
    let server = try ScriptedServer { request in
      guard let answer = request.headers["authorization"] else {
        return .http(
          401,
          [
            ("WWW-Authenticate", "Digest realm=\"cal\", nonce=\"abc\", qop=\"auth\", algorithm=MD5")
          ], [])
      }
      return answer.hasPrefix("Digest username=\"alice\"") && answer.contains("response=")
        ? .http(204, [], []) : .http(401, [], [])
    }
    defer { server.stop() }
    let collection = try CalDAVCollection(
      url: ServerURL("http://127.0.0.1:\(server.port)/cal/"), user: "alice",
      environment: .testing(variables: [
        "TODO_CALDAV_PASSWORD_COMMAND": "printf 'secret\\nsecond line\\n'"
      ]))
    try collection.delete(RemoteVersion(href: "a.ics", etag: "\"1\""))
    // Ours without a login, then the answer to its challenge: the kept handle read the
    // challenge already, so no second probe.
    #expect(server.requests.map { $0.headers["authorization"] == nil } == [true, false])
  }

  @Test func realServerLoginFromEachSource() throws {
    let server = try CalendarServer(.radicale, password: "s3cret pass")
    defer { server.stop() }
    try server.phone([["mkcalendar", "tasks", "Tasks", ["VTODO"]]])
    let url = try ServerURL(server.calendarURL("tasks"))
    let netrc = try Self.temporaryFile(
      "machine other.example login alice password nope\n# a comment\nmachine 127.0.0.1\n  login alice\n  password \"s3cret pass\"\n"
    )
    defer { try? FileManager.default.removeItem(atPath: netrc) }
    let sources: [CalDAVEnvironment] = [
      .testing(variables: [
        // The command is told whose password is wanted, and where.
        "TODO_CALDAV_PASSWORD_COMMAND":
          "test \"$TODO_CALDAV_USER@$TODO_CALDAV_HOST\" = alice@127.0.0.1 && echo 's3cret pass'"
      ]),
      .testing(variables: ["NETRC": netrc]),
      .testing(prompt: ScriptedPrompt("s3cret pass")),
    ]
    for environment in sources {
      let collection = try CalDAVCollection(url: url, user: "alice", environment: environment)
      let changes = try collection.changes(since: nil)
      #expect(changes == .full([], token: changes.token))
    }
    // netrc gives the user name too when none was given.
    #expect(throws: Never.self) {
      try CalDAVCollection(url: url, environment: .testing(variables: ["NETRC": netrc])).changes(
        since: nil)
    }
    #expect(throws: CalendarServerError.authentication("the server asked again (401)")) {
      try CalDAVCollection(
        url: url, user: "alice", environment: .testing(prompt: ScriptedPrompt("wrong"))
      )
      .changes(since: nil)
    }
  }

  @Test func missingOrFailingSourcesSayWhy() throws {
    let server = try ScriptedServer { _ in
      .http(401, [("WWW-Authenticate", "Basic realm=\"x\"")], [])
    }
    defer { server.stop() }
    func attempt(_ environment: CalDAVEnvironment, user: String? = "alice") throws {
      try CalDAVCollection(
        url: ServerURL(server.url + "/cal/"), user: user, environment: environment
      )
      .delete(RemoteVersion(href: "a.ics", etag: nil))
    }
    #expect(
      throws: CalendarServerError.authentication(
        "TODO_CALDAV_PASSWORD_COMMAND failed: exit status 3: no key ?here")
    ) {
      try attempt(
        .testing(variables: ["TODO_CALDAV_PASSWORD_COMMAND": "echo 'no key \u{1B}here' >&2; exit 3"]
        ))
    }
    #expect(
      throws: CalendarServerError.authentication(
        "TODO_CALDAV_PASSWORD_COMMAND failed: it printed no password")
    ) {
      try attempt(.testing(variables: ["TODO_CALDAV_PASSWORD_COMMAND": "true"]))
    }
    #expect(
      throws: CalendarServerError.authentication(
        "the server asks for a password and none could be had (set TODO_CALDAV_PASSWORD_COMMAND, add the host to netrc, or run on a terminal)"
      )
    ) {
      try attempt(.testing(variables: ["HOME": "/nonexistent"], prompt: ScriptedPrompt(nil)))
    }
    #expect(
      throws: CalendarServerError.authentication(
        "the server asks for a password and no user name is known (give it in the URL as https://name@host/ or as an option)"
      )
    ) {
      try attempt(.testing(prompt: ScriptedPrompt("x")), user: nil)
    }
    let odd = try ScriptedServer { _ in .http(401, [("WWW-Authenticate", "Negotiate")], []) }
    defer { odd.stop() }
    #expect(
      throws: CalendarServerError.authentication(
        "the server asks for an unsupported kind of login: negotiate")
    ) {
      try CalDAVCollection(
        url: ServerURL(odd.url + "/cal/"), user: "alice",
        environment: .testing(prompt: ScriptedPrompt("x"))
      )
      .delete(RemoteVersion(href: "a.ics", etag: nil))
    }
  }
}

/// HTTPS: the certificate is checked, against the system's authorities or a private CA file.
@Suite struct TransportSecurityTests {
  @Test func aPrivateAuthorityIsTrustedOnlyWhenGiven() throws {
    let server = try CalendarServer(.radicale, tls: true)
    defer { server.stop() }
    let authority = try #require(server.certificateAuthority)
    let url = try ServerURL(server.root + "alice/")
    func listing(_ file: String?) throws(CalendarServerError) -> RemoteChanges {
      let options = TransportOptions(certificateAuthorityFile: file, connectTimeout: .seconds(5))
      return try CalDAVCollection(
        url: url, user: "alice",
        environment: .testing(prompt: ScriptedPrompt("x"), transport: options)
      ).changes(since: nil)
    }
    #expect(throws: Never.self) { try listing(authority) }
    #expect(
      performing: { _ = try listing(nil) },
      throws: { error in
        guard case .tls(let why) = error as? CalendarServerError else { return false }
        return why.contains("certificate")
      })
    #expect(
      throws: CalendarServerError.tls(
        "the certificate authority file /nonexistent/ca.pem cannot be read")
    ) {
      try listing("/nonexistent/ca.pem")
    }
  }
}

/// Redirects from HTTPS: never to plain HTTP.
@Suite struct HTTPSRedirectTests {
  @Test func fromHTTPSToHTTPIsRefused() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("caldav-redirect-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let (process, port, authority) = try CalendarServer.redirecting(
      to: "http://127.0.0.1:9/dav/", folder: folder)
    defer {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    let discovery = try CalDAVDiscovery(
      url: ServerURL("https://127.0.0.1:\(port)/"),
      environment: .testing(transport: TransportOptions(certificateAuthorityFile: authority)))
    #expect(
      throws: CalendarServerError.insecure(
        "the server redirects from https to plain http (http://127.0.0.1:9/dav/)")
    ) { try discovery.run() }
  }
}

extension RemoteChanges {
  var token: String? {
    switch self {
    case .delta(_, _, let token): return token
    case .full(_, let token): return token
    }
  }
}
