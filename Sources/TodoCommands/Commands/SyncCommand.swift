@preconcurrency import Glibc

/// `sync`: the todo directory as a git work tree, kept the same on every machine.
///
/// The order of work never puts a change made here at risk: local changes are committed
/// first, then the remote's are fetched and merged with the task-by-task merge driver, then
/// the result is pushed. When the remote cannot be reached the commit stays for the next
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
      Without a network the commit stays and goes out with the next sync. When the same task \
      was changed on both sides in ways that do not fit, both versions are left between \
      <<<<<<< and >>>>>>> markers: keep the right lines, remove the markers, and sync again.
      """,
    nativeOnly: true
  ) { context, arguments throws(TodoError) in
    guard arguments.isEmpty else { throw spec.usageError }
    let directory = context.settings.todoDirectory
    let git = GitRepository(directory: directory, context: context)
    let top = GitRepository.realPath(try git.topLevel())
    if try GitSetupCommand.register(git, context: context), context.verbose {
      context.console.line("Registered the todo.txt merge driver in \(top).")
    }
    try finishMerge(git, top: top)
    guard let branch = git.value(["symbolic-ref", "--short", "-q", "HEAD"]), !branch.isEmpty else {
      throw .gitFailed(action: "sync", detail: "no branch is checked out in \(top)")
    }
    if let summary = try commitLocalChanges(git, top: top, context: context), context.verbose {
      context.console.line("Committed: \(summary)")
    }

    let remote = try remote(of: branch, git: git, directory: directory)
    let upstream = git.value(["config", "--get", "branch.\(branch).merge"]).flatMap {
      $0.isEmpty ? nil : $0
    }
    var remoteBranch = upstream ?? branch
    if remoteBranch.hasPrefix("refs/heads/") { remoteBranch.removeFirst("refs/heads/".count) }
    let tracking = "refs/remotes/\(remote)/\(remoteBranch)"
    let name = "\(remote)/\(remoteBranch)"

    var received = 0
    var sent = 0
    var attempt = 0
    while true {
      attempt += 1
      let fetched = git.run(["fetch", "-q", remote])
      guard fetched.succeeded else { throw .offline(remote: remote, detail: fetched.reason) }
      let hasTracking = git.value(["rev-parse", "-q", "--verify", tracking]) != nil
      let hasHead = git.value(["rev-parse", "-q", "--verify", "HEAD"]) != nil
      if hasTracking {
        let incoming = count(git, hasHead ? "HEAD..\(tracking)" : tracking)
        if incoming > 0 {
          let merged = git.run([
            "merge", "-q", "--no-edit", "--allow-unrelated-histories", "-m",
            "Merge \(name) (todo sync)", tracking,
          ])
          guard merged.succeeded else {
            let files = conflictedFiles(git)
            if !files.isEmpty { throw .syncConflict(files.map(Posix.basename)) }
            throw .gitFailed(action: "merge", detail: merged.reason)
          }
          received += incoming
        }
      }
      guard git.value(["rev-parse", "-q", "--verify", "HEAD"]) != nil else { break }
      let outgoing = count(git, hasTracking ? "\(tracking)..HEAD" : "HEAD")
      guard outgoing > 0 else { break }
      var push = ["push", "-q"]
      if upstream == nil { push.append("-u") }
      push += [remote, "HEAD:refs/heads/\(remoteBranch)"]
      let pushed = git.run(push)
      if pushed.succeeded {
        sent += outgoing
        break
      }
      // Someone pushed in between: fetch and merge again. Anything else is the remote's answer.
      let again = git.run(["fetch", "-q", remote])
      guard again.succeeded else { throw .offline(remote: remote, detail: again.reason) }
      let movedOn = !git.run(["merge-base", "--is-ancestor", tracking, "HEAD"]).succeeded
      guard movedOn, attempt < 5 else { throw .gitFailed(action: "push", detail: pushed.reason) }
    }
    if context.verbose {
      if sent == 0, received == 0 {
        context.console.line("Already in sync with \(name).")
      } else {
        context.console.line(
          "Synced with \(name): sent \(commits(sent)), received \(commits(received)).")
      }
    }
    return .success
  }

  static func commits(_ count: Int) -> String { count == 1 ? "1 commit" : "\(count) commits" }

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

  /// Concludes a merge that an earlier sync left to the user, once no file holds markers.
  static func finishMerge(_ git: GitRepository, top: String) throws(TodoError) {
    guard git.value(["rev-parse", "-q", "--verify", "MERGE_HEAD"]) != nil else { return }
    let files = conflictedFiles(git)
    let unsettled = files.filter { hasMarkers(Posix.readFile(top + "/" + $0) ?? []) }
    guard unsettled.isEmpty else { throw .syncConflict(unsettled.map(Posix.basename)) }
    for file in files { try git.require("add", ["add", "--", top + "/" + file]) }
    try git.require("commit", ["commit", "-q", "--no-edit"])
  }

  /// Stages the todo and done files and every change to files git tracks in the todo directory,
  /// and commits them; returns the summary, or `nil` when nothing changed.
  static func commitLocalChanges(
    _ git: GitRepository, top: String, context: CommandContext
  ) throws(TodoError) -> String? {
    let attributes = top + "/.gitattributes"
    var paths = [GitRepository.realPath(context.settings.todoDirectory)]
    for file in [context.settings.todoFile, context.settings.doneFile, attributes]
    where Posix.isRegularFile(file) {
      let directory = GitRepository.realPath(Posix.dirname(file))
      guard directory == top || directory.hasPrefix(top + "/") else { continue }
      paths.append(directory + "/" + Posix.basename(file))
    }
    try git.require("add", ["add", "-u", "--"] + [paths[0]])
    if paths.count > 1 { try git.require("add", ["add", "--"] + paths.dropFirst()) }
    let numbers = git.value(["diff", "--cached", "--numstat", "--"] + paths) ?? ""
    guard !numbers.isEmpty else { return nil }
    let counts = numbers.split(separator: "\n").map { line -> String in
      let fields = line.split(separator: "\t", maxSplits: 2).map(String.init)
      guard fields.count == 3 else { return String(line) }
      return "\(Posix.basename(fields[2])) +\(fields[0]) -\(fields[1])"
    }
    let summary = counts.joined(separator: ", ")
    let message = "todo sync on \(hostName()): \(summary)"
    try git.require("commit", ["commit", "-q", "-m", message, "--"] + paths)
    return summary
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
