import TodoStore
/// `git-setup`: makes git merge todo.txt and done.txt with `merge` instead of line by line.
enum GitSetupCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "git-setup",
    abstract:
      "Register the task-by-task merge for todo.txt and done.txt in the todo directory's git repository.",
    discussion: """
      Adds lines for todo.txt and done.txt to the repository's .gitattributes and defines the \
      merge drivers they name in the repository's configuration (merge.todotxt.driver runs \
      'todo merge --todo-file TODO --done-file DONE --path %P %O %A %B', \
      merge.todotxt-done.driver the same, for done.txt, so that each reads the other file's \
      versions too), calling this program by its full path. Running it again changes nothing; 'sync' runs it when needed.
      """,
    nativeOnly: true, toleratesConflictMarkers: true
  ) { context, _ throws(TodoError) in
    let git = GitRepository(directory: context.settings.todoDirectory, context: context)
    let top = try git.topLevel()
    if try register(git, context: context) {
      if context.verbose { context.console.line("Registered the todo.txt merge driver in \(top).") }
    } else if context.verbose {
      context.console.line("The todo.txt merge driver is already registered in \(top).")
    }
    return .success
  }

  /// What keeps git from merging the lists with the drivers in this clone: `.gitattributes`
  /// travels with the repository but the drivers it names live in each clone's own
  /// configuration, so a fresh clone, or one whose driver program moved, merges the lists
  /// line by line under a plain `git pull` (where the task merge prevents conflicts and
  /// wrong merges). One sentence per problem; none outside a git work tree, and git is not
  /// run unless the directory is in one.
  static func problems(_ context: CommandContext) -> [String] {
    var directory = Posix.realPath(context.settings.todoDirectory)
    while !Posix.exists(directory + "/.git") {
      guard directory != "/", !directory.isEmpty else { return [] }
      directory = Posix.dirname(directory)
    }
    let attributes = String(decoding: Posix.readFile(directory + "/.gitattributes") ?? [], as: UTF8.self)
    let git = GitRepository(directory: context.settings.todoDirectory, context: context)
    var problems: [String] = []
    // What git will do is what it reads from every source of attributes (a .gitattributes
    // deeper down, .git/info/attributes, core.attributesFile), not the top file alone: one
    // of them can mark a list -merge or name another driver over git-setup's line.
    let lists = [(context.settings.todoFile, driver), (context.settings.doneFile, unionDriver)]
    for (file, name) in lists where attributes.contains("merge=\(name)") {
      guard let effective = mergeAttribute(of: file, git: git), effective != name else { continue }
      let how =
        switch effective {
        case "unset": "is marked -merge, so git leaves both versions for you to pick"
        case "set", "unspecified": "is merged line by line"
        default: "is merged with the driver \(effective)"
        }
      problems.append(
        "git: \(Posix.basename(file)) \(how), not task by task: an attribute in .git/info/attributes, "
          + "a .gitattributes nearer the file or core.attributesFile overrides .gitattributes' merge=\(name)")
    }
    for name in [driver, unionDriver] where attributes.contains("merge=\(name)") {
      guard let command = git.value(["config", "--get", "merge.\(name).driver"]), !command.isEmpty else {
        problems.append(
          "git: .gitattributes names the merge driver \(name), which this clone does not define, "
            + "so git merges the list line by line; run '\(context.programName) git-setup'")
        continue
      }
      if let program = program(of: command), !runnable(program, path: context.childEnvironment["PATH"]) {
        problems.append(
          "git: the merge driver \(name) runs \(program), which is not there or cannot run; run '\(context.programName) git-setup'")
      }
    }
    return problems
  }

  /// The `merge` attribute git gives `file` (`unset` for `-merge`, `unspecified`, `set`, or a
  /// driver's name), from all of git's sources of attributes; `nil` when git cannot say.
  static func mergeAttribute(of file: String, git: GitRepository) -> String? {
    guard let bytes = git.bytes(["check-attr", "-z", "merge", "--", file]) else { return nil }
    // `PATH NUL merge NUL VALUE NUL`.
    let fields = bytes.split(separator: 0, omittingEmptySubsequences: false)
    guard fields.count >= 3 else { return nil }
    return String(decoding: fields[2], as: UTF8.self)
  }

  /// Whether the shell git runs a driver with would find `program`: a path to an executable
  /// file, or a bare name found so in `PATH`.
  static func runnable(_ program: String, path: String?) -> Bool {
    if program.contains("/") { return Posix.isRegularFile(program) && Posix.isExecutable(program) }
    return ProcessRunner.which(program, path: path ?? "/usr/bin:/bin") != nil
  }

  /// The program a driver command runs: its first word, unquoted as `shellQuoted` quotes it.
  static func program(of command: String) -> String? {
    guard command.hasPrefix("'") else { return command.split(separator: " ").first.map(String.init) }
    var result = ""
    var rest = command.dropFirst()
    while let quote = rest.firstIndex(of: "'") {
      result += rest[..<quote]
      rest = rest[rest.index(after: quote)...]
      guard rest.hasPrefix("\\''") else { return result }
      result += "'"
      rest = rest.dropFirst(3)
    }
    return nil
  }

  /// The driver for todo.txt, and the one for done.txt (a union).
  static let driver = "todotxt"
  static let unionDriver = "todotxt-done"

  /// The command git runs for each driver: with the paths of both list files (from the top
  /// of the work tree) when both lie inside it, so that it merges them as one list.
  static func driverCommand(union: Bool, lists: (todo: String, done: String)? = nil) -> String {
    let program = GitRepository.shellQuoted(Posix.ownExecutable(fallback: "todo"))
    var paired = ""
    if let lists {
      paired =
        " --todo-file " + GitRepository.shellQuoted(lists.todo) + " --done-file "
        + GitRepository.shellQuoted(lists.done) + " --path %P"
    }
    return program + " merge" + (union ? " --union" : "") + paired + " %O %A %B"
  }

  /// Writes what is missing to .gitattributes and the repository's configuration; returns
  /// whether anything changed.
  ///
  /// - Parameter top: the top of the work tree with links resolved, when the caller has it
  ///   (`sync` runs this every time: each git process it saves is a few milliseconds).
  static func register(_ git: GitRepository, top knownTop: String? = nil, context: CommandContext) throws(TodoError)
    -> Bool
  {
    let top: String
    if let knownTop { top = knownTop } else { top = Posix.realPath(try git.topLevel()) }
    var changed = false

    // .gitattributes at the top of the work tree, one line per file that lies inside it.
    let attributesPath = top + "/.gitattributes"
    let existing = Posix.readFile(attributesPath) ?? []
    var text = String(decoding: existing, as: UTF8.self)
    let lines = Set(
      text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map { $0.trimmingSpaces() })
    var added: [String] = []
    var relatives: [String] = []
    for (file, name) in [
      (context.settings.todoFile, driver), (context.settings.doneFile, unionDriver),
    ] {
      let directory = Posix.realPath(Posix.dirname(file))
      guard directory == top || directory.hasPrefix(top + "/") else { continue }
      let relative = String((directory + "/" + Posix.basename(file)).dropFirst(top.count))
      relatives.append(String(relative.dropFirst()))
      // A pattern ends at a space; `?` stands for it.
      let pattern = relative.replacingSpaces()
      let line = "\(pattern) merge=\(name)"
      if !lines.contains(line) { added.append(line) }
    }
    if !added.isEmpty {
      if !text.isEmpty, !text.hasSuffix("\n") { text += "\n" }
      text += added.map { $0 + "\n" }.joined()
      try MergeCommand.write(Array(text.utf8), to: attributesPath, store: context.store)
      changed = true
    }

    // The drivers, in the repository's own configuration; each reads the other file's
    // versions too, for a task archived is the same task in either file.
    let lists = relatives.count == 2 && relatives[0] != relatives[1] ? (relatives[0], relatives[1]) : nil
    let settings = [
      ("merge.\(driver).name", "todo.txt, merged task by task"),
      ("merge.\(driver).driver", driverCommand(union: false, lists: lists)),
      // done.txt is merged three-way too: a union cannot tell a line deleted on one side
      // (a task moved back to todo.txt) from one added on the other.
      ("merge.\(unionDriver).name", "done.txt, merged task by task"),
      ("merge.\(unionDriver).driver", driverCommand(union: false, lists: lists)),
    ]
    // Read in one process: `KEY VALUE` lines (section and key names come back in lower case,
    // as they are written here).
    var current: [String: String] = [:]
    for line in (git.value(["config", "--local", "--get-regexp", "^merge\\.todotxt"]) ?? "").split(separator: "\n") {
      guard let space = line.firstIndex(of: " ") else { continue }
      current[String(line[..<space])] = String(line[line.index(after: space)...])
    }
    for (key, value) in settings where current[key] != value {
      try git.require("config", ["config", "--local", key, value])
      changed = true
    }

    // The store's lock files, journals and temporary files are this machine's business:
    // kept out of `git status` and of every commit, in the repository's own exclude file.
    if let exclude = git.value(["rev-parse", "--git-path", "info/exclude"]) {
      let path = exclude.hasPrefix("/") ? exclude : top + "/" + exclude
      let old = Posix.readFile(path) ?? []
      var text = String(decoding: old, as: UTF8.self)
      let present = Set(text.split(separator: "\n").map(String.init))
      let wanted = [".*.txt.lock", ".*.txt.journal", ".*.txt.journal.new", ".*.txt.new", ".todo-conflicts/"]
      let missing = wanted.filter { !present.contains($0) }
      if !missing.isEmpty {
        if !text.isEmpty, !text.hasSuffix("\n") { text += "\n" }
        text += missing.map { $0 + "\n" }.joined()
        guard Posix.makeDirectories(Posix.dirname(path)) else { throw .cannotWriteFile(path) }
        try MergeCommand.write(Array(text.utf8), to: path, store: context.store)
        changed = true
      }
    }
    return changed
  }
}

extension String {
  /// The path with each space written as `?`, for a .gitattributes pattern.
  fileprivate func replacingSpaces() -> String {
    split(separator: " ", omittingEmptySubsequences: false).joined(separator: "?")
  }
}
