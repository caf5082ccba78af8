import TodoStore
import TodoTxt

/// The three commits of the merge git is running, found from inside its merge driver, so that
/// the driver of todo.txt can read done.txt's versions too (and the other way round): an
/// archived task is the same task in either file.
///
/// Git hands a driver only three temporary files. The commits are guessed from what git shows
/// at that moment — `GITHEAD_<commit>` in the environment of a merge (ours is `HEAD`, the base
/// their merge base), the last line of `rebase-merge/done` in a rebase (the commit being
/// replayed is theirs, its parent the base) — and taken only when the file's version in each
/// of them is, byte for byte, the file git handed over. Otherwise there is no answer and the
/// driver merges the one file as before.
struct GitMergeSides {
  var base: String
  var ours: String
  var theirs: String

  /// The commits whose versions of `path` (from the top of the work tree) are the driver's
  /// three files.
  static func find(
    _ git: GitRepository, path: String, files: (base: String, ours: String, theirs: String),
    environment: [String: String]
  ) -> GitMergeSides? {
    let heads = environment.keys.filter { $0.hasPrefix("GITHEAD_") }.map {
      String($0.dropFirst("GITHEAD_".count))
    }
    var sides: GitMergeSides?
    // A merge driver runs while the user (or `sync`) waits for the whole merge: each git
    // process here is a few milliseconds, so they are as few as can be (the merge base names
    // the commit it was asked about only if that is one; the blobs are asked for at once).
    if heads.count == 1, let bases = git.value(["merge-base", "--all", "HEAD", heads[0] + "^{commit}"]),
      !bases.isEmpty, !bases.contains("\n")
    {
      sides = GitMergeSides(base: bases, ours: "HEAD", theirs: heads[0])
    } else if heads.isEmpty,
      let done = git.value(["rev-parse", "--path-format=absolute", "--git-path", "rebase-merge/done"]),
      let bytes = Posix.readFile(done),
      let last = String(decoding: bytes, as: UTF8.self).split(separator: "\n").last,
      case let fields = last.split(separator: " "), fields.count >= 2,
      let theirs = git.value(["rev-parse", "-q", "--verify", fields[1] + "^{commit}"]),
      let base = git.value(["rev-parse", "-q", "--verify", theirs + "^1"])
    {
      sides = GitMergeSides(base: base, ours: "HEAD", theirs: theirs)
    }
    guard let sides,
      let handed = git.value(["hash-object", "--no-filters", "--", files.base, files.ours, files.theirs, "/dev/null"])?
        .split(separator: "\n").map(String.init), handed.count == 4,
      let expected = git.objectIDs(of: [sides.base, sides.ours, sides.theirs].map { $0 + ":" + path })
    else { return nil }
    // A commit without the file gave git's driver an empty one.
    guard Array(handed.prefix(3)) == expected.map({ $0 ?? handed[3] }) else { return nil }
    return sides
  }

  /// The versions of `path` in the three commits; a commit without the file has it empty.
  func versions(_ git: GitRepository, path: String) -> MergeVersions? {
    guard let found = git.contents(of: [base, ours, theirs].map { $0 + ":" + path }) else { return nil }
    let lists = found.map { TodoList(bytes: $0 ?? []) }
    return MergeVersions(base: lists[0], ours: lists[1], theirs: lists[2])
  }
}
