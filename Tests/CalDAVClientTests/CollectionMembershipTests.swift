import Foundation
import Testing
import TodoCalendar
import TodoTestSupport

@testable import CalDAVClient

/// The client writes only to items of its collection: an href from a sync state on disk (which
/// another program may have written) or from a reply that names anything else is refused
/// before a request is made.
@Suite struct CollectionMembershipTests {
  static let outside = [
    "/cal/other/x.ics", "/cal/tasks/../other/x.ics", "/cal/tasks/..", "/cal/tasks/.", "/cal/tasks/%2E%2E",
    "/cal/tasks/%2e%2e", "/cal/tasks/a%2Fb.ics", "/cal/tasks/..%2F..%2Fx.ics", "/cal/tasks/a%5Cb.ics",
    "/cal/tasks/sub/x.ics", "/cal/tasks/", "/cal/tasks", "/cal/", "/", "", "../other/x.ics", "sub/x.ics",
    "http://evil.example/cal/tasks/x.ics", "https://127.0.0.1:1/cal/tasks/x.ics", "http://127.0.0.1:2/cal/tasks/x.ics",
    "//evil.example/cal/tasks/x.ics", "/cal/tasks/x.ics\r\nX-Other: y", "/cal/tasks/\u{0}.ics", "\u{1B}[2J",
    "/cal/tasksx.ics", "/CAL/tasks/x.ics",
  ]

  static let inside = [
    "/cal/tasks/x.ics", "x.ics", "./x.ics", "/cal/tasks/ä%20b.ics", "/cal/tasks/%C3%A4.ics",
    "http://127.0.0.1:1/cal/tasks/x.ics", "/cal/tasks/x.ics?y=1", "/cal/tasks/x..ics", "/cal/tasks/...",
  ]

  static func collection(port: Int = 1) throws -> CalDAVCollection {
    try CalDAVCollection(url: ServerURL("http://127.0.0.1:\(port)/cal/tasks/"), environment: .testing())
  }

  @Test func onlyANameRightUnderTheCollectionIsAMember() throws {
    let collection = try Self.collection()
    for href in Self.outside { #expect(!collection.isMember(href), "\(href.debugDescription)") }
    for href in Self.inside { #expect(collection.isMember(href), "\(href.debugDescription)") }
    // Random bytes around the collection's path: a member is never anywhere but under it.
    var random = SplitMix64(seed: 0x37)
    let pieces = ["/", "..", ".", "%2F", "%2E", "%5C", "x", "cal", "tasks", "?", "#", "%", "%00", "\\", ":", "@"]
    for _ in 0..<500 {
      let href = "/cal/tasks/" + (0..<random.below(6)).map { _ in pieces[random.below(pieces.count)] }.joined()
      guard let path = collection.member(href) else { continue }
      #expect(path.hasPrefix("/cal/tasks/"), "\(href)")
      let name = path.dropFirst("/cal/tasks/".count)
      #expect(!name.isEmpty && !name.contains("/") && name != "." && name != "..", "\(href) → \(path)")
      #expect(!name.uppercased().contains("%2F") && !name.uppercased().contains("%5C"), "\(href) → \(path)")
    }
  }

  @Test func aWriteOutsideTheCollectionIsRefusedWithoutARequest() throws {
    let server = try ScriptedServer { _ in .http(204, [("ETag", "\"2\"")], []) }
    defer { server.stop() }
    let collection = try Self.collection(port: server.port)
    for href in Self.outside {
      let version = RemoteVersion(href: href, etag: "\"1\"")
      #expect(throws: CalendarServerError.outsideCollection(href: CalendarServerError.oneLine(href))) {
        try collection.delete(version)
      }
      #expect(throws: CalendarServerError.outsideCollection(href: CalendarServerError.oneLine(href))) {
        _ = try collection.update(version, body: CalDAVCollectionTests.vtodo("u", "x"))
      }
    }
    #expect(server.requests.isEmpty)
    // An item of the collection goes through.
    try collection.delete(RemoteVersion(href: "/cal/tasks/x.ics", etag: "\"1\""))
    #expect(server.requests.map(\.path) == ["/cal/tasks/x.ics"])
  }

  @Test(arguments: ["PROPFIND", "REPORT"])
  func aListingNamingAnItemOutsideTheCollectionIsNotUsed(method: String) throws {
    let server = try ScriptedServer { request in
      // The report is refused, so the listing comes from PROPFIND, when that is tested.
      if request.method == "REPORT", method == "PROPFIND" { return .http(403, [], []) }
      return .multistatus(
        #"<?xml version="1.0"?><D:multistatus xmlns:D="DAV:"><D:response><D:href>/cal/tasks/a.ics</D:href><D:propstat><D:prop><D:getetag>"1"</D:getetag></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response><D:response><D:href>/cal/tasks/../other/b.ics</D:href><D:propstat><D:prop><D:getetag>"2"</D:getetag></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response><D:sync-token>t1</D:sync-token></D:multistatus>"#
      )
    }
    defer { server.stop() }
    let collection = try Self.collection(port: server.port)
    #expect(throws: CalendarServerError.hrefOutsideCollection("/cal/tasks/../other/b.ics")) {
      _ = try collection.changes(since: nil)
    }
  }
}
