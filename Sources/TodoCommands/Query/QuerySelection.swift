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

    /// The tasks the query selects, as references (see ``numbers(in:context:terminal:)``).
    func references(
      in list: TodoList, context: CommandContext, terminal: Console
    ) throws(TodoError) -> [Result<TaskReference, TodoError>] {
      try numbers(in: list, context: context, terminal: terminal).map { .success(TaskReference(number: $0)) }
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
  /// Nothing is read: a malformed query is refused before the list is. The positionals
  /// that go with a query are the command's declaration's (``CommandSpec/argumentsWhenGiven``).
  static func selection(context: CommandContext, question: String) throws(TodoError) -> Selection? {
    guard context.settings.policy.parsesLongOptions, let query = context.invocation.value(OptionSpec.selectQuery.name) else {
      return nil
    }
    return Selection(
      query: query, filter: try QueryListing.filter(query, context: context),
      forced: context.invocation.has(OptionSpec.force.name), question: question)
  }

  /// The first task named twice among `items` (`do 3 03`), as typed; numbers that name no
  /// line (0, too large) are left to the command.
  static func namedTwice(_ items: [Result<TaskReference, TodoError>]) -> String? {
    let typed = items.compactMap { try? $0.get().typed }
    return Dictionary(grouping: typed, by: { Int($0) ?? -1 }).first(where: { $0.key > 0 && $0.value.count > 1 })?.value[0]
  }

  /// The tasks an editing command changes: the typed numbers `items`, or those `selection`
  /// picks in `list` (confirmed as in ``Selection/numbers(in:context:terminal:)``).
  static func references(
    _ items: [TaskReference], _ selection: Selection?, in list: TodoList, context: CommandContext, terminal: Console
  ) throws(TodoError) -> [TaskReference] {
    try selection?.numbers(in: list, context: context, terminal: terminal).map(TaskReference.init(number:)) ?? items
  }

  /// `del -q QUERY`: empties every selected line in one update (or removes them with -n).
  /// Its declaration takes no other words (``CommandSpec/argumentsWhenGiven``).
  static func delete(context: CommandContext) throws(TodoError) -> ExitStatus? {
    guard let selection = try selection(context: context, question: "Delete") else { return nil }
    let file = context.settings.todoFile
    let preserve = context.settings.preservesLineNumbers
    let terminal = context.console.destination
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
