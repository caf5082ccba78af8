import TodoCalendar

/// One task collection on a CalDAV server, as the sync engine sees it. Changes come from an
/// RFC 6578 sync-collection report where the server offers one (a refused token falls back
/// to a full listing), else from a PROPFIND of the entity tags; bodies from calendar-multiget
/// in batches; every write is conditional, so nothing on the server is overwritten unseen.
public struct CalDAVCollection: TaskCollection {
  /// The collection, its path ending in a slash.
  public let url: ServerURL
  let session: CalDAVSession
  /// Hrefs per calendar-multiget: large enough to need few requests at 10,000 tasks, small
  /// enough to keep one reply well under the size limit.
  let batchSize: Int

  /// A collection at `url`; the user name is `user`, else the one in the URL.
  public init(url: ServerURL, user: String? = nil, environment: CalDAVEnvironment)
    throws(CalendarServerError)
  {
    let session = try CalDAVSession(origin: url, user: user, environment: environment)
    self.init(url: url, session: session)
  }

  init(url: ServerURL, session: CalDAVSession, batchSize: Int = 200) {
    self.url = url.asCollection
    self.session = session
    self.batchSize = batchSize
  }

  /// The HTTP requests this collection has sent, for comparing sync strategies by count.
  public var requestCount: Int { session.requestCount }

  // MARK: Changes

  public func changes(since token: String?) throws(CalendarServerError) -> RemoteChanges {
    if let token, !token.isEmpty {
      if let delta = try syncReport(from: token) {
        return .delta(changed: delta.changed, removed: delta.removed, token: delta.token ?? token)
      }
    }
    if let all = try syncReport(from: "") {
      return .full(all.changed, token: all.token)
    }
    return .full(try listing(), token: nil)
  }

  private struct Delta {
    var changed: [RemoteVersion] = []
    var removed: [String] = []
    var token: String?
  }

  /// The sync-collection report from `token` ("" for the first), following truncated replies
  /// (507 on the collection) to their end; nil when the server refuses the report or the token.
  private func syncReport(from token: String) throws(CalendarServerError) -> Delta? {
    var latest: [String: (path: String, etag: String?, removed: Bool)] = [:]
    var order: [String] = []
    var next = token
    var answeredToken: String?
    for _ in 0..<1000 {
      let body =
        #"<?xml version="1.0" encoding="utf-8"?><D:sync-collection xmlns:D="DAV:"><D:sync-token>"#
        + xmlEscaped(next)
        + "</D:sync-token><D:sync-level>1</D:sync-level><D:prop><D:getetag/></D:prop></D:sync-collection>"
      let request = HTTPRequest(
        method: "REPORT", url: url,
        headers: [("Depth", "0"), ("Content-Type", "application/xml; charset=utf-8")],
        body: Array(body.utf8))
      let response = try session.send(request)
      // A refused report or token: 403 with valid-sync-token is the RFC's; servers also say
      // 400, 409, 412, 415, 422, or fail with a 500 on a token they cannot read.
      if [400, 403, 405, 409, 412, 415, 422, 501].contains(response.status)
        || (response.status == 500 && !next.isEmpty)
      {
        return nil
      }
      guard response.status == 207 else { throw CalDAVSession.error(response, url: url) }
      let reply = try CalDAVSession.readMultistatus(response)
      var truncated = false
      for item in reply.responses {
        guard let path = url.resolve(item.href) else { throw .foreignHref(item.href) }
        let key = ServerURL.canonical(path)
        if key == ServerURL.canonical(url.path) {
          truncated = truncated || item.status == 507
          continue
        }
        if path.hasSuffix("/") { continue }
        guard member(path) != nil else { throw .hrefOutsideCollection(item.href) }
        if latest[key] == nil { order.append(key) }
        let etag = item.property(DAVElement.dav, "getetag")?.trimmedText
        latest[key] = (path, etag.flatMap { $0.isEmpty ? nil : $0 }, item.status == 404)
      }
      answeredToken = reply.syncToken ?? answeredToken
      guard truncated, let more = reply.syncToken, more != next else { break }
      next = more
    }
    var delta = Delta(token: answeredToken)
    for key in order {
      guard let entry = latest[key] else { continue }
      if entry.removed {
        delta.removed.append(entry.path)
      } else {
        delta.changed.append(RemoteVersion(href: entry.path, etag: entry.etag))
      }
    }
    return delta
  }

