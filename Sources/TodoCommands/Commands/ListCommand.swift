import TodoTxt

/// The listing actions: `list`, `listall`, `listpri`, `listfile`, `listcon`, `listproj`.
enum ListCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "list", aliases: ["ls"], usage: "[TERM...]",
    abstract: "List the tasks of todo.txt that match every TERM.",
    discussion: """
      A TERM is text the task must contain, ignoring case, every character standing for \
      itself (under the name todo.sh: a case-insensitive basic regular expression, as grep's, \
      over the numbered line); a TERM starting with - hides the tasks that match the rest of \
      it. Tasks are numbered by their line and sorted as todo.sh sorts them, by the whole \
      line ignoring case: so by priority, then creation date, then text.
      """,
    arguments: [.term], options: OptionSpec.listing, termsAreWords: true
  ) { context, parsed throws(TodoError) in
    let arguments = try parsed.text(0)
    let native = context.settings.policy.readableListing ? ListOptions(context.invocation, terms: arguments) : nil
    try listFile(context.settings.todoFile, terms: arguments, options: native, context: context)
    if context.settings.policy.readableListing { ConflictsCommand.mentionCopies(context) }
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
    if let options, QueryListing.isNeeded(options) {
      let source = QueryListing.Sources(path: path, bytes: try context.readBytes(path))
      return try QueryListing.list(source, terms: terms, post: post, options: options, context: context)
    }
    // A listing needs the file's lines and nothing of a TodoList's per-line state.
    let (lines, facts) = try context.readLines(path, raw: !context.settings.policy.readableListing)
    let native = try options.map { options throws(TodoError) in
      var native = try NativeListing(options, lines: lines, context: context)
      native.facts = facts
      return native
    }
    let output = engine.format(
      lines, padding: String(lines.count).count - (lines.isEmpty ? 1 : 0), terms: terms, post: post, native: native)
    engine.print(output, prefixFile: path)
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
    // Under the name todo a TERM is a word, as for ls; under todo.sh's name a grep pattern,
    // and grep, sed and sort run in the user's locale.
    let native = settings.policy.wordSearchTerms
    let locale = native ? nil : SystemLocale(settings)
    var notices: [SearchNotice] = []
    for (position, term) in terms.enumerated() {
      let exclude = term.hasPrefix("-")
      let pattern = exclude ? String(term.dropFirst()) : term
      if native {
        let word = WordMatcher(pattern)
        lines = lines.filter { word.matches($0) != exclude }
        continue
      }
      let matcher = TermMatcher(pattern, locale: locale)
      if let notice = matcher.notice {
        notices.append(notice)
        lines = Lines([])
        continue
      }
      var heldBack = false
      lines = lines.filter { line in
        guard matcher.matches(line) != exclude else { return false }
        // The first grep holds back a line that is no text in a multibyte locale.
        if position == 0, let locale, locale.hasEncodingError(line) {
          heldBack = true
          return false
        }
        return true
      }
      if heldBack { notices.append(.binaryFileMatches) }
    }
    for notice in notices { context.console.errorLine(notice.message) }
    let before = settings.value("TODOTXT_SIGIL_BEFORE_PATTERN")
    let after = settings.value("TODOTXT_SIGIL_AFTER_PATTERN")
    let valid = settings.variables["TODOTXT_SIGIL_VALID_PATTERN"] ?? ".*"
    let stripBefore = before.isEmpty ? nil : BasicRegex("^" + before, locale: locale)
    let stripAfter = after.isEmpty ? nil : BasicRegex(after + "$", locale: locale)
    let validRegex =
      valid == ".*" ? nil : BasicRegex("^" + (sigil == UInt8(ascii: "+") ? "+" : "@") + valid + "$", locale: locale)
    var words = Set<[UInt8]>()
    for line in lines.all {
      for token in line.split(separator: 0x20) {
        // grep -o '[^ ]*SIGIL[^ ]\+': a space-separated token holding the sigil with at least
        // one more character after it; in a multibyte locale `[^ ]` matches no byte that is
        // not a character, so such bytes split the token.
        let token = Array(token)
        let runs = locale.map { locale in token.withUnsafeBufferPointer { locale.validRuns($0) } } ?? [0..<token.count]
        for run in runs {
          var word = Array(token[run])
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
    }
    // sort -u: in the locale's collation (bytes in the C locale), a word that collates
    // equal to the one before it left out.
    let sorted = words.sorted { left, right in
      let order = locale?.collate(left, right) ?? 0
      return order != 0 ? order < 0 : left.lexicographicallyPrecedes(right)
    }
    var previous: [UInt8]?
    for word in sorted {
      if let previous, let locale, locale.collate(previous, word) == 0 { continue }
      context.console.line(word)
      previous = word
    }
  }

  static func hasSigilFollowedByMore(_ word: [UInt8], _ sigil: UInt8) -> Bool {
    for index in word.indices.dropLast() where word[index] == sigil { return true }
    return false
  }
}

extension CommandContext {
  /// A context like this one with other settings (for todo.sh's `VAR=x _format` calls), for
  /// a listing only: it has no command words of its own and checks no snapshot.
  func with(settings: Settings) -> CommandContext {
    CommandContext(settings: settings, console: console, clock: clock, store: store, input: input)
  }
}
