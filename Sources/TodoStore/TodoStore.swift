import TodoTxt

#if canImport(Glibc)
  import Glibc
#endif

/// All file access of the tool: reads for display, locked read-modify-write, appends, undo.
///
/// Writes never leave a file half-written: a changed file is written to a hidden temporary
/// file beside it, fsync'd and renamed over the file (its symbolic link, permissions and owner
/// are kept), and the directory is fsync'd. Each change runs under an advisory lock shared by
/// every process that uses this store, so parallel commands never lose each other's lines.
///
/// Foundation is not used here: the tool must start in a few milliseconds.
public final class TodoStore: @unchecked Sendable {
  /// How long a change waits for another process's lock before giving up, in seconds.
  public let lockTimeout: Double
  let posix: Posix
  /// Where the undo log (and the journal key, the line counts) live; `nil` keeps no undo log.
  public let stateDirectory: String?
  /// Seconds since 1970, for the undo log's entries.
  let now: @Sendable () -> Int64
  /// How many changes the undo log keeps.
  let undoLimit: Int
  /// The largest entry the undo log keeps whole, in bytes.
  let undoByteLimit: Int
  /// The warnings already written this run (see ``warn(_:)``).
  var warnings: Set<String> = []
  /// Whether reading or changing a file that holds merge conflict markers fails with
  /// `.unresolvedMerge` (native commands, which must not number or edit the marker lines as
  /// tasks); the commands that resolve conflicts turn it off.
  package var refusesConflictMarkers = false
  /// Runs on the snapshot of every file a change reads, under the lock and before the edit:
  /// the command layer checks its arguments here (task numbers that must name tasks), on the
  /// very version it changes, instead of reading the file once more beforehand. An error
  /// thrown here writes nothing.
  package var snapshotCheck: ((_ path: String, _ list: TodoList) throws -> Void)?
  /// Files kept from earlier reads of a long-lived process (see ``ReadCache``); `nil` reads
  /// every file afresh.
  package var readCache: ReadCache?

  /// - Parameters:
  ///   - lockTimeout: seconds to wait for a lock held by another process.
  ///   - stateDirectory: where the undo log is kept; by default `$XDG_STATE_HOME/todo`, else
  ///     `$HOME/.local/state/todo` (the command line's, so that `todo undo` sees an app's
  ///     changes and the other way round).
  ///   - now: the clock for undo entries, in seconds since 1970.
  ///   - undoLimit: how many changes the undo log keeps.
  ///   - undoByteLimit: changes larger than this (encoded) are logged without their lines
  ///     and cannot be undone.
  public convenience init(
    lockTimeout: Double = 10, stateDirectory: String? = nil,
    now: (@Sendable () -> Int64)? = nil, undoLimit: Int = 100, undoByteLimit: Int = 4 << 20
  ) {
    self.init(
      lockTimeout: lockTimeout, stateDirectory: stateDirectory, now: now, undoLimit: undoLimit,
      undoByteLimit: undoByteLimit, faults: nil)
  }

  /// The same, with chosen system calls made to fail (the tool's own tests and its
  /// `TODO_FAULT` switch).
  package init(
    lockTimeout: Double = 10, stateDirectory: String? = nil,
    now: (@Sendable () -> Int64)? = nil, undoLimit: Int = 100, undoByteLimit: Int = 4 << 20,
    faults: FaultInjection?
  ) {
    self.undoLimit = undoLimit
    self.undoByteLimit = undoByteLimit
    self.lockTimeout = lockTimeout
    self.posix = Posix(faults: faults)
    self.stateDirectory = stateDirectory ?? TodoStore.defaultStateDirectory()
    self.now = now ?? { SystemClock.wall() }
  }

  static func defaultStateDirectory() -> String? {
    if let state = getenv("XDG_STATE_HOME").map({ String(cString: $0) }), state.hasPrefix("/") {
      return Paths.join(state, "todo")
    }
    if let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty {
      return Paths.join(home, ".local/state/todo")
    }
    return nil
  }

  // MARK: Reading

