import TodoTxt

/// Choosing the tasks of an editing command by query instead of by number (native mode):
/// `todo do -q '+Kitchen due:<today'`, `todo pri -q @phone A`, `todo tag -q +garden season
/// summer`, `todo postpone -q 'due:today' 2d`, `todo del -q 'done created:<2020'`.
///
/// The query selects among all tasks of todo.txt (the hiding rules of `ls` do not apply).
/// When it selects more than one task, the tasks are shown and the command asks before
/// changing them, unless `-f`/`--force` is given. The command then runs once with the task
/// numbers, so every change goes to the file in one update (and one undo entry).
enum QuerySelection {
  /// What the leading options of an editing command chose.
  struct Selection {
    /// The query as typed.
    var query: String
    /// 1-based task numbers of todo.txt, in file order.
    var numbers: [Int]
    /// The arguments after the options (`A` for `pri`, `KEY VALUE` for `tag`).
    var rest: [String]
    /// `-f`/`--force` was among the options.
    var forced: Bool
  }

  /// The selection, when the command was given `-q QUERY`/`--query QUERY` (see
  /// ``OptionSpec/selecting``); `nil` when it was not, and always under the name todo.sh.
  ///
  /// - Parameter arguments: the command's positionals (`A` for `pri`, `KEY VALUE` for `tag`).
  static func select(_ arguments: [String], context: CommandContext) throws(TodoError) -> Selection? {
    guard context.settings.mode == .native, let query = context.invocation.value(OptionSpec.selectQuery.name) else {
      return nil
    }
    let forced = context.invocation.has(OptionSpec.force.name)
    let rest = arguments
    let filter = try QueryListing.filter(query, context: context)
    let list = try context.readList(context.settings.todoFile)
    var numbers: [Int] = []
    for (index, task) in list.enumerated() where !task.isBlank && filter.matches(task, today: context.today) {
      numbers.append(index + 1)
    }
    return Selection(query: query, numbers: numbers, rest: rest, forced: forced)
  }

  /// The task numbers a query selects, for any command that takes numbers: shows the tasks
  /// and asks `QUESTION N tasks? (y/n)` when more than one would change and nothing forces it.
  ///
  /// - Returns: `nil` when the arguments hold no query; otherwise the selection, confirmed.
  static func confirmed(
    _ arguments: [String], context: CommandContext, question: String
  ) throws(TodoError) -> Selection? {
    guard let selection = try select(arguments, context: context) else { return nil }
    guard !selection.numbers.isEmpty else { throw .noMatchingTasks(selection.query) }
    if selection.numbers.count > 1, !selection.forced, !context.settings.isForced {
      let list = try context.readList(context.settings.todoFile)
      for number in selection.numbers {
        if let task = list.task(number: number) { context.echo(String(number), task.bytes) }
      }
      guard context.confirm("\(question) \(selection.numbers.count) tasks") else { throw .bulkDeclined }
    }
    return selection
  }

  /// The arguments with the query replaced by the task numbers it selects (confirmed as in
  /// ``confirmed(_:context:question:)``): `NR NR … REST`, or with `pairing` `NR REST NR REST …`
  /// (for `pri NR PRIORITY …`). `nil` when the arguments hold no query.
  static func arguments(
    _ arguments: [String], context: CommandContext, question: String, pairing: Bool = false
  ) throws(TodoError) -> [String]? {
    guard let selection = try confirmed(arguments, context: context, question: question) else { return nil }
    let numbers = selection.numbers.map(String.init)
    if pairing { return numbers.flatMap { [$0] + selection.rest } }
    return numbers + selection.rest
  }

  /// `del -q QUERY`: empties every selected line in one update (or removes them with -n).
  static func delete(_ arguments: [String], context: CommandContext, usage: TodoError) throws(TodoError) -> ExitStatus? {
    guard let selection = try confirmed(arguments, context: context, question: "Delete") else { return nil }
    guard selection.rest.isEmpty else { throw usage }
    let file = context.settings.todoFile
    let preserve = context.settings.preservesLineNumbers
    let removed: [(Int, [UInt8])] = try context.storing {
      try context.store.update(file, label: "del -q \(selection.query)") { list in
        var removed: [(Int, [UInt8])] = []
        for number in selection.numbers {
          guard let task = list.task(number: number), !task.bytes.isEmpty else { continue }
          removed.append((number, Array(task.bytes)))
          list.replace(number: number, with: Task(bytes: []))
        }
        if !preserve { list.removeAll { $0.bytes.isEmpty } }
        return removed
      }
    }
    if context.verbose {
      for (number, line) in removed {
        context.echo(String(number), line)
        context.console.line("TODO: \(number) deleted.")
      }
    }
    return .success
  }
}
