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
  /// What the leading options of an editing command chose: parsed before anything is read,
  /// and resolved to task numbers on the snapshot the command changes (see
  /// ``numbers(in:context:terminal:)``), so the tasks asked about are the ones changed. When
  /// the command may ask, the list is read without the lock and the change written only if
  /// the tasks asked about are still as shown (see ``Selection/mayAsk(_:)``).
  struct Selection {
    /// The query as typed.
    var query: String
    var filter: TaskFilter
    /// The arguments after the options (`A` for `pri`, `KEY VALUE` for `tag`).
    var rest: [String]
    /// `-f`/`--force` was among the options.
    var forced: Bool
    /// What the confirmation asks (`Mark as done` → `Mark as done 3 tasks? (y/n)`).
    var question: String

    /// The 1-based task numbers of `list` the query selects, in file order, confirmed:
    /// when more than one would change and nothing forces it, the tasks are shown and the
    /// command asks `QUESTION N tasks? (y/n)`; a "no" ends the update without writing.
    ///
    /// - Parameter terminal: the console from before ``CommandContext/storing(_:)``, which
    ///   holds the change's own output back: the question has to be seen before the answer.
    func numbers(in list: TodoList, context: CommandContext, terminal: Console) throws(TodoError) -> [Int] {
      var numbers: [Int] = []
      for (index, task) in list.enumerated() where !task.isBlank && filter.matches(task, today: context.today) {
        numbers.append(index + 1)
      }
      guard !numbers.isEmpty else { throw .noMatchingTasks(query) }
      if numbers.count > 1, !forced, !context.settings.isForced {
        for number in numbers {
          if let task = list.task(number: number) { context.echo(String(number), task.bytes, on: terminal) }
        }
        guard context.confirm("\(question) \(numbers.count) tasks", on: terminal) else { throw .bulkDeclined }
      }
      return numbers
    }

    /// The command's arguments with the query replaced by the task numbers it selects in
    /// `list` (confirmed as in ``numbers(in:context:terminal:)``): `NR NR … REST`, or with
    /// `pairing` `NR REST NR REST …` (for `pri NR PRIORITY …`).
    func arguments(
      in list: TodoList, context: CommandContext, terminal: Console, pairing: Bool = false
    ) throws(TodoError) -> [String] {
      let numbers = try self.numbers(in: list, context: context, terminal: terminal).map(String.init)
      if pairing { return numbers.flatMap { [$0] + rest } }
      return numbers + rest
    }

    /// Whether the command may ask before changing the tasks (nothing forces it): the
    /// change then reads and asks without the lock (see `CommandContext.change`).
    func mayAsk(_ context: CommandContext) -> Bool { !forced && !context.settings.isForced }

    /// The undo log's name for the change: the query, since the numbers are only known on
    /// the snapshot (`do -q +Kitchen`).
    func label(_ action: String) -> String { "\(action) -q \(query)" }
  }

  /// The selection, when the command was given `-q QUERY`/`--query QUERY` (see
  /// ``OptionSpec/selecting``); `nil` when it was not, and always under the name todo.sh.
  /// Nothing is read: a malformed query is refused before the list is.
  ///
  /// - Parameter arguments: the command's positionals (`A` for `pri`, `KEY VALUE` for `tag`).
  static func selection(
    _ arguments: [String], context: CommandContext, question: String
  ) throws(TodoError) -> Selection? {
    guard context.settings.policy.parsesLongOptions, let query = context.invocation.value(OptionSpec.selectQuery.name) else {
      return nil
    }
    return Selection(
      query: query, filter: try QueryListing.filter(query, context: context), rest: arguments,
      forced: context.invocation.has(OptionSpec.force.name), question: question)
  }

  /// The tasks an editing command changes: the typed numbers `items`, or those `selection`
  /// picks in `list` (confirmed as in ``Selection/numbers(in:context:terminal:)``).
  static func references(
    _ items: [String], _ selection: Selection?, in list: TodoList, context: CommandContext, terminal: Console,
    usage: TodoError
  ) throws(TodoError) -> [TaskReference] {
    let items = try selection?.numbers(in: list, context: context, terminal: terminal).map(String.init) ?? items
    return try items.map { item throws(TodoError) in try TaskReference(item, usage: usage) }
  }

  /// `del -q QUERY`: empties every selected line in one update (or removes them with -n).
  static func delete(_ arguments: [String], context: CommandContext, usage: TodoError) throws(TodoError) -> ExitStatus? {
    guard let selection = try selection(arguments, context: context, question: "Delete") else { return nil }
    guard selection.rest.isEmpty else { throw usage }
    let file = context.settings.todoFile
    let preserve = context.settings.preservesLineNumbers
    let terminal = context.console
    let removed: [(Int, [UInt8])] = try context.change(
      file, label: selection.label("del"), asking: selection.mayAsk(context)
    ) { list in
      var removed: [(Int, [UInt8])] = []
      for number in try selection.numbers(in: list, context: context, terminal: terminal) {
        guard let task = list.task(number: number), !task.bytes.isEmpty else { continue }
        removed.append((number, Array(task.bytes)))
        list.replace(number: number, with: Task(bytes: []))
      }
      if !preserve { list.removeAll { $0.bytes.isEmpty } }
      return removed
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
