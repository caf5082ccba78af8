import TodoCalendar

/// A calendar collection that holds tasks, as discovery found it.
public struct DiscoveredCollection: Sendable, Equatable {
  public var url: ServerURL
  public var displayName: String?
  /// The components it accepts (`VTODO`, `VEVENT`, …); empty when the server did not say,
  /// which RFC 4791 reads as all of them.
  public var components: [String]
}

/// Finds the task collections from a URL a person types: the collection itself; else the
/// principal (`current-user-principal`, from the URL or from `/.well-known/caldav`), its
/// `calendar-home-set`, and the calendars there whose `supported-calendar-component-set`
/// holds VTODO. A URL that is a calendar of events only is not a task collection.
public struct CalDAVDiscovery: Sendable {
  public let url: ServerURL
  let session: CalDAVSession

  public init(url: ServerURL, user: String? = nil, environment: CalDAVEnvironment)
    throws(CalendarServerError)
  {
    self.url = url
    self.session = try CalDAVSession(origin: url, user: user, environment: environment)
  }

  /// What was found.
  public struct Result: Sendable, Equatable {
    /// The URL given, when it is itself a task collection.
    public var given: DiscoveredCollection?
    /// The task collections of the user's calendar home (the given one among them, or alone
    /// when no home could be found).
    public var collections: [DiscoveredCollection]
  }

  private static let properties =
    "<D:resourcetype/><D:displayname/><C:supported-calendar-component-set/>"
    + "<D:current-user-principal/><C:calendar-home-set/>"

  private static func propfind(_ properties: String) -> String {
    #"<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop>"#
      + properties + "</D:prop></D:propfind>"
  }

  public func run() throws(CalendarServerError) -> Result {
    var given: DiscoveredCollection?
    var home: String?
    var principal: String?
    do throws(CalendarServerError) {
      let (reply, finalURL) = try session.multistatus(
        "PROPFIND", url, depth: 0, body: CalDAVDiscovery.propfind(CalDAVDiscovery.properties),
        followRedirects: true)
      let about =
        reply.responses.first {
          finalURL.resolve($0.href).map(ServerURL.canonical) == ServerURL.canonical(finalURL.path)
        } ?? reply.responses.first
      if let about {
        if isCalendar(about) {
          let collection = describe(about, at: finalURL.asCollection)
          guard holdsTasks(collection) else {
            throw CalendarServerError.notATaskCollection(url: url.description)
          }
          given = collection
        }
        home = hrefProperty(about, DAVElement.caldav, "calendar-home-set", base: finalURL)
        principal = hrefProperty(about, DAVElement.dav, "current-user-principal", base: finalURL)
      }
    } catch .notFound, .status {
      // Not a DAV resource here; the well-known address may still lead somewhere.
    }
    if given == nil, home == nil, principal == nil {
      let wellKnown = url.at(path: "/.well-known/caldav")
      do throws(CalendarServerError) {
        let (reply, finalURL) = try session.multistatus(
          "PROPFIND", wellKnown, depth: 0,
          body: CalDAVDiscovery.propfind("<D:current-user-principal/><C:calendar-home-set/>"),
          followRedirects: true)
        if let about = reply.responses.first {
          home = hrefProperty(about, DAVElement.caldav, "calendar-home-set", base: finalURL)
          principal = hrefProperty(about, DAVElement.dav, "current-user-principal", base: finalURL)
        }
      } catch .notFound, .status(404, _), .status(405, _), .status(501, _) {
        throw .notATaskCollection(url: url.description)
      }
    }
    if home == nil, let principal {
      let principalURL = url.at(path: principal)
      let (reply, _) = try session.multistatus(
        "PROPFIND", principalURL, depth: 0,
        body: CalDAVDiscovery.propfind("<C:calendar-home-set/>"))
      home = reply.responses.first.flatMap {
        hrefProperty($0, DAVElement.caldav, "calendar-home-set", base: principalURL)
      }
    }
    guard let home else {
      if let given { return Result(given: given, collections: [given]) }
      throw .notATaskCollection(url: url.description)
    }
    let homeURL = url.at(path: home).asCollection
    let (reply, _) = try session.multistatus(
      "PROPFIND", homeURL, depth: 1,
      body: CalDAVDiscovery.propfind(
        "<D:resourcetype/><D:displayname/><C:supported-calendar-component-set/>"))
    var collections: [DiscoveredCollection] = []
    var seen = Set<String>()
    for item in reply.responses where isCalendar(item) {
      guard let path = homeURL.resolve(item.href), seen.insert(ServerURL.canonical(path)).inserted
      else { continue }
      let collection = describe(item, at: url.at(path: path).asCollection)
      if holdsTasks(collection) { collections.append(collection) }
    }
    if let given, !collections.contains(where: { $0.url == given.url }) {
      collections.insert(given, at: 0)
    }
    return Result(given: given, collections: collections)
  }

  private func isCalendar(_ item: Multistatus.Response) -> Bool {
    item.property(DAVElement.dav, "resourcetype")?.child(DAVElement.caldav, "calendar") != nil
  }

  private func describe(_ item: Multistatus.Response, at url: ServerURL) -> DiscoveredCollection {
    let name = item.property(DAVElement.dav, "displayname")?.trimmedText
    let components =
      item.property(DAVElement.caldav, "supported-calendar-component-set")?
      .children(DAVElement.caldav, "comp").map { $0.text.uppercased() } ?? []
    return DiscoveredCollection(
      url: url, displayName: name.flatMap { $0.isEmpty ? nil : CalendarServerError.oneLine($0) },
      components: components)
  }

  private func holdsTasks(_ collection: DiscoveredCollection) -> Bool {
    collection.components.isEmpty || collection.components.contains("VTODO")
  }

  /// The path in an href property (`<D:current-user-principal><D:href>…`), resolved.
  private func hrefProperty(
    _ item: Multistatus.Response, _ namespace: String, _ name: String, base: ServerURL
  ) -> String? {
    guard let href = item.property(namespace, name)?.child(DAVElement.dav, "href")?.trimmedText
    else { return nil }
    return base.resolve(href)
  }
}
