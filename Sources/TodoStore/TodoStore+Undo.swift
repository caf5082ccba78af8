#if canImport(Glibc)
  import Glibc
#endif

extension TodoStore {
  /// The undo log, when there is a state directory.
  var undoLog: UndoLog? {
    stateDirectory.map {
      UndoLog(directory: Paths.join($0, "undo"), limit: undoLimit, byteLimit: undoByteLimit)
    }
  }

  /// Adds a change to the undo log, and forgets the undone changes of the same files (they
  /// can no longer be redone on top of a new change).
  ///
  /// A failure here is a warning, not an error: the files are already written, and a command
  /// must not fail because its undo step could not be kept; but the user learns that this
  /// change cannot be undone.
  func record(label: String, changes: [FileChange]) {
    guard let log = undoLog, !changes.isEmpty else { return }
    do throws(SystemError) {
      try log.create(posix: posix)
    } catch {
      warn(StoreError(errno: error.code, path: log.directory, operation: .write))
      return
    }
    let lock: FileLock?
    do {
      lock = try log.lock(timeout: lockTimeout, posix: posix)
    } catch {
      warn(error)
      return
    }
    guard let lock else {
      warn(StoreError(.permissionDenied, path: log.directory, operation: .write))
      return
    }
    defer { lock.release(posix: posix) }
    let entries = log.list(posix: posix)
    let files = Set(changes.map(\.target.resolved))
    for entry in entries where entry.isUndone {
      guard let record = log.read(entry.sequence, undone: true, posix: posix) else { continue }
      if record.files.contains(where: { files.contains($0.resolved) }) {
        try? posix.unlink(log.fileName(entry.sequence, undone: true))
      }
    }
    let record = UndoLog.Record(
      sequence: (entries.last?.sequence ?? 0) + 1, isUndone: false, label: label, time: now(),
      isRecorded: true,
      files: changes.map { ($0.target.path, $0.target.resolved, $0.patch) },
      sizes: changes.map(\.newSize))
    do throws(SystemError) {
      if try !log.write(record, posix: posix) {
        warn(StoreError(.notRecorded, path: changes[0].target.path, operation: .undo(label: label)))
      }
    } catch {
      warn(StoreError(errno: error.code, path: log.directory, operation: .write))
    }
    let remaining = log.list(posix: posix)
    for entry in remaining.prefix(max(remaining.count - log.limit, 0)) {
      try? posix.unlink(log.fileName(entry.sequence, undone: entry.isUndone))
    }
  }

  /// The changes to these files that can be undone or redone, newest first.
  public func history(files: [String]) -> [UndoEntry] {
    guard let log = undoLog else { return [] }
    let wanted = resolvedSet(files)
    return log.list(posix: posix).reversed().compactMap { entry in
      guard let record = log.read(entry.sequence, undone: entry.isUndone, posix: posix),
        record.files.contains(where: { wanted.contains($0.resolved) })
      else { return nil }
      return record.entry
    }
  }

  /// Undoes the last `count` changes to these files (newest first), each as a line patch:
  /// it still applies after other lines were edited, and refuses when a line it would put
  /// back has changed since. Returns the entries undone.
  @discardableResult
  public func undo(_ count: Int = 1, files: [String]) throws -> [UndoEntry] {
    try step(count, files: files, undoing: true)
  }

  /// Redoes the last `count` undone changes to these files (oldest first).
  @discardableResult
  public func redo(_ count: Int = 1, files: [String]) throws -> [UndoEntry] {
    try step(count, files: files, undoing: false)
  }

  private func resolvedSet(_ files: [String]) -> Set<String> {
    Set(files.map { path in (try? resolve(path, operation: .read))?.resolved ?? path })
  }

