import TodoTxt

/// The listing actions: `list`, `listall`, `listpri`, `listfile`, `listcon`, `listproj`.
enum ListCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "list", aliases: ["ls"], usage: "[TERM...]",
    abstract: "List the tasks of todo.txt that match every TERM.",
    discussion: """
      A TERM is a case-insensitive basic regular expression (as grep's); a TERM starting with \
      - hides the tasks that match the rest of it. Tasks are numbered by their line and sorted \
      by priority, then text.
      """,
    arguments: [.term]
  ) { context, arguments throws(TodoError) in
    let options = try ListOptions.parse(arguments, mode: context.settings.mode)
    let native = context.settings.mode == .native ? options : nil
    try listFile(context.settings.todoFile, terms: options.terms, options: native, context: context)
    return .success
  }

  /// Lists one file (`_list`): padding from its line count, summary with its prefix.
  ///
  /// - Parameter options: the native `ls` options (hiding, `--all`, `--sort`), or `nil` for
  ///   todo.sh's listing.
  static func listFile(
    _ path: String, terms: [String], post: ListEngine.PostFilter? = nil, options: ListOptions? = nil,
    context: CommandContext
  ) throws(TodoError) {
    let engine = ListEngine(context: context)
    let list = try context.readList(path)
    if let options, QueryListing.isNeeded(options) {
      let source = QueryListing.Source(path: path, list: list)
      return try QueryListing.list([source], terms: terms, post: post, options: options, context: context)
    }
    let lines = engine.physicalLines(list)
    let native = try options.map { options throws(TodoError) in try NativeListing(options, list: list, context: context) }
    let output = engine.format(
      lines, padding: String(lines.count).count - (lines.isEmpty ? 1 : 0), terms: terms, post: post, native: native)
    engine.print(output, prefixFile: path)
  }
}

enum ListAllCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "listall", aliases: ["lsa"], usage: "[TERM...]",
    abstract: "List the tasks of todo.txt and done.txt together; done.txt's are numbered 0.",
    arguments: [.term]
  ) { context, arguments throws(TodoError) in
    if context.settings.mode == .native, case var options = try ListOptions.parse(arguments, mode: .native),
      QueryListing.isNeeded(options)
    {
      options.showAll = true
      let sources = try [context.settings.todoFile, context.settings.doneFile].map { path throws(TodoError) in
        QueryListing.Source(path: path, list: try context.readList(path))
      }
      try QueryListing.list(sources, terms: options.terms, options: options, context: context)
      return .success
    }
    let engine = ListEngine(context: context)
    let todoLines = engine.physicalLines(try context.readList(context.settings.todoFile))
    let doneLines = engine.physicalLines(try context.readList(context.settings.doneFile))
    let total = todoLines.count
    let padding = total == 0 ? 0 : String(total).count
    // The two files as `cat` joins them: a todo.txt without a final newline runs into done.txt.
    var joined = try rawBytes(context.settings.todoFile, context) + rawBytes(context.settings.doneFile, context)
    if context.settings.mode == .native { joined = (todoLines.all + doneLines.all).flatMap { $0 + [0x0A] } }
    let lines = engine.physicalLines(TodoList(bytes: joined))
    let renumber = ListEngine.PostFilter(
      command: "awk -v TOTAL=\(total) -v PADDING=\(padding) '{ $1 = sprintf(\"%\" PADDING \"d\", ($1 > TOTAL ? 0 : $1)); print }' "
    ) { items in
      items.map { item in
        // awk rebuilds the line from its fields: runs of blanks become one space.
        let fields = item.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
        guard let first = fields.first else { return item }
        let number = Int(String(decoding: first, as: UTF8.self)) ?? 0
        let shown = String(number > total ? 0 : number)
        let padded = [UInt8](repeating: 0x20, count: max(0, padding - shown.count)) + Array(shown.utf8)
        return Array(([padded] + fields.dropFirst().map(Array.init)).joined(separator: [0x20]))
      }
    }
    var quiet = context.settings
    quiet["TODOTXT_VERBOSE"] = "0"
    let output = ListEngine(context: context.with(settings: quiet)).format(
      lines, padding: padding, terms: arguments, post: renumber)
    for line in output.lines.all { context.console.line(line) }
    guard context.verbose else { return .success }
    var plain = quiet
    plain["TODOTXT_PLAIN"] = "1"
    let counter = ListEngine(context: context.with(settings: plain))
    let shownTodo = counter.format(todoLines, padding: 1, terms: arguments).lines.count
    let shownDone = counter.format(doneLines, padding: 1, terms: arguments).lines.count
    context.console.line("--")
    context.console.line("\(context.todoPrefix): \(shownTodo) of \(total) tasks shown")
    context.console.line(
      "\(CommandContext.prefix(of: context.settings.doneFile)): \(shownDone) of \(doneLines.count) tasks shown")
    context.console.line("total \(shownTodo + shownDone) of \(total + doneLines.count) tasks shown")
    return .success
  }

  static func rawBytes(_ path: String, _ context: CommandContext) throws(TodoError) -> [UInt8] {
    try context.readList(path).serialized()
  }
}

