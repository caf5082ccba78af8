import TodoStore
import TodoTxt

/// `find QUERY`: `ls` with a query instead of search terms.
enum FindCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "find", usage: "QUERY...",
    abstract: "List the tasks of todo.txt that match a query.",
    discussion: """
      The words form one query (see QUERY LANGUAGE in todo(1)): +project, @context, pri:A, \
      pri>=B, due:<today, t:>today, created:>-2w, completed:2026-11, done, open, has:due, \
      key:value, /regex/, plain words; juxtaposition is and, or, not or -, parentheses. Quote \
      it for the shell: todo find '+Kitchen due:<=+3d'. The options are those of ls.
      """,
    arguments: [.query], options: OptionSpec.listing, nativeOnly: true
  ) { context, arguments throws(TodoError) in
    var options = ListOptions(context.invocation, terms: try arguments.text(0))
    options.query = FindCommand.joined(options.query, options.terms.joined(separator: " "))
    options.terms = []
    try ListCommand.listFile(context.settings.todoFile, terms: [], options: options, context: context)
    return .success
  }

  /// Two queries that must both hold.
  static func joined(_ first: String?, _ second: String) -> String {
    let second = second.trimmingSpaces()
    guard let first, !first.trimmingSpaces().isEmpty else { return second }
    return second.isEmpty ? first : "(\(first)) (\(second))"
  }
}

/// `view [NAME]`: a query saved in the configuration as `TODO_VIEW_NAME='QUERY'`.
enum ViewCommand {
  static let prefix = "TODO_VIEW_"
  static let addOption = OptionSpec(
    ["--add"], value: .text, valueName: "NAME",
    help: "Save the QUERY as the view NAME, as a line added to the configuration file.")

  static let spec: CommandSpec = CommandSpec(
    name: "view", usage: "[NAME [OPTIONS] [QUERY...]]",
    abstract: "List the tasks of a view saved in the configuration, or list the views.",
    discussion: """
      A view is a variable TODO_VIEW_NAME='QUERY' of the configuration (or the environment), \
      such as TODO_VIEW_today='due:<=today or pri:A'. todo view today lists its tasks, with the \
      options of ls and more query words if given; todo view alone lists the views and the \
      file they are saved in. todo view --add NAME QUERY saves one: the line is added to the \
      configuration file read, or to $XDG_CONFIG_HOME/todo/config when there is none.
      """,
    // With --add NAME, the words are all the query.
    arguments: [.text.oneWord.optional, .query], argumentsWhenGiven: [(addOption.name, [.query])],
    options: OptionSpec.listing + [addOption], nativeOnly: true
  ) { context, arguments throws(TodoError) in
    let views = ViewCommand.views(context.settings)
    if let name = context.invocation.value(addOption.name) {
      return try add(name, query: arguments.text(0).joined(separator: " "), views: views, context: context)
    }
    guard let name = try arguments.optionalWord(0) else {
      if views.isEmpty {
        let file = configurationFile(context.settings)
        context.console.line("No views yet. Save one with: todo view --add today 'due:<=today or pri:A'")
        context.console.line("(it is added to \(file) as: export TODO_VIEW_today='due:<=today or pri:A')")
      }
      let width = views.map(\.name.count).max() ?? 0
      for view in views {
        context.console.line(view.name + String(repeating: " ", count: width - view.name.count + 2) + view.query)
      }
      return .success
    }
    guard let view = views.first(where: { $0.name == name }) else { throw .unknownView(name) }
    var options = ListOptions(context.invocation, terms: try arguments.text(1))
    var query = FindCommand.joined(view.query, options.terms.joined(separator: " "))
    if let extra = options.query { query = FindCommand.joined(query, extra) }
    options.query = query
    options.terms = []
    try ListCommand.listFile(context.settings.todoFile, terms: [], options: options, context: context)
    return .success
  }

  /// `view --add NAME QUERY`: checks both, then adds `export TODO_VIEW_NAME='QUERY'` to the
  /// configuration file (made when there is none). The file is never reached through a link
  /// (a configuration kept in a dotfiles folder and linked is named, with the line to add).
  static func add(
    _ name: String, query: String, views: [(name: String, query: String)], context: CommandContext
  ) throws(TodoError) -> ExitStatus {
    guard !name.isEmpty, name.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) })
    else {
      throw .message("\(context.programName): view: '\(WhyReport.oneLine(name))' cannot be a view's name: use letters, digits and _ only")
    }
    let query = query.trimmingSpaces()
    guard !query.isEmpty else { throw .message("\(context.programName): view: --add \(name) needs a QUERY, such as 'due:<=today or pri:A'") }
    if let scalar = controlCharacter(in: query.utf8) {
      throw .controlCharacter(what: "view: the query", scalar: scalar)
    }
    _ = try QueryListing.filter(query, context: context)
    if let existing = views.first(where: { $0.name == name }) {
      throw .message(
        "\(context.programName): view: '\(name)' is saved already as '\(WhyReport.oneLine(existing.query))'; remove its line from \(configurationFile(context.settings)) first")
    }
    let file = configurationFile(context.settings)
    // In single quotes bash takes every character as it is but the quote itself.
    let quoted = "'" + query.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    let line = "export \(prefix)\(name)=\(quoted)"
    do {
      let folder = try makeFolder(Posix.dirname(file), store: context.store)
      let name = Posix.basename(file)
      let existing = folder.kind(of: name) == .file ? try folder.read(name) : []
      let separator: [UInt8] = existing.isEmpty || existing.last == 0x0A ? [] : [0x0A]
      try folder.append(name, contents: separator + Array(line.utf8) + [0x0A])
    } catch {
      throw .message("\(context.programName): view: cannot write \(file) (\(error)); add this line to your configuration yourself: \(line)")
    }
    if context.verbose { context.console.line("Saved the view '\(name)' in \(file): todo view \(name) lists it.") }
    return .success
  }

  /// The folder at `path`, made with the folders above it that are missing (`~/.config` on a
  /// new machine), each through the store's confined folders: never through a link.
  static func makeFolder(_ path: String, store: TodoStore, depth: Int = 0) throws(StoreError) -> ConfinedFolder {
    do {
      return try store.folder(path, creating: true)
    } catch where error.kind == .notFound && depth < 8 && Posix.dirname(path) != path {
      _ = try makeFolder(Posix.dirname(path), store: store, depth: depth + 1)
      return try store.folder(path, creating: true)
    }
  }

  /// The configuration file views are saved in: the one read, else the place the tool reads
  /// first under XDG (`$XDG_CONFIG_HOME/todo/config`).
  static func configurationFile(_ settings: Settings) -> String {
    if let read = InfoCommand.configurationRead(settings) { return read }
    let home = settings.value("HOME")
    let xdg = settings.value("XDG_CONFIG_HOME")
    return (xdg.isEmpty ? home + "/.config" : xdg) + "/todo/config"
  }

  /// The views defined in `settings`, by name.
  static func views(_ settings: Settings) -> [(name: String, query: String)] {
    settings.variables.compactMap { key, value in
      guard key.hasPrefix(prefix), key.count > prefix.count else { return nil }
      return (String(key.dropFirst(prefix.count)), value)
    }.sorted { $0.name < $1.name }
  }
}