  private func step(_ count: Int, files: [String], undoing: Bool) throws(StoreError) -> [UndoEntry]
  {
    let shownPath = files.first ?? ""
    guard let log = undoLog else {
      throw StoreError(
        undoing ? .nothingToUndo : .nothingToRedo, path: shownPath,
        operation: undoing ? .undo(label: "") : .redo(label: ""))
    }
    let wanted = resolvedSet(files)
    var done: [UndoEntry] = []
    var attempts = 0
    while done.count < count {
      // The newest applied entry to undo, or the oldest undone one to redo.
      let candidates = log.list(posix: posix).filter { $0.isUndone != undoing }
      let ordered = undoing ? Array(candidates.reversed()) : candidates
      var chosen: UndoLog.Record?
      for candidate in ordered {
        // A damaged entry (torn, truncated) may be the change the user means: stepping over
        // it would silently undo an older change instead.
        guard let record = log.read(candidate.sequence, undone: candidate.isUndone, posix: posix)
        else {
          throw StoreError(
            .damagedUndoEntry, path: log.fileName(candidate.sequence, undone: candidate.isUndone),
            operation: .read)
        }
        if record.files.contains(where: { wanted.contains($0.resolved) }) {
          chosen = record
          break
        }
      }
      guard let record = chosen else {
        if !done.isEmpty { break }
        throw StoreError(
          undoing ? .nothingToUndo : .nothingToRedo, path: shownPath,
          operation: undoing ? .undo(label: "") : .redo(label: ""))
      }
      let operation: StoreError.Operation =
        undoing ? .undo(label: record.label) : .redo(label: record.label)
      guard record.isRecorded else {
        throw StoreError(
          .notRecorded, path: record.files.first?.path ?? shownPath, operation: operation)
      }
      if try apply(record, undoing: undoing, log: log, operation: operation) {
        var entry = record.entry
        entry.isUndone = undoing
        done.append(entry)
      } else {
        // Another process undid or redid it meanwhile: look again.
        attempts += 1
        if attempts > 20 { break }
      }
    }
    return done
  }

  /// Applies one entry's patches (inverted to undo) under the files' locks and moves the
  /// entry to its new state; `false` when the entry changed state before the locks were held.
  private func apply(
    _ record: UndoLog.Record, undoing: Bool, log: UndoLog, operation: StoreError.Operation
  ) throws(StoreError) -> Bool {
    var targets: [Target] = []
    for file in record.files {
      var target = try resolve(file.resolved, operation: operation)
      target.path = file.path
      targets.append(target)
    }
    try recoverInterruptedChanges(targets)
    let locks = try lock(targets)
    defer { for lock in locks { lock.release(posix: posix) } }
    guard let logLock = try log.lock(timeout: lockTimeout, posix: posix) else { return false }
    defer { logLock.release(posix: posix) }
    let from = log.fileName(record.sequence, undone: !undoing)
    guard posix.lstat(from) != nil else { return false }
    var changes: [FileChange] = []
    for (target, file) in zip(targets, record.files) {
      let base = try snapshot(target)
      let patch = undoing ? file.patch.inverted : file.patch
      do {
        // Undoing puts removed lines back where they were; redoing adds at the end as the
        // change first did.
        // The result as a list of the file's lines and the patch's, written a block at a
        // time: the file is not held twice to undo one line of it.
        let (list, applied) = try patch.applied(to: base.bytes, restoring: undoing)
        let content = FileChange.Content(list)
        if !content.holds(base.bytes) {
          changes.append(FileChange(target: target, base: base, content: content, patch: applied))
        }
      } catch {
        throw StoreError(
          .conflict(
            line: error.line, was: String(decoding: error.was, as: UTF8.self),
            now: error.now.map { String(decoding: $0, as: UTF8.self) }),
          path: target.path, operation: operation)
      }
    }
    if !changes.isEmpty { try commit(changes, label: record.label, recording: false) }
    do throws(SystemError) {
      try posix.rename(from, log.fileName(record.sequence, undone: undoing))
    } catch {
      throw StoreError(errno: error.code, path: log.directory, operation: operation)
    }
    return true
  }
}
