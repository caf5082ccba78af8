import TodoTxt

/// A todo.txt file (and the done.txt its finished tasks are archived to) open in an app: the
/// same lock, atomic replace, journal and undo log as the `todo` command line, behind a
/// model an app edits in memory and saves when it likes.
///
/// The guarantees, each the command line's too:
/// - **No torn file.** A save writes the new version to a hidden file beside the list, makes
///   it durable and renames it over the list; a reader (another app, an editor, a sync
///   client) sees the old version or the new one, never a mix, even when the process is
///   killed at any instant. A change of two files (``archive()``) is all or nothing: a
///   journal lets the next process that opens them finish or forget it.
/// - **No lost edit of another program.** ``save(label:)`` writes only the lines the app
///   changed since it last read the file, under an advisory lock every `todo` process and
///   every document takes. When another program changed the file meanwhile (an editor, a
///   phone's sync, the command line), the two are merged task by task: both changes stay,
///   and a task changed on both sides is kept in both versions, named in
///   ``SaveOutcome/conflicts``.
/// - **Nothing trusted that the store did not write.** A link the list file is not the
///   user's own, a FIFO or a directory in its place, a planted journal: refused with a
///   ``StoreError`` naming the problem, the file as it was.
/// - **Undo.** Every save is an entry of the undo log the command line's `todo undo` reads;
///   ``undo(_:)`` takes back the latest, by its lines, and still applies after other lines
///   changed.
///
/// Not thread-safe: use a document from one thread or actor. ``outsideChanges(every:)`` may be
/// awaited anywhere; it only reads the file's status.
public final class TodoDocument {
  /// The todo.txt file.
  public let path: String
  /// Where ``archive()`` moves done tasks: done.txt beside the list unless told otherwise.
  public let donePath: String
  /// The store every read and write goes through (the command line's, with its settings).
  public let store: TodoStore
  /// The lines as the app sees them. Edit them freely (the typed setters of ``Task``,
  /// ``TodoList/append(_:ending:)``, ``TodoList/remove(at:)``, ``TodoList/move(from:to:)``,
  /// or a whole new list); nothing reaches the file until ``save(label:)``.
  public var list: TodoList
  /// The file's bytes when last read or saved: the version the app's edits are made to.
  private var base: [UInt8]
  /// The file's status then (`nil`: missing).
  private var stamp: FileStamp?

  /// Opens a list: reads it (a missing file is an empty list, made on the first save).
  ///
  /// - Parameters:
  ///   - path: the todo.txt file.
  ///   - donePath: where ``archive()`` moves done tasks; `done.txt` in the same folder by
  ///     default.
  ///   - store: the store to go through; by default one with the command line's undo log
  ///     (`$XDG_STATE_HOME/todo`) and a ten-second wait for another process's lock.
  public init(path: String, donePath: String? = nil, store: TodoStore = TodoStore()) throws(StoreError) {
    self.path = path
    self.donePath = donePath ?? TodoDocument.sibling(of: path, named: "done.txt")
    self.store = store
    stamp = FileStamp(path: path)
    base = try TodoDocument.read(path, store: store)
    list = TodoList(bytes: base)
  }

  /// Whether ``list`` holds edits that ``save(label:)`` has not written.
  public var hasUnsavedChanges: Bool { list.serialized() != base }

  /// Whether the file changed on disk since the document last read or saved it (its size,
  /// times or identity did): ``reload()`` brings the change in.
  public var changedOnDisk: Bool { FileStamp(path: path) != stamp }

  /// What a save did besides writing the app's edits.
  public struct SaveOutcome: Sendable {
    /// Another program had changed the file since the document read it: its changes were
    /// merged with the app's, and ``list`` now holds both.
    public var mergedOutsideChanges: Bool
    /// Tasks both the app and the other program changed (or one changed and the other
    /// deleted): the file holds both versions, the other program's first, for the user to
    /// choose. Empty when the merge was clean.
    public var conflicts: [MergeConflict]
    /// Where each line of the app's list stands in the list as saved (``list`` now), with
    /// `original` an index of the app's list: after a merge, a task the app added or kept
    /// may have another number. Empty when nothing moved or changed.
    public var changes: [LineChange] = []
  }

