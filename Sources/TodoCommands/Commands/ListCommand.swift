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

extension CommandContext {
  /// A context like this one with other settings (for todo.sh's `VAR=x _format` calls), for
  /// a listing only: it has no command words of its own and checks no snapshot.
  func with(settings: Settings) -> CommandContext {
    CommandContext(settings: settings, console: console, clock: clock, store: store, input: input)
  }
}
