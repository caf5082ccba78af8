#if canImport(Glibc)
  import Glibc
#endif

/// The intent record of a change to several files, written before the first rename and
/// removed when every file is in place, so that a process killed in between is finished by
/// the next one (rolled forward: the files end up all new, never half moved).
///
/// A copy lies beside each file (`.todo.txt.journal`), so a command that touches only one of
/// the files still finds it. The copy beside the first file (in lock order) is the primary:
/// it is written last and removed first, so a copy without its primary is stale.
///
/// Each file's entry keeps the hashes of its old and new content and the line patch between
/// them. Rolling forward renames the temporary file (staged before the journal is written)
/// when the file is still the old version, and otherwise re-applies the patch, so an outside
/// edit made before the recovery is kept.
struct Journal: Sendable {
  struct Entry: Sendable {
    var target: Target
    var oldHash: UInt64
    var newHash: UInt64
    var patch: Lines
  }

  /// What a journal knows of a file's lines.
  enum Lines: Sendable {
    /// The whole patch: every line taken and brought, with their neighbours. What the third
    /// version records, and what a change being written has (it is encoded as the fourth).
    case whole(Patch)
    /// The fourth version's record (see ``HashedPatch``): re-applied only with the staged new
    /// version at hand.
    case hashed(HashedPatch)
    /// The fourth version's record of a patch, already encoded: what ``TodoStore/stage(_:)``
    /// makes of a ``whole(_:)`` patch on a second core while the new versions are written.
    case recorded([UInt8])
  }

  /// The third version is sealed with HMAC-SHA-256 under the user's key (see
  /// ``TodoStore/journalKey(creating:)``). Earlier versions carried only an unkeyed checksum
  /// that anyone could forge, so they are refused like any journal this user did not write.
  /// A journal of the third version (left by a build before the fourth) is still read and
  /// finished.
  static let magic3 = "todo journal 3"
  /// The fourth version, sealed the same way, records patches as ``HashedPatch``es.
  static let magic = "todo journal 4"

  var id: UInt64
  /// In lock order; the first is the primary.
  var entries: [Entry]

  /// How this journal's file hashes are made.
  func hash(_ bytes: [UInt8]) -> UInt64 { ContentHash.ofFile(bytes) }

  static func path(for target: Target) -> String {
    Paths.join(target.directory, ".\(target.name).journal")
  }

  var primaryPath: String { entries.first.map { Journal.path(for: $0.target) } ?? "" }

  /// The record (fourth version) sealed with HMAC-SHA-256 under `key`.
  func encoded(key: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    // Nothing here throws: the blocks only gather in memory.
    try? encode(key: key) { out += $0 }
    return out
  }

  /// ``encoded(key:)`` handed to `body` a block at a time, sealed as it goes.
  func encode(key: [UInt8], _ body: @escaping ([UInt8]) throws(SystemError) -> Void)
    throws(SystemError)
  {
    var code = Authenticator(key: key)
    var writer = ByteWriter(magic: Journal.magic) { (block: [UInt8]) throws(SystemError) in
      code.update(block)
      try body(block)
    }
    writer.int(Int(Int64(bitPattern: id)))
    writer.int(entries.count)
    for entry in entries {
      writer.string(entry.target.path)
      writer.string(entry.target.resolved)
      writer.int(Int(Int64(bitPattern: entry.oldHash)))
      writer.int(Int(Int64(bitPattern: entry.newHash)))
      switch entry.patch {
      case .whole(let patch): writer.hashedPatch(patch)
      case .hashed(let patch): writer.hashedPatch(patch)
      case .recorded(let record): writer.raw(record)
      }
    }
    try writer.flush()
    try body(code.finish())
  }

  init(id: UInt64, entries: [Entry]) {
    self.id = id
    self.entries = entries
  }

