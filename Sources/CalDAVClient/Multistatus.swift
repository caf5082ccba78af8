import TodoCalendar

/// A 207 Multi-Status reply (RFC 4918), read into what the client asks of it: per href, the
/// properties found (status 200) and the status of the whole response when it has one.
struct Multistatus: Sendable {
  struct Response: Sendable {
    /// As the server wrote it.
    var href: String
    /// The response's own status (a 404 in a sync report: removed); nil when it has propstats.
    var status: Int?
    /// Properties that came with status 200, by (namespace, name).
    var properties: [DAVElement]

    func property(_ namespace: String, _ name: String) -> DAVElement? {
      properties.first { $0.namespace == namespace && $0.name == name }
    }
  }

  var responses: [Response]
  /// RFC 6578's token, in a sync-collection reply.
  var syncToken: String?

  init(parsing bytes: [UInt8]) throws(CalendarServerError) {
    let root = try DAVElement.parse(bytes)
    guard root.namespace == DAVElement.dav, root.name == "multistatus" else {
      throw .missingPart("multistatus element")
    }
    responses = try root.children(DAVElement.dav, "response").map {
      element throws(CalendarServerError) in
      guard let href = element.child(DAVElement.dav, "href")?.trimmedText, !href.isEmpty else {
        throw .missingPart("href in a response")
      }
      var properties: [DAVElement] = []
      for propstat in element.children(DAVElement.dav, "propstat") {
        let status = propstat.child(DAVElement.dav, "status").flatMap {
          Multistatus.code(of: $0.trimmedText)
        }
        guard status.map({ (200..<300).contains($0) }) ?? true else { continue }
        properties += propstat.child(DAVElement.dav, "prop")?.children ?? []
      }
      let status = element.child(DAVElement.dav, "status").flatMap {
        Multistatus.code(of: $0.trimmedText)
      }
      return Response(href: href, status: status, properties: properties)
    }
    let token = root.child(DAVElement.dav, "sync-token")?.trimmedText
    syncToken = token.flatMap { $0.isEmpty ? nil : $0 }
  }

  /// The code of a status line, `HTTP/1.1 404 Not Found` → 404.
  static func code(of line: String) -> Int? {
    let parts = line.split(separator: " ")
    guard parts.count >= 2, let code = Int(parts[1]), (100..<600).contains(code) else { return nil }
    return code
  }
}
