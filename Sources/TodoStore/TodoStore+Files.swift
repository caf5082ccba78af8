import TodoTxt

#if canImport(Glibc)
  import Glibc
#endif

/// A file a change is about: the path as the user named it (for messages) and the file it
/// resolves to (what gets locked and replaced).
struct Target: Sendable {
  var path: String
  /// The path with every symbolic link resolved; a missing file's directory is resolved.
  var resolved: String
  var directory: String
  var name: String
  /// A character device such as /dev/null: written to in place, never replaced or locked.
  var isDevice: Bool
}

/// A file's bytes as read, and what identifies that version.
struct Snapshot: Sendable {
  var bytes: [UInt8]
  var identity: Identity?
  /// The bytes as a list, when a read before the change had already parsed them.
  var list: TodoList? = nil
  /// The file they were read from, held open until the change is in place (see
  /// ``HeldFile``); `nil` for a missing file or a device.
  var held: HeldFile? = nil
}

/// What changes when another program writes or replaces a file.
///
/// The change time is part of it: a program can set the modification time back (`touch -d`)
/// after rewriting a file in place to the same size, but any write or time change sets the
/// change time to now.
struct Identity: Equatable, Sendable {
  var device: UInt64
  var inode: UInt64
  var size: Int64
  var seconds: Int
  var nanoseconds: Int
  var changeSeconds: Int
  var changeNanoseconds: Int
  var mode: mode_t
  var owner: uid_t
  var group: gid_t

  init(_ info: Glibc.stat) {
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
    size = Int64(info.st_size)
    seconds = info.st_mtim.tv_sec
    nanoseconds = info.st_mtim.tv_nsec
    changeSeconds = info.st_ctim.tv_sec
    changeNanoseconds = info.st_ctim.tv_nsec
    mode = info.st_mode
    owner = info.st_uid
    group = info.st_gid
  }
}

/// One file's part of a change: the version it was made from, the bytes to write and the
/// line patch between them.
struct FileChange: Sendable {
  var target: Target
  var base: Snapshot
  var content: Content
  var patch: Patch
  /// The new bytes' line counts, when known without counting them (see ``LineCount``).
  var counts: LineCount? = nil
  /// The file's size after the change, when ``content`` is not the whole new file (an
  /// append writes only the added lines); what the undo log keeps of it.
  var appendedSize: Int? = nil
  var newSize: Int { appendedSize ?? content.count }

  init(target: Target, base: Snapshot, content: Content, patch: Patch, counts: LineCount? = nil) {
    self.target = target
    self.base = base
    self.content = content
    self.patch = patch
    self.counts = counts
  }

  init(
    target: Target, base: Snapshot, bytes: [UInt8], patch: Patch, counts: LineCount? = nil,
    appendedSize: Int? = nil
  ) {
    self.init(target: target, base: base, content: .bytes(bytes), patch: patch, counts: counts)
    self.appendedSize = appendedSize
  }

  /// A file's new version: bytes, or an edited list whose bytes are made a block at a time
  /// as they are written and hashed, so that a change to a large file never holds its new
  /// version whole next to the old one.
  enum Content: Sendable {
    case bytes([UInt8])
    /// The list and the size of its bytes (asked more than once, and a pass over every line).
    case list(TodoList, count: Int)

    static let blockSize = 1 << 20

    init(_ list: TodoList) { self = .list(list, count: list.serializedCount) }

    var count: Int {
      switch self {
      case .bytes(let bytes): return bytes.count
      case .list(_, let count): return count
      }
    }

    /// Calls `body` with the bytes in order, in blocks of at most ``blockSize``.
    func forEachBlock(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
      switch self {
      case .bytes(let bytes):
        try bytes.withUnsafeBufferPointer { all in
          var offset = 0
          while offset < all.count {
            let end = min(all.count, offset + Content.blockSize)
            try body(UnsafeBufferPointer(rebasing: all[offset..<end]))
            offset = end
          }
        }
      case .list(let list, _):
        try list.serialize(blockSize: Content.blockSize, body)
      }
    }

    /// Whether the bytes are `bytes`, compared a block at a time.
    func holds(_ bytes: [UInt8]) -> Bool {
      guard count == bytes.count else { return false }
      if case .bytes(let own) = self { return own == bytes }
      var offset = 0
      var same = true
      bytes.withUnsafeBufferPointer { all in
        forEachBlock { block in
          guard same else { return }
          same = block.elementsEqual(UnsafeBufferPointer(rebasing: all[offset..<(offset + block.count)]))
          offset += block.count
        }
      }
      return same
    }