  /// Reads a journal of the fourth or the third version sealed under `key`.
  init(decoding bytes: [UInt8], key: [UInt8]) throws(CorruptRecord) {
    var reader = try ByteReader(bytes, key: key)
    let magic = try reader.data()
    let hashed: Bool
    if magic == Array(Journal.magic.utf8) {
      hashed = true
    } else if magic == Array(Journal.magic3.utf8) {
      hashed = false
    } else {
      throw CorruptRecord()
    }
    id = UInt64(bitPattern: Int64(try reader.int()))
    entries = []
    for _ in 0..<(try reader.count()) {
      let path = try reader.string()
      let resolved = try reader.string()
      let (directory, name) = Paths.split(resolved)
      entries.append(
        Entry(
          target: Target(
            path: path, resolved: resolved, directory: directory, name: name, isDevice: false),
          oldHash: UInt64(bitPattern: Int64(try reader.int())),
          newHash: UInt64(bitPattern: Int64(try reader.int())),
          patch: hashed ? .hashed(try reader.hashedPatch()) : .whole(try reader.patch())))
    }
    guard reader.isAtEnd else { throw CorruptRecord() }
  }
}

extension Journal.Lines {
  /// The patch as the fourth version records it.
  func hashedPatch() throws(CorruptRecord) -> HashedPatch {
    switch self {
    case .whole(let patch):
      var writer = ByteWriter()
      writer.hashedPatch(patch)
      var reader = ByteReader(part: writer.bytes)
      return try reader.hashedPatch()
    case .hashed(let patch):
      return patch
    case .recorded(let record):
      var reader = ByteReader(part: record)
      return try reader.hashedPatch()
    }
  }
}

extension Journal {
  /// What a journal is sealed with when no key can be trusted or made (no state directory, a
  /// refused key that cannot be replaced): such a journal is never replayed
  /// (``TodoStore/readJournal(_:)`` needs the real key), only kept for a person to read.
  static let noKey = [UInt8](repeating: 0, count: 32)

  /// Whether every file this journal names is the list's own (see
  /// ``TodoStore/recoverInterruptedChanges(_:)``), and the file it was found beside is one.
  func isConfined(to target: Target, or targets: [Target], posix: Posix) -> Bool {
    guard entries.contains(where: { $0.target.resolved == target.resolved }) else { return false }
    let current = Set(targets.map(\.resolved))
    return entries.allSatisfy { entry in
      let name = entry.target.name
      guard !name.isEmpty, name != ".", name != "..", !name.contains("/"),
        entry.target.resolved == Paths.join(entry.target.directory, name)
      else { return false }
      if current.contains(entry.target.resolved) { return true }
      guard entry.target.directory == target.directory,
        (try? posix.realpath(entry.target.directory)) == entry.target.directory
      else { return false }
      // Resolved when written: a link there now was put there since.
      guard let info = posix.lstat(entry.target.resolved) else { return true }
      return info.isRegularFile
    }
  }
}

extension TodoStore {
  /// Writes every copy of the journal durably: the copies first, the primary last.
  func writeJournal(_ journal: Journal) throws(StoreError) {
    try stageJournal(journal, key: journalKey(creating: true) ?? Journal.noKey)
    try placeJournal(journal)
  }

  /// The order the copies are put in place: the copies first, the primary last.
  private func placingOrder(_ journal: Journal) -> [Journal.Entry] {
    Array(journal.entries.dropFirst() + journal.entries.prefix(1))
  }

