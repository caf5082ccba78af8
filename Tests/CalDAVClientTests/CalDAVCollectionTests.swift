import Foundation
import Testing
import TodoCalendar
import TodoTestSupport

@testable import CalDAVClient

/// Every method of the task collection against both real servers, with a phone (a client
/// that is not ours) editing the same collection in between.
@Suite struct CalDAVCollectionTests {
  static func vtodo(_ uid: String, _ summary: String) -> [UInt8] {
    Array(
      ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//todo//tests//EN\r\nBEGIN:VTODO\r\nUID:\(uid)\r\n"
        + "DTSTAMP:20261201T000000Z\r\nSUMMARY:\(summary)\r\nEND:VTODO\r\nEND:VCALENDAR\r\n").utf8)
  }

  static func collection(_ server: CalendarServer, _ url: String) throws -> CalDAVCollection {
    try CalDAVCollection(
      url: ServerURL(url), user: server.user,
      environment: .testing(variables: ["TODO_CALDAV_PASSWORD_COMMAND": "echo '\(server.password)'"]
      ))
  }

  static func hrefs(_ changes: RemoteChanges) -> (
    changed: Set<String>, removed: Set<String>, token: String?, isDelta: Bool
  ) {
    switch changes {
    case .delta(let changed, let removed, let token):
      return (Set(changed.map(\.href)), Set(removed), token, true)
    case .full(let all, let token):
      return (Set(all.map(\.href)), [], token, false)
    }
  }

  @Test(arguments: CalendarServer.Kind.allCases)
  func everyMethodWithAPhoneEditingBetween(kind: CalendarServer.Kind) throws {
    let server = try CalendarServer(kind)
    defer { server.stop() }
    let (tasks, _) = try server.makeCalendars()
    let collection = try Self.collection(server, tasks)

    // The empty collection: a full listing and, both servers offering RFC 6578, a token.
    let first = Self.hrefs(try collection.changes(since: nil))
    #expect(first.changed.isEmpty && !first.isDelta)
    let token0 = try #require(first.token)

    // Create, and create again under the same name.
    let a = try collection.create(name: "a.ics", body: Self.vtodo("a", "first"))
    #expect(a.href == (try ServerURL(tasks)).path + "a.ics")
    #expect(a.etag != nil)
    #expect(throws: CalendarServerError.alreadyExists(href: a.href)) {
      try collection.create(name: "a.ics", body: Self.vtodo("a", "again"))
    }
    // Under another name with the same UID: both servers refuse it (Radicale with a 409,
    // Xandikos with a 207 holding a 412), and either way the item is there already.
    let copy = (try ServerURL(tasks)).path + "a-copy.ics"
    #expect(throws: CalendarServerError.alreadyExists(href: copy)) {
      try collection.create(name: "a-copy.ics", body: Self.vtodo("a", "a copy"))
    }

    let afterCreate = Self.hrefs(try collection.changes(since: token0))
    #expect(afterCreate.isDelta && afterCreate.changed == [a.href] && afterCreate.removed.isEmpty)
    let token1 = try #require(afterCreate.token)

    // Fetch: the body as stored, the etag as the write said.
    let fetched = try collection.fetch([a.href])
    #expect(fetched.count == 1)
    #expect(fetched.first?.version == a)
    let firstBody = String(decoding: fetched.first?.body ?? [], as: UTF8.self)
    #expect(firstBody.contains("\r\nSUMMARY:first\r\n"))
    // Every line ends in CRLF, as iCalendar says, whatever XML did to them on the way.
    #expect(!firstBody.replacingOccurrences(of: "\r\n", with: "").contains("\n"))

    // Update with the etag seen; again with the old one is refused.
    let a2 = try collection.update(a, body: Self.vtodo("a", "second"))
    #expect(a2.href == a.href && a2.etag != nil && a2.etag != a.etag)
    #expect(throws: CalendarServerError.changedMeanwhile(href: a.href)) {
      try collection.update(a, body: Self.vtodo("a", "lost"))
    }

    // The phone adds one and edits ours; both show in the delta.
    try server.phone([
      ["add", tasks, "p1", "from the phone"], ["edit", tasks, "a", "edited on the phone"],
    ])
    let afterPhone = Self.hrefs(try collection.changes(since: token1))
    #expect(afterPhone.isDelta)
    #expect(afterPhone.changed.contains(a.href) && afterPhone.changed.count == 2)
    let token2 = try #require(afterPhone.token)
    let bodies = try collection.fetch(Array(afterPhone.changed))
    let texts = bodies.map { String(decoding: $0.body, as: UTF8.self) }
    #expect(texts.contains { $0.contains("edited on the phone") })
    #expect(texts.contains { $0.contains("UID:p1") })
    let a3 = try #require(bodies.first { $0.version.href == a.href }?.version)

    // Delete with a stale etag is refused; with the current one it goes, and shows as removed.
    #expect(throws: CalendarServerError.changedMeanwhile(href: a.href)) {
      try collection.delete(a2)
    }
    try collection.delete(a3)
    let afterDelete = Self.hrefs(try collection.changes(since: token2))
    #expect(afterDelete.isDelta && afterDelete.removed == [a.href] && afterDelete.changed.isEmpty)
    #expect(try server.phone([["list", tasks]]) == "p1\tfrom the phone")

    // A gone item is left out of a fetch; a second delete says it is not there.
    #expect(try collection.fetch([a.href]).isEmpty)
    #expect(throws: CalendarServerError.notFound(href: a.href)) { try collection.delete(a3) }
    #expect(throws: CalendarServerError.changedMeanwhile(href: a.href)) {
      try collection.update(a3, body: Self.vtodo("a", "ghost"))
    }

    // A token the server never gave: everything, as a full listing with a fresh token.
    let refused = Self.hrefs(try collection.changes(since: "http://example.invalid/sync/42"))
    #expect(!refused.isDelta && refused.changed.count == 1 && refused.token != nil)
  }

  @Test(arguments: CalendarServer.Kind.allCases)
  func namesAndBodiesOutsidePlainASCIIRoundTrip(kind: CalendarServer.Kind) throws {
    let server = try CalendarServer(kind)
    defer { server.stop() }
    let (tasks, _) = try server.makeCalendars()
    let collection = try Self.collection(server, tasks)
    var generator = SplitMix64(seed: 37)
    var created: [RemoteVersion] = []
    let names = ["ä ö#?%&.ics", "a+b;c=d@e.ics", "with space.ics", "中文-\(generator.next()).ics"]
    for (index, name) in names.enumerated() {
      // Text escaped as iCalendar requires; a 200 kB summary among them.
      let summary =
        index == 0 ? String(repeating: "x", count: 200_000) : "line\\nbreak\\, comma ü \(index)"
      created.append(try collection.create(name: name, body: Self.vtodo("u\(index)", summary)))
    }
    let listed = Self.hrefs(try collection.changes(since: nil)).changed
    #expect(listed == Set(created.map(\.href)))
    let fetched = try collection.fetch(created.map(\.href) + created.map(\.href))
    #expect(fetched.map(\.version.href) == created.map(\.href))
    for (index, item) in fetched.enumerated() {
      #expect(String(decoding: item.body, as: UTF8.self).contains("UID:u\(index)"))
    }
  }

  @Test(arguments: CalendarServer.Kind.allCases)
  func fetchesInBatches(kind: CalendarServer.Kind) throws {
    let server = try CalendarServer(kind)
    defer { server.stop() }
    let (tasks, _) = try server.makeCalendars()
    let url = try ServerURL(tasks)
    let session = try CalDAVSession(
      origin: url, user: server.user,
      environment: .testing(variables: ["TODO_CALDAV_PASSWORD_COMMAND": "echo '\(server.password)'"]
      ))
    let collection = CalDAVCollection(url: url, session: session, batchSize: 7)
    var versions: [RemoteVersion] = []
    for index in 0..<23 {
      versions.append(
        try collection.create(name: "t\(index).ics", body: Self.vtodo("t\(index)", "task \(index)"))
      )
    }
    let before = collection.requestCount
    let fetched = try collection.fetch(versions.map(\.href))
    #expect(fetched.count == 23)
    // 23 hrefs in batches of 7: four reports.
    #expect(collection.requestCount - before == 4)
    #expect(Set(fetched.map(\.version)) == Set(versions))
  }
}