    /// ``ContentHash/ofFile(_:)`` of the bytes.
    var hash: UInt64 {
      if case .bytes(let bytes) = self { return ContentHash.ofFile(bytes) }
      var hasher = ContentHash.FileHasher(count: count)
      forEachBlock { hasher.update($0) }
      return hasher.finish()
    }

    /// Whether the bytes are `other`, exactly.
    func equals(_ other: [UInt8]) -> Bool {
      switch self {
      case .bytes(let bytes): return bytes == other
      case .list(let list, let count):
        guard count == other.count else { return false }
        // Stopped at the first block that differs: an edit near the top costs one block.
        struct Differs: Error {}
        var offset = 0
        do {
          try other.withUnsafeBufferPointer { other in
            try list.serialize(blockSize: Content.blockSize) { block in
              guard let a = block.baseAddress, let b = other.baseAddress else { return }
              if memcmp(a, b + offset, block.count) != 0 { throw Differs() }
              offset += block.count
            }
          }
        } catch {
          return false
        }
        return true
      }
    }

    /// The bytes whole (a device is written in one go).
    var bytes: [UInt8] {
      switch self {
      case .bytes(let bytes): return bytes
      case .list(let list, _): return list.serialized()
      }
    }
  }
}

extension TodoStore {
  /// Resolves symbolic links so that the lock and the rename act on the real file.
  func resolve(_ path: String, operation: StoreError.Operation) throws(StoreError) -> Target {
    var resolved: String
    if let link = posix.lstat(path) {
      do {
        resolved = try posix.realpath(path)
      } catch  where error.code == ENOENT && link.isSymbolicLink {
        throw StoreError(
          .danglingSymlink(target: posix.readlink(path) ?? ""), path: path, operation: operation)
      } catch {
        throw StoreError(errno: error.code, path: path, operation: operation)
      }
      if link.isSymbolicLink, operation != .read, let reason = linkRefusal(link, to: resolved) {
        throw StoreError(.untrustedLink(target: resolved, reason: reason), path: path, operation: operation)
      }
      switch posix.statOrError(resolved) {
      case .success(let info):
        if info.isDirectory { throw StoreError(.isDirectory, path: path, operation: operation) }
        if !info.isRegularFile && !info.isCharacterDevice {
          throw StoreError(.notAFile, path: path, operation: operation)
        }
        let (directory, name) = Paths.split(resolved)
        return Target(
          path: path, resolved: resolved, directory: directory, name: name,
          isDevice: info.isCharacterDevice)
      case .failure(let error):
        throw StoreError(errno: error.code, path: path, operation: operation)
      }
    }
    let (directory, name) = Paths.split(path)
    do {
      resolved = Paths.join(try posix.realpath(directory), name)
    } catch {
      throw StoreError(errno: error.code, path: path, operation: operation)
    }
    return Target(
      path: path, resolved: resolved, directory: Paths.split(resolved).directory, name: name,
      isDevice: false)
  }

  /// The rule for a list file that is a symbolic link: why a change must not be written
  /// through it, `nil` when it may.
  ///
  /// The user's own link to a list kept elsewhere (a synced folder) is written through. The
  /// target must look like a list and live where only the user writes, so that neither a
  /// link someone else made (a shared or synced folder can hold one) nor the user's own link
  /// pointed at the wrong file by a sync tool can make a task's text land in a script or a
  /// configuration file: the link is owned by this user; its target is named `*.txt`, is not
  /// a dot-file nor under a dot-folder of the home (`~/.bashrc`, `~/.ssh/…`), and its folder
  /// is owned by this user.
  func linkRefusal(_ link: Glibc.stat, to resolved: String) -> String? {
    guard link.st_uid == getuid() else { return "the link is not your own" }
    let (directory, name) = Paths.split(resolved)
    if name.hasPrefix(".") { return "its target is a dot-file" }
    if let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty, home != "/" {
      // Anything under a dot-directory of the home (~/.ssh, ~/.config/autostart).
      let prefix = home.hasSuffix("/") ? home : home + "/"
      if resolved.hasPrefix(prefix), resolved.dropFirst(prefix.count).hasPrefix(".") {
        return "its target is under a dot-folder of your home"
      }
    }
    guard name.hasSuffix(".txt"), name.count > 4 else { return "its target is not named like a list (NAME.txt)" }
    guard let folder = posix.stat(directory), folder.st_uid == getuid() else {
      return "its target's folder is not your own"
    }
    return nil
  }