  /// Writes the app's edits to the file and reads back the version written.
  ///
  /// Only the lines the app changed are written over the file as it is now, under the lock
  /// (see the type's guarantees); an unchanged list writes nothing. `label` names the change
  /// in the undo log, as the command line's entries are named (`do 3`).
  @discardableResult
  public func save(label: String = "save") throws(StoreError) -> SaveOutcome {
    let edited = list
    let base = self.base
    var outcome = SaveOutcome(mergedOutsideChanges: false, conflicts: [])
    do {
      outcome = try store.update(path, label: label) { disk -> SaveOutcome in
        if disk.serialized() == base {
          disk.replaceContents(with: edited)
          return SaveOutcome(mergedOutsideChanges: false, conflicts: [])
        }
        // The file as it is now is "ours": the merge keeps its lines and the patch written is
        // the app's changes to it.
        let merged = TodoMerge.merge(
          base: TodoList(bytes: base), ours: disk, theirs: edited, conflictStyle: .keepBoth)
        disk.replaceContents(with: merged.list)
        return SaveOutcome(mergedOutsideChanges: true, conflicts: merged.conflicts)
      }
    } catch let error as StoreError {
      throw error
    } catch {
      // The edit above throws nothing else.
      preconditionFailure("unexpected error \(error)")
    }
    try readAgain()
    let moved = list.changes(from: edited)
    let same = moved.allSatisfy { if case .keep(let original, let current) = $0 { original == current } else { false } }
    if !same { outcome.changes = moved }
    return outcome
  }

  /// Reads the file again, bringing in what other programs changed, and returns what changed
  /// in ``list`` (for a screen to update its rows).
  ///
  /// Unsaved edits are kept: they are merged with the file's new version, as a save would
  /// merge them, and still wait for ``save(label:)``.
  @discardableResult
  public func reload() throws(StoreError) -> [LineChange] {
    let newStamp = FileStamp(path: path)
    let disk = try TodoDocument.read(path, store: store)
    let old = list
    if disk == base {
      stamp = newStamp
      return []
    }
    var updated = TodoList(bytes: disk)
    if list.serialized() != base {
      let merged = TodoMerge.merge(
        base: TodoList(bytes: base), ours: updated, theirs: list, conflictStyle: .keepBoth)
      updated.replaceContents(with: merged.list)
    }
    list = updated
    base = disk
    stamp = newStamp
    return list.changes(from: old)
  }

  /// Moves every done task to ``donePath`` and removes blank lines, in one change of both
  /// files (all or nothing); returns how many tasks moved. Unsaved edits are saved first.
  @discardableResult
  public func archive() throws(StoreError) -> Int {
    if hasUnsavedChanges { try save() }
    let moved: Int
    do {
      moved = try store.update([path, donePath], label: "archive") { lists -> Int in
        var done = TodoList()
        swap(&done, &lists[1])
        let first = lists[0].archiveCompleted(into: &done)
        swap(&done, &lists[1])
        return lists[1].count - first
      }
    } catch let error as StoreError {
      throw error
    } catch {
      preconditionFailure("unexpected error \(error)")
    }
    try readAgain()
    return moved
  }

  /// Takes back the latest `count` changes to the list and done.txt (the app's saves and the
  /// command line's changes alike), newest first; returns them. Unsaved edits are kept, as
  /// ``reload()`` keeps them.
  @discardableResult
  public func undo(_ count: Int = 1) throws -> [UndoEntry] {
    let entries = try store.undo(count, files: [path, donePath])
    try reload()
    return entries
  }

  /// Makes the latest `count` undone changes again, oldest first; returns them.
  @discardableResult
  public func redo(_ count: Int = 1) throws -> [UndoEntry] {
    let entries = try store.redo(count, files: [path, donePath])
    try reload()
    return entries
  }

  /// The changes to the list that ``undo(_:)`` can take back, newest first.
  public var history: [UndoEntry] { store.history(files: [path, donePath]) }

