import CalDAVClient
import Foundation
import Testing
import TodoCalendar
import TodoTestSupport

/// What a broken or hostile server can send, from a scripted server on loopback: each ends
/// in a typed error (or a sane result), in bounded time and memory.
@Suite struct HostileReplyTests {
  static let patient = TransportOptions(
    connectTimeout: .seconds(2), stallTimeout: .seconds(1), requestTimeout: .seconds(20))

  static func collection(_ server: ScriptedServer, prompt: ScriptedPrompt? = nil)
    throws(CalendarServerError)
    -> CalDAVCollection
  {
    try CalDAVCollection(
      url: ServerURL(server.url + "/cal/"), user: "alice",
      environment: .testing(prompt: prompt, transport: patient))
  }

  /// A listing reply: the REPORT refused, so the client lists by PROPFIND.
  static func listing(_ body: @escaping @Sendable () -> ScriptedServer.Reply) throws
    -> ScriptedServer
  {
    try ScriptedServer { request in
      request.method == "REPORT" ? .http(501, [], []) : body()
    }
  }

  static func isInvalidResponse(_ error: any Error) -> Bool {
    if case .invalidResponse = error as? CalendarServerError { return true }
    return false
  }

  static func isUnreachable(_ error: any Error) -> Bool {
    if case .unreachable = error as? CalendarServerError { return true }
    return false
  }