  /// Locks the files in one fixed order (sorted by lock path), so two processes that lock
  /// the same files never wait for each other in a circle.
  ///
  /// Temporary files are only written under the lock, so any found once it is held were left
  /// by a killed process: they are removed, once any journal beside the files is finished
  /// (its staged new versions are among them). A journal can appear while this process
  /// waits: the change of the process holding the lock was killed halfway. Then the locks
  /// are let go, the journal finished as any other, and the locks taken again.
  func lock(_ targets: [Target]) throws(StoreError) -> [FileLock] {
    var refused: Set<String> = []
    while true {
      let locks = try lockInOrder(targets)
      let found = targets.filter { !$0.isDevice }.map(Journal.path(for:)).filter {
        !refused.contains($0) && posix.lstat($0) != nil
      }
      if found.isEmpty {
        for target in targets where !target.isDevice {
          try? posix.unlink(TodoStore.temporaryPath(target))
          try? posix.unlink(TodoStore.replayPath(target))
          try? posix.unlink(Journal.path(for: target) + ".new")
        }
        return locks
      }
      for lock in locks { lock.release(posix: posix) }
      try recoverInterruptedChanges(targets)
      // Each journal is tried once: one left in place (not this user's, not the list's, or
      // one that could not be removed) is not looked at again.
      refused.formUnion(found)
    }
  }

  func lockInOrder(_ targets: [Target]) throws(StoreError) -> [FileLock] {
    var seen = Set<String>()
    let ordered = targets.filter { !$0.isDevice }.sorted { $0.resolved < $1.resolved }.filter {
      seen.insert($0.resolved).inserted
    }
    var locks: [FileLock] = []
    for target in ordered {
      do {
        if let lock = try FileLock.acquire(
          target.resolved, shownAs: target.path, timeout: lockTimeout, posix: posix)
        {
          locks.append(lock)
        }
      } catch {
        for lock in locks { lock.release(posix: posix) }
        throw error
      }
    }
    return locks
  }

  /// Reads a file for a change; a missing file is empty, and a device is never read (reading
  /// a terminal would wait for input).
  ///
  /// The file is read only while no other program is writing it: while one has it open for
  /// writing (see ``HeldFile``), or while its stamp changes across the read, the store waits
  /// and reads again, with a growing pause, for up to ``TodoStore/writerWait`` seconds, and
  /// then gives up with `.beingWritten` rather than change a half-written file.
  ///
  /// `checkingMarkers` is off for recovery: a journalled change is finished whatever the
  /// files hold, as the command that made it (`resolve`, `conflicts`) did not refuse markers.
  func snapshot(_ target: Target, checkingMarkers: Bool = true) throws(StoreError) -> Snapshot {
    if target.isDevice { return Snapshot(bytes: [], identity: nil) }
    let deadline = SystemClock.monotonic() + TodoStore.writerWait
    var pause = 0.002
    while true {
      let fd: Int32
      do {
        fd = try posix.open(target.resolved, O_RDONLY)
      } catch  where error.code == ENOENT {
        return Snapshot(bytes: [], identity: nil)
      } catch {
        throw StoreError(errno: error.code, path: target.path, operation: .read)
      }
      if let snapshot = try steadySnapshot(fd, target: target), isSteadyBehindMount(snapshot, target: target) {
        if checkingMarkers { try checkMarkers(snapshot.bytes, path: target.path, operation: .write) }
        return snapshot
      }
      let now = SystemClock.monotonic()
      if now >= deadline { throw StoreError(.beingWritten, path: target.path, operation: .write) }
      SystemClock.sleep(min(pause, deadline - now))
      pause = min(pause * 2, 0.1)
    }
  }

