import TodoTxt

/// What the last sync of one list with one collection left: the collection's sync token and,
/// per UID, the record the next sync's merge starts from.
///
/// Its bytes are a sequence of fields, each `NAME LENGTH LF BYTES LF`: the length says where
/// a value ends, so no value (a title with a line break, a server's 10 MB DESCRIPTION,
/// invalid UTF-8) can be read as another field. Reading never trusts the bytes: a field out
/// of place, a length past the end or a value that does not read is ``SyncStateError``, and
/// the caller then syncs as a first sync (matching by UID), never deleting on its word.
public struct SyncState: Equatable, Sendable {
  public static let formatName = "todo-caldav-state 1"

  /// The list the state belongs to (the todo.txt path as resolved).
  public var list: String
  /// The collection's URL.
  public var collection: String
  /// The token of the collection's last sync-collection report, if the server gives them.
  public var token: String?
  /// Set once the server's sync-collection reports were seen to leave out what changed
  /// (Xandikos 0.2.8 answers a token with every item and no removals): from then on every
  /// sync lists the whole collection and compares entity tags, and a removal is never
  /// missed.
  public var fullListing = false
  /// The hrefs the last sync wrote. The next report names them again (the token kept is the
  /// one from before the writes), with the entity tags recorded; any other item named with
  /// its recorded entity tag did not change, and a server that names it is not trusted
  /// with removals either.
  public var written: Set<String> = []
  public var records: [String: SyncRecord]

  public init(list: String, collection: String, token: String? = nil, records: [String: SyncRecord] = [:]) {
    self.list = list
    self.collection = collection
    self.token = token
    self.records = records
  }

  // MARK: Writing

  public var bytes: [UInt8] {
    var out: [UInt8] = Array(SyncState.formatName.utf8) + [0x0A]
    func put(_ name: String, _ value: [UInt8]) {
      out += Array(name.utf8) + [0x20] + Array(String(value.count).utf8) + [0x0A] + value + [0x0A]
    }
    func put(_ name: String, _ value: String?) { if let value { put(name, Array(value.utf8)) } }
    put("list", list)
    put("collection", collection)
    put("token", token)
    if fullListing { put("listing", "full") }
    for href in written.sorted() { put("written", href) }
    for uid in records.keys.sorted() {
      guard let record = records[uid] else { continue }
      put("record", record.uid)
      put("href", record.version.href)
      put("etag", record.version.etag)
      let fields = record.fields
      put("title", fields.title)
      put("priority", fields.priority?.description)
      for name in fields.projects { put("project", name) }
      for name in fields.contexts { put("context", name) }
      put("due", fields.due?.description)
      put("start", fields.start?.description)
      if fields.isCompleted { put("done", fields.completed?.description ?? "") }
      put("created", fields.created?.description)
      put("recurrence", fields.recurrence?.description)
      put("id", fields.id)
      for name in fields.parents { put("parent", name) }
      put("note", fields.note)
      put("order", fields.sortOrder)
      put("copy", record.serverCopy)
    }
    put("end", "")
    return out
  }

  // MARK: Reading

  public init(parsing bytes: [UInt8]) throws(SyncStateError) {
    var reader = FieldReader(bytes: bytes)
    guard let first = reader.line(), first.elementsEqual(SyncState.formatName.utf8) else { throw .notAState }
    guard case ("list", let list)? = try reader.field(), case ("collection", let collection)? = try reader.field()
    else { throw .malformed("no list or collection") }
    self.init(list: try SyncState.text(list), collection: try SyncState.text(collection))
    var current: SyncRecord?
    func finish() throws(SyncStateError) {
      guard let record = current else { return }
      guard records[record.uid] == nil else { throw .malformed("the UID \(record.uid) twice") }
      records[record.uid] = record
      current = nil
    }
    while true {
      guard let (name, value) = try reader.field() else { throw .malformed("cut short") }
      if name == "end" {
        try finish()
        guard reader.atEnd else { throw .malformed("bytes after the end") }
        return
      }
      if name == "token" {
        guard current == nil, records.isEmpty, token == nil, !fullListing, written.isEmpty else {
          throw .malformed("token out of place")
        }
        token = try SyncState.text(value)
        continue
      }
      if name == "listing" {
        guard current == nil, records.isEmpty, !fullListing, written.isEmpty, value.elementsEqual("full".utf8) else {
          throw .malformed("listing out of place")
        }
        fullListing = true
        continue
      }
      if name == "written" {
        guard current == nil, records.isEmpty else { throw .malformed("written out of place") }
        written.insert(try SyncState.text(value))
        continue
      }
      if name == "record" {
        try finish()
        let uid = try SyncState.text(value)
        guard !uid.isEmpty else { throw .malformed("an empty UID") }
        current = SyncRecord(uid: uid, version: RemoteVersion(href: "", etag: nil), fields: TaskFields(title: ""), serverCopy: [])
        continue
      }
      guard var record = current else { throw .malformed("\(name) outside a record") }
      try SyncState.read(name, value, into: &record)
      current = record
    }
  }