  @Test(arguments: [
    "<multistatus xmlns='DAV:'><response>",
    "<multistatus xmlns='DAV:'><response><href>/a</href></response></multistatus><extra/>",
    "not xml at all",
    "<a:multistatus xmlns:a='DAV:'><a:response><a:href>/cal/x.ics</a:href></a:response></b:multistatus>",
    "<multistatus xmlns='urn:other'><response/></multistatus>",
    "<multistatus xmlns='DAV:'><response><propstat><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>",
    "\u{0}\u{1B}[2J<multistatus xmlns='DAV:'/>",
  ])
  func malformedXMLIsATypedError(body: String) throws {
    let server = try Self.listing { .multistatus(body) }
    defer { server.stop() }
    #expect(
      performing: { _ = try Self.collection(server).changes(since: nil) },
      throws: Self.isInvalidResponse)
  }

  /// Radicale stores a phone's ESC in a DESCRIPTION and sends it raw inside its XML, which
  /// XML 1.0 has no place for: the item reads, with U+FFFD where the control characters were.
  @Test func controlCharactersInAnItemDoNotMakeTheReplyUnreadable() throws {
    let item =
      "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:a\r\nSUMMARY:Call\u{1B}[31m Mum&#27;&#x1b;&#0000000000027;&#xD800;\u{0}\r\n"
      + "DESCRIPTION:tab\tstays &#9;&amp;\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
    let body =
      "<multistatus xmlns='DAV:' xmlns:C='urn:ietf:params:xml:ns:caldav'><response><href>/cal/a.ics</href>"
      + "<propstat><prop><getetag>\"1\"</getetag><C:calendar-data>\(item)</C:calendar-data></prop>"
      + "<status>HTTP/1.1 200 OK</status></propstat></response></multistatus>"
    let server = try ScriptedServer { _ in .multistatus(body) }
    defer { server.stop() }
    let items = try Self.collection(server).fetch(["/cal/a.ics"])
    #expect(items.count == 1)
    let text = String(decoding: items.first?.body ?? [], as: UTF8.self)
    #expect(text.contains("SUMMARY:Call\u{FFFD}[31m Mum\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\r\n"), "\(text)")
    #expect(text.contains("DESCRIPTION:tab\tstays \t&\r\n"), "\(text)")
  }

  @Test func entityExpansionIsRefusedBeforeParsing() throws {
    var laughs = "<?xml version='1.0'?><!DOCTYPE lolz [<!ENTITY lol 'lol'>"
    for level in 1...9 {
      laughs +=
        "<!ENTITY lol\(level) '"
        + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10) + "'>"
    }
    laughs += "]><multistatus xmlns='DAV:'><response><href>&lol9;</href></response></multistatus>"
    let external =
      "<?xml version='1.0'?><!DOCTYPE m [<!ENTITY x SYSTEM 'file:///etc/passwd'>]><multistatus xmlns='DAV:'><response><href>/cal/&x;</href></response></multistatus>"
    for body in [laughs, external] {
      let server = try Self.listing { .multistatus(body) }
      defer { server.stop() }
      let start = ContinuousClock.now
      #expect(
        throws: CalendarServerError.invalidResponse(
          "the XML has a document type declaration (entities are refused)")
      ) {
        try Self.collection(server).changes(since: nil)
      }
      #expect(ContinuousClock.now - start < .seconds(5))
    }
  }

  @Test func deepNestingStopsAtTheLimit() throws {
    let depth = 200_000
    let body =
      "<multistatus xmlns='DAV:'>" + String(repeating: "<a>", count: depth)
      + String(repeating: "</a>", count: depth) + "</multistatus>"
    let server = try Self.listing { .multistatus(body) }
    defer { server.stop() }
    let start = ContinuousClock.now
    #expect(
      performing: { _ = try Self.collection(server).changes(since: nil) },
      throws: Self.isInvalidResponse)
    // Bounded: parsing stops at the limit (the slack is for a machine running tests in parallel).
    #expect(ContinuousClock.now - start < .seconds(10))
  }

  @Test func aReplyOverTheLimitStopsAtTheLimit() throws {
    let chunk = Array(
      String(repeating: "<response><href>/cal/x.ics</href></response>", count: 2000).utf8)
    let server = try Self.listing {
      .stream(207, [("Content-Type", "application/xml")], length: 65 << 20, chunk: chunk)
    }
    defer { server.stop() }
    let collection = try CalDAVCollection(
      url: ServerURL(server.url + "/cal/"), environment: .testing(transport: Self.patient))
    #expect(throws: CalendarServerError.invalidResponse("the reply is larger than 64 MiB")) {
      try collection.changes(since: nil)
    }
  }

  @Test func tenMegabytePropertyValuesAreRead() throws {
    var generator = SplitMix64(seed: 10)
    // XML-safe text from the awkward corpus: controls and invalid UTF-8 dropped, markup escaped.
    let huge = String(decoding: AwkwardLines.hugeLine(&generator, megabytes: 10), as: UTF8.self)
      .unicodeScalars.filter {
        $0.value >= 0x20 && $0 != "\u{FFFD}" && !(0x7F..<0xA0).contains($0.value)
      }
      .map(String.init).joined()
    let escaped = huge.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
      of: "<", with: "&lt;")
    let server = try ScriptedServer { _ in
      .multistatus(
        "<d:multistatus xmlns:d='DAV:' xmlns:c='urn:ietf:params:xml:ns:caldav'><d:response><d:href>/cal/x.ics</d:href><d:propstat><d:prop><d:getetag>\"1\"</d:getetag><c:calendar-data>\(escaped)</c:calendar-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>"
      )
    }
    defer { server.stop() }
    let start = ContinuousClock.now
    let items = try Self.collection(server).fetch(["/cal/x.ics"])
    #expect(items.count == 1)
    #expect(items.first?.body.count == huge.utf8.count)
    #expect(ContinuousClock.now - start < .seconds(10))
  }

  @Test func wrongContentTypeAndMissingBodies() throws {
    let html = try Self.listing {
      .http(207, [("Content-Type", "text/html")], Array("<html>hi</html>".utf8))
    }
    defer { html.stop() }
    #expect(throws: CalendarServerError.invalidResponse("expected XML, got text/html")) {
      try Self.collection(html).changes(since: nil)
    }
    let empty = try Self.listing {
      .raw(
        Array(
          "HTTP/1.1 207 Multi-Status\r\nContent-Type: application/xml\r\nContent-Length: 0\r\n\r\n"
            .utf8))
    }
    defer { empty.stop() }
    #expect(throws: CalendarServerError.invalidResponse("a multistatus reply without a body")) {
      try Self.collection(empty).changes(since: nil)
    }
    let bare = try Self.listing { .raw(Array("HTTP/1.1 500 \u{1B}[31mBroken\r\n\r\n".utf8)) }
    defer { bare.stop() }
    #expect(throws: CalendarServerError.status(500, "?[31mBroken")) {
      try Self.collection(bare).changes(since: nil)
    }
  }

  @Test func aServerThatNeverAnswersTimesOut() throws {
    let server = try ScriptedServer { _ in .silence }
    defer { server.stop() }
    let start = ContinuousClock.now
    #expect(
      performing: { _ = try Self.collection(server).changes(since: nil) },
      throws: Self.isUnreachable)
    // One second of silence is the limit; the rest is slack for a loaded machine.
    #expect(ContinuousClock.now - start < .seconds(10))
  }

  @Test func closedConnectionsAndGarbageAreTyped() throws {
    let closed = try ScriptedServer { _ in .raw([]) }
    defer { closed.stop() }
    #expect(
      performing: { _ = try Self.collection(closed).changes(since: nil) },
      throws: Self.isUnreachable)
    let garbage = try ScriptedServer { _ in .raw(Array("\u{0}\u{1}SSH-2.0 hello\r\n\r\n".utf8)) }
    defer { garbage.stop() }
    #expect(
      performing: { _ = try Self.collection(garbage).changes(since: nil) },
      throws: { error in Self.isInvalidResponse(error) || Self.isUnreachable(error) })
    let nobody = try CalendarServer.freePort()
    let refused = try CalDAVCollection(
      url: ServerURL("http://127.0.0.1:\(nobody)/cal/"),
      environment: .testing(transport: Self.patient))
    #expect(performing: { _ = try refused.changes(since: nil) }, throws: Self.isUnreachable)
  }

  @Test func duplicateHrefsAndTheCollectionItselfAreListedOnce() throws {
    let server = try Self.listing {
      .multistatus(
        """
        <d:multistatus xmlns:d="DAV:">
        <d:response><d:href>/cal/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
        <d:response><d:href>/cal/sub/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
        <d:response><d:href>/cal/a.ics</d:href><d:propstat><d:prop><d:getetag>"1"</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
        </d:multistatus>
        """)
    }
    defer { server.stop() }
    let duplicated = try ScriptedServer { request in
      if request.method == "REPORT" { return .http(501, [], []) }
      return .multistatus(
        """
        <d:multistatus xmlns:d="DAV:">
        <d:response><d:href>/cal/a.ics</d:href><d:propstat><d:prop><d:getetag>"1"</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
        <d:response><d:href>b.ics</d:href><d:propstat><d:prop><d:getetag>"2"</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
        <d:response><d:href>/cal/%61.ics</d:href><d:propstat><d:prop><d:getetag>"3"</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
        </d:multistatus>
        """)
    }
    defer { duplicated.stop() }
    #expect(
      try Self.collection(server).changes(since: nil)
        == .full([RemoteVersion(href: "/cal/a.ics", etag: "\"1\"")], token: nil))
    #expect(
      try Self.collection(duplicated).changes(since: nil)
        == .full(
          [
            RemoteVersion(href: "/cal/a.ics", etag: "\"3\""),
            RemoteVersion(href: "/cal/b.ics", etag: "\"2\""),
          ], token: nil))
  }

  @Test func anHrefOnAnotherHostIsRefused() throws {
    let server = try Self.listing {
      .multistatus(
        "<d:multistatus xmlns:d='DAV:'><d:response><d:href>https://elsewhere.example/cal/a.ics</d:href><d:propstat><d:prop><d:getetag>\"1\"</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>"
      )
    }
    defer { server.stop() }
    #expect(
      throws: CalendarServerError.invalidResponse(
        "an href outside the server: https://elsewhere.example/cal/a.ics")
    ) {
      try Self.collection(server).changes(since: nil)
    }
  }

  @Test func aPutReplyWithoutETagIsFollowedByAPropfind() throws {
    let server = try ScriptedServer { request in
      switch request.method {
      case "PUT": return .http(201, [], [])
      case "PROPFIND":
        return .multistatus(
          "<d:multistatus xmlns:d='DAV:'><d:response><d:href>\(request.path)</d:href><d:propstat><d:prop><d:getetag>\"from-propfind\"</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>"
        )
      default: return .http(500, [], [])
      }
    }
    defer { server.stop() }
    let version = try Self.collection(server).create(
      name: "n.ics", body: Array("BEGIN:VCALENDAR\r\n".utf8))
    #expect(version == RemoteVersion(href: "/cal/n.ics", etag: "\"from-propfind\""))
    let requests = server.requests
    #expect(requests.map(\.method) == ["PUT", "PROPFIND"])
    #expect(requests.first?.headers["if-none-match"] == "*")
    #expect(requests.first?.headers["content-type"] == "text/calendar; charset=utf-8")
  }

  @Test func anEntityTagWithControlCharactersIsNeverSentAsAHeader() throws {
    let server = try ScriptedServer { _ in .http(204, [], []) }
    defer { server.stop() }
    #expect(throws: CalendarServerError.invalidResponse("a header value with control characters")) {
      try Self.collection(server).delete(
        RemoteVersion(href: "/cal/a.ics", etag: "\"1\"\r\nX-Injected: yes"))
    }
    #expect(server.requests.isEmpty)
  }

  @Test func seededHostileFieldsNeverCrashAndNeverLeakControls() throws {
    var generator = SplitMix64(seed: 6578)
    for _ in 0..<40 {
      let href = String(decoding: AwkwardLines.line(&generator), as: UTF8.self)
      let etag = String(decoding: AwkwardLines.line(&generator), as: UTF8.self)
      let token = String(decoding: AwkwardLines.line(&generator), as: UTF8.self)
      func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
          of: "<", with: "&lt;")
      }
      let body =
        "<d:multistatus xmlns:d='DAV:'><d:response><d:href>/cal/\(escape(href))</d:href><d:propstat><d:prop><d:getetag>\(escape(etag))</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response><d:sync-token>\(escape(token))</d:sync-token></d:multistatus>"
      let server = try ScriptedServer { _ in .multistatus(body) }
      defer { server.stop() }
      do throws(CalendarServerError) {
        let changes = try Self.collection(server).changes(since: nil)
        guard case .full(let versions, _) = changes else {
          Issue.record("a first listing is full")
          continue
        }
        for version in versions {
          #expect(!version.href.utf8.contains { $0 < 0x21 || $0 == 0x7F })
          #expect(version.href.hasPrefix("/cal/"))
        }
      } catch {
        #expect(
          !error.description.unicodeScalars.contains {
            $0.value < 0x20 || (0x7F..<0xA0).contains($0.value)
          })
      }
    }
  }

  @Test func aTruncatedSyncReportIsFollowedToItsEnd() throws {
    @Sendable func response(_ href: String, _ etag: String) -> String {
      "<d:response><d:href>\(href)</d:href><d:propstat><d:prop><d:getetag>\(etag)</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
    }
    let server = try ScriptedServer { request in
      let body = String(decoding: request.body, as: UTF8.self)
      if body.contains("<D:sync-token>t0</D:sync-token>") {
        return .multistatus(
          "<d:multistatus xmlns:d='DAV:'>" + response("/cal/a.ics", "\"1\"")
            + response("/cal/b.ics", "\"1\"")
            + "<d:response><d:href>/cal/</d:href><d:status>HTTP/1.1 507 Insufficient Storage</d:status></d:response><d:sync-token>t1</d:sync-token></d:multistatus>"
        )
      }
      if body.contains("<D:sync-token>t1</D:sync-token>") {
        return .multistatus(
          "<d:multistatus xmlns:d='DAV:'>" + response("/cal/a.ics", "\"2\"")
            + "<d:response><d:href>/cal/c.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response><d:sync-token>t2</d:sync-token></d:multistatus>"
        )
      }
      return .http(
        403, [("Content-Type", "application/xml")],
        Array("<d:error xmlns:d='DAV:'><d:valid-sync-token/></d:error>".utf8))
    }
    defer { server.stop() }
    let changes = try Self.collection(server).changes(since: "t0")
    #expect(
      changes
        == .delta(
          changed: [
            RemoteVersion(href: "/cal/a.ics", etag: "\"2\""),
            RemoteVersion(href: "/cal/b.ics", etag: "\"1\""),
          ],
          removed: ["/cal/c.ics"], token: "t2"))
    #expect(server.requests.map(\.headers["depth"]) == ["0", "0"])
  }

  @Test func namesWithControlsAndSeparatorsStayOneSegment() throws {
    let server = try ScriptedServer { _ in .http(201, [("ETag", "\"e\"")], []) }
    defer { server.stop() }
    let collection = try Self.collection(server)
    let version = try collection.create(
      name: "a/../b\r\nX: y\u{0}\u{1B}\u{85}?#%.ics", body: [0, 0x0D, 0xFF])
    #expect(
      version
        == RemoteVersion(
          href: "/cal/a%2F..%2Fb%0D%0AX%3A%20y%00%1B%C2%85%3F%23%25.ics", etag: "\"e\""))
    #expect(server.requests.first?.path == version.href)
    #expect(server.requests.first?.body == [0, 0x0D, 0xFF])
  }

  @Test func aPreconditionIsNamedAndA403WithoutOneIsALoginProblem() throws {
    let server = try ScriptedServer { request in
      request.method == "PUT"
        ? .http(
          403, [("Content-Type", "application/xml")],
          Array(
            "<d:error xmlns:d='DAV:' xmlns:c='urn:ietf:params:xml:ns:caldav'><c:no-uid-conflict><d:href>/cal/other.ics</d:href></c:no-uid-conflict></d:error>"
              .utf8))
        : .http(403, [], [])
    }
    defer { server.stop() }
    let collection = try Self.collection(server)
    #expect(throws: CalendarServerError.status(403, "no-uid-conflict")) {
      try collection.create(name: "x.ics", body: [])
    }
    // An empty body is still announced, so the server does not wait for one.
    #expect(server.requests.first?.headers["content-length"] == "0")
    #expect(throws: CalendarServerError.authentication("access forbidden (403)")) {
      try collection.delete(RemoteVersion(href: "/cal/x.ics", etag: "\"1\""))
    }
  }
}