  /// A stream that yields each time the file's status changes (a save of this document's
  /// too): call ``reload()`` then, which finds nothing to do after the document's own save.
  ///
  /// The file's status is read every `interval` (one `stat` call: cheap enough for a few
  /// times a second, and the same on every system and every file system, network mounts
  /// included). The stream ends when the task awaiting it is cancelled.
  public func outsideChanges(every interval: Duration = .milliseconds(250)) -> AsyncStream<Void> {
    let path = self.path
    let first = stamp
    return AsyncStream { continuation in
      let watcher = _Concurrency.Task {
        var seen = first
        while !_Concurrency.Task.isCancelled {
          try? await _Concurrency.Task.sleep(for: interval)
          let now = FileStamp(path: path)
          if now != seen {
            seen = now
            continuation.yield()
          }
        }
        continuation.finish()
      }
      continuation.onTermination = { _ in watcher.cancel() }
    }
  }

  // MARK: Notes and attachments

  /// The folder of notes (`notes` beside the list), as the command line's `note` keeps them.
  public var notesPath: String { TodoDocument.sibling(of: path, named: "notes") }
  /// The folder of attachments (`attachments` beside the list), as `attach` keeps them.
  public var attachmentsPath: String { TodoDocument.sibling(of: path, named: "attachments") }

  /// The text of a task's note (the file its `note:` tag names in ``notesPath``); `nil` when
  /// it has none, or the file is missing. Never read through a link (see ``ConfinedFolder``).
  public func noteText(of task: Task) throws(StoreError) -> String? {
    guard let name = task.note, ConfinedFolder.isPlainName(name) else { return nil }
    do {
      return String(decoding: try store.folder(notesPath).read(name), as: UTF8.self)
    } catch where error.kind == .notFound {
      return nil
    }
  }

  /// Writes the note of the task at `index` of ``list``: the file its `note:` tag names, or
  /// a new one named after its words, linked by a `note:` tag added to the task (an unsaved
  /// edit, like any other). The file itself is written at once.
  public func setNoteText(_ text: String, ofTaskAt index: Int) throws {
    var task = list[index]
    let folder = try store.folder(notesPath, creating: true)
    if let name = task.note, ConfinedFolder.isPlainName(name) {
      try folder.replace(name, contents: Array(text.utf8))
      return
    }
    let name = try folder.create(uniqueNameFrom: task.fileNameStem, extension: ".txt", contents: Array(text.utf8))
    do {
      try task.setNote(name)
    } catch {
      folder.remove(name)
      throw error
    }
    list.replace(at: index, with: task)
  }

  /// Copies `contents` (a photo, a document) into ``attachmentsPath`` under a name no other
  /// file there has (`name`, or `name` with a number), and links it to the task at `index` of
  /// ``list`` with an `att:` tag (an unsaved edit). Returns the copy's name.
  @discardableResult
  public func attach(_ contents: [UInt8], named name: String, toTaskAt index: Int) throws -> String {
    var task = list[index]
    // The name becomes part of the task line: no space, colon or control character.
    let wanted = String(
      String(decoding: Array(name.utf8), as: UTF8.self).unicodeScalars.map { scalar -> Character in
        scalar == " " || scalar == ":" || scalar == "/" || scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
          ? "-" : Character(scalar)
      })
    let folder = try store.folder(attachmentsPath, creating: true)
    let stored = try folder.create(
      preferring: ConfinedFolder.isPlainName(wanted) ? wanted : "attachment", contents: contents)
    do {
      try task.addAttachment(stored)
    } catch {
      folder.remove(stored)
      throw error
    }
    list.replace(at: index, with: task)
    return stored
  }

  /// The paths of a task's attachments, in the order of its `att:` tags (names that are not
  /// plain file names are left out: they would point outside the folder).
  public func attachmentPaths(of task: Task) -> [String] {
    task.attachments.filter(ConfinedFolder.isPlainName).map { attachmentsPath + "/" + $0 }
  }

  // MARK: Reading

  /// Takes the file as it is now as the document's list, with no unsaved edit.
  private func readAgain() throws(StoreError) {
    stamp = FileStamp(path: path)
    base = try TodoDocument.read(path, store: store)
    list = TodoList(bytes: base)
  }

  /// The file's bytes; none when it does not exist yet.
  private static func read(_ path: String, store: TodoStore) throws(StoreError) -> [UInt8] {
    do {
      return try store.readBytes(path)
    } catch where error.kind == .notFound {
      return []
    }
  }

  /// `name` in the folder of `path`.
  static func sibling(of path: String, named name: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return name }
    return String(path[...slash]) + name
  }
}