  /// Returns once no other program has the file open for writing (at once where the system
  /// grants no lease to tell), waiting as ``snapshot(_:)`` does.
  func waitForWriters(_ target: Target) throws(StoreError) {
    let deadline = SystemClock.monotonic() + TodoStore.writerWait
    var pause = 0.002
    while true {
      guard let fd = try? posix.open(target.resolved, O_RDONLY | O_NONBLOCK) else { return }
      let lease = posix.takeReadLease(fd)
      // Closing releases the lease; the caller's own open for writing would break it.
      posix.close(fd)
      if lease != .writerOpen { return }
      let now = SystemClock.monotonic()
      if now >= deadline { throw StoreError(.beingWritten, path: target.path, operation: .write) }
      SystemClock.sleep(min(pause, deadline - now))
      pause = min(pause * 2, 0.1)
    }
  }

  /// How long a change waits for another program to finish writing a file, in seconds.
  static let writerWait = 5.0

  /// The file open as `fd`, read whole while nobody writes it; `nil` when a writer has it open
  /// or its stamp changed across the read (the caller tries again).
  ///
  /// Takes `fd` over: the snapshot's ``HeldFile`` closes it, or it is closed here.
  private func steadySnapshot(_ fd: Int32, target: Target) throws(StoreError) -> Snapshot? {
    let info: Glibc.stat
    do {
      info = try posix.fstat(fd)
    } catch {
      posix.close(fd)
      throw StoreError(errno: error.code, path: target.path, operation: .read)
    }
    let lease = info.isRegularFile ? posix.takeReadLease(fd) : .unavailable
    if lease == .writerOpen {
      posix.close(fd)
      return nil
    }
    let held = HeldFile(fd: fd, stamp: FileStamp(info), leased: lease == .held, posix: posix)
    do {
      let snapshot = Snapshot(
        bytes: try posix.readAll(fd, path: target.resolved, sizeHint: Int(info.st_size)),
        identity: Identity(info), held: held)
      // Dropping `held` closes the file and lets a writer waiting for the lease go on.
      guard held.isUnchanged else { return nil }
      held.release()
      return snapshot
    } catch {
      throw StoreError(errno: error.code, path: target.path, operation: .read)
    }
  }

  /// On a FUSE mount, whether the bytes read are still the file's a moment later.
  ///
  /// Behind such a mount (a sync client writing the directory below it, another machine) a
  /// writer holds no lease the store can see and the attributes may be cached, so a snapshot
  /// taken in the pause of an in-place save would be half the file. The file is read again
  /// after ``fuseSettle`` seconds, by a fresh open: the same bytes, and the snapshot stands.
  /// Elsewhere the lease and the stamp already say so, and nothing is waited for.
  func isSteadyBehindMount(_ snapshot: Snapshot, target: Target) -> Bool {
    guard snapshot.held != nil, posix.isFUSE(target.directory) else { return true }
    SystemClock.sleep(TodoStore.fuseSettle)
    return holds(target, snapshot.bytes)
  }

  /// Whether the file read afresh (a new open, past any cached pages of an earlier one)
  /// holds exactly `bytes`.
  func holds(_ target: Target, _ bytes: [UInt8]) -> Bool {
    guard let fd = try? posix.open(target.resolved, O_RDONLY | O_NONBLOCK) else { return false }
    defer { posix.close(fd) }
    return (try? posix.readAll(fd, path: target.resolved, sizeHint: bytes.count + 1)) == bytes
  }

  /// How long a FUSE mount's file must stay the same to be read (see
  /// ``isSteadyBehindMount(_:target:)``), in seconds.
  static let fuseSettle = 0.03

  /// The identity of the file now, without reading it; `nil` when it is missing.
  func identity(_ target: Target) -> Identity? { posix.stat(target.resolved).map(Identity.init) }

  /// The hidden temporary file a new version is written to before it replaces the file.
  ///
  /// Its name is fixed, so a leftover from a killed process is simply overwritten by the next
  /// change (which holds the lock).
  static func temporaryPath(_ target: Target) -> String {
    Paths.join(target.directory, ".\(target.name).new")
  }

  /// Where recovery writes a file's version with an interrupted change re-applied, beside
  /// the staged new version it reads the change's new lines from (see ``recover(_:)``).
  static func replayPath(_ target: Target) -> String {
    Paths.join(target.directory, ".\(target.name).replayed")
  }

  /// Writes `bytes` to the temporary file with the file's permissions and owner, and makes
  /// it durable.
  func writeTemporary(_ bytes: [UInt8], for target: Target, like identity: Identity?)
    throws(StoreError) -> String
  {
    try writeTemporary(.bytes(bytes), for: target, like: identity)
  }

