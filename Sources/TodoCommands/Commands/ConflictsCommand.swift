@preconcurrency import Glibc
import TodoStore
import TodoTxt

/// `conflicts`: merges the copies that file-syncing services leave when two machines changed
/// a file at once, then moves them out of the way.
enum ConflictsCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "conflicts",
    abstract: "Merge the conflicted copies Dropbox or Syncthing left beside todo.txt and done.txt.",
    discussion: """
      Finds copies named like 'todo (conflicted copy 2026-03-01).txt', \
      "todo (Sam's conflicted copy 2026-03-01).txt" or \
      'todo.sync-conflict-20260301-101500-ABCDEFG.txt' next to todo.txt and done.txt, merges \
      each into its file task by task (see 'merge'), and moves it into the hidden folder \
      .todo-conflicts beside the file. The version of the file before the changes in the \
      undo log serves as the common base; without one, a task found on one side only is \
      kept, and two kept tasks that look like one task changed on both sides are named on \
      standard error (the exit status is then 1). A task changed on both sides in ways that \
      do not fit is kept in both versions, one after the other. done.txt is merged the same way. 'undo' takes the merge back; the copy stays in \
      .todo-conflicts (move it back to merge it again).
      """,
    nativeOnly: true, toleratesConflictMarkers: true
  ) { context, _ throws(TodoError) in
    var merged = 0
    var refused = 0
    // Tasks kept twice that are probably one: the merge is done, but the person must look.
    var lookAlikes = 0
    // done.txt is merged like todo.txt: a union would bring back a task moved out of it.
    for file in [context.settings.todoFile, context.settings.doneFile] {
      let found = try copies(of: file, store: context.store)
      for link in found.links {
        // A link arriving by sync would make another file (~/.ssh/id_rsa) lines of the list.
        context.console.errorLine(
          "\(context.programName): \(StoreError(.symbolicLink(target: found.directory.linkTarget(link)), path: found.directory.path(of: link), operation: .read).description); not merged")
        refused += 1
      }
      guard !found.names.isEmpty else { continue }
      // The folder the copies go to is made (and refused when it is a link) before anything
      // is merged: a merge whose copy cannot then be moved aside would be merged again.
      let aside: ConfinedFolder
      do throws(StoreError) {
        aside = try context.store.folder(found.directory.path(of: ConflictsCommand.folder), creating: true)
      } catch {
        throw .store(error)
      }
      // Every copy left this machine before this run: each is merged against a version it
      // descends from, found in the log as it was before the first merge here, never
      // against one that already holds another copy's lines (whose tasks would then read as
      // deleted by this copy's machine).
      // One of the copies may be this machine's own file, renamed by the syncing service:
      // all are read first, so that each can be merged against the versions that file had.
      var before = Before(history: context.store.history(files: [file]))
      for name in found.names {
        do throws(StoreError) {
          before.copies.append((name, try found.directory.read(name)))
        } catch {
          throw .store(error)
        }
      }
      for (name, bytes) in before.copies {
        lookAlikes += try mergeCopy(
          name, bytes: bytes, of: found.directory, into: file, movingTo: aside, before: &before, context: context)
        merged += 1
      }
    }
    if merged == 0, refused == 0, context.verbose { context.console.line("TODO: No conflicted copies found.") }
    return refused == 0 && lookAlikes == 0 ? .success : .failure
  }

  /// The conflicted copies waiting beside todo.txt and done.txt, by name (links too: they
  /// are named by `conflicts` and must not go unnoticed either).
  static func waitingCopies(_ context: CommandContext) -> [String] {
    // todo.txt and done.txt almost always share a folder: it is opened and read once (this
    // runs on every `ls` and every prompt of the shell).
    var listed: [String: (folder: ConfinedFolder, entries: [String])] = [:]
    return [context.settings.todoFile, context.settings.doneFile].flatMap { file -> [String] in
      let key = Posix.dirname(file)
      if listed[key] == nil, let folder = try? folder(of: file, store: context.store) {
        listed[key] = (folder, folder.names())
      }
      guard let (folder, entries) = listed[key] else { return [] }
      let found = copies(of: file, among: entries, in: folder)
      return found.names + found.links
    }
  }

  /// Says on standard error that conflicted copies wait to be merged, and how: a listing
  /// would otherwise show a list that silently lacks the other machine's changes.
  static func mentionCopies(_ context: CommandContext) {
    let waiting = waitingCopies(context)
    guard let first = waiting.first else { return }
    let which = waiting.count == 1 ? "'\(first)' is a conflicted copy" : "\(waiting.count) conflicted copies ('\(first)', …) are"
    context.console.errorLine(
      "\(context.programName): \(which) beside the list, left by a sync service; '\(context.programName) conflicts' merges them")
  }

  /// The folder beside a file that merged copies are moved to.
  static let folder = ".todo-conflicts"

  /// Conflicted copies of `file` in its directory, by name, and those of them that are
  /// symbolic links (never read: see ``ConfinedFolder``).
  ///
  /// Dropbox: `STEM (… conflicted copy …)EXT`; Syncthing: `STEM.sync-conflict-…EXT`, where
  /// STEM and EXT are the file's name before and from its last dot.
  static func copies(of file: String, store: TodoStore) throws(TodoError) -> (directory: ConfinedFolder, names: [String], links: [String]) {
    let directory = try folder(of: file, store: store)
    let (names, links) = copies(of: file, among: directory.names(), in: directory)
    return (directory, names, links)
  }

  /// The folder `file` lies in. The list's own directory is the user's to place (a link into a
  /// synced folder is common): it is resolved first; what is confined is what lies in it.
  static func folder(of file: String, store: TodoStore) throws(TodoError) -> ConfinedFolder {
    do { return try store.folder(Posix.realPath(Posix.dirname(file))) } catch { throw .store(error) }
  }

  /// Which of `entries` (the names in `directory`) are conflicted copies of `file`, as files
  /// and as links.
  static func copies(of file: String, among entries: [String], in directory: ConfinedFolder) -> (names: [String], links: [String]) {
    let name = Posix.basename(file)
    let dot = name.lastIndex(of: ".") ?? name.endIndex
    let stem = String(name[..<dot])
    let suffix = String(name[dot...])
    let candidates = entries.filter { candidate in
      guard candidate != name, candidate.hasSuffix(suffix) else { return false }
      let middle = candidate.dropLast(suffix.count)
      let dropbox =
        middle.hasPrefix(stem + " (") && middle.hasSuffix(")")
        && middle.lowercased().contains("conflicted copy")
      let syncthing = middle.hasPrefix(stem + ".sync-conflict-")
      return dropbox || syncthing
    }
    let kinds = candidates.map { directory.kind(of: $0) }
    return (
      zip(candidates, kinds).filter { $0.1 == .file }.map(\.0), zip(candidates, kinds).filter { $0.1 == .link }.map(\.0)
    )
  }

  /// The undo log, the file and its copies as they were before the first copy was merged in
  /// this run.
  struct Before {
    var history: [UndoEntry]
    /// Taken under the lock of the first merge.
    var list: TodoList? = nil
    /// Every copy of the file, by name, as read before any was merged.
    var copies: [(name: String, bytes: [UInt8])] = []
  }

  /// Merges the copy `name` of `directory` into `file` and moves it into `aside`: one change.
  /// Returns how many pairs of tasks it kept that are probably one task changed on both
  /// sides, each named on standard error.
  ///
  /// The merge is labelled with the copy's fingerprint, so that a run killed (or failing)
  /// between writing the merge and moving the copy is recognised by the next one, which
  /// only moves the copy aside instead of merging it a second time (a second merge would
  /// read the first as this machine's edits, and could drop a task).
  static func mergeCopy(
    _ name: String, bytes: [UInt8], of directory: ConfinedFolder, into file: String,
    movingTo aside: ConfinedFolder, before: inout Before, context: CommandContext
  ) throws(TodoError) -> Int {
    let theirs = TodoList(bytes: bytes)
    let history = before.history
    let resolved = Posix.realPath(file)
    let label = "conflicts \(name) #\(TodoStore.fingerprint(of: bytes))"
    let alreadyMerged = history.contains { !$0.isUndone && $0.label == label }
    let others = before.copies.filter { $0.name != name }.map { TodoList(bytes: $0.bytes) }
    var outcome: (result: MergeResult, lookAlikes: [(ours: Task, theirs: Task)])?
    if !alreadyMerged {
      var original = before.list
      outcome = try context.storing {
        try context.store.update(file, label: label) { list -> (MergeResult, [(ours: Task, theirs: Task)]) in
          if original == nil { original = list }
          let base = base(from: history, path: resolved, ours: original ?? list, theirs: theirs, others: others)
          let result = TodoMerge.merge(base: base?.list, ours: list, theirs: theirs, conflictStyle: .keepBoth)
          // Without a base it can vouch for, the merge takes an edit for a new task: the
          // pairs it kept that look like one task are named (those kept as conflicts are
          // named below already).
          var lookAlikes: [(ours: Task, theirs: Task)] = []
          if base?.trusted != true {
            let conflicting = Set(result.conflicts.flatMap { [$0.ours, $0.theirs].compactMap { $0 } })
            lookAlikes = TodoMerge.lookAlikes(ours: list, theirs: theirs, in: result.list).filter {
              !conflicting.contains($0.ours) || !conflicting.contains($0.theirs)
            }
          }
          list = result.list
          return (result, lookAlikes)
        }
      }
      before.list = original
    }
    let moved: String
    do { moved = try aside.moveIn(name, from: directory) } catch { throw .store(error) }
    let shown = folder + "/" + moved
    let target = Posix.basename(file)
    guard let (result, lookAlikes) = outcome else {
      context.console.line("'\(name)' was already merged into \(target) (an earlier run stopped before moving it); it is now \(shown).")
      return 0
    }
    context.console.line("Merged '\(name)' into \(target); the copy is now \(shown).")
    if !result.conflicts.isEmpty {
      context.console.line(
        "\(target) holds both versions of \(result.conflicts.count) task\(result.conflicts.count == 1 ? "" : "s") "
          + "changed on both sides; delete the one you do not want:")
      for conflict in result.conflicts {
        for task in [conflict.ours, conflict.theirs].compactMap({ $0 }) {
          context.console.write(Array("  ".utf8) + context.display(Array(task.bytes)) + [0x0A])
        }
      }
    }
    for pair in lookAlikes {
      context.console.writeError(
        Array("\(context.programName): \(target) keeps both '".utf8) + context.display(Array(pair.ours.bytes))
          + Array("' and '".utf8) + context.display(Array(pair.theirs.bytes))
          + Array("', probably one task changed on both sides (no common version to tell); delete the one you do not want\n".utf8))
    }
    return lookAlikes.count
  }

  /// The version both files descend from, and whether the undo log vouches for it: `nil`
  /// when the log describes no file (then nothing counts as deleted, and both sides are kept).
  ///
  /// The undo log describes this machine's file, whichever it is: a file-syncing service may
  /// have renamed it to this copy or another one (`others`) and put the other machine's
  /// version in its place. The log is replayed backwards from each file in turn (`ours`,
  /// `theirs`, `others`) until one is found that it describes (every line a change added is
  /// there to take away), one whose size is the size the log kept first. Of the versions on
  /// the way back, the base is the one that accounts best for the file it is not replayed
  /// from (see ``TodoMerge/kinship(ancestor:descendant:)``), the oldest of equals: a newer one
  /// may hold changes made here after the copy left, which the merge would then read as
  /// deleted by the other machine.
  ///
  /// A copy is left only when both machines changed the file since the version they shared:
  /// a version that is either file as it stands is not that version. Taking one would read
  /// the other machine's deletion of a task added here before the copy left as a task added
  /// here since (and bring it back), or this machine's changes as the other machine's.
  ///
  /// The replay cannot see what was changed here without the tool (an editor) or before the
  /// oldest entry: such a line would be in every version on the way back, and a base holding
  /// it would say the other machine deleted it. So the base is trusted only when every step
  /// back from this machine's file to it is checked against the size the log kept of the file
  /// after that change, and it is not the oldest version the log reaches (what the file held
  /// before the tool first changed it, or before the oldest entry kept, is unknown). An
  /// untrusted base keeps only the tasks the other file still has in some form: the other
  /// machine's deletions may come back, but nothing of this machine's is dropped.
  static func base(
    from history: [UndoEntry], path: String, ours: TodoList, theirs: TodoList, others: [TodoList] = []
  ) -> (list: TodoList, trusted: Bool)? {
    let recorded = history.filter { !$0.isUndone }.prefix { $0.isRecorded }
    guard !recorded.isEmpty else { return nil }
    let candidates = [(ours, theirs), (theirs, ours)] + others.map { ($0, theirs) }
    var found: (lines: [[UInt8]], trusted: Bool, other: TodoList)?
    for (local, other) in candidates {
      guard let replayed = base(replaying: recorded, path: path, from: local, toward: other) else { continue }
      if replayed.describes || found == nil { found = (replayed.lines, replayed.trusted, other) }
      if replayed.describes { break }
    }
    guard let found else { return nil }
    let lines = found.trusted ? found.lines : keepingOnlyTasksIn(found.other, found.lines)
    return (TodoList(bytes: lines.flatMap { $0 + [0x0A] }), found.trusted)
  }

  /// The best base on the way back from `local`, whether it is trusted, and whether `local`
  /// is the file the log's newest change left (its size is the one kept); `nil` when the log
  /// does not describe `local`.
  private static func base(
    replaying history: ArraySlice<UndoEntry>, path: String, from local: TodoList,
    toward other: TodoList
  ) -> (lines: [[UInt8]], trusted: Bool, describes: Bool)? {
    var lines = local.map { Array($0.bytes) }
    // Sizes as the file would have them: each kept line with its own ending, a line put back
    // with the file's usual one (a guess that can only make a check fail, never pass wrongly
    // for an edit that changed the size).
    var endingBytes = local.indices.map { local.lineEnding(at: $0).byteCount }
    let usual = local.preferredLineEnding.byteCount
    let bom = local.hasByteOrderMark ? TodoList.byteOrderMark.count : 0
    func size() -> Int { bom + lines.reduce(0) { $0 + $1.count } + endingBytes.reduce(0, +) }

    // Versions that hold the tasks of either file as it stands rank below every other (see
    // `base(from:)`); a replayed version has its lines in another order, so they are compared
    // sorted, and without blank lines (a `del` leaves one, and it is no task).
    func sorted(_ lines: [[UInt8]]) -> [[UInt8]] {
      lines.filter { !$0.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D } }.sorted { $0.lexicographicallyPrecedes($1) }
    }
    let either = [sorted(lines), sorted(other.map { Array($0.bytes) })]
    func rank(_ lines: [[UInt8]]) -> (possible: Int, kinship: Int) {
      let version = TodoList(bytes: lines.flatMap { $0 + [0x0A] })
      // Sorted only when the counts say it may be so: a long log of a large list is many
      // versions to compare.
      let tasks = lines.reduce(0) { $0 + ($1.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D } ? 0 : 1) }
      let same = either.contains { $0.count == tasks } && either.contains(sorted(lines))
      return (same ? 0 : 1, TodoMerge.kinship(ancestor: version, descendant: other))
    }
    let changes = history.compactMap { entry in entry.changes.first { $0.path == path } }
    // Checked up to here: the file is what the log says it was after the newest change.
    var checked = changes.first.map { $0.size == local.serializedCount } ?? false
    let describes = checked
    var best = (rank: rank(lines), lines: lines, trusted: checked && !changes.isEmpty)
    for (index, change) in changes.enumerated() {
      for line in change.added {
        guard let at = lines.firstIndex(of: Array(line.utf8)) else { return nil }
        lines.remove(at: at)
        endingBytes.remove(at: at)
      }
      lines += change.removed.map { Array($0.utf8) }
      endingBytes += change.removed.map { _ in usual }
      let older = index + 1 < changes.count ? changes[index + 1] : nil
      if let older {
        checked = checked && older.size == size()
      } else {
        // The oldest version the log reaches holds whatever the file had before the tool
        // first changed it (an editor's lines among them), or changes already dropped from a
        // full log: nothing vouches for it.
        checked = false
      }
      let rank = rank(lines)
      if rank >= best.rank { best = (rank, lines, checked) }
    }
    return (best.lines, best.trusted, describes)
  }

  /// The lines of `base` that `other` still has, as the same line or as the same task with
  /// another completion, priority, dates or tags: what an untrusted base may say the other
  /// side changed, never that it deleted.
  private static func keepingOnlyTasksIn(_ other: TodoList, _ base: [[UInt8]]) -> [[UInt8]] {
    let lines = Set(other.map { Array($0.bytes) })
    let words = Set(other.map { taskWords($0) })
    return base.filter { lines.contains($0) || words.contains(taskWords(Task(bytes: $0))) }
  }

  /// A task's text words without its head and its `key:value` tags.
  private static func taskWords(_ task: Task) -> [ArraySlice<UInt8>] {
    task.bodyBytes.split(separator: UInt8(ascii: " ")).filter { word in
      guard let colon = word.firstIndex(of: UInt8(ascii: ":")) else { return true }
      return colon == word.startIndex || colon == word.index(before: word.endIndex)
    }
  }
}
