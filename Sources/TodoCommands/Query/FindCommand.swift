import TodoTxt

/// `find QUERY`: `ls` with a query instead of search terms.
enum FindCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "find", usage: "[--all] [--sort KEYS] [--format FORMAT] [--group BY] [--why] QUERY...",
    abstract: "List the tasks of todo.txt that match a query.",
    discussion: """
      The words form one query (see QUERY LANGUAGE in todo(1)): +project, @context, pri:A, \
      pri>=B, due:<today, t:>today, created:>-2w, completed:2026-11, done, open, has:due, \
      key:value, /regex/, plain words; juxtaposition is and, or, not or -, parentheses. Quote \
      it for the shell: todo find '+Kitchen due:<=+3d'. The options are those of ls.
      """,
    arguments: [.term], nativeOnly: true
  ) { context, arguments throws(TodoError) in
    var options = try FindCommand.options(arguments)
    options.query = FindCommand.joined(options.query, options.terms.joined(separator: " "))
    options.terms = []
    try ListCommand.listFile(context.settings.todoFile, terms: [], options: options, context: context)
    return .success
  }

  /// The options of `ls` wherever they stand among the words (a query is often typed first
  /// and refined with `--format` after it); the other words are left as terms.
  static func options(_ arguments: [String]) throws(TodoError) -> ListOptions {
    var optionWords: [String] = []
    var words: [String] = []
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      if argument == "--" {
        words += arguments[(index + 1)...]
        break
      }
      let name = argument.hasPrefix("--") ? String(argument.prefix { $0 != "=" }) : argument
      if ListOptions.flags.contains(name) {
        optionWords.append(argument)
      } else if ListOptions.valued.contains(name) {
        optionWords.append(argument)
        if name == argument {
          guard index + 1 < arguments.count else { throw .missingOptionValue(argument) }
          optionWords.append(arguments[index + 1])
          index += 1
        }
      } else {
        words.append(argument)
      }
      index += 1
    }
    var options = try ListOptions.parse(optionWords, mode: .native)
    options.terms = words
    return options
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

  static let spec: CommandSpec = CommandSpec(
    name: "view", usage: "[NAME [OPTIONS] [QUERY...]]",
    abstract: "List the tasks of a view saved in the configuration, or list the views.",
    discussion: """
      A view is a variable TODO_VIEW_NAME='QUERY' of the configuration (or the environment), \
      such as TODO_VIEW_today='due:<=today or pri:A'. todo view today lists its tasks, with the \
      options of ls and more query words if given; todo view alone lists the views.
      """,
    arguments: [.text, .term], nativeOnly: true
  ) { context, arguments throws(TodoError) in
    let views = ViewCommand.views(context.settings)
    guard let name = arguments.first else {
      if views.isEmpty {
        context.console.line("No views; define one in the configuration: TODO_VIEW_today='due:<=today or pri:A'")
      }
      let width = views.map(\.name.count).max() ?? 0
      for view in views {
        context.console.line(view.name + String(repeating: " ", count: width - view.name.count + 2) + view.query)
      }
      return .success
    }
    guard let view = views.first(where: { $0.name == name }) else { throw .unknownView(name) }
    var options = try FindCommand.options(Array(arguments.dropFirst()))
    var query = FindCommand.joined(view.query, options.terms.joined(separator: " "))
    if let extra = options.query { query = FindCommand.joined(query, extra) }
    options.query = query
    options.terms = []
    try ListCommand.listFile(context.settings.todoFile, terms: [], options: options, context: context)
    return .success
  }

  /// The views defined in `settings`, by name.
  static func views(_ settings: Settings) -> [(name: String, query: String)] {
    settings.variables.compactMap { key, value in
      guard key.hasPrefix(prefix), key.count > prefix.count else { return nil }
      return (String(key.dropFirst(prefix.count)), value)
    }.sorted { $0.name < $1.name }
  }
}