  /// Reads a file. A missing file throws `.notFound`; a directory `.isDirectory`.
  ///
  /// Takes no lock: a file is only ever replaced whole, so a reader sees the old or the new
  /// version, never a mix.
  public func read(_ path: String) throws(StoreError) -> TodoList {
    let file = try readFile(path)
    try checkMarkers(file, path: path, operation: .read)
    let list = file.list ?? TodoList(bytes: file.bytes)
    if file.list == nil, let stamp = file.cached { readCache?.update(path, stamp: stamp, list: list) }
    return list
  }

  /// A file's bytes, read as ``read(_:)`` reads them, for a reader that needs no ``TodoList``
  /// (a listing splits the lines itself and keeps no per-line state of the list's).
  public func readBytes(_ path: String) throws(StoreError) -> [UInt8] {
    let file = try readFile(path)
    try checkMarkers(file, path: path, operation: .read)
    return file.bytes
  }

  /// The bytes of the files at `paths`, read one after another into one buffer, with where
  /// each file's bytes end; a file that is not there is empty. A listing of several files
  /// (`listall`) that read each and joined them held every byte twice: the first file is
  /// read into room for the others, which are appended in place.
  public func readBytes(joining paths: [String]) throws(StoreError) -> (bytes: [UInt8], ends: [Int]) {
    let others = paths.dropFirst().reduce(0) { sum, path in
      guard let info = posix.stat(path), info.isRegularFile else { return sum }
      return sum + Int(info.st_size)
    }
    var bytes: [UInt8] = []
    var ends: [Int] = []
    for (position, path) in paths.enumerated() {
      let file: FileRead
      do {
        file = try readFile(path, room: position == 0 ? others : 0)
        try checkMarkers(file, path: path, operation: .read)
      } catch {
        guard case .notFound = error.kind else { throw error }
        ends.append(bytes.count)
        continue
      }
      if position == 0 { bytes = file.bytes } else { bytes.append(contentsOf: file.bytes) }
      ends.append(bytes.count)
    }
    return (bytes, ends)
  }

  /// ``readBytes(_:)``, with the facts earlier readers of this version of the file worked
  /// out from its bytes, when a ``readCache`` keeps it (`nil` otherwise).
  package func readBytesAndFacts(_ path: String) throws(StoreError) -> (bytes: [UInt8], facts: DerivedFacts?) {
    let file = try readFile(path)
    try checkMarkers(file, path: path, operation: .read)
    return (file.bytes, file.facts)
  }

  /// ``checkMarkers(_:path:operation:)`` for a file read, asking the read cache first.
  private func checkMarkers(_ file: FileRead, path: String, operation: StoreError.Operation)
    throws(StoreError)
  {
    guard refusesConflictMarkers else { return }
    let found = file.hasConflictMarkers ?? TodoStore.hasConflictMarkers(file.bytes)
    if file.hasConflictMarkers == nil, let stamp = file.cached {
      readCache?.update(path, stamp: stamp, hasConflictMarkers: found)
    }
    if found { throw StoreError(.unresolvedMerge, path: path, operation: operation) }
  }

  func checkMarkers(_ bytes: [UInt8], path: String, operation: StoreError.Operation)
    throws(StoreError)
  {
    guard refusesConflictMarkers, TodoStore.hasConflictMarkers(bytes) else { return }
    throw StoreError(.unresolvedMerge, path: path, operation: operation)
  }

  /// Whether the bytes hold a merge conflict: a line that is `<<<<<<<` (alone or followed by
  /// a space and a label) and, after it, one that is `>>>>>>>` the same way.
  package static func hasConflictMarkers(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { buffer -> Bool in
      guard let base = buffer.baseAddress else { return false }
      let count = buffer.count
      // Almost every file has no line starting with seven '<': a search for '<' (vectorised,
      // one call per '<' in the file) says so, and only a file that has one is walked line by
      // line (a million memchr calls otherwise, on every read of a large list).
      var found = false
      var from = 0
      while !found, from < count, let hit = memchr(base + from, 0x3C, count - from) {
        let at = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - base
        found = (at == 0 || base[at - 1] == 0x0A) && at + 7 <= count && (1..<7).allSatisfy { base[at + $0] == 0x3C }
        from = at + 1
      }
      guard found else { return false }
      var opened = false
      var start = 0
      while start < count {
        let rest = count - start
        let newline = memchr(base + start, 0x0A, rest).map {
          UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base
        }
        let end = newline ?? count
        if TodoStore.conflictMarker(UnsafeBufferPointer(start: base + start, count: end - start))
          == (opened ? 0x3E : 0x3C)
        {
          if opened { return true }
          opened = true
        }
        guard let newline else { break }
        start = newline + 1
      }
      return false
    }
  }