  static func read(_ name: String, _ value: [UInt8], into record: inout SyncRecord) throws(SyncStateError) {
    func date() throws(SyncStateError) -> TaskDate {
      guard let date = TaskDate(try text(value)) else { throw .malformed("\(name) is no date") }
      return date
    }
    switch name {
    case "href": record.version.href = try text(value)
    case "etag": record.version.etag = try text(value)
    case "title": record.fields.title = try text(value)
    case "priority":
      guard let priority = Priority(try text(value)) else { throw .malformed("priority is no letter") }
      record.fields.priority = priority
    case "project": record.fields.projects.append(try text(value))
    case "context": record.fields.contexts.append(try text(value))
    case "due": record.fields.due = try date()
    case "start": record.fields.start = try date()
    case "done":
      record.fields.isCompleted = true
      record.fields.completed = value.isEmpty ? nil : try date()
    case "created": record.fields.created = try date()
    case "recurrence":
      guard let recurrence = Recurrence(try text(value)) else { throw .malformed("recurrence does not read") }
      record.fields.recurrence = recurrence
    case "id": record.fields.id = try text(value)
    case "parent": record.fields.parents.append(try text(value))
    case "note": record.fields.note = try text(value)
    case "order": record.fields.sortOrder = try text(value)
    case "copy": record.serverCopy = value
    default: throw .malformed("an unknown field")
    }
  }

  static func text(_ value: [UInt8]) throws(SyncStateError) -> String {
    guard let text = String(validating: value, as: UTF8.self) else { throw .malformed("text that is not UTF-8") }
    return text
  }
}

/// Why the bytes of a sync state do not read; worded once, in `description`.
public enum SyncStateError: Error, Equatable, Sendable, CustomStringConvertible {
  case notAState
  case malformed(String)
  /// The checksum does not match the content: cut short or changed by another program.
  case damaged
  /// The state names another list or collection (copied or planted).
  case foreign
  /// The state reads, but holds what the tool would not have written (an href outside the
  /// collection, a UID with control characters, …): planted, not used.
  case untrusted(String)

  public var description: String {
    switch self {
    case .notAState: return "not a sync state"
    case .malformed(let why): return "damaged (\(why))"
    case .damaged: return "damaged (its checksum does not match)"
    case .foreign: return "written for another list or collection"
    case .untrusted(let why): return "not trusted (\(why))"
    }
  }
}

/// Reads `NAME LENGTH LF BYTES LF` fields, bounds checked.
private struct FieldReader {
  let bytes: [UInt8]
  var position = 0

  var atEnd: Bool { position == bytes.count }

  mutating func line() -> ArraySlice<UInt8>? {
    guard let end = bytes[position...].firstIndex(of: 0x0A) else { return nil }
    defer { position = end + 1 }
    return bytes[position..<end]
  }

  mutating func field() throws(SyncStateError) -> (String, [UInt8])? {
    guard !atEnd else { return nil }
    guard let header = line(), header.count <= 64, let space = header.firstIndex(of: 0x20) else {
      throw .malformed("a field without its length")
    }
    let name = String(decoding: header[header.startIndex..<space], as: UTF8.self)
    let digits = header[(space + 1)...]
    guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy({ (0x30...0x39).contains($0) }),
      let length = Int(String(decoding: digits, as: UTF8.self)), length <= bytes.count - position - 1,
      bytes[position + length] == 0x0A
    else { throw .malformed("a length past the end") }
    defer { position += length + 1 }
    return (name, Array(bytes[position..<(position + length)]))
  }
}