enum ListPriorityCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "listpri", aliases: ["lsp"], usage: "[PRIORITIES] [TERM...]",
    abstract: "List the tasks with a priority, or with the given priorities (A, A-C, ABR-Y).",
    arguments: [.priorities, .term]
  ) { context, arguments throws(TodoError) in
    let options = context.settings.mode == .native ? try ListOptions.parse(arguments, mode: .native) : nil
    var terms = options?.terms ?? arguments
    var priorities = "A-Z"
    if let first = terms.first, isPrioritySelection(first) {
      priorities = first.uppercased()
      terms.removeFirst()
    }
    let pattern = "^ *[0-9]\\+ ([\(priorities)]) "
    let regex = BasicRegex(pattern)
    let post = ListEngine.PostFilter(command: "grep '\(pattern)'") { items in
      guard let regex else { return [] }
      return items.filter { regex.matches($0) }
    }
    try ListCommand.listFile(context.settings.todoFile, terms: terms, post: post, options: options, context: context)
    return .success
  }

  /// One letter, a range `x-y` (either case), or upper-case letters and dashes that start and
  /// end with a letter.
  static func isPrioritySelection(_ text: String) -> Bool {
    let b = Array(text.utf8)
    let isLetter: (UInt8) -> Bool = { (65...90).contains($0) || (97...122).contains($0) }
    let isUpper: (UInt8) -> Bool = { (65...90).contains($0) }
    if b.count == 1 { return isLetter(b[0]) }
    if b.count == 3, isLetter(b[0]), b[1] == UInt8(ascii: "-"), isLetter(b[2]) { return true }
    guard b.count >= 2, let first = b.first, let last = b.last, isUpper(first), isUpper(last) else { return false }
    return b.allSatisfy { isUpper($0) || $0 == UInt8(ascii: "-") }
  }
}

enum ListFileCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "listfile", aliases: ["lf"], usage: "[SRC [TERM...]]",
    abstract: "List the files of the todo directory, or the tasks of one of them.",
    arguments: [.fileName, .term]
  ) { context, arguments throws(TodoError) in
    let directory = context.settings.todoDirectory
    guard let name = arguments.first else {
      if context.verbose { context.console.line("Files in the todo.txt directory:") }
      for file in Posix.listDirectory(directory) ?? [] where file.hasSuffix(".txt") && !file.hasPrefix(".") {
        context.console.line(file)
      }
      return .success
    }
    let path: String
    if name.hasPrefix("/"), Posix.isRegularFile(name) {
      path = name
    } else if Posix.isRegularFile(directory + "/" + name) {
      path = directory + "/" + name
    } else if Posix.isRegularFile(name) {
      path = name
    } else if Posix.isRegularFile(directory + "/" + name + ".txt") {
      path = directory + "/" + name + ".txt"
    } else {
      throw .fileMissing(name)
    }
    try ListCommand.listFile(path, terms: Array(arguments.dropFirst()), context: context)
    return .success
  }
}