  /// A file as ``readFile(_:)`` found it.
  private struct FileRead {
    var bytes: [UInt8]
    var info: Glibc.stat
    /// The stamp under which ``readCache`` keeps these bytes, when it does.
    var cached: FileStamp?
    var list: TodoList?
    var hasConflictMarkers: Bool?
    var facts: DerivedFacts?
  }

  /// - Parameter room: bytes to leave room for after the file's own, when it is read (not
  ///   when the read cache already holds it).
  private func readFile(_ path: String, room: Int = 0) throws(StoreError) -> FileRead {
    if let target = try? resolve(path, operation: .read), !target.isDevice,
      posix.lstat(Journal.path(for: target)) != nil
    {
      try recoverInterruptedChanges([target])
    }
    // A FIFO or socket would block the open or the read for ever: refused before opening.
    if let info = posix.stat(path), !info.isDirectory, !info.isRegularFile, !info.isCharacterDevice {
      throw StoreError(.notAFile, path: path, operation: .read)
    }
    let fd: Int32
    do {
      fd = try posix.open(path, O_RDONLY)
    } catch {
      throw StoreError(errno: error.code, path: path, operation: .read)
    }
    defer { posix.close(fd) }
    do {
      let info = try posix.fstat(fd)
      if info.isDirectory { throw StoreError(.isDirectory, path: path, operation: .read) }
      if !info.isRegularFile && !info.isCharacterDevice {
        throw StoreError(.notAFile, path: path, operation: .read)
      }
      // Injected faults must meet the read they are aimed at, every time.
      guard let readCache, info.isRegularFile, posix.faults == nil else {
        return FileRead(bytes: try posix.readAll(fd, path: path, sizeHint: Int(info.st_size) + room), info: info)
      }
      let stamp = FileStamp(info)
      if let entry = readCache.lookup(path, stamp: stamp, fd: fd) {
        return FileRead(
          bytes: entry.bytes, info: info, cached: stamp, list: entry.list,
          hasConflictMarkers: entry.hasConflictMarkers, facts: entry.derived)
      }
      let bytes = try posix.readAll(fd, path: path, sizeHint: Int(info.st_size) + room)
      let facts = readCache.remember(path, stamp: stamp, bytes: bytes)
      return FileRead(bytes: bytes, info: info, cached: stamp, facts: facts)
    } catch let error as SystemError {
      throw StoreError(errno: error.code, path: path, operation: .read)
    } catch let error as StoreError {
      throw error
    } catch {
      throw StoreError(.io(EIO), path: path, operation: .read)
    }
  }

  /// Whether the path is a regular file or a character device (todo.sh's test).
  package func isFileOrDevice(_ path: String) -> Bool {
    guard let info = posix.stat(path) else { return false }
    return info.isRegularFile || info.isCharacterDevice
  }

  /// Creates an empty file if nothing is there (todo.sh creates todo.txt, done.txt and
  /// report.txt on every run).
  package func createIfMissing(_ path: String) throws(StoreError) {
    if let info = posix.stat(path) {
      if info.isDirectory { throw StoreError(.isDirectory, path: path, operation: .create) }
      return
    }
    if let link = posix.lstat(path), link.isSymbolicLink {
      throw StoreError(
        .danglingSymlink(target: posix.readlink(path) ?? ""), path: path, operation: .create)
    }
    do {
      let fd = try posix.open(path, O_WRONLY | O_CREAT | O_EXCL, 0o666)
      posix.close(fd)
    } catch  where error.code == EEXIST {
      return
    } catch {
      throw StoreError(errno: error.code, path: path, operation: .create)
    }
  }

  // MARK: Changing

  /// Read-modify-write of one file under the lock.
  ///
  /// `edit` changes the list; if it throws, nothing is written and the error propagates. An
  /// unchanged list writes nothing. `label` names the change in the undo log (`"do 3"`).
  @discardableResult
  public func update<R>(_ path: String, label: String, _ edit: (inout TodoList) throws -> R) throws
    -> R
  {
    try update([path], label: label) { lists in try edit(&lists[0]) }
  }

