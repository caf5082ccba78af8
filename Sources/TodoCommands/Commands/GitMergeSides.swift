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
    if heads.count == 1, let theirs = git.value(["rev-parse", "-q", "--verify", heads[0] + "^{commit}"]),
      let bases = git.value(["merge-base", "--all", "HEAD", theirs]),
      !bases.isEmpty, !bases.contains("\n")
    {
      sides = GitMergeSides(base: bases, ours: "HEAD", theirs: theirs)
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
      let handed = git.value(["hash-object", "--no-filters", "--", files.base, files.ours, files.theirs]),
      let empty = git.value(["hash-object", "--no-filters", "--", "/dev/null"])
    else { return nil }
    let expected = [sides.base, sides.ours, sides.theirs].map {
      git.value(["rev-parse", "-q", "--verify", $0 + ":" + path]) ?? empty
    }
    guard handed.split(separator: "\n").map(String.init) == expected else { return nil }
    return sides
  }

  /// The versions of `path` in the three commits; a commit without the file has it empty.
  func versions(_ git: GitRepository, path: String) -> MergeVersions? {
    var lists: [TodoList] = []
    for commit in [base, ours, theirs] {
      if git.value(["rev-parse", "-q", "--verify", commit + ":" + path]) == nil {
        lists.append(TodoList(bytes: []))
        continue
      }
      guard let bytes = git.bytes(["cat-file", "blob", commit + ":" + path]) else { return nil }
      lists.append(TodoList(bytes: bytes))
    }
    return MergeVersions(base: lists[0], ours: lists[1], theirs: lists[2])
  }
}
