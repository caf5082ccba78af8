/// What a sync state must be before its word is taken.
///
/// The state's checksum tells a file cut short or changed by accident from a good one; it
/// does not tell a good file from one another program wrote on purpose with a checksum that
/// matches (SHA-256 is no secret). Such a state is trusted with what a state says (which
/// tasks were synced, so a task gone from one side is deleted on the other), and with
/// nothing more: every href, UID, entity tag and token in it is checked against what the
/// tool itself would have written, and one that fails makes the whole state untrusted (the
/// sync is then a first sync, matching by UID, which deletes nothing). So a planted state
/// cannot aim a DELETE or a PUT at a URL outside the collection (another collection of the
/// account, another host, a path climbing out with `..`), put a line break into a header,
/// or write under a UID an item it names does not have.
///
/// The same rules hold for what the server says before it goes into the state (an item
/// whose UID or entity tag fails them is left as it is), so a state the tool wrote always
/// passes them.
extension SyncState {
  /// The longest UID taken (phones write UUIDs of 36 bytes, some servers a few hundred).
  public static let longestUID = 1024
  /// The longest entity tag or sync token taken.
  public static let longestTag = 4096

  /// Whether `uid` can name a task: not empty, not longer than ``longestUID`` bytes, no
  /// control characters (C0, DEL, C1).
  public static func isAcceptableUID(_ uid: String) -> Bool {
    !uid.isEmpty && uid.utf8.count <= longestUID && !hasControlCharacters(uid)
  }

  /// Whether an entity tag or a sync token can be sent back to the server in a header or a
  /// request: not longer than ``longestTag`` bytes, no control characters.
  public static func isAcceptableTag(_ tag: String) -> Bool {
    tag.utf8.count <= longestTag && !hasControlCharacters(tag)
  }

  static func hasControlCharacters(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value) }
  }

  /// Why `record` is not one the tool would have written, nil when it is: its UID and entity
  /// tag acceptable, its href a member of the collection (as `isMember` judges), and (unless
  /// `checkingCopy` is false) its server copy an iCalendar object whose VTODO has the
  /// record's UID.
  public static func distrust(_ record: SyncRecord, isMember: (String) -> Bool, checkingCopy: Bool = true) -> String? {
    guard isAcceptableUID(record.uid) else { return "a UID that is empty, too long or holds control characters" }
    if let etag = record.version.etag, !isAcceptableTag(etag) {
      return "an entity tag that is too long or holds control characters"
    }
    guard isMember(record.version.href) else { return "an href outside the collection" }
    guard checkingCopy else { return nil }
    guard let document = try? ICalendarDocument(parsing: record.serverCopy) else {
      return "a server copy that does not read"
    }
    let todos = document.todos
    guard let master = todos.first(where: { $0.recurrenceID == nil }) ?? todos.first, master.uid == record.uid else {
      return "a server copy of another UID"
    }
    return nil
  }

  /// Why this state is not to be trusted, nil when it is: a token or a record that fails the
  /// rules, or two records at one href (a DELETE meant for one would hit the other).
  public func distrust(isMember: (String) -> Bool) -> String? {
    if let token, !SyncState.isAcceptableTag(token) { return "a sync token that is too long or holds control characters" }
    if written.contains(where: { !isMember($0) }) { return "an href outside the collection" }
    var hrefs: Set<String> = []
    for uid in records.keys.sorted() {
      guard let record = records[uid] else { continue }
      guard record.uid == uid else { return "a record filed under another UID" }
      if let why = SyncState.distrust(record, isMember: isMember) { return why }
      guard hrefs.insert(record.version.href).inserted else { return "two records at one href" }
    }
    return nil
  }

  /// The state without what would make it untrusted: records that fail the rules, records
  /// sharing an href, a token that fails them. What the server said this sync is kept to the
  /// same rules as what is read back, so the tool never writes a state it would refuse.
  ///
  /// The server copies are not read again here (a sync writes its state every few dozen
  /// operations, and reading ten thousand copies each time would cost more than the sync):
  /// each is a body the item was read from (its UID taken from it) or one the tool wrote
  /// under that UID.
  public func trusted(isMember: (String) -> Bool) -> SyncState {
    var kept = self
    if let token, !SyncState.isAcceptableTag(token) { kept.token = nil }
    kept.written = written.filter(isMember)
    var byHref: [String: Int] = [:]
    for record in records.values { byHref[record.version.href, default: 0] += 1 }
    kept.records = records.filter { uid, record in
      record.uid == uid && byHref[record.version.href] == 1
        && SyncState.distrust(record, isMember: isMember, checkingCopy: false) == nil
    }
    return kept
  }
}