  /// Writes a new version to the temporary file a block at a time (see ``writeTemporary(_:for:like:)``).
  ///
  /// `path` writes elsewhere than the temporary file; `written` sees each block as it is
  /// written (the journal hashes the new version so, without a second pass over a large file).
  ///
  /// `mayUseOwnName`: when another user's leftover holds the fixed name (a shared folder's
  /// sticky bit keeps it there), the new version is written under a name of this process's
  /// own instead (`.todo.txt.new-PID-N`), so that a planted file cannot block every change.
  /// Only a change no journal names may: recovery looks for the fixed name.
  func writeTemporary(
    _ content: FileChange.Content, for target: Target, like identity: Identity?,
    at path: String? = nil, mayUseOwnName: Bool = false, written: ((UnsafeBufferPointer<UInt8>) -> Void)? = nil
  ) throws(StoreError) -> String {
    var temporary = path ?? TodoStore.temporaryPath(target)
    do {
      try clearTheWay(for: temporary)
    } catch where mayUseOwnName && path == nil && error.kind != .inTheWay(owner: nil) {
      temporary = try ownTemporaryPath(target)
    }
    do throws(SystemError) {
      let fd = try posix.open(
        temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, identity == nil ? 0o666 : 0o600)
      defer { posix.close(fd) }
      do throws(SystemError) {
        if let identity {
          try posix.fchmod(fd, identity.mode & 0o7777, path: temporary)
          // Only root or the owner may give a file away; a user who may write the
          // directory but does not own the file ends up owning the new version.
          _ = posix.fchown(fd, identity.owner, identity.group)
        }
        do {
          try content.forEachBlock { block in
            written?(block)
            try posix.writeAll(fd, block, path: temporary)
          }
        } catch let error as SystemError {
          throw error
        } catch {
          throw SystemError(call: .write, code: EIO)
        }
        try posix.fsync(fd, path: temporary)
      } catch {
        try? posix.unlink(temporary)
        throw error
      }
    } catch {
      throw StoreError(errno: error.code, path: target.path, operation: .write)
    }
    return temporary
  }

