import TodoTxt

// The seams of CalDAV sync, fixed first so the iCalendar mapping, the network client and the
// sync engine can be built side by side. No Foundation here: the network lives in
// `CalDAVClient`, which conforms to `TaskCollection`; the engine sees only these types, so it
// is tested against an in-memory collection as well as real servers.

/// The mapped part of one task: what a CalDAV VTODO and a todo.txt line both say, compared
/// field by field in the three-way merge. Everything else stays where it is: the line's other
/// tags and words on the list, the VTODO's other properties (alarms set on a phone, X-
/// properties, attachments) on the server copy kept in the sync state.
public struct TaskFields: Equatable, Hashable, Sendable {
  /// The words as the person wrote them, `+project` and `@context` words included, without
  /// the head (completion, priority, dates) and without the tags mapped to other fields.
  public var title: String
  public var priority: Priority?
  /// `+project` names (without the sigil), in the order of first appearance.
  public var projects: [String]
  /// `@context` names (without the sigil), in the order of first appearance.
  public var contexts: [String]
  public var due: TaskDate?
  /// `t:`, the day the task starts to matter (DTSTART).
  public var start: TaskDate?
  public var isCompleted: Bool
  public var completed: TaskDate?
  public var created: TaskDate?
  public var recurrence: Recurrence?
  /// `id:` of this task (RELATED-TO of its children).
  public var id: String?
  /// `p:` parents (RELATED-TO;RELTYPE=PARENT).
  public var parents: [String]
  /// The note's text (DESCRIPTION); nil when the task has no note.
  public var note: String?
  /// The manual order (X-APPLE-SORT-ORDER), as the server wrote it.
  public var sortOrder: String?

  public init(
    title: String, priority: Priority? = nil, projects: [String] = [], contexts: [String] = [],
    due: TaskDate? = nil, start: TaskDate? = nil, isCompleted: Bool = false,
    completed: TaskDate? = nil, created: TaskDate? = nil, recurrence: Recurrence? = nil,
    id: String? = nil, parents: [String] = [], note: String? = nil, sortOrder: String? = nil
  ) {
    self.title = title
    self.priority = priority
    self.projects = projects
    self.contexts = contexts
    self.due = due
    self.start = start
    self.isCompleted = isCompleted
    self.completed = completed
    self.created = created
    self.recurrence = recurrence
    self.id = id
    self.parents = parents
    self.note = note
    self.sortOrder = sortOrder
  }
}

/// Where an item lives on the server and which version of it was seen.
public struct RemoteVersion: Equatable, Hashable, Sendable {
  /// The path as the server gave it (percent-encoded, absolute on the server).
  public var href: String
  /// The entity tag, quotes included; nil when the server gave none.
  public var etag: String?

  public init(href: String, etag: String?) {
    self.href = href
    self.etag = etag
  }
}

/// One item of the collection: where it is and its iCalendar bytes.
public struct RemoteItem: Equatable, Sendable {
  public var version: RemoteVersion
  public var body: [UInt8]

  public init(version: RemoteVersion, body: [UInt8]) {
    self.version = version
    self.body = body
  }
}

/// What the server says changed.
public enum RemoteChanges: Equatable, Sendable {
  /// Since the token given (RFC 6578 sync-collection): items changed or added, hrefs
  /// removed, and the token to give next time.
  case delta(changed: [RemoteVersion], removed: [String], token: String)
  /// Every item (PROPFIND Depth 1 with getetag), when there was no token, the server offers
  /// no sync-collection, or it refused the token; the token if the server gave one.
  case full([RemoteVersion], token: String?)
}

/// Why a request to the server failed, typed where it is raised; worded once, in
/// `description`, as a one-line message for the person.
public enum CalendarServerError: Error, Equatable, Sendable, CustomStringConvertible {
  /// 412 on a conditional write: the item changed on the server since it was read.
  case changedMeanwhile(href: String)
  /// 412 on a create (If-None-Match: *): an item already has that name.
  case alreadyExists(href: String)
  case notFound(href: String)
  /// 401/403 after credentials were sent, or no credentials could be had.
  case authentication(String)
  case tls(String)
  /// A connection the tool will not make: plain HTTP off this machine, a redirect from
  /// https to http. Not a failure of TLS: TLS was never tried.
  case insecure(String)
  case unreachable(String)
  case notATaskCollection(url: String)
  /// Another status, with the server's words where they fit on a line.
  case status(Int, String)
  /// A write the client will not send: the href is not an item of the collection.
  case outsideCollection(href: String)
  /// A reply that is not what the protocol says (malformed or oversized XML, a missing part).
  case invalidResponse(String)

  public var description: String {
    switch self {
    case .changedMeanwhile(let href): return "\(href) changed on the server meanwhile"
    case .alreadyExists(let href): return "\(href) already exists on the server"
    case .notFound(let href): return "\(href) is not on the server"
    case .authentication(let why): return "the server refused the credentials: \(why)"
    case .tls(let why): return "TLS failed: \(why)"
    case .insecure(let why): return "refused: \(why)"
    case .unreachable(let why): return "the server cannot be reached: \(why)"
    case .notATaskCollection(let url): return "\(url) is not a CalDAV task collection"
    case .status(let code, let words): return "the server answered \(code)" + (words.isEmpty ? "" : ": \(words)")
    case .outsideCollection(let href): return "\(href) is not an item of the collection; not written"
    case .invalidResponse(let why): return "the server's reply is not valid: \(why)"
    }
  }
}

/// One CalDAV task collection, as the sync engine uses it. Calls block; each is one or a few
/// HTTP requests; none holds the list's lock.
public protocol TaskCollection: Sendable {
  /// The changes since `token` (nil: everything).
  func changes(since token: String?) throws(CalendarServerError) -> RemoteChanges
  /// The bodies of these items (calendar-multiget); an href gone meanwhile is left out.
  func fetch(_ hrefs: [String]) throws(CalendarServerError) -> [RemoteItem]
  /// Creates `name` (a file name in the collection, e.g. `UID.ics`) with If-None-Match: *;
  /// returns where it is and its etag (fetched when the PUT reply gave none).
  func create(name: String, body: [UInt8]) throws(CalendarServerError) -> RemoteVersion
  /// Replaces the item if it is still at `etag` (If-Match); `.changedMeanwhile` otherwise.
  func update(_ version: RemoteVersion, body: [UInt8]) throws(CalendarServerError) -> RemoteVersion
  /// Deletes the item if it is still at `etag` (If-Match).
  func delete(_ version: RemoteVersion) throws(CalendarServerError)
  /// Whether `href` names an item of this collection: one name right under its path, not
  /// `.` or `..`, on its origin. Hrefs from a sync state are checked with it before the state
  /// is used (a planted state must not aim a write elsewhere), and ``update(_:body:)`` and
  /// ``delete(_:)`` refuse any other href themselves.
  func isMember(_ href: String) -> Bool
}