  /// Every item's href and entity tag, by PROPFIND Depth 1; sub-collections and the
  /// collection itself left out, an href listed twice kept once.
  private func listing() throws(CalendarServerError) -> [RemoteVersion] {
    let body =
      #"<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:"><D:prop><D:getetag/><D:resourcetype/></D:prop></D:propfind>"#
    let (reply, _) = try session.multistatus("PROPFIND", url, depth: 1, body: body)
    var seen: [String: Int] = [:]
    var versions: [RemoteVersion] = []
    for item in reply.responses {
      guard let path = url.resolve(item.href) else { throw .foreignHref(item.href) }
      let key = ServerURL.canonical(path)
      let isCollection =
        item.property(DAVElement.dav, "resourcetype")?
        .child(DAVElement.dav, "collection") != nil
      guard key != ServerURL.canonical(url.path), !path.hasSuffix("/"), !isCollection else {
        continue
      }
      guard member(path) != nil else { throw .hrefOutsideCollection(item.href) }
      let etag = item.property(DAVElement.dav, "getetag")?.trimmedText
      let version = RemoteVersion(href: path, etag: etag.flatMap { $0.isEmpty ? nil : $0 })
      if let index = seen[key] {
        versions[index] = version
      } else {
        seen[key] = versions.count
        versions.append(version)
      }
    }
    return versions
  }

  // MARK: Bodies

  public func fetch(_ hrefs: [String]) throws(CalendarServerError) -> [RemoteItem] {
    var wanted: [String: String] = [:]
    var requested: [String] = []
    for href in hrefs {
      guard let path = url.resolve(href) else { throw .foreignHref(href) }
      let key = ServerURL.canonical(path)
      if wanted[key] == nil { requested.append(path) }
      wanted[key] = href
    }
    var found: [String: RemoteItem] = [:]
    var answered = Set<String>()
    var start = 0
    while start < requested.count {
      let batch = requested[start..<min(start + batchSize, requested.count)]
      start += batchSize
      var body =
        #"<?xml version="1.0" encoding="utf-8"?><C:calendar-multiget xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/><C:calendar-data/></D:prop>"#
      for path in batch { body += "<D:href>\(xmlEscaped(path))</D:href>" }
      body += "</C:calendar-multiget>"
      let (reply, _) = try session.multistatus("REPORT", url, depth: 1, body: body)
      for item in reply.responses {
        guard let path = url.resolve(item.href) else { throw .foreignHref(item.href) }
        let key = ServerURL.canonical(path)
        answered.insert(key)
        guard let asked = wanted[key], item.status.map({ (200..<300).contains($0) }) ?? true,
          let data = item.property(DAVElement.caldav, "calendar-data")
        else { continue }
        let etag = item.property(DAVElement.dav, "getetag")?.trimmedText
        found[key] = RemoteItem(
          version: RemoteVersion(href: asked, etag: etag.flatMap { $0.isEmpty ? nil : $0 }),
          body: CalDAVCollection.contentLines(data.text))
      }
    }
    // An href the multiget answered nothing for (not even a 404) is read on its own: a
    // server that mangles some names in a report still serves them by GET.
    for path in requested
    where found[ServerURL.canonical(path)] == nil && !answered.contains(ServerURL.canonical(path)) {
      let key = ServerURL.canonical(path)
      let response = try session.send(HTTPRequest(method: "GET", url: url.at(path: path)))
      guard response.status == 200, let asked = wanted[key] else { continue }
      found[key] = RemoteItem(
        version: RemoteVersion(href: asked, etag: response.header("ETag")), body: response.body)
    }
    return requested.compactMap { found[ServerURL.canonical($0)] }
  }

  // MARK: Writes

  public func create(name: String, body: [UInt8]) throws(CalendarServerError) -> RemoteVersion {
    let target = url.at(path: url.path + ServerURL.encodeSegment(name))
    let response = try put(target, body: body, condition: ("If-None-Match", "*"))
    switch response.status {
    case 200, 201, 204: return try version(of: target, from: response)
    case 412: throw .alreadyExists(href: target.path)
    default:
      // Another item of the collection has this UID (RFC 4791's no-uid-conflict: Radicale
      // answers 409, Xandikos a 207 holding a 412): it is the task, found by its UID next time.
      if CalDAVCollection.isUIDConflict(response) { throw .alreadyExists(href: target.path) }
      throw CalDAVSession.error(response, url: target)
    }
  }

  public func update(_ version: RemoteVersion, body: [UInt8]) throws(CalendarServerError)
    -> RemoteVersion
  {
    let target = try item(version.href)
    let response = try put(target, body: body, condition: ("If-Match", version.etag ?? "*"))
    switch response.status {
    case 200, 201, 204: return try self.version(of: target, from: response, href: version.href)
    case 412: throw .changedMeanwhile(href: version.href)
    default: throw CalDAVSession.error(response, url: target)
    }
  }