  /// Read-modify-write of several files at once (archive: todo.txt → done.txt), all or
  /// nothing even if the process is killed at any instant.
  @discardableResult
  public func update<R>(_ paths: [String], label: String, _ edit: (inout [TodoList]) throws -> R)
    throws -> R
  {
    let targets = try paths.map { path throws(StoreError) in try resolve(path, operation: .write) }
    try recoverInterruptedChanges(targets)
    let locks = try lock(targets)
    defer { for lock in locks { lock.release(posix: posix) } }
    var snapshots = try targets.map { target throws(StoreError) in try snapshot(target) }
    // The lists share the snapshots' bytes: edits go to a buffer of their own. No copy of a
    // list as read is kept (the patch finds what an edit removed in the file's bytes), so
    // an edit changes the only array of slots in place instead of copying it.
    var lists = snapshots.map { $0.list ?? TodoList(bytes: $0.bytes) }
    for index in snapshots.indices { snapshots[index].list = nil }
    if let snapshotCheck {
      for (path, list) in zip(paths, lists) { try snapshotCheck(path, list) }
    }
    let result = try edit(&lists)
    precondition(lists.count == targets.count, "an update keeps one list per file")
    var changes: [FileChange] = []
    for index in targets.indices {
      // The new version is written from the list a block at a time, never made whole.
      let content = FileChange.Content(lists[index])
      guard !content.equals(snapshots[index].bytes) else { continue }
      changes.append(
        FileChange(
          target: targets[index], base: snapshots[index], content: content,
          patch: Patch(edits: lists[index]), counts: LineCount(lists[index])))
    }
    guard !changes.isEmpty else { return result }
    // Text comes in through changes of one file (add, append, replace, import, edit); a
    // change of several (archive, move) only moves lines the files already held, and walking
    // its patch would cost an archive of a million lines 7 % more instructions.
    if changes.count == 1, let change = changes.first { try checkNewLines(change) }
    try commit(changes, label: label)
    return result
  }

  /// Writes, under the lock, the edits made to lists read earlier without it (by
  /// ``read(_:)``), as one change: for a command that reads, then waits on a person (an
  /// editor, a question), then writes. The lock is held only while the edits are written, so
  /// the tool's other processes (a script's `add`) are not kept waiting for the person.
  ///
  /// Each list's edits are a line patch against the version it was read from (see
  /// ``TodoTxt/TodoList/changes()``). A file still that version gets the edits as they are.
  /// A file another program or process changed meanwhile gets the patch applied by content
  /// to the file as it is now, as every change of the store is re-applied: changes to other
  /// lines are kept, and an edited line is found where it moved. When a line the edits change
  /// or remove was itself changed or removed meanwhile, nothing is written and the error is
  /// `.conflict`, naming the line as it was read and as it is now. Lines the edits only add
  /// never conflict. (``snapshotCheck`` does not run: the caller judged the version it read.)
  ///
  /// - Parameters:
  ///   - paths: the files, as given to ``read(_:)``.
  ///   - label: the change's name in the undo log.
  ///   - lists: for each file, the list ``read(_:)`` returned (an empty ``TodoTxt/TodoList``
  ///     for a file that was missing), edited.
  /// - Returns: how many lines each file has as written (the lists' own counts when the files
  ///   had not changed meanwhile, or nothing was written).
  @discardableResult
  public func update(_ paths: [String], label: String, editedAfterReading lists: [TodoList]) throws(StoreError)
    -> [Int]
  {
    precondition(paths.count == lists.count, "one list per file")
    var counts = lists.map(\.count)
    var changes: [FileChange] = []
    var indices: [Int] = []
    for (index, (path, list)) in zip(paths, lists).enumerated() {
      let base = list.bytesAsRead
      let content = FileChange.Content(list)
      guard !content.equals(base) else { continue }
      changes.append(
        FileChange(
          target: try resolve(path, operation: .write), base: Snapshot(bytes: base, identity: nil),
          content: content, patch: Patch(edits: list), counts: LineCount(list)))
      indices.append(index)
    }
    guard !changes.isEmpty else { return counts }
    if changes.count == 1, let change = changes.first { try checkNewLines(change) }
    let targets = changes.map(\.target)
    try recoverInterruptedChanges(targets)
    let locks = try lock(targets)
    defer { for lock in locks { lock.release(posix: posix) } }
    // The file as it is now, under the lock: the read version's edits, or the patch re-applied.
    for index in changes.indices where !changes[index].target.isDevice {
      changes[index] = try rebase(changes[index])
    }
    let written = try commit(changes, label: label)
    for (index, change) in zip(indices, written) { counts[index] = change.patch.newCount }
    return counts
  }

