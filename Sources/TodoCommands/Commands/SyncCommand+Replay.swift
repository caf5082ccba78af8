import TodoStore
import TodoTxt

extension SyncCommand {
  /// The paths of one side's changes between two commits, with each changed entry's modes
  /// and the new blob (`git diff-tree --raw`).
  struct TreeChange {
    var oldMode: String
    var newMode: String
    var newBlob: String
    /// `A`, `D`, `M`, `T` (a type change).
    var status: Character
  }

  /// Puts this machine's one unpushed commit on top of the remote's head, with the lists
  /// merged task by task in this process, instead of merging the remote's history into it.
  ///
  /// A merge commit carries a second new version of todo.txt beside the local commit's, and
  /// a push of 100,000 tasks spends most of its time packing and unpacking those versions;
  /// the replayed commit carries one, the merged list. Other machines fetch a linear history.
  /// The commit keeps its author, date and message; git writes the files that changed (the
  /// merged lists, the remote's other files) in one `reset --keep`, which checks every one of
  /// them before it writes any, as `git merge` does, under the lists' locks.
  ///
  /// Only the plain case is taken; anything else returns `nil` with nothing changed (a few
  /// new objects aside), and the caller merges as before: the lists' merge has a conflict
  /// (the merge then leaves it as it always did); there are several local commits, or the one
  /// is a merge, signed, in another encoding, or held by another ref (a tag, another branch,
  /// a stash); a merge, cherry-pick, revert or rebase is under way; a tracked file has
  /// changes; the local commit changed a file other than the lists that the remote changed
  /// too, or changed a submodule; a list was added, deleted, or is not a regular file on
  /// either side.
  ///
  /// - Parameters:
  ///   - top: the top of the work tree, where git is run.
  ///   - tracking: the remote-tracking branch, just fetched.
  ///   - branch: the branch checked out, the only ref that may hold the local commit.
  ///   - early: the local commit's versions of the lists, read while the fetch ran.
  /// - Returns: the commits the branch is then ahead of the remote (1, or 0 when the local
  ///   commit had nothing left to add); `nil` when it was not replayed.
  static func replay(
    top: String, onto tracking: String, branch: String, early: EarlySides?, context: CommandContext
  ) -> Int? {
    // Paths below are from the top of the work tree, as `ls-tree` and `update-index` read
    // them only when run there (the todo directory may be a folder of the repository).
    let git = GitRepository(directory: top, context: context)
    guard let todo = relative(context.settings.todoFile, top: top),
      let done = relative(context.settings.doneFile, top: top), todo != done,
      // One process for the four names.
      let found = git.value([
        "rev-parse", "--absolute-git-dir", tracking + "^{commit}", tracking + "^{tree}", "HEAD",
      ])?.split(separator: "\n").map(String.init), found.count == 4
    else { return nil }
    let (gitDirectory, theirs, theirsTree, ours) = (found[0], found[1], found[2], found[3])
    for busy in ["MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "rebase-merge", "rebase-apply"]
    where Posix.exists(gitDirectory + "/" + busy) {
      return nil
    }
    // What the early read took of the local commit is of this commit when the ids agree.
    let known = early?.ours == ours ? early : nil
    guard let head = known?.commit ?? git.bytes(["cat-file", "commit", "HEAD"]),
      let commit = ReplayedCommit(head),
      let base = git.value(["merge-base", "--all", "HEAD", theirs]), base == commit.parent,
      git.value(["for-each-ref", "--contains", ours, "--format=%(refname)"]) == "refs/heads/"
        + branch,
      git.bytes(["status", "--porcelain", "-z", "--untracked-files=no"])?.isEmpty == true,
      let local = known?.base == base ? known?.changes : changes(git, from: base, to: ours),
      let remote = changes(git, from: base, to: theirs)
    else { return nil }

    // The other files the local commit changed, as it left them; the remote's stay as they are.
    var entries: [String] = []
    let idLength = theirs.count
    for (path, change) in local where path != todo && path != done {
      guard remote[path] == nil, change.newMode != "160000", change.oldMode != "160000" else {
        return nil
      }
      entries.append(
        change.status == "D"
          ? "0 " + String(repeating: "0", count: idLength) + "\t" + path
          : change.newMode + " " + change.newBlob + "\t" + path)
    }
    for list in [todo, done] {
      // Changed as a regular file, or added on one side only (the first archive makes done.txt).
      let sides = [local[list], remote[list]].compactMap { $0 }
      for change in sides {
        guard change.status == "M" && change.oldMode == change.newMode || change.status == "A",
          change.newMode == "100644" || change.newMode == "100755"
        else { return nil }
      }
      if sides.contains(where: { $0.status == "A" }), sides.count > 1 { return nil }
    }
    if [todo, done].contains(where: { local[$0] != nil || remote[$0] != nil }) {
      guard
        let listEntries = mergedLists(
          git, lists: (todo, done), base: base, ours: ours, theirs: theirs, local: local, early: early)
      else { return nil }
      entries += listEntries
    }
    return commitAndCheckOut(
      git, entries: entries, gitDirectory: gitDirectory, commit: commit,
      theirs: (theirs, theirsTree), tracking: tracking, store: context.store)
  }

  /// The index entries (`MODE SP BLOB TAB PATH`) that make the remote's lists the task-by-task
  /// merge of the three commits' versions (a version a commit lacks is empty, as git hands a
  /// merge driver), the merged blobs written; `nil` when the merge has a conflict.
  ///
  /// - Parameter local: the local commit's changes, for the mode of a list only it added.
  static func mergedLists(
    _ git: GitRepository, lists: (todo: String, done: String), base: String, ours: String,
    theirs: String, local: [String: TreeChange], early: EarlySides?
  ) -> [String]? {
    // Each list's base, ours and theirs: the first two as read while the fetch ran, when they
    // are of these commits.
    let found: [[UInt8]?]
    var parsed: [TodoList?] = Array(repeating: nil, count: 6)
    if let early, early.base == base, early.ours == ours, early.paths == lists {
      guard let fetched = git.contents(of: [theirs + ":" + lists.todo, theirs + ":" + lists.done]),
        fetched.count == 2
      else { return nil }
      found = [early.contents[0], early.contents[1], fetched[0], early.contents[2], early.contents[3], fetched[1]]
      (parsed[0], parsed[1], parsed[3], parsed[4]) = (early.lists[0], early.lists[1], early.lists[2], early.lists[3])
    } else {
      let commits = [base, ours, theirs]
      let names = [lists.todo, lists.done].flatMap { path in commits.map { $0 + ":" + path } }
      guard let read = git.contents(of: names), read.count == 6 else { return nil }
      found = read
    }
    guard let modes = git.value(["ls-tree", theirs, "--", lists.todo, lists.done]) else { return nil }
    func versions(_ range: Range<Int>) -> MergeVersions {
      let lists = range.map { parsed[$0] ?? TodoList(bytes: found[$0] ?? []) }
      return MergeVersions(base: lists[0], ours: lists[1], theirs: lists[2])
    }
    let merged = TodoMerge.merge(todo: versions(0..<3), done: versions(3..<6))
    guard merged.todo.isClean, merged.done.isClean else { return nil }
    // MODE SP TYPE SP BLOB TAB PATH, one a line.
    var modeOf: [String: String] = [:]
    for line in modes.split(separator: "\n") {
      let parts = line.split(separator: "\t", maxSplits: 1)
      guard parts.count == 2, let mode = parts[0].split(separator: " ").first else { continue }
      modeOf[String(parts[1])] = String(mode)
    }
    var entries: [String] = []
    for (path, result, oursVersion, theirsVersion) in [
      (lists.todo, merged.todo, found[1], found[2]), (lists.done, merged.done, found[4], found[5]),
    ] {
      let bytes = result.list.serialized()
      if let theirsVersion, bytes == theirsVersion { continue }
      // The remote's mode, else the local commit's for a list only it has.
      let fileMode =
        theirsVersion != nil ? modeOf[path] : oursVersion != nil ? local[path]?.newMode : nil
      guard let fileMode else {
        // In neither side: stays out while nothing is in it.
        guard bytes.isEmpty, oursVersion == nil, theirsVersion == nil else { return nil }
        continue
      }
      // Stored with zlib's fastest level: git's default took 0.1 s of the sync for 6 MiB (a
      // list of 100,000 tasks), and the object goes out as a delta at once, so how well it is
      // deflated matters only on disk until `git gc` packs it. Stored raw it would stay 3.5
      // times larger there (6.2 MiB against 1.8 MiB) for every sync until then.
      guard fileMode == "100644" || fileMode == "100755",
        let blob = git.run(
          ["-c", "core.looseCompression=1", "hash-object", "-w", "--no-filters", "--stdin"],
          input: bytes
        ).value.nonEmptyObjectID
      else { return nil }
      entries.append(fileMode + " " + blob + "\t" + path)
    }
    return entries
  }

  /// The local commit's side of a replay, read on another core while `git fetch` runs: its
  /// parent's and its own versions of the two lists, as bytes and as lists. Reading and
  /// parsing two versions of a list of 100,000 tasks is a tenth of a second that the sync
  /// otherwise spends after the fetch, waiting.
  ///
  /// Nothing here is trusted: the replay uses these versions only when the commits it merges
  /// are the ones they were read from (``mergedLists``).
  struct EarlySides: Sendable {
    /// The local commit's parent and the local commit.
    var base: String
    var ours: String
    /// The lists' paths from the top of the work tree.
    var paths: (todo: String, done: String)
    /// todo.txt of the base and of ours, then done.txt's; `nil` where a commit lacks the file.
    var contents: [[UInt8]?]
    var lists: [TodoList]
    /// The local commit as git stores it (`cat-file commit`).
    var commit: [UInt8]
    /// The paths the local commit changed (``changes(_:from:to:)`` from `base`).
    var changes: [String: TreeChange]

    /// Starts reading, when this machine has one commit on top of what the remote had at the
    /// last fetch (`tracking`, its id): the commit a sync replays when the remote moved on.
    static func reading(
      top: String, tracking: String, context: CommandContext
    ) -> BackgroundWork<EarlySides?>? {
      guard let todo = relative(context.settings.todoFile, top: top),
        let done = relative(context.settings.doneFile, top: top), todo != done
      else { return nil }
      let git = GitRepository(directory: top, context: context)
      return BackgroundWork {
        guard let ids = git.value(["rev-parse", "HEAD", "HEAD^"])?.split(separator: "\n").map(String.init),
          ids.count == 2, ids[1] == tracking
        else { return nil }
        let (ours, base) = (ids[0], ids[1])
        let names = [base + ":" + todo, ours + ":" + todo, base + ":" + done, ours + ":" + done, ours]
        guard let found = git.contents(of: names), found.count == 5, let commit = found[4],
          let changes = SyncCommand.changes(git, from: base, to: ours)
        else { return nil }
        let contents = Array(found[0..<4])
        return EarlySides(
          base: base, ours: ours, paths: (todo, done), contents: contents,
          lists: contents.map { TodoList(bytes: $0 ?? []) }, commit: commit, changes: changes)
      }
    }
  }

  /// Writes the replayed commit (the remote's tree with `entries` in it, on the remote's head)
  /// and moves the branch, the index and the work tree to it; the remote's head itself when
  /// the local commit has nothing left to add. Returns the commits then ahead of the remote
  /// (1, or 0 for its head); `nil` when git refuses any step.
  ///
  /// - Parameter theirs: the remote's head and its tree.
  static func commitAndCheckOut(
    _ git: GitRepository, entries: [String], gitDirectory: String, commit: ReplayedCommit,
    theirs remote: (commit: String, tree: String), tracking: String, store: TodoStore
  ) -> Int? {
    let theirs = remote.commit
    // The new tree is built in an index of its own: the real one keeps describing HEAD and the
    // work tree until `reset` moves all three together.
    let indexPath = gitDirectory + "/todo-sync-replay-index"
    try? store.removeWhole(indexPath)
    defer { try? store.removeWhole(indexPath) }
    let scratch = git.adding(environment: ["GIT_INDEX_FILE": indexPath])
    guard scratch.run(["read-tree", theirs]).succeeded else { return nil }
    if !entries.isEmpty {
      let input = entries.map { Array($0.utf8) + [0] }.joined()
      guard scratch.run(["update-index", "-z", "--index-info"], input: Array(input)).succeeded
      else { return nil }
    }
    guard let tree = scratch.run(["write-tree"]).value.nonEmptyObjectID else { return nil }
    var target = theirs
    if tree != remote.tree {
      let author = git.adding(environment: [
        "GIT_AUTHOR_NAME": commit.authorName, "GIT_AUTHOR_EMAIL": commit.authorEmail,
        "GIT_AUTHOR_DATE": "@" + commit.authorDate,
      ])
      guard
        let made = author.run(["commit-tree", tree, "-p", theirs], input: commit.message).value
          .nonEmptyObjectID
      else { return nil }
      target = made
    }
    let moved = git.adding(environment: ["GIT_REFLOG_ACTION": "todo sync: onto \(tracking)"])
      .run(["reset", "-q", "--keep", target])
    return moved.succeeded ? (target == theirs ? 0 : 1) : nil
  }

  /// Each path one side changed between two commits, with its change; `nil` when git fails.
  static func changes(_ git: GitRepository, from old: String, to new: String) -> [String:
    TreeChange]?
  {
    guard
      let raw = git.bytes(["diff-tree", "-r", "-z", "--no-renames", "--no-commit-id", old, new])
    else { return nil }
    // `:OLDMODE NEWMODE OLDBLOB NEWBLOB STATUS` NUL PATH NUL, for each path.
    let fields = raw.split(separator: 0, omittingEmptySubsequences: false).map {
      String(decoding: $0, as: UTF8.self)
    }
    var changes: [String: TreeChange] = [:]
    var index = 0
    while index + 1 < fields.count {
      let head = fields[index].dropFirst().split(separator: " ")
      guard fields[index].hasPrefix(":"), head.count == 5, let status = head[4].first else {
        return nil
      }
      changes[fields[index + 1]] = TreeChange(
        oldMode: String(head[0]), newMode: String(head[1]), newBlob: String(head[3]), status: status
      )
      index += 2
    }
    return changes
  }

  /// What a replay needs of the local commit: its one parent, its author and its message.
  struct ReplayedCommit {
    var parent: String
    var authorName: String
    var authorEmail: String
    /// `SECONDS ZONE`, as git wrote it.
    var authorDate: String
    var message: [UInt8]

    /// `nil` for a commit that is not a plain one: a merge, a root, signed, or with an
    /// encoding of its own (git would write the copy differently).
    init?(_ bytes: [UInt8]) {
      guard
        let end = bytes.indices.first(where: {
          bytes[$0] == 0x0A && $0 + 1 < bytes.count && bytes[$0 + 1] == 0x0A
        })
      else { return nil }
      var parents: [String] = []
      var author: Substring?
      for line in String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\n") {
        if line.hasPrefix("parent ") {
          parents.append(String(line.dropFirst("parent ".count)))
        } else if line.hasPrefix("author ") {
          author = line.dropFirst("author ".count)
        } else if line.hasPrefix("tree ") || line.hasPrefix("committer ") {
          continue
        } else {
          // gpgsig, mergetag, encoding, or a continuation of one of them.
          return nil
        }
      }
      guard parents.count == 1, let author, let open = author.firstIndex(of: "<"),
        let close = author.lastIndex(of: ">"), open < close
      else { return nil }
      parent = parents[0]
      authorName = String(author[..<open]).trimmingSpaces()
      authorEmail = String(author[author.index(after: open)..<close])
      authorDate = String(author[author.index(after: close)...]).trimmingSpaces()
      message = Array(bytes[(end + 2)...])
      guard !authorDate.isEmpty else { return nil }
    }
  }
}

extension String {
  /// The string when it is an object id (40 or 64 hex digits), else `nil`: what git printed
  /// was something else (a warning).
  fileprivate var nonEmptyObjectID: String? {
    (count == 40 || count == 64) && allSatisfy(\.isHexDigit) ? self : nil
  }
}
