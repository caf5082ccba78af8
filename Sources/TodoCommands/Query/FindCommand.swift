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
    var options = ListOptions(context.invocation, terms: arguments)
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

  static let spec: CommandSpec = CommandSpec(
    name: "view", usage: "[NAME [OPTIONS] [QUERY...]]",
    abstract: "List the tasks of a view saved in the configuration, or list the views.",
    discussion: """
      A view is a variable TODO_VIEW_NAME='QUERY' of the configuration (or the environment), \
      such as TODO_VIEW_today='due:<=today or pri:A'. todo view today lists its tasks, with the \
      options of ls and more query words if given; todo view alone lists the views.
      """,
    arguments: [.text, .query], options: OptionSpec.listing, nativeOnly: true
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
    var options = ListOptions(context.invocation, terms: Array(arguments.dropFirst()))
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
