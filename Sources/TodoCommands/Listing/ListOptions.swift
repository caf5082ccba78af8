import TodoTxt

/// Options of the native listing commands (`todo ls --sort due -q 'due:<today'`), as declared
/// in ``OptionSpec/listing`` and parsed by ``Invocation/parse(_:for:)``. Under the name
/// todo.sh every argument stays a search term, as in todo.sh.
struct ListOptions: Sendable, Equatable {
  /// `--all` / `-a`: also show tasks hidden by a future `t:` or by `h:1`.
  var showAll = false
  /// Done tasks are listed though `--all` was not given (`listall`, `report`-like listings).
  var showsDone = false
  /// `--sort KEYS`: comma-separated sort keys, `-key` for descending.
  var sort: TaskOrder?
  /// `--format json|jsonl|ical|TEMPLATE`.
  var format: String?
  /// `--group project|context|priority|due`.
  var group: String?
  /// `-q EXPR` / `--query EXPR`: the query language.
  var query: String?
  /// `--why`: explain why each task is shown or hidden.
  var why = false
  /// `--notes`: each listed task's note under it.
  var notes = false
  /// The search terms.
  var terms: [String] = []
  /// Leave out done tasks, even with `--all` (`next`; no option sets it).
  var hidesDone = false

  /// The options of a native listing, from its parsed invocation; `terms` are its search
  /// terms (the positionals it did not take for itself).
  init(_ invocation: Invocation, terms: [String]) {
    showAll = invocation.has(OptionSpec.all.name)
    // The parser took only the keys of ``TaskOrder/Key`` (``OptionSpec/sort``).
    sort = invocation.keys(OptionSpec.sort.name).map { keys in
      TaskOrder(keys.compactMap { key in TaskOrder.Key(rawValue: key.word).map { TaskOrder.Term($0, descending: key.descending) } })
    }
    format = invocation.value(OptionSpec.format.name)
    group = invocation.word(OptionSpec.group.name)
    query = invocation.value(OptionSpec.query.name)
    why = invocation.has(OptionSpec.why.name)
    notes = invocation.has(OptionSpec.notes.name)
    self.terms = terms
  }

  init() {}
}