  /// Refuses a change that brings a line holding a line feed (an app's task made from text
  /// with a newline would come back as two lines) or, when ``refusesConflictMarkers``, a line
  /// that reads as a conflict marker. Only the changed stretches are read, in place: no line
  /// is copied.
  private func checkNewLines(_ change: FileChange) throws(StoreError) {
    var marker: ArraySlice<UInt8>?
    var broken: ArraySlice<UInt8>?
    let markers = refusesConflictMarkers
    change.patch.forEachHunkView { hunk in
      hunk.forEachNew { line, _ in
        if markers, marker == nil, TodoStore.readsAsMarker(line) { marker = line }
        if broken == nil, line.contains(0x0A) { broken = line }
      }
    }
    if let broken {
      throw StoreError(
        .lineBreakInLine(line: String(decoding: broken, as: UTF8.self)), path: change.target.path, operation: .write)
    }
    if let marker { try refuseMarker(marker, path: change.target.path) }
  }

  /// Refuses new lines that read as a merge conflict's markers (`<<<<<<<`, `=======`,
  /// `|||||||`, `>>>>>>>` as git writes them): written, they would lock the whole list as an
  /// unresolved merge for every command, and no merge would be there to settle. Text
  /// coming in (an import, a replaced task, an added line) is held to it under the name
  /// `todo`, as ``refusesConflictMarkers`` says.
  /// Whether a line reads as a conflict marker (most lines are ruled out by their first byte).
  static func readsAsMarker(_ line: ArraySlice<UInt8>) -> Bool {
    guard let first = line.first, first == 0x3C || first == 0x3D || first == 0x7C || first == 0x3E else { return false }
    return conflictMarker(line) != nil
  }

  func refuseMarkers(_ lines: some Sequence<[UInt8]>, path: String) throws(StoreError) {
    for line in lines { try refuseMarker(line[...], path: path) }
  }

  func refuseMarker(_ line: ArraySlice<UInt8>, path: String) throws(StoreError) {
    guard TodoStore.readsAsMarker(line) else { return }
    throw StoreError(.wouldWriteMarker(line: String(decoding: line, as: UTF8.self)), path: path, operation: .write)
  }

  /// Runs `body` holding the locks of `paths`, the ones every change of those files takes.
  ///
  /// For work that lets another program rewrite the files (git's merge and checkout during
  /// `sync`): the tool's own writers wait for it instead of writing into the middle of it.
  /// An interrupted change is finished first, so the files are whole when `body` sees them.
  /// `body` must not change the files through this store: it would wait for itself.
  package func whileLocked<R>(_ paths: [String], _ body: () throws -> R) throws -> R {
    let targets = try paths.map { path throws(StoreError) in try resolve(path, operation: .write) }
    try recoverInterruptedChanges(targets)
    let locks = try lock(targets)
    defer { for lock in locks { lock.release(posix: posix) } }
    return try body()
  }