  /// A temporary name of this process's own beside the target, free now (see
  /// ``writeTemporary(_:for:like:at:mayUseOwnName:written:)``).
  func ownTemporaryPath(_ target: Target) throws(StoreError) -> String {
    for _ in 0..<16 {
      let candidate = Paths.join(target.directory, ".\(target.name).new-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
      if posix.lstat(candidate) == nil { return candidate }
    }
    throw StoreError(.inTheWay(owner: nil), path: TodoStore.temporaryPath(target), operation: .write)
  }

  /// Removes a leftover at `temporary` (a killed process's: temporary files are written only
  /// under the lock). One that cannot be removed (another user's, in a folder whose sticky
  /// bit keeps it) is named in the error, rather than the list it stands in the way of.
  func clearTheWay(for temporary: String) throws(StoreError) {
    do throws(SystemError) { try posix.unlink(temporary) } catch {
      guard error.code != ENOENT, let found = posix.lstat(temporary) else { return }
      throw StoreError(.inTheWay(owner: found.st_uid == getuid() ? nil : found.st_uid), path: temporary, operation: .write)
    }
  }

  /// Writes a whole new version to a device in place.
  func writeDevice(_ bytes: [UInt8], to target: Target) throws(StoreError) {
    do {
      let fd = try posix.open(target.resolved, O_WRONLY)
      defer { posix.close(fd) }
      try posix.writeAll(fd, bytes, path: target.resolved)
    } catch {
      throw StoreError(errno: error.code, path: target.path, operation: .write)
    }
  }

  /// Renames the temporary file over the file and makes the rename durable.
  ///
  /// A temporary file that could not be renamed stays: it may be the staged new version a
  /// journal in place is to be finished with. The caller removes it when it is not.
  func replace(_ target: Target, with temporary: String) throws(StoreError) {
    do {
      try posix.rename(temporary, target.resolved)
    } catch {
      throw StoreError(errno: error.code, path: target.path, operation: .write)
    }
    do {
      try posix.fsyncDirectory(target.directory)
    } catch {
      throw StoreError(errno: error.code, path: target.path, operation: .write)
    }
  }

  /// Makes sure each change still fits the file on disk: a file another program changed
  /// since it was read gets the change re-applied as a line patch.
  func rebase(_ change: FileChange) throws(StoreError) -> FileChange {
    // A writer waiting for the old read's lease must be let through before the file is read
    // again, or the read would wait for it in vain.
    change.base.held?.release()
    let current = try snapshot(change.target)
    if current.bytes == change.base.bytes {
      var same = change
      same.base = current
      return same
    }
    do {
      let (bytes, applied) = try change.patch.apply(to: current.bytes)
      return FileChange(target: change.target, base: current, bytes: bytes, patch: applied)
    } catch {
      throw StoreError(
        .conflict(
          line: error.line, was: String(decoding: error.was, as: UTF8.self),
          now: error.now.map { String(decoding: $0, as: UTF8.self) }),
        path: change.target.path, operation: .write)
    }
  }

  /// Writes the changes: each to a temporary file, then every rename.
  ///
  /// Just before the renames the files are checked again (see ``isCurrent(_:)``); a file
  /// another program wrote, replaced or opened for writing meanwhile is read again, once that
  /// program is done, and gets the change re-applied as a line patch. A file that keeps
  /// changing gets ``commitRounds`` such rounds and as many more as fit in
  /// ``writerWait`` seconds; then the change is given up with `.beingWritten`, and nothing is
  /// written.
  /// Returns the changes as written (re-applied, when the files had changed).
  @discardableResult
  func commit(_ changes: [FileChange], label: String, recording: Bool = true) throws(StoreError) -> [FileChange] {
    var changes = changes
    let deadline = SystemClock.monotonic() + TodoStore.writerWait
    var round = 0
    while round < TodoStore.commitRounds || SystemClock.monotonic() < deadline {
      round += 1
      for index in changes.indices where !changes[index].target.isDevice {
        if round > 1 || !isCurrent(changes[index]) { changes[index] = try rebase(changes[index]) }
      }
      let staged = try stage(changes)
      if changes.contains(where: { !isCurrent($0) }) {
        discard(staged)
        continue
      }
      if try install(&changes, temporaries: staged.temporaries, journal: staged.journal) {
        if recording { record(label: label, changes: changes.filter { !$0.target.isDevice }) }
        return changes
      }
    }
    let busy = changes.first { !isCurrent($0) } ?? changes[0]
    throw StoreError(.beingWritten, path: busy.target.path, operation: .write)
  }

  /// How many times at least a change is made again on a file another program keeps writing.
  static let commitRounds = 5

  /// Whether a change's file is still the version it was made from: nobody replaced or
  /// wrote it since it was read. (A writer that has opened it and not written yet is caught
  /// when the new version is put in place, see ``put(_:temporary:)``.)
  func isCurrent(_ change: FileChange) -> Bool {
    if change.target.isDevice { return true }
    guard change.base.identity == identity(change.target) else { return false }
    return change.base.held?.isUnchanged ?? true
  }

  /// What ``stage(_:)`` wrote: each change's temporary file (`nil` for a device) and the
  /// journal whose copies wait beside their files, not yet in place.
  struct Staged: Sendable {
    var temporaries: [String?]
    var journal: Journal?
  }

  /// Writes each change's temporary file and, for a change to several files, the journal's
  /// temporary copies (see ``Journal``), all made durable.
  ///
  /// The journal comes after the files: the hash of each new version is taken from the
  /// blocks as they are written. What the journal needs of the old versions (their hashes)
  /// and of the patches (their records, see ``HashedPatch``) is made on a second core
  /// meanwhile: for an archive of a million-line file, a pass over the old file and one over
  /// the hundred thousand lines it moves, which would otherwise come after the writes. (The
  /// second thread's part is about a megabyte of record; it only reads the snapshots and the
  /// lists, which nothing changes until the change is in place.)
  func stage(_ changes: [FileChange]) throws(StoreError) -> Staged {
    let files = changes.indices.filter { !changes[$0].target.isDevice }.sorted {
      changes[$0].target.resolved < changes[$1].target.resolved
    }
    let journaled = files.count >= 2
    let key = journaled ? journalKey(creating: true) ?? Journal.noKey : nil
    let prepared = journaled ? TodoStore.prepareJournalEntries(changes, files) : nil
    var temporaries: [String?] = []
    var newHashes = [UInt64](repeating: 0, count: changes.count)
    do throws(StoreError) {
      for (index, change) in changes.enumerated() {
        guard !change.target.isDevice else {
          temporaries.append(nil)
          continue
        }
        var hasher = ContentHash.FileHasher(count: change.content.count)
        temporaries.append(
          try writeTemporary(
            change.content, for: change.target, like: change.base.identity, mayUseOwnName: !journaled,
            written: journaled ? { hasher.update($0) } : nil))
        newHashes[index] = hasher.finish()
      }
    } catch {
      discard(Staged(temporaries: temporaries, journal: nil))
      throw error
    }
    guard let key, let prepared else { return Staged(temporaries: temporaries, journal: nil) }
    let parts = prepared.wait()
    let journal = Journal(
      id: UInt64.random(in: 1...UInt64.max),
      entries: zip(files, parts).map { index, part in
        Journal.Entry(
          target: changes[index].target, oldHash: part.oldHash, newHash: newHashes[index],
          patch: .recorded(part.record))
      })
    do {
      try stageJournal(journal, key: key)
    } catch {
      discard(Staged(temporaries: temporaries, journal: nil))
      throw error
    }
    return Staged(temporaries: temporaries, journal: journal)
  }

  /// Starts making, on another thread, the hash of each file's old version and the journal's
  /// record of its patch (see ``stage(_:)``), for the changes at `files`, in that order.
  static func prepareJournalEntries(_ changes: [FileChange], _ files: [Int])
    -> BackgroundWork<[(oldHash: UInt64, record: [UInt8])]>
  {
    BackgroundWork {
      files.map { index in
        var writer = ByteWriter()
        writer.hashedPatch(changes[index].patch)
        return (ContentHash.ofFile(changes[index].base.bytes), writer.bytes)
      }
    }
  }

  /// Removes what ``stage(_:)`` wrote.
  func discard(_ staged: Staged) {
    for case let temporary? in staged.temporaries { try? posix.unlink(temporary) }
    if let journal = staged.journal { unstageJournal(journal) }
  }

  /// Renames every temporary file over its file and writes the devices.
  ///
  /// With more than one file a journal is written first (see ``Journal``). A rename that
  /// fails puts back the files already renamed, so a failure leaves every file as it was;
  /// only when that fails too is the journal left for the next run to finish.
  ///
  /// Each file is swapped with its new version rather than renamed over (see
  /// ``put(_:temporary:)``), so another program's write at that very instant is seen and
  /// kept. Returns `false` when that happened to the only file of a change (nothing is
  /// changed then, and the caller makes the change again on the file as it is now); with
  /// several files, the journal being in place, that file's change is re-applied here.
  func install(_ changes: inout [FileChange], temporaries: [String?], journal: Journal?)
    throws(StoreError) -> Bool
  {
    let files = changes.indices.filter { temporaries[$0] != nil }.sorted {
      changes[$0].target.resolved < changes[$1].target.resolved
    }
    if let journal {
      do {
        try placeJournal(journal)
      } catch {
        for case let temporary? in temporaries { try? posix.unlink(temporary) }
        throw error
      }
    }
    var renamed: [Int] = []
    do throws(StoreError) {
      for index in files {
        guard var temporary = temporaries[index] else { continue }
        var round = 1
        let deadline = SystemClock.monotonic() + TodoStore.writerWait
        while try !put(changes[index], temporary: temporary) {
          if journal == nil {
            try? posix.unlink(temporary)
            return false
          }
          round += 1
          if round > TodoStore.commitRounds, SystemClock.monotonic() >= deadline {
            throw StoreError(.beingWritten, path: changes[index].target.path, operation: .write)
          }
          changes[index] = try rebase(changes[index])
          temporary = try writeTemporary(
            changes[index].content, for: changes[index].target, like: changes[index].base.identity)
        }
        renamed.append(index)
      }
    } catch {
      var restored = true
      for index in renamed.reversed() {
        do {
          let change = changes[index]
          let old = try writeTemporary(change.base.bytes, for: change.target, like: change.base.identity)
          // Swapped back where the file system can: the new version then stays staged beside
          // the file until the journal is gone, so a kill at any instant of the rollback still
          // leaves the journal every new version it names (see ``Journal/Lines/hashed(_:)``).
          if try posix.exchange(old, change.target.resolved) {
            try posix.fsyncDirectory(change.target.directory)
          } else {
            try replace(change.target, with: old)
          }
        } catch {
          restored = false
        }
      }
      if restored {
        if let journal { removeJournal(journal) }
        for case let temporary? in temporaries { try? posix.unlink(temporary) }
      }
      throw error
    }
    if let journal { removeJournal(journal) }
    for index in files {
      rememberLineCount(of: changes[index].content, counts: changes[index].counts, at: changes[index].target.resolved)
      // What was just written is the file's version for the next read (which still checks
      // the stamp, and, the change being this recent, the bytes).
      if let readCache {
        if let stamp = FileStamp(path: changes[index].target.resolved) {
          readCache.remember(changes[index].target.path, stamp: stamp, bytes: changes[index].content.bytes)
        } else {
          readCache.forget(changes[index].target.path)
        }
      }
    }
    for (change, temporary) in zip(changes, temporaries) where temporary == nil {
      try writeDevice(change.content.bytes, to: change.target)
    }
    return true
  }

  /// Puts a change's temporary file in its file's place, unless another program wrote or
  /// replaced the file at that instant; `false` then, with that program's version back in
  /// place and the temporary file gone.
  ///
  /// The two are swapped (`renameat2(2)` with `RENAME_EXCHANGE`), so whatever the path named
  /// at the instant of the swap is still there to look at, under the temporary name: the
  /// version read, untouched and with its lease whole, is removed; anything else (a file an
  /// editor renamed into place after the last check, a write begun in place) is swapped
  /// back. The lease is taken again first (see ``HeldFile/holdForRename()``): while a writer
  /// has the file open nothing is swapped. Where the file system cannot swap, the temporary
  /// file is renamed over the file.
  ///
  /// The temporary file is left where it is whenever the new version is not put in place
  /// (`false`, or an error): with a journal in place it is the new version the journal is
  /// finished with, should the process be killed before the caller is done.
  /// Whether the file at the change's path is, by a fresh lookup, the version the change was
  /// made from: same stamp, and on a FUSE mount the same bytes.
  func isStillAsRead(_ change: FileChange) -> Bool {
    guard let held = change.base.held, let now = posix.stat(change.target.resolved),
      FileStamp(now) == held.stamp, held.isUnchanged
    else { return false }
    return !posix.isFUSE(change.target.directory) || holds(change.target, change.base.bytes)
  }

  func put(_ change: FileChange, temporary: String) throws(StoreError) -> Bool {
    let target = change.target
    guard let held = change.base.held, let ours = posix.lstat(temporary) else {
      try replace(target, with: temporary)
      return true
    }
    guard held.holdForRename() else {
      held.release()
      return false
    }
    let swapped: Bool
    do {
      swapped = try posix.exchange(temporary, target.resolved)
    } catch {
      throw StoreError(errno: error.code, path: target.path, operation: .write)
    }
    guard swapped else {
      // No swap here (FUSE mounts such as sshfs, bindfs, rclone): a plain rename drops
      // whatever is written to the old version after it. Leases and stamps may not see a
      // writer on the other side of such a mount (cached attributes, a writer below it), so
      // the file is looked at once more right before the rename, by a fresh lookup and, on
      // FUSE, its bytes: changed, and the change is made again on the new version.
      guard isStillAsRead(change) else {
        held.release()
        return false
      }
      try replace(target, with: temporary)
      return true
    }
    if let old = posix.lstat(temporary), UInt64(old.st_dev) == held.stamp.device,
      UInt64(old.st_ino) == held.stamp.inode, held.isUnchanged(afterRename: true)
    {
      try? posix.unlink(temporary)
      held.release()
      held.closeInBackground()
      do {
        try posix.fsyncDirectory(target.directory)
      } catch {
        throw StoreError(errno: error.code, path: target.path, operation: .write)
      }
      return true
    }
    // Swapped back only while the path still names the new version: a third version saved
    // in between is left where it is, and the change given up.
    guard let now = posix.lstat(target.resolved), now.st_dev == ours.st_dev, now.st_ino == ours.st_ino
    else { throw StoreError(.beingWritten, path: target.path, operation: .write) }
    do {
      _ = try posix.exchange(temporary, target.resolved)
    } catch {
      throw StoreError(errno: error.code, path: target.path, operation: .write)
    }
    held.release()
    return false
  }

}
