import CalDAVClient
import Foundation
import Testing
import TodoTestSupport
import TodoCalendar

/// Discovery against both real servers, and the redirects a scripted server sends.
@Suite struct CalDAVDiscoveryTests {
  static func discover(_ url: String, _ server: CalendarServer) throws -> CalDAVDiscovery.Result {
    try CalDAVDiscovery(
      url: ServerURL(url), user: server.user,
      environment: .testing(variables: ["TODO_CALDAV_PASSWORD_COMMAND": "echo '\(server.password)'"]
      )
    ).run()
  }

  @Test(arguments: CalendarServer.Kind.allCases)
  func fromTheServerTheTaskCollectionsAreFound(kind: CalendarServer.Kind) throws {
    let server = try CalendarServer(kind)
    defer { server.stop() }
    let (tasks, events) = try server.makeCalendars()
    // The user name from the URL, as a person types it.
    let found = try CalDAVDiscovery(
      url: ServerURL(server.rootWithUser),
      environment: .testing(variables: ["TODO_CALDAV_PASSWORD_COMMAND": "echo '\(server.password)'"]
      )
    ).run()
    #expect(found.given == nil)
    let urls = found.collections.map(\.url.description)
    #expect(urls.contains(tasks))
    let named = found.collections.first { $0.url.description == tasks }
    #expect(named?.displayName == "Tasks")
    switch kind {
    case .radicale:
      #expect(!urls.contains(events))
      #expect(named?.components == ["VTODO"])
    case .xandikos:
      // Xandikos makes every calendar take every component, whatever MKCALENDAR asked for;
      // its default calendar is found too.
      #expect(urls.contains(events) && urls.contains(server.calendarURL("calendar")))
      #expect(named?.components.contains("VTODO") == true)
    }
  }

  @Test(arguments: CalendarServer.Kind.allCases)
  func aTaskCollectionIsRecognisedAndAnEventCalendarRefused(kind: CalendarServer.Kind) throws {
    let server = try CalendarServer(kind)
    defer { server.stop() }
    let (tasks, events) = try server.makeCalendars()
    let found = try Self.discover(tasks, server)
    #expect(found.given?.url.description == tasks)
    #expect(found.given?.displayName == "Tasks")
    #expect(found.collections.contains { $0.url.description == tasks })
    if kind == .radicale {
      #expect(throws: CalendarServerError.notATaskCollection(url: events)) {
        try Self.discover(events, server)
      }
    }
    // Without the final slash, the same collection.
    #expect(try Self.discover(String(tasks.dropLast()), server).given?.url.description == tasks)
  }

  @Test func wellKnownRedirectsAreFollowedOnTheSameHostOnly() throws {
    let body =
      "<d:multistatus xmlns:d='DAV:'><d:response><d:href>/p/</d:href><d:propstat><d:prop><d:current-user-principal><d:href>/p/</d:href></d:current-user-principal></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>"
    let home =
      "<d:multistatus xmlns:d='DAV:' xmlns:c='urn:ietf:params:xml:ns:caldav'><d:response><d:href>/p/</d:href><d:propstat><d:prop><c:calendar-home-set><d:href>/h/</d:href></c:calendar-home-set></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>"
    let calendars =
      "<d:multistatus xmlns:d='DAV:' xmlns:c='urn:ietf:params:xml:ns:caldav'><d:response><d:href>/h/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response><d:response><d:href>/h/t/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/><c:calendar/></d:resourcetype><d:displayname>T</d:displayname></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>"
    let server = try ScriptedServer { request in
      switch request.path {
      case "/": return .http(404, [], [])
      case "/.well-known/caldav": return .http(301, [("Location", "/dav/")], [])
      case "/dav/": return .multistatus(body)
      case "/p/": return .multistatus(home)
      case "/h/": return .multistatus(calendars)
      default: return .http(404, [], [])
      }
    }
    defer { server.stop() }
    let found = try CalDAVDiscovery(url: ServerURL(server.url + "/"), environment: .testing()).run()
    #expect(found.collections.map(\.url.description) == [server.url + "/h/t/"])
    #expect(found.collections.first?.components == [])

    let offHost = try ScriptedServer { _ in
      .http(301, [("Location", "https://elsewhere.example/dav/")], [])
    }
    defer { offHost.stop() }
    #expect(
      throws: CalendarServerError.status(
        301, "redirected to https://elsewhere.example/dav/, another host; give that URL to use it")
    ) {
      try CalDAVDiscovery(url: ServerURL(offHost.url + "/"), environment: .testing()).run()
    }
    let loop = try ScriptedServer { request in .http(302, [("Location", request.path + "x")], []) }
    defer { loop.stop() }
    #expect(throws: CalendarServerError.status(310, "too many redirects")) {
      try CalDAVDiscovery(url: ServerURL(loop.url + "/"), environment: .testing()).run()
    }
  }

  @Test func anEventsCalendarAndAPlainFolderAreNotTaskCollections() throws {
    let events =
      "<d:multistatus xmlns:d='DAV:' xmlns:c='urn:ietf:params:xml:ns:caldav'><d:response><d:href>/e/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/><c:calendar/></d:resourcetype><c:supported-calendar-component-set><c:comp name='VEVENT'/></c:supported-calendar-component-set></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>"
    let folder =
      "<d:multistatus xmlns:d='DAV:'><d:response><d:href>/f/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>"
    let server = try ScriptedServer { request in
      switch request.path {
      case "/e/": return .multistatus(events)
      case "/f/": return .multistatus(folder)
      default: return .http(404, [], [])
      }
    }
    defer { server.stop() }
    for path in ["/e/", "/f/"] {
      #expect(throws: CalendarServerError.notATaskCollection(url: server.url + path)) {
        try CalDAVDiscovery(url: ServerURL(server.url + path), environment: .testing()).run()
      }
    }
  }

  @Test func serverURLsRefusePlainHTTPOffThisMachine() throws {
    #expect(
      throws: CalendarServerError.insecure(
        "plain http is allowed only to this machine (127.0.0.1, ::1, localhost); use https")
    ) {
      try ServerURL("http://calendar.example/dav/")
    }
    #expect(
      throws: CalendarServerError.insecure(
        "plain http is allowed only to this machine (127.0.0.1, ::1, localhost); use https")
    ) {
      try ServerURL("http://127.0.0.1.example/dav/")
    }
    for loopback in [
      "http://127.0.0.1:5232/", "http://127.8.9.10/", "http://[::1]:80/x", "http://localhost/",
    ] {
      #expect(try ServerURL(loopback).isLoopback)
    }
    let named = try ServerURL("https://Alice%20B@Calendar.Example:8443/dav/a%20b/")
    #expect(named.user == "Alice B")
    #expect(named.host == "calendar.example")
    #expect(named.description == "https://calendar.example:8443/dav/a%20b/")
    #expect(
      throws: CalendarServerError.authentication(
        "a password in the URL is refused; use a password command or netrc")
    ) {
      try ServerURL("https://a:secret@calendar.example/")
    }
    for bad in ["ftp://x/", "https://", "https://x/\u{0}", "https://x/a\r\nb", "/relative", ""] {
      #expect(
        performing: { _ = try ServerURL(bad) },
        throws: { error in
          if case .unreachable = error as? CalendarServerError { return true }
          return false
        })
    }
  }
}
