import TodoTxt

/// The one order of a listing's rows, chosen once from the options and the settings, and
/// used by every stage that orders rows or says why a row stands where it does (``ListEngine``,
/// ``WhyReport``).
///
/// The three orders differ in what they read: todo.sh's reads the numbered line's text as
/// bytes (radix keys, ``KeySort``), a user's command reads the lines bash hands it, and the
/// tasks' keys read the tasks. Each has its own sorter; which one runs is decided here only.
enum RowOrder: Equatable {
  /// todo.sh's `sort -f -k2` in the C locale: the numbered line from the blank after the
  /// number, ignoring case; so priority, then creation date, then text.
  case lineIgnoringCase
  /// A user's `TODOTXT_SORT_COMMAND`, which bash runs over the numbered lines.
  case command(String)
  /// The tasks' keys: `--sort`, else the configured `TODO_SORT`.
  case tasks(TaskOrder)

  /// The order todo.sh's settings give: its own sort unless the user set another command.
  init(_ settings: Settings) {
    let command = settings.value("TODOTXT_SORT_COMMAND")
    self = command == ConfigurationLoader.defaultSortCommand ? .lineIgnoringCase : .command(command)
  }

  /// The order of a listing under the name `todo`: `sort` (`--sort`'s keys, typed by the
  /// parser), else the configured `TODO_SORT` (checked when the settings were read,
  /// ``TerminalLayout/check(_:)``), else the settings' (``init(_:)``).
  static func chosen(sort: TaskOrder?, settings: Settings) -> RowOrder {
    if let sort { return .tasks(sort) }
    if let configured = settings.variables["TODO_SORT"], !configured.isEmpty, let order = try? TaskOrder(configured) {
      return .tasks(order)
    }
    return RowOrder(settings)
  }

  /// The tasks' keys, when the order is by them.
  var taskOrder: TaskOrder? {
    if case .tasks(let order) = self { order } else { nil }
  }
}
