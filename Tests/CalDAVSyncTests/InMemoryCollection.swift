import CalDAVSync
import Foundation
import TodoCalendar

/// A task collection in memory that behaves as a CalDAV server does for the engine: etags
/// that change on every write, conditional writes, a sync token with the changes since it,
/// and a network that can be made to fail after a number of requests.
final class InMemoryCollection: TaskCollection, @unchecked Sendable {
  private let lock = NSLock()
  private(set) var items: [String: (etag: String, body: [UInt8])] = [:]
  /// The href changed or removed by each change, in order; the token is the count.
  private var log: [String] = []
  private var serial = 0
  /// Requests that may still succeed; nil: all of them.
  var requestsLeft: Int?
  /// Counts of requests by kind.
  private(set) var writes = 0
  /// Answers a token as Xandikos 0.2.8 does: every item as changed, no removals.
  var deltasOmitRemovals = false

  static let base = "/cal/tasks/"

  private func request() throws(CalendarServerError) {
    if let left = requestsLeft {
      guard left > 0 else { throw .unreachable("connection refused (test)") }
      requestsLeft = left - 1
    }
  }

  private func locked<R>(_ body: () throws(CalendarServerError) -> R) throws(CalendarServerError) -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }

  private func nextETag() -> String {
    serial += 1
    return "\"\(serial)\""
  }

  /// A phone's write: no condition.
  func put(_ name: String, _ body: [UInt8]) {
    lock.lock()
    defer { lock.unlock() }
    items[InMemoryCollection.base + name] = (nextETag(), body)
    log.append(InMemoryCollection.base + name)
  }

  func put(_ name: String, _ text: String) { put(name, Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)) }

  func remove(_ href: String) {
    lock.lock()
    defer { lock.unlock() }
    items[href] = nil
    log.append(href)
  }

  func removeAll() {
    for href in items.keys { remove(href) }
  }

  var bodies: [String] {
    lock.lock()
    defer { lock.unlock() }
    return items.values.map { String(decoding: $0.body, as: UTF8.self) }
  }

  func changes(since token: String?) throws(CalendarServerError) -> RemoteChanges {
    try locked { () throws(CalendarServerError) in
      try request()
      let now = String(log.count)
      guard let token, let from = Int(token), from <= log.count else {
        return .full(items.map { RemoteVersion(href: $0.key, etag: $0.value.etag) }.sorted { $0.href < $1.href }, token: now)
      }
      if deltasOmitRemovals {
        let all = items.map { RemoteVersion(href: $0.key, etag: $0.value.etag) }.sorted { $0.href < $1.href }
        return .delta(changed: all, removed: [], token: now)
      }
      let touched = Set(log[from...])
      let changed = touched.compactMap { href in items[href].map { RemoteVersion(href: href, etag: $0.etag) } }
      let removed = touched.filter { items[$0] == nil }
      return .delta(changed: changed.sorted { $0.href < $1.href }, removed: removed.sorted(), token: now)
    }
  }

  func fetch(_ hrefs: [String]) throws(CalendarServerError) -> [RemoteItem] {
    try locked { () throws(CalendarServerError) in
      try request()
      return hrefs.compactMap { href in
        items[href].map { RemoteItem(version: RemoteVersion(href: href, etag: $0.etag), body: $0.body) }
      }
    }
  }

  func create(name: String, body: [UInt8]) throws(CalendarServerError) -> RemoteVersion {
    try locked { () throws(CalendarServerError) in
      try request()
      let href = InMemoryCollection.base + name
      guard items[href] == nil else { throw .alreadyExists(href: href) }
      let etag = nextETag()
      items[href] = (etag, body)
      log.append(href)
      writes += 1
      return RemoteVersion(href: href, etag: etag)
    }
  }

  func update(_ version: RemoteVersion, body: [UInt8]) throws(CalendarServerError) -> RemoteVersion {
    try locked { () throws(CalendarServerError) in
      writtenHrefs.append(version.href)
      guard isMember(version.href) else { throw .outsideCollection(href: version.href) }
      try request()
      guard let item = items[version.href] else { throw .notFound(href: version.href) }
      guard item.etag == version.etag else { throw .changedMeanwhile(href: version.href) }
      let etag = nextETag()
      items[version.href] = (etag, body)
      log.append(version.href)
      writes += 1
      return RemoteVersion(href: version.href, etag: etag)
    }
  }

  /// Every href an update or a delete was asked for, sent or refused.
  private(set) var writtenHrefs: [String] = []

  /// An item is one name right under ``base``, as a CalDAV server's collection has them.
  func isMember(_ href: String) -> Bool {
    guard href.hasPrefix(InMemoryCollection.base) else { return false }
    let name = href.dropFirst(InMemoryCollection.base.count)
    return !name.isEmpty && name != "." && name != ".." && !name.contains("/")
      && !name.uppercased().contains("%2F") && !name.uppercased().contains("%5C")
  }

  func delete(_ version: RemoteVersion) throws(CalendarServerError) {
    try locked { () throws(CalendarServerError) in
      writtenHrefs.append(version.href)
      guard isMember(version.href) else { throw .outsideCollection(href: version.href) }
      try request()
      guard let item = items[version.href] else { throw .notFound(href: version.href) }
      guard item.etag == version.etag else { throw .changedMeanwhile(href: version.href) }
      items[version.href] = nil
      log.append(version.href)
      writes += 1
    }
  }
}
