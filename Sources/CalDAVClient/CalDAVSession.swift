import Foundation
import TodoCalendar

/// One server origin, one user, one connection: sends requests, logs in when the server
/// answers 401 (Basic or Digest, as it offers; the password is looked for once and kept for
/// the session only), and reads multistatus replies.
final class CalDAVSession: @unchecked Sendable {
  let origin: ServerURL
  let user: String?
  private let transport: CurlTransport
  private let source: CredentialSource
  private let lock = NSLock()
  // Guarded by `lock`: the login found after the first 401.
  private var credentials: HTTPCredentials?

  static let redirectLimit = 5

  init(origin: ServerURL, user: String?, environment: CalDAVEnvironment) throws(CalendarServerError)
  {
    self.origin = origin
    self.user = user ?? origin.user
    self.transport = try CurlTransport(options: environment.transport)
    self.source = CredentialSource(environment: environment)
  }

  var requestCount: Int { transport.requestCount }

  /// Sends `request`; a 401 is answered once with credentials, and a second 401 is an
  /// authentication error.
  func send(_ request: HTTPRequest) throws(CalendarServerError) -> HTTPResponse {
    let known = lock.withLock { credentials }
    let response = try transport.send(request, credentials: known)
    guard response.status == 401 else { return response }
    if known != nil { throw .refused(401) }
    let challenges = response.headers
      .filter { $0.name.caseInsensitiveCompare("WWW-Authenticate") == .orderedSame }
      .map { $0.value.lowercased() }
    let scheme: HTTPCredentials.Scheme
    if challenges.contains(where: { $0.hasPrefix("digest") }) {
      scheme = .digest
    } else if challenges.contains(where: { $0.hasPrefix("basic") }) {
      scheme = .basic
    } else {
      throw .unsupportedAuthentication(challenges.first ?? "no WWW-Authenticate header")
    }
    let found = try source.credentials(user: user, host: request.url.host)
    let login = HTTPCredentials(user: found.user, password: found.password, scheme: scheme)
    let answered = try transport.send(request, credentials: login)
    if answered.status == 401 { throw .refused(401) }
    lock.withLock { credentials = login }
    return answered
  }

  /// Sends `request` and follows redirects on the same host; from https to http, or to
  /// another host, is refused with an error that names the target.
  func sendFollowingRedirects(_ request: HTTPRequest) throws(CalendarServerError) -> (
    HTTPResponse, ServerURL
  ) {
    var current = request
    for _ in 0...CalDAVSession.redirectLimit {
      let response = try send(current)
      guard [301, 302, 303, 307, 308].contains(response.status) else {
        return (response, current.url)
      }
      guard let location = response.header("Location"),
        let target = current.url.following(location: location)
      else { throw .missingPart("Location in a redirect") }
      if current.url.scheme == "https", target.scheme != "https" {
        throw .redirectedToPlainHTTP(target.description)
      }
      guard target.host == origin.host, target.scheme == "https" || target.isLoopback else {
        throw .redirectedOffHost(target.description)
      }
      current.url = target
    }
    throw .tooManyRedirects
  }

  /// A PROPFIND or REPORT, its 207 read; another status is thrown as an error about `url`.
  func multistatus(
    _ method: String, _ url: ServerURL, depth: Int, body: String, followRedirects: Bool = false
  ) throws(CalendarServerError) -> (Multistatus, ServerURL) {
    let request = HTTPRequest(
      method: method, url: url,
      headers: [("Depth", String(depth)), ("Content-Type", "application/xml; charset=utf-8")],
      body: Array(body.utf8))
    let (response, finalURL) =
      followRedirects ? try sendFollowingRedirects(request) : (try send(request), url)
    guard response.status == 207 else { throw CalDAVSession.error(response, url: finalURL) }
    return (try CalDAVSession.readMultistatus(response), finalURL)
  }

  static func readMultistatus(_ response: HTTPResponse) throws(CalendarServerError) -> Multistatus {
    if let type = response.header("Content-Type"), !type.lowercased().contains("xml") {
      throw .notXML(contentType: type)
    }
    return try Multistatus(parsing: response.body)
  }

  /// The error a status other than the expected one means for a request on `url`.
  static func error(_ response: HTTPResponse, url: ServerURL) -> CalendarServerError {
    // A 403 naming a precondition (RFC 4791's no-uid-conflict, a component the collection
    // does not take, …) is the server's rule, not a login problem: the rule is named.
    if response.status == 403 || response.status == 409, let condition = precondition(response.body)
    {
      return .unexpectedStatus(response.status, reason: condition)
    }
    switch response.status {
    case 401, 403: return .refused(response.status)
    case 404, 410: return .notFound(href: url.path)
    default: return .unexpectedStatus(response.status, reason: response.reason)
    }
  }

  /// The name of the precondition in a `<D:error>` body, if the body is one.
  private static func precondition(_ body: [UInt8]) -> String? {
    guard !body.isEmpty, body.count < 1 << 20,
      let root = try? DAVElement.parse(body), root.namespace == DAVElement.dav,
      root.name == "error",
      let first = root.children.first
    else { return nil }
    return first.name
  }
}