  public func delete(_ version: RemoteVersion) throws(CalendarServerError) {
    let target = try item(version.href)
    let response = try session.send(
      HTTPRequest(method: "DELETE", url: target, headers: [("If-Match", version.etag ?? "*")]))
    switch response.status {
    case 200, 202, 204: return
    case 412: throw .changedMeanwhile(href: version.href)
    default: throw CalDAVSession.error(response, url: target)
    }
  }

  /// Where an update or a delete goes: only ever an item of this collection, whatever the
  /// href says. Hrefs reach a write from the sync state on disk, which another program can
  /// write with a checksum that matches; this is the last check before the request, so no
  /// state, planted or damaged, makes the client overwrite or delete anything elsewhere on
  /// the server (another calendar of the account, a path climbing out with `..`).
  private func item(_ href: String) throws(CalendarServerError) -> ServerURL {
    guard let path = member(href) else { throw .outsideCollection(href: CalendarServerError.oneLine(href)) }
    return url.at(path: path)
  }

  public func isMember(_ href: String) -> Bool { member(href) != nil }

  /// The path of `href` when it names an item of this collection, in the one spelling the
  /// client uses; nil otherwise. An item is one name right under the collection's path: not
  /// empty, not `.` or `..` (escaped or not), with no slash or backslash in it (escaped or
  /// not: a server that decodes `%2F` would read `..%2F` as a step out), on the same origin.
  func member(_ href: String) -> String? {
    guard let path = url.resolve(href) else { return nil }
    let canonical = ServerURL.encodePath(path)
    let collection = ServerURL.encodePath(url.path)
    guard canonical.hasPrefix(collection) else { return nil }
    let name = canonical.dropFirst(collection.count)
    guard !name.isEmpty, name != ".", name != "..", !name.contains("/") else { return nil }
    let upper = name.uppercased()
    guard !upper.contains("%2F"), !upper.contains("%5C") else { return nil }
    return canonical
  }

  private func put(_ target: ServerURL, body: [UInt8], condition: (String, String))
    throws(CalendarServerError) -> HTTPResponse
  {
    try session.send(
      HTTPRequest(
        method: "PUT", url: target,
        headers: [("Content-Type", "text/calendar; charset=utf-8"), condition], body: body))
  }

  /// The version a write left: its ETag header, else the entity tag asked for by PROPFIND
  /// (a server may change what it stores and then gives no ETag).
  private func version(of target: ServerURL, from response: HTTPResponse, href: String? = nil)
    throws(CalendarServerError) -> RemoteVersion
  {
    let href = href ?? target.path
    if let etag = response.header("ETag"), !etag.isEmpty {
      return RemoteVersion(href: href, etag: etag)
    }
    let body =
      #"<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:"><D:prop><D:getetag/></D:prop></D:propfind>"#
    let (reply, _) = try session.multistatus("PROPFIND", target, depth: 0, body: body)
    let etag = reply.responses.first?.property(DAVElement.dav, "getetag")?.trimmedText
    return RemoteVersion(href: href, etag: etag.flatMap { $0.isEmpty ? nil : $0 })
  }

  /// Whether a write was refused because another item of the collection has the UID: a
  /// 403, 409 or 207 whose body names `no-uid-conflict` (in a `D:error`, or in the error of a
  /// multistatus response).
  static func isUIDConflict(_ response: HTTPResponse) -> Bool {
    guard [207, 403, 409].contains(response.status), !response.body.isEmpty, response.body.count < 1 << 20,
      let root = try? DAVElement.parse(response.body)
    else { return false }
    func names(_ element: DAVElement, depth: Int) -> Bool {
      if element.namespace == DAVElement.caldav, element.name == "no-uid-conflict" { return true }
      return depth < 6 && element.children.contains { names($0, depth: depth + 1) }
    }
    return names(root, depth: 0)
  }

  /// The calendar data as iCalendar bytes: XML reading turns every CRLF into LF (unless the
  /// server wrote `&#13;`), and RFC 5545 ends content lines with CRLF, so each bare LF gets
  /// its CR back. A content line never holds a bare LF, so nothing else changes.
  static func contentLines(_ text: String) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count + text.utf8.count / 40)
    var previous: UInt8 = 0
    for byte in text.utf8 {
      if byte == 0x0A, previous != 0x0D { out.append(0x0D) }
      out.append(byte)
      previous = byte
    }
    return out
  }
}