enum ListContextsCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "listcon", aliases: ["lsc"], usage: "[TERM...]",
    abstract: "List the @contexts used in todo.txt (of the tasks matching every TERM).",
    arguments: [.term]
  ) { context, arguments throws(TodoError) in
    try WordsWithSigil.list(UInt8(ascii: "@"), terms: arguments, context: context)
    return .success
  }
}

enum ListProjectsCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "listproj", aliases: ["lsprj"], usage: "[TERM...]",
    abstract: "List the +projects used in todo.txt (of the tasks matching every TERM).",
    arguments: [.term]
  ) { context, arguments throws(TodoError) in
    try WordsWithSigil.list(UInt8(ascii: "+"), terms: arguments, context: context)
    return .success
  }
}

/// `listcon` and `listproj`: the words carrying a sigil, as todo.sh extracts them.
enum WordsWithSigil {
  static func list(_ sigil: UInt8, terms: [String], context: CommandContext) throws(TodoError) {
    let settings = context.settings
    var files = [settings.todoFile]
    let sourceVar = settings.value("TODOTXT_SOURCEVAR")
    if !sourceVar.isEmpty {
      let result = context.runner.run(
        ["bash", "-c", "eval \"FILE=$1\"; printf '%s\\0' \"${FILE[@]}\"", settings.programPath, sourceVar],
        environment: context.childEnvironment, captureOutput: true)
      files = result.output.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }
    var joined: [UInt8] = []
    for file in files { joined += (try? context.store.read(file).serialized()) ?? [] }
    var lines = ListEngine(context: context).physicalLines(TodoList(bytes: joined))
    for term in terms {
      let exclude = term.hasPrefix("-")
      let matcher = TermMatcher(exclude ? String(term.dropFirst()) : term)
      lines = lines.filter { matcher.matches($0) != exclude }
    }
    let before = settings.value("TODOTXT_SIGIL_BEFORE_PATTERN")
    let after = settings.value("TODOTXT_SIGIL_AFTER_PATTERN")
    let valid = settings.variables["TODOTXT_SIGIL_VALID_PATTERN"] ?? ".*"
    let stripBefore = before.isEmpty ? nil : BasicRegex("^" + before)
    let stripAfter = after.isEmpty ? nil : BasicRegex(after + "$")
    let validRegex = valid == ".*" ? nil : BasicRegex("^" + (sigil == UInt8(ascii: "+") ? "+" : "@") + valid + "$")
    var words = Set<[UInt8]>()
    for line in lines.all {
      for token in line.split(separator: 0x20) {
        // grep -o '[^ ]*SIGIL[^ ]\+': a space-separated token holding the sigil with at least
        // one more character after it.
        var word = Array(token)
        guard hasSigilFollowedByMore(word, sigil) else { continue }
        if let stripBefore { word = stripBefore.replacingAll(in: word, with: [], global: false) }
        if let stripAfter { word = stripAfter.replacingAll(in: word, with: [], global: false) }
        if let validRegex {
          guard validRegex.matches(word) else { continue }
        } else {
          guard word.first == sigil else { continue }
        }
        words.insert(word)
      }
    }
    for word in words.sorted(by: { $0.lexicographicallyPrecedes($1) }) { context.console.line(word) }
  }

  static func hasSigilFollowedByMore(_ word: [UInt8], _ sigil: UInt8) -> Bool {
    for index in word.indices.dropLast() where word[index] == sigil { return true }
    return false
  }
}

extension CommandContext {
  /// A context like this one with other settings (for todo.sh's `VAR=x _format` calls).
  func with(settings: Settings) -> CommandContext {
    CommandContext(settings: settings, console: console, clock: clock, store: store, input: input)
  }
}
