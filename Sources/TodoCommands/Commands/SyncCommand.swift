@preconcurrency import Glibc
import TodoStore
import TodoTxt

/// `sync`: the todo directory as a git work tree, kept the same on every machine.
///
/// The order of work never puts a change made here at risk: local changes are committed
/// first, then the remote's are fetched and merged with the task-by-task merge driver (or,
/// when this machine has one commit of its own to send, that commit is put on top of them:
/// see `replay`), then the result is pushed. When the remote cannot be reached the commit stays for the next
/// sync; when a merge needs the user the files keep both versions between conflict markers,
/// and the next `sync` finishes the merge once the markers are gone.
enum SyncCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "sync",
    abstract:
      "Commit the changes in the todo directory, merge the git remote's, and push the result.",
    discussion: """
      The todo directory must be in a git repository with a remote (the branch's upstream, \
      else origin). Changes to todo.txt, done.txt and the other files git already tracks there \
      are committed with a message that names the machine and the line counts; the remote's \
      changes are merged task by task (see 'merge'; 'git-setup' is run first when needed). \
      Git merges each list alone, and only a list both sides changed; sync then settles \
      todo.txt and done.txt together, so that a task archived on one machine is neither \
      lost, doubled nor brought back by the other's changes. \
      Without a network the commit stays and goes out with the next sync. When the same task \
      was changed on both sides in ways that do not fit, both versions are left between \
      <<<<<<< and >>>>>>> markers: keep the right lines, remove the markers, and sync again.
      """,
    nativeOnly: true, toleratesConflictMarkers: true
  ) { context, _ throws(TodoError) in
    let directory = context.settings.todoDirectory
    let git = GitRepository(directory: directory, context: context)
    let top = Posix.realPath(try git.topLevel())
    if try GitSetupCommand.register(git, top: top, context: context), context.verbose {
      context.console.line("Registered the todo.txt merge driver in \(top).")
    }
    let lists = [context.settings.todoFile, context.settings.doneFile]
    // Git rewrites the list files while it commits, merges and checks out: the tool's own
    // writers (a script's `add`, the shell) wait on the lists' locks until it is done, and
    // every change they made before is committed first, so git never meets an unsaved list.
    var committed: [String] = []
    try locked(lists, context: context) { () throws(TodoError) in
      try finishMerge(git, top: top, context: context)
      if let summary = try commitLocalChanges(git, top: top, context: context).summary {
        committed.append(summary)
      }
    }
    guard let branch = git.value(["symbolic-ref", "--short", "-q", "HEAD"]), !branch.isEmpty else {
      throw .gitFailed(action: "sync", detail: "no branch is checked out in \(top)")
    }

    let remote = try remote(of: branch, git: git, directory: directory)
    let upstream = git.value(["config", "--get", "branch.\(branch).merge"]).flatMap {
      $0.isEmpty ? nil : $0
    }
    var wanted = upstream ?? branch
    if wanted.hasPrefix("refs/heads/") { wanted.removeFirst("refs/heads/".count) }
    // A branch the remote had at the last fetch is the one: asking the remote again is a
    // connection (a network round trip) on every sync.
    let knownID = git.value(["rev-parse", "-q", "--verify", "refs/remotes/\(remote)/\(wanted)"])
    let known = knownID != nil
    let remoteBranch = known ? wanted : sharedBranch(git, remote: remote, local: wanted)
    let tracking = "refs/remotes/\(remote)/\(remoteBranch)"
    let name = "\(remote)/\(remoteBranch)"

    var received = 0
    var sent = 0
    var attempt = 0
    // A replay's local side does not depend on what the fetch brings: read while it runs.
    let early = upstream != nil ? knownID.flatMap { EarlySides.reading(top: top, tracking: $0, context: context) } : nil
    // Not left running after the sync: the tool is a library too, whose caller goes on.
    defer { _ = early?.wait() }
    while true {
      attempt += 1
      let fetched = git.run(SyncCommand.fetch(remote))
      guard fetched.succeeded else {
        // Offline: the local changes are still committed, to go out with the next sync.
        try locked(lists, context: context) { () throws(TodoError) in
          _ = try commitLocalChanges(git, top: top, context: context)
        }
        throw .offline(remote: remote, detail: fetched.reason)
      }
      let hasTracking = git.value(["rev-parse", "-q", "--verify", tracking]) != nil
      // Commits only this side has, once the remote's are merged; `nil`: count them after.
      var outgoing: Int?
      try locked(lists, context: context) { () throws(TodoError) in
        let local = try commitLocalChanges(git, top: top, context: context)
        if let summary = local.summary { committed.append(summary) }
        guard hasTracking else { return }
        // Both counts in one process; it fails only without a commit here yet.
        let counts = git.value(["rev-list", "--count", "--left-right", "HEAD...\(tracking)", "--"])?
          .split(separator: "\t").compactMap { Int($0) }
        let incoming: Int
        if let counts, counts.count == 2 {
          incoming = counts[1]
          outgoing = counts[0]
        } else {
          let hasHead = git.value(["rev-parse", "-q", "--verify", "HEAD"]) != nil
          incoming = count(git, hasHead ? "HEAD..\(tracking)" : tracking)
        }
        guard incoming > 0 else { return }
        let ahead = outgoing
        outgoing = nil
        // Just found clean under the lock: asking git again would say the same.
        if !local.clean { try requireSaved(lists, git: git, top: top) }
        // This machine's one commit on top of the remote's, when nothing is unusual: one new
        // version of the list to push instead of two (see `replay`).
        if ahead == 1, upstream != nil,
          let left = replay(top: top, onto: tracking, branch: branch, early: early?.wait(), context: context)
        {
          received += incoming
          outgoing = left
          return
        }
        // Not committed yet: git merged each list alone, and both are settled together first.
        let merged = git.run([
          "merge", "-q", "--no-edit", "--no-commit", "--autostash", "--allow-unrelated-histories",
          "-m", "Merge \(name) (todo sync)", tracking,
        ])
        guard let merging = git.value(["rev-parse", "-q", "--verify", "MERGE_HEAD"]) else {
          // A fast-forward, or nothing to merge: no list changed on both sides.
          guard merged.succeeded else { throw .gitFailed(action: "merge", detail: merged.reason) }
          received += incoming
          return
        }
        try settleLists(git, top: top, merging: merging, context: context)
        try finishMerge(git, top: top, context: context)
        received += incoming
      }
      if outgoing == nil {
        guard git.value(["rev-parse", "-q", "--verify", "HEAD"]) != nil else { break }
        outgoing = count(git, hasTracking ? "\(tracking)..HEAD" : "HEAD")
      }
      guard let outgoing, outgoing > 0 else { break }
      // A list of 100,000 tasks goes out as a delta of some 35 KB against the remote's
      // version; git keeps only deltas under 1,000 bytes from its search for the writing, and
      // computed this one a second time (0.2 s of a 0.4 s pack). 65,535 is git's largest.
      var push = ["-c", "pack.deltaCacheLimit=65535", "push", "-q"]
      if upstream == nil || remoteBranch != wanted { push.append("-u") }
      push += ["--", remote, "HEAD:refs/heads/\(remoteBranch)"]
      let pushed = git.run(push)
      if pushed.succeeded {
        sent += outgoing
        break
      }
      // Someone pushed in between: fetch and merge again. Anything else is the remote's answer.
      let again = git.run(SyncCommand.fetch(remote))
      guard again.succeeded else { throw .offline(remote: remote, detail: again.reason) }
      let movedOn = !git.run(["merge-base", "--is-ancestor", tracking, "HEAD"]).succeeded
      guard movedOn, attempt < 5 else { throw .gitFailed(action: "push", detail: pushed.reason) }
    }
    if context.verbose {
      for summary in committed { context.console.line("Committed: \(summary)") }
    }
    if context.verbose {
      if sent == 0, received == 0 {
        context.console.line("Already in sync with \(name).")
      } else {
        context.console.line(
          "Synced with \(name): sent \(commits(sent)), received \(commits(received)).")
      }
    }
    // A file-syncing service working on the same folder may have left copies git knows
    // nothing of: said after every sync, as ls says it.
    ConflictsCommand.mentionCopies(context)
    return .success
  }

  /// `git fetch` of the remote. The few objects a sync brings are stored loose, each deflated
  /// by this process; at zlib's fastest level the new version of a list of 100,000 tasks
  /// (6 MiB) is stored in about half the time of git's default level, for a fifth more disk
  /// until `git gc` packs it (as the replay stores the merged list, see `mergedLists`).
  static func fetch(_ remote: String) -> [String] {
    ["-c", "core.looseCompression=1", "fetch", "-q", "--", remote]
  }

  static func commits(_ count: Int) -> String { count == 1 ? "1 commit" : "\(count) commits" }

  /// The remote branch to sync with: `local` (the upstream, else the branch's name) when the
  /// remote has it or has no branch yet, else the remote's default branch, else its only
  /// branch; a clone on `master` and one on `main` must meet on one branch, not each keep
  /// its own forever.
  static func sharedBranch(_ git: GitRepository, remote: String, local: String) -> String {
    guard let listing = git.value(["ls-remote", "--symref", "--", remote]) else { return local }
    var heads: [String] = []
    var defaultBranch: String?
    for line in listing.split(separator: "\n") {
      let fields = line.split(separator: "\t").map(String.init)
      guard fields.count == 2 else { continue }
      if fields[0].hasPrefix("ref: refs/heads/"), fields[1] == "HEAD" {
        defaultBranch = String(fields[0].dropFirst("ref: refs/heads/".count))
      } else if fields[1].hasPrefix("refs/heads/") {
        heads.append(String(fields[1].dropFirst("refs/heads/".count)))
      }
    }
    if heads.isEmpty || heads.contains(local) { return local }
    if let defaultBranch, heads.contains(defaultBranch) { return defaultBranch }
    return heads.count == 1 ? heads[0] : local
  }

  /// `git rev-list --count RANGE`, 0 when it fails.
  static func count(_ git: GitRepository, _ range: String) -> Int {
    Int(git.value(["rev-list", "--count", range, "--"]) ?? "") ?? 0
  }

  /// The remote to sync with: the branch's upstream remote, else `origin`, else the only one.
  static func remote(of branch: String, git: GitRepository, directory: String) throws(TodoError)
    -> String
  {
    if let remote = git.value(["config", "--get", "branch.\(branch).remote"]), !remote.isEmpty,
      remote != "."
    {
      return remote
    }
    let remotes = (git.value(["remote"]) ?? "").split(separator: "\n").map(String.init)
    if remotes.contains("origin") { return "origin" }
    guard let first = remotes.first else { throw .noRemote(directory) }
    return first
  }

  /// Paths (from the top of the work tree) that a merge left unmerged.
  static func conflictedFiles(_ git: GitRepository) -> [String] {
    (git.value(["diff", "--name-only", "--diff-filter=U"]) ?? "").split(separator: "\n").map(
      String.init)
  }

  /// Whether a file still holds a conflict marker line.
  static func hasMarkers(_ bytes: [UInt8]) -> Bool {
    bytes.split(separator: 0x0A, omittingEmptySubsequences: false).contains { line in
      line.starts(with: Array("<<<<<<< ".utf8)) || line.starts(with: Array(">>>>>>> ".utf8))
        || line.elementsEqual(Array("<<<<<<<".utf8)) || line.elementsEqual(Array(">>>>>>>".utf8))
    }
  }

  /// Runs `body` holding the store's locks on the list files.
  static func locked(
    _ lists: [String], context: CommandContext, _ body: () throws(TodoError) -> Void
  ) throws(TodoError) {
    try context.storing {
      try context.store.whileLocked(lists.filter { Posix.exists(Posix.dirname($0)) }) { try body() }
    }
  }

  /// Refuses to let git merge over a list file whose latest version is not committed: git
  /// would refuse the file, or put back its own version of it.
  static func requireSaved(_ lists: [String], git: GitRepository, top: String) throws(TodoError) {
    let paths = lists.filter(Posix.exists).map {
      Posix.realPath(Posix.dirname($0)) + "/" + Posix.basename($0)
    }.filter { $0.hasPrefix(top + "/") }
    guard !paths.isEmpty else { return }
    let dirty = git.value(["status", "--porcelain", "--"] + paths) ?? "?"
    guard dirty.isEmpty else {
      throw .gitFailed(
        action: "merge", detail: "a list file changed while it was being committed; sync again")
    }
  }

  /// Where sync keeps, during a merge the user must finish, each conflicted file's blob as the
  /// merge left it: a file that still reads so was not resolved, even without markers.
  static func recordPath(_ git: GitRepository, top: String) -> String? {
    guard let path = git.value(["rev-parse", "--git-path", "todo-sync-unresolved"]) else {
      return nil
    }
    return path.hasPrefix("/") ? path : top + "/" + path
  }

  /// The record: path from the top → blob id; empty when it was made for another merge (its
  /// first line names the commit being merged).
  static func readRecord(_ git: GitRepository, top: String, merging: String) -> [String: String] {
    guard let path = recordPath(git, top: top), let bytes = Posix.readFile(path) else { return [:] }
    let lines = bytes.split(separator: 0x0A)
    guard let first = lines.first, String(decoding: first, as: UTF8.self) == "merge " + merging
    else { return [:] }
    var record: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let tab = line.firstIndex(of: 0x09) else { continue }
      record[String(decoding: line[(tab + 1)...], as: UTF8.self)] = String(
        decoding: line[..<tab], as: UTF8.self)
    }
    return record
  }

  static func blob(_ git: GitRepository, top: String, _ file: String) -> String? {
    git.value(["hash-object", "--", top + "/" + file])
  }

  /// Concludes a merge in progress, whether a sync or the user's `git pull` began it: only a
  /// merge this tool completed, or one the user resolved, is committed.
  ///
  /// A conflicted file counts as resolved when it holds no markers and differs from what the
  /// merge left (what sync recorded, else either side's version: a merge driver that could
  /// not run leaves this machine's file as it was). A list file that is not resolved is
  /// merged again here, from the base and both sides git kept; the rest wait for the user.
  static func finishMerge(_ git: GitRepository, top: String, context: CommandContext)
    throws(TodoError)
  {
    guard let merging = git.value(["rev-parse", "-q", "--verify", "MERGE_HEAD"]) else { return }
    let record = readRecord(git, top: top, merging: merging)
    let todo = relative(context.settings.todoFile, top: top)
    let done = relative(context.settings.doneFile, top: top)
    var unsettled: [String] = []
    for file in conflictedFiles(git) {
      let bytes = Posix.readFile(top + "/" + file) ?? []
      if hasMarkers(bytes) {
        unsettled.append(file)
        continue
      }
      let stages = self.stages(git, file)
      let current = blob(git, top: top, file)
      let untouched =
        record[file].map { $0 == current } ?? stages.values.contains { $0 == current }
      if untouched {
        guard file == todo || file == done,
          let merged = remerge(git, stages, file: file, lists: (todo, done), merging: merging)
        else {
          unsettled.append(file)
          continue
        }
        try MergeCommand.write(merged.list.serialized(), to: top + "/" + file, store: context.store)
        guard merged.isClean else {
          unsettled.append(file)
          continue
        }
      }
      try git.require("add", ["add", "--", top + "/" + file])
    }
    // Settling a conflict about a task in one list may have removed its line from the other
    // (see `resolve`), which git does not count as part of the merge: the lists go in as
    // they are.
    let listPaths = [todo, done].compactMap { $0 }.map { top + "/" + $0 }.filter(Posix.exists)
    if unsettled.isEmpty, !listPaths.isEmpty {
      try git.require("add", ["add", "--"] + listPaths)
    }
    guard unsettled.isEmpty else {
      if let path = recordPath(git, top: top) {
        let lines = unsettled.compactMap { file in
          blob(git, top: top, file).map { $0 + "\t" + file + "\n" }
        }
        try MergeCommand.write(Array(("merge \(merging)\n" + lines.joined()).utf8), to: path, store: context.store)
      }
      throw .syncConflict(
        unsettled.map { file in
          let kind: UnsettledFile.Kind =
            !hasMarkers(Posix.readFile(top + "/" + file) ?? []) ? .whole : file == todo || file == done ? .list : .text
          return UnsettledFile(path: file, kind: kind)
        }, top: top)
    }
    try git.require("commit", ["commit", "-q", "--no-edit"])
    if let path = recordPath(git, top: top) { try? context.store.removeWhole(path) }
  }

  /// Makes both list files what the task-by-task merge of the two makes them, after git
  /// merged them without committing.
  ///
  /// Git runs the merge driver only on a file both sides changed, and takes a file one side
  /// changed from that side as it is: a task archived on one side stays in its done.txt
  /// though the other side deleted it. Each list is written as the merge of both files gives
  /// it (a file git merged cleanly is left as it is when its tasks are the same); a clean one
  /// is added, one with conflicts is left unmerged in the index, as git leaves a conflicted
  /// file, for `resolve` and the next sync.
  static func settleLists(
    _ git: GitRepository, top: String, merging: String, context: CommandContext
  ) throws(TodoError) {
    guard let todo = relative(context.settings.todoFile, top: top),
      let done = relative(context.settings.doneFile, top: top), todo != done,
      let bases = git.value(["merge-base", "--all", "HEAD", merging]), !bases.isEmpty,
      !bases.contains("\n")
    else { return }
    let sides = GitMergeSides(base: bases, ours: "HEAD", theirs: merging)
    guard let todoVersions = sides.versions(git, path: todo),
      let doneVersions = sides.versions(git, path: done)
    else { return }
    let merged = TodoMerge.merge(todo: todoVersions, done: doneVersions)
    let conflicted = Set(conflictedFiles(git))
    let atTop = GitRepository(directory: top, context: context)
    for (file, result) in [(todo, merged.todo), (done, merged.done)] {
      let path = top + "/" + file
      // Gone after the merge, or never there: nothing to settle.
      guard let current = Posix.readFile(path) else { continue }
      let isConflicted = conflicted.contains(file)
      if isConflicted {
        // Deleted on one side: the user decides, as before.
        let stages = self.stages(git, file)
        guard stages[2] != nil, stages[3] != nil else { continue }
      } else if TodoList(bytes: current).map(\.line) == result.list.map(\.line) {
        continue
      }
      try MergeCommand.write(result.list, to: path, store: context.store)
      if result.isClean {
        try git.require("add", ["add", "--", path])
      } else if !isConflicted {
        try markUnmerged(atTop, file: file, sides: sides)
      }
    }
  }

  /// Puts a file git merged cleanly back into the index unmerged, with its versions in the
  /// three commits as its stages, so that git, `resolve` and sync treat it as conflicted.
  ///
  /// - Parameter git: the repository, run from the top of the work tree (`file` is a path
  ///   from there).
  static func markUnmerged(_ git: GitRepository, file: String, sides: GitMergeSides)
    throws(TodoError)
  {
    var entries: [String] = []
    var idLength = 40
    for (stage, commit) in [(1, sides.base), (2, sides.ours), (3, sides.theirs)] {
      // MODE SP TYPE SP BLOB TAB PATH
      guard let entry = git.value(["ls-tree", commit, "--", file]),
        let head = entry.split(separator: "\t", maxSplits: 1).first
      else { continue }
      let fields = head.split(separator: " ")
      guard fields.count == 3 else { continue }
      idLength = fields[2].count
      entries.append("\(fields[0]) \(fields[2]) \(stage)\t\(file)")
    }
    let unstaged = "0 " + String(repeating: "0", count: idLength) + "\t" + file
    let input = ([unstaged] + entries).map { Array($0.utf8) + [0] }.joined()
    let outcome = git.run(["update-index", "-z", "--index-info"], input: Array(input))
    guard outcome.succeeded else {
      throw .gitFailed(action: "update-index", detail: outcome.reason)
    }
  }

  /// A file's path from the top of the work tree, or `nil` outside it.
  static func relative(_ file: String, top: String) -> String? {
    let path = Posix.realPath(Posix.dirname(file)) + "/" + Posix.basename(file)
    guard path.hasPrefix(top + "/") else { return nil }
    return String(path.dropFirst(top.count + 1))
  }

  /// The blob ids of a conflicted file's stages: 1 the base, 2 ours, 3 theirs.
  static func stages(_ git: GitRepository, _ file: String) -> [Int: String] {
    var stages: [Int: String] = [:]
    for line in (git.value(["ls-files", "-u", "--", ":/" + file]) ?? "").split(separator: "\n") {
      // MODE SP BLOB SP STAGE TAB PATH
      let fields = line.split(separator: "\t", maxSplits: 1)[0].split(separator: " ")
      guard fields.count == 3, let stage = Int(fields[2]) else { continue }
      stages[stage] = String(fields[1])
    }
    return stages
  }

  /// The task-by-task merge of a conflicted list file's stages; `nil` when a side is missing
  /// (deleted on one side: the user decides). todo.txt and done.txt are merged as one list,
  /// with the other file's versions in `HEAD`, the commit being merged and their merge base.
  static func remerge(
    _ git: GitRepository, _ stages: [Int: String], file: String,
    lists: (todo: String?, done: String?), merging: String
  ) -> MergeResult? {
    guard let oursID = stages[2], let theirsID = stages[3],
      let ours = git.bytes(["cat-file", "blob", oursID]),
      let theirs = git.bytes(["cat-file", "blob", theirsID])
    else { return nil }
    let base = stages[1].flatMap { git.bytes(["cat-file", "blob", $0]) } ?? []
    let versions = MergeVersions(
      base: TodoList(bytes: base), ours: TodoList(bytes: ours), theirs: TodoList(bytes: theirs))
    guard let todo = lists.todo, let done = lists.done, todo != done,
      let bases = git.value(["merge-base", "--all", "HEAD", merging]), !bases.isEmpty,
      !bases.contains("\n"),
      let other = GitMergeSides(base: bases, ours: "HEAD", theirs: merging).versions(
        git, path: file == todo ? done : todo)
    else {
      return TodoMerge.merge(base: versions.base, ours: versions.ours, theirs: versions.theirs)
    }
    // The other file is left as git merged it: taken from one side when only that side
    // changed it, so what that keeps is carried here.
    return TodoMerge.merge(
      versions, as: file == todo ? .todo : .done, other: other, otherMergedBy: .git)
  }

  /// Commits the tool's own files and nothing else: todo.txt, done.txt, .gitattributes and
  /// the notes and attachments folders (new files there too, so that no `note:` link
  /// dangles on another machine). Other files in the directory, and whatever the user had
  /// staged, stay out of the commit. Returns the summary, or `nil` when nothing changed, and
  /// whether git found nothing to commit at all (then the files are as committed).
  ///
  /// Runs twice in every sync, most often with nothing to commit: that case costs one git
  /// process (`status`), not one per path and two more to stage and compare.
  static func commitLocalChanges(
    _ git: GitRepository, top: String, context: CommandContext
  ) throws(TodoError) -> (summary: String?, clean: Bool) {
    var paths: [String] = []
    var missing: [String] = []
    let files = [context.settings.todoFile, context.settings.doneFile, top + "/.gitattributes"]
    let folders = [NoteCommand.directory(context.settings), AttachCommand.directory(context.settings)]
    for path in files + folders {
      let directory = Posix.realPath(Posix.dirname(path))
      guard directory == top || directory.hasPrefix(top + "/") else { continue }
      let full = directory + "/" + Posix.basename(path)
      if Posix.exists(full) { paths.append(full) } else { missing.append(full) }
    }
    // One that is gone still counts when git tracks it (or files in it): its deletion is
    // committed.
    if !missing.isEmpty, let listed = git.bytes(["ls-files", "-z", "--full-name", "--"] + missing) {
      let tracked = listed.split(separator: 0).map { top + "/" + String(decoding: $0, as: UTF8.self) }
      paths += missing.filter { path in tracked.contains { $0 == path || $0.hasPrefix(path + "/") } }
    }
    guard !paths.isEmpty else { return (nil, true) }
    if let status = git.bytes(["status", "--porcelain", "-z", "--untracked-files=all", "--"] + paths),
      status.isEmpty
    {
      return (nil, true)
    }
    try git.require("add", ["add", "-A", "--"] + paths)
    let numbers = git.value(["diff", "--cached", "--numstat", "HEAD", "--"] + paths)
      ?? git.value(["diff", "--cached", "--numstat", "--"] + paths) ?? ""
    guard !numbers.isEmpty else { return (nil, false) }
    let counts = numbers.split(separator: "\n").map { line -> String in
      let fields = line.split(separator: "\t", maxSplits: 2).map(String.init)
      guard fields.count == 3 else { return String(line) }
      return "\(Posix.basename(fields[2])) +\(fields[0]) -\(fields[1])"
    }
    let summary = counts.joined(separator: ", ")
    let message = "todo sync on \(hostName()): \(summary)"
    // `--only` (implied by the paths): what else is staged is left staged, not committed.
    try git.require("commit", ["commit", "-q", "-m", message, "--"] + paths)
    return (summary, false)
  }

  /// `gethostname(2)`, or `this machine`.
  static func hostName() -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return "this machine" }
    let name = String(
      decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return name.isEmpty ? "this machine" : name
  }
}