  /// Appends lines (bytes without line ending) under the lock without rewriting the file.
  ///
  /// A missing final newline is added first, in the file's line-ending style, then each line
  /// with that style. Returns the new lines' task numbers (1-based line numbers).
  @discardableResult
  public func append(_ lines: [[UInt8]], to path: String, label: String) throws(StoreError) -> [Int]
  {
    if refusesConflictMarkers { try refuseMarkers(lines, path: path) }
    if let broken = lines.first(where: { $0.contains(0x0A) }) {
      throw StoreError(.lineBreakInLine(line: String(decoding: broken, as: UTF8.self)), path: path, operation: .write)
    }
    let target = try resolve(path, operation: .write)
    try recoverInterruptedChanges([target])
    let locks = try lock([target])
    defer { for lock in locks { lock.release(posix: posix) } }
    // The file grows in place: the next read reads it whole again.
    readCache?.forget(path)
    // A program writing the file in place (truncated, half written) would write the rest
    // over the added lines: they wait for it.
    if !target.isDevice { try waitForWriters(target) }
    let fd: Int32
    do {
      fd = try posix.open(target.resolved, O_RDWR | O_APPEND | O_CREAT, 0o666)
    } catch {
      throw StoreError(errno: error.code, path: path, operation: .write)
    }
    defer { posix.close(fd) }
    // A large file ending in a newline is not read: its end and its remembered line counts
    // are all an append needs.
    if !target.isDevice, let info = try? posix.fstat(fd), Int(info.st_size) >= LineCount.threshold,
      let last = LineCount.lastLine(fd, size: Int(info.st_size)),
      let counts = lineCount(fd, resolved: target.resolved)
    {
      return try appendLarge(
        lines, fd: fd, size: Int(info.st_size), counts: counts, lastLine: last, target: target,
        path: path, label: label)
    }
    let existing: [UInt8]
    do {
      existing = target.isDevice ? [] : try posix.readAll(fd, path: target.resolved)
    } catch {
      throw StoreError(errno: error.code, path: path, operation: .read)
    }
    // A task added after a merge conflict's markers would be numbered among them. (A large
    // file is read only when it has no remembered counts, which stand for a checked version.)
    try checkMarkers(existing, path: path, operation: .write)
    let list = TodoList(bytes: existing)
    let ending = list.preferredLineEnding.bytes
    var added: [UInt8] = list.endsWithNewline ? [] : ending
    for line in lines { added += line + ending }
    guard !added.isEmpty else { return [] }
    do {
      try posix.writeAll(fd, added, path: target.resolved)
      try posix.fsync(fd, path: target.resolved)
    } catch {
      // A partly written line must not stay: cut the file back to what it was.
      if !target.isDevice { try? posix.ftruncate(fd, existing.count, path: target.resolved) }
      throw StoreError(errno: error.code, path: path, operation: .write)
    }
    if !target.isDevice {
      var grown = list
      for line in lines { grown.append(Task(bytes: line)) }
      // The next append to a large file then reads only its end.
      if existing.count + added.count >= LineCount.threshold {
        rememberLineCount(LineCount(grown), fd: fd, resolved: target.resolved)
      }
      record(
        label: label,
        changes: [
          FileChange(
            target: target, base: Snapshot(bytes: existing), bytes: [],
            patch: Patch(edits: grown), appendedSize: existing.count + added.count)
        ])
    }
    return lines.indices.map { list.count + 1 + $0 }
  }

  /// ``append(_:to:label:)`` for a file of `size` bytes that ends in a newline, from its
  /// line counts and last line.
  private func appendLarge(
    _ lines: [[UInt8]], fd: Int32, size: Int, counts: LineCount, lastLine: [UInt8], target: Target,
    path: String, label: String
  ) throws(StoreError) -> [Int] {
    let ending = counts.preferred
    var added: [UInt8] = []
    for line in lines { added += line + ending.bytes }
    guard !added.isEmpty else { return [] }
    do {
      try posix.writeAll(fd, added, path: target.resolved)
      try posix.fsync(fd, path: target.resolved)
    } catch {
      try? posix.ftruncate(fd, size, path: target.resolved)
      throw StoreError(errno: error.code, path: path, operation: .write)
    }
    var grown = counts
    if ending == .crlf { grown.crlf += lines.count } else { grown.lf += lines.count }
    rememberLineCount(grown, fd: fd, resolved: target.resolved)
    let count = counts.lines
    let hunk = Hunk(
      oldStart: count, newStart: count, old: [],
      new: lines.map { PatchLine(bytes: $0, ending: ending) },
      anchor: count > 0 ? lastLine : nil, following: nil)
    record(
      label: label,
      changes: [
        FileChange(
          target: target, base: Snapshot(bytes: [], identity: nil), bytes: [],
          patch: Patch(hunks: [hunk], oldCount: count, newCount: count + lines.count),
          appendedSize: size + added.count)
      ])
    return lines.indices.map { count + 1 + $0 }
  }
}