  /// Writes every copy of the journal to its temporary file (`.todo.txt.journal.new`) and
  /// makes it durable: the record is encoded once, a block at a time, each block written to
  /// every copy. On failure nothing is left.
  func stageJournal(_ journal: Journal, key: [UInt8]) throws(StoreError) {
    let order = placingOrder(journal)
    var opened: [(fd: Int32, temporary: String)] = []
    defer { for file in opened { posix.close(file.fd) } }
    var failed: Target?
    for entry in order { try clearTheWay(for: Journal.path(for: entry.target) + ".new") }
    do throws(SystemError) {
      for entry in order {
        failed = entry.target
        let temporary = Journal.path(for: entry.target) + ".new"
        opened.append((try posix.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600), temporary))
      }
      let files = opened
      try journal.encode(key: key) { (block: [UInt8]) throws(SystemError) in
        for (file, entry) in zip(files, order) {
          failed = entry.target
          try self.posix.writeAll(file.fd, block, path: file.temporary)
        }
      }
      for (file, entry) in zip(opened, order) {
        failed = entry.target
        try posix.fsync(file.fd, path: file.temporary)
      }
    } catch {
      unstageJournal(journal)
      throw StoreError(errno: error.code, path: failed?.path ?? "", operation: .write)
    }
  }

  /// Removes the temporary copies ``stageJournal(_:key:)`` wrote.
  func unstageJournal(_ journal: Journal) {
    for entry in journal.entries { try? posix.unlink(Journal.path(for: entry.target) + ".new") }
  }

  /// Renames each staged copy into place, the primary last, each rename made durable.
  func placeJournal(_ journal: Journal) throws(StoreError) {
    for entry in placingOrder(journal) {
      let path = Journal.path(for: entry.target)
      do throws(SystemError) {
        try posix.rename(path + ".new", path)
        try posix.fsyncDirectory(entry.target.directory)
      } catch {
        unstageJournal(journal)
        removeJournal(journal)
        throw StoreError(errno: error.code, path: entry.target.path, operation: .write)
      }
    }
  }

  /// Removes every copy, the primary first; each removal is made durable so that a finished
  /// change is never replayed.
  func removeJournal(_ journal: Journal) {
    for entry in journal.entries {
      try? posix.unlink(Journal.path(for: entry.target))
      try? posix.fsyncDirectory(entry.target.directory)
    }
  }

  /// A journal as this user's store sealed it; `nil` when it is missing, unreadable or
  /// not sealed with this user's key.
  func readJournal(_ path: String) -> Journal? {
    guard let fd = try? posix.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK) else { return nil }
    defer { posix.close(fd) }
    guard let info = try? posix.fstat(fd), info.isRegularFile,
      let bytes = try? posix.readAll(fd, path: path)
    else { return nil }
    // No trusted key, no trusted journal: an all-zero key would be anyone's.
    guard let key = journalKey(creating: false) else { return nil }
    return try? Journal(decoding: bytes, key: key)
  }

  /// Finishes any change a killed process left behind on these files.
  ///
  /// A journal is replayed only when this user's key sealed it and every file it names is
  /// the list's own: a plain name in the directory of the file it was found beside (resolved,
  /// with no link on the way), or one of the files this command itself is changing. Any other
  /// journal — planted in a synced folder, forged, or from an earlier release — is left in
  /// place with a one-line warning, and nothing is written.
  ///
  /// Returns the journals left in place.
  @discardableResult
  func recoverInterruptedChanges(_ targets: [Target]) throws(StoreError) -> Set<String> {
    var refused: Set<String> = []
    for target in targets where !target.isDevice {
      let path = Journal.path(for: target)
      guard posix.lstat(path) != nil else { continue }
      guard let journal = readJournal(path), journal.isConfined(to: target, or: targets, posix: posix)
      else {
        warn(StoreError(.untrustedJournal(journal: path), path: target.path, operation: .recover))
        refused.insert(path)
        continue
      }
      if path != journal.primaryPath {
        guard let primary = readJournal(journal.primaryPath), primary.id == journal.id else {
          try? posix.unlink(path)
          continue
        }
      }
      try recover(journal)
    }
    return refused
  }

  /// The per-user key that seals journals, 32 random bytes in the state directory (mode
  /// 0600), made on first use. Kept out of the todo directory, so that whoever else can write
  /// there (a sync peer, a collaborator's push) cannot make a journal this store replays.
  ///
  /// The key is used only when it is exactly what the store writes: a regular file (not a
  /// link, not a directory) of 32 bytes, owned by this user, that nobody else may read or
  /// write, in a state directory of this user's that nobody else may write. Anything else is
  /// never read as a key (an all-zero or guessable key would let a planted journal in): it is
  /// moved aside to `journal.key.refused-SECONDS` with a one-line warning, and a fresh key is
  /// made in its place when a change needs one. Journals sealed with the old key are then no
  /// longer trusted: they stay in place, each named in a warning, and nothing replays them
  /// (putting the old key back, as a regular 0600 file, lets the next run finish them).
  ///
  /// `nil` when there is no state directory, or no key can be trusted or made: then no
  /// journal is replayed at all.
  func journalKey(creating: Bool) -> [UInt8]? {
    guard let stateDirectory else { return nil }
    let path = Paths.join(stateDirectory, "journal.key")
    switch checkedKey(path) {
    case .valid(let key): return key
    case .missing: break
    case .refused(let reason):
      if let reason = stateDirectoryRefusal(stateDirectory) {
        warn(StoreError(.refusedJournalKey(reason: reason, movedTo: nil), path: stateDirectory, operation: .read))
        return nil
      }
      let aside = path + ".refused-\(now())"
      guard (try? posix.rename(path, aside)) != nil else {
        warn(StoreError(.refusedJournalKey(reason: reason, movedTo: nil), path: path, operation: .read))
        return nil
      }
      try? posix.fsyncDirectory(stateDirectory)
      warn(StoreError(.refusedJournalKey(reason: reason, movedTo: aside), path: path, operation: .read))
    }
    guard creating else { return nil }
    var generator = SystemRandomNumberGenerator()
    let key = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    let temporary = path + ".\(getpid()).new"
    do throws(SystemError) {
      try UndoLog(directory: stateDirectory, limit: 0, byteLimit: 0).create(posix: posix)
      if let reason = stateDirectoryRefusal(stateDirectory) {
        warn(StoreError(.refusedJournalKey(reason: reason, movedTo: nil), path: stateDirectory, operation: .create))
        return nil
      }
      try? posix.unlink(temporary)
      let fd = try posix.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600)
      defer { posix.close(fd) }
      try posix.fchmod(fd, 0o600, path: temporary)
      try posix.writeAll(fd, key, path: temporary)
      try posix.fsync(fd, path: temporary)
    } catch {
      try? posix.unlink(temporary)
      return nil
    }
    // link(2) never replaces: of two processes making the key at once, one key wins and
    // both use it.
    _ = link(temporary, path)
    try? posix.unlink(temporary)
    try? posix.fsyncDirectory(stateDirectory)
    if case .valid(let key) = checkedKey(path) { return key }
    return nil
  }

  /// What is found where the journal key should be.
  enum KeyFile {
    case valid([UInt8])
    case missing
    /// Something the store did not write, worded for the warning.
    case refused(String)
  }

  /// Reads the key at `path` only when it is exactly what ``journalKey(creating:)`` writes.
  func checkedKey(_ path: String) -> KeyFile {
    guard let found = posix.lstat(path) else { return .missing }
    if found.isSymbolicLink { return .refused("it is a symbolic link") }
    if found.isDirectory { return .refused("it is a directory") }
    if !found.isRegularFile { return .refused("it is not a regular file") }
    let fd: Int32
    do { fd = try posix.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK) } catch {
      return .refused("it cannot be read (\(StoreError.errnoText(error.code)))")
    }
    defer { posix.close(fd) }
    guard let info = try? posix.fstat(fd), info.isRegularFile else { return .refused("it is not a regular file") }
    if info.st_uid != getuid() { return .refused("it is owned by another user (uid \(info.st_uid))") }
    if info.st_mode & 0o077 != 0 {
      return .refused("others may read or write it (mode \(String(info.st_mode & 0o777, radix: 8)), not 600)")
    }
    guard let bytes = try? posix.readAll(fd, path: path) else { return .refused("it cannot be read") }
    guard bytes.count == 32 else { return .refused("it is \(bytes.count) bytes long, not 32") }
    return .valid(bytes)
  }

  /// Why the state directory cannot hold a key that is trusted (another user owns it, or
  /// others may write it, so they could swap the key); `nil` when it can.
  func stateDirectoryRefusal(_ directory: String) -> String? {
    guard let info = posix.stat(directory) else { return nil }
    if !info.isDirectory { return "the state directory is not a directory" }
    if info.st_uid != getuid() { return "the state directory is owned by another user (uid \(info.st_uid))" }
    if info.st_mode & 0o022 != 0 { return "others may write the state directory (mode \(String(info.st_mode & 0o777, radix: 8)))" }
    return nil
  }

  /// Writes a store warning (the change goes on, or is skipped) to stderr as one line, once
  /// per run however often the same thing is met.
  func warn(_ error: StoreError) {
    guard warnings.insert(error.description).inserted else { return }
    let line = Array("todo: warning: \(error.description)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  }

  /// Rolls a journal forward under the locks of all its files.
  ///
  /// What to do with each file is found before any is changed, so a file that cannot be
  /// finished leaves all of them as they are. Only a journal of the fourth version can meet
  /// one: a file still the old version whose staged new version is gone (the journal holds
  /// the places of the new lines, not the lines). When every file is still the old version,
  /// nothing of the change took place and the journal is dropped, as if the process had been
  /// killed before writing it; otherwise the change is reported unfinished and left.
  func recover(_ journal: Journal) throws(StoreError) {
    // Not `lock(_:)`: the temporary files it clears are the new versions to finish with.
    let locks = try lockInOrder(journal.entries.map(\.target))
    defer { for lock in locks { lock.release(posix: posix) } }
    try recoverLocked(journal)
  }

  /// What recovery does to one file of a journal.
  private enum Recovery {
    /// Already the new version (or renamed and edited since): only a leftover to remove.
    case done(staged: Bool)
    /// Still the old version, with the new one staged: renamed into place.
    case rename
    /// Edited by another program since: these bytes (the patch re-applied) go in its place,
    /// with the permissions and owner of the file as found.
    case rewrite([UInt8], like: Identity?, staged: Bool)
    /// Still the old version, and nothing to finish it with.
    case stuck
  }

  /// ``recover(_:)`` with the locks of every file of the journal held.
  func recoverLocked(_ journal: Journal) throws(StoreError) {
    guard let current = readJournal(journal.primaryPath), current.id == journal.id else { return }
    var plans: [Recovery] = []
    var allOld = true
    for entry in journal.entries {
      let file = try snapshot(entry.target, checkingMarkers: false)
      let hash = journal.hash(file.bytes)
      if hash != entry.oldHash { allOld = false }
      let staged = stagedBytes(TodoStore.temporaryPath(entry.target))
      let stagedIsNew = staged.map { journal.hash($0) == entry.newHash } ?? false
      if hash == entry.newHash || (hash != entry.oldHash && !stagedIsNew) {
        // Renamed before the process died (then possibly edited by another program).
        plans.append(.done(staged: staged != nil))
        continue
      }
      if hash == entry.oldHash, stagedIsNew {
        plans.append(.rename)
        continue
      }
      let patched: [UInt8]
      do {
        switch entry.patch {
        case .whole(let patch):
          patched = try patch.apply(to: file.bytes).bytes
        case .hashed, .recorded:
          guard let staged, stagedIsNew else {
            plans.append(.stuck)
            continue
          }
          patched = try entry.patch.hashedPatch().apply(to: file.bytes, newVersion: staged)
        }
      } catch {
        throw StoreError(
          .unfinishedChange(journal: journal.primaryPath), path: entry.target.path,
          operation: .recover)
      }
      plans.append(.rewrite(patched, like: file.identity, staged: staged != nil))
    }
    if let stuck = plans.firstIndex(where: { if case .stuck = $0 { return true } else { return false } }) {
      guard allOld else {
        throw StoreError(
          .unfinishedChange(journal: journal.primaryPath), path: journal.entries[stuck].target.path,
          operation: .recover)
      }
      removeJournal(journal)
      for entry in journal.entries { try? posix.unlink(TodoStore.temporaryPath(entry.target)) }
      return
    }
    for (entry, plan) in zip(journal.entries, plans) {
      let temporaryPath = TodoStore.temporaryPath(entry.target)
      switch plan {
      case .done(let staged):
        if staged { try? posix.unlink(temporaryPath) }
      case .rename:
        try replace(entry.target, with: temporaryPath)
      case .rewrite(let bytes, let identity, let staged):
        // Written beside the staged new version, which stays until this one is in place: a
        // kill in between still finds it.
        let temporary = try writeTemporary(
          .bytes(bytes), for: entry.target, like: identity, at: TodoStore.replayPath(entry.target))
        try replace(entry.target, with: temporary)
        if staged { try? posix.unlink(temporaryPath) }
      case .stuck:
        break
      }
    }
    removeJournal(journal)
  }

  private func stagedBytes(_ path: String) -> [UInt8]? {
    guard let fd = try? posix.open(path, O_RDONLY | O_NOFOLLOW) else { return nil }
    defer { posix.close(fd) }
    return try? posix.readAll(fd, path: path)
  }
}
