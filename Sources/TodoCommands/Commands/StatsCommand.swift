import TodoTxt

/// `stats [--weeks N] [--format json]`: how many tasks are open, done, overdue and due soon,
/// and how many were added and done in each of the last weeks.
///
/// The weekly bars show whether the list grows or shrinks, which no single listing tells.
/// Both files count, as a task done and archived was still work done that week.
enum StatsCommand {
  static let weeksOption = OptionSpec(
    ["--weeks"], value: .number(1...520), valueName: "N", help: "Show the last N weeks instead of 8.")
  static let formatOption = OptionSpec.reportFormat(help: "Print text (the default) or one JSON object.")

  static let spec: CommandSpec = CommandSpec(
    name: "stats", usage: "",
    abstract: "Count open, done, overdue and due tasks, and those added and done per week.",
    discussion: """
      Open tasks are those of todo.txt; done ones are those of todo.txt and done.txt. Overdue \
      tasks were due before today; the next 7 days run from tomorrow. Then, for each of the \
      last N weeks (Monday to Sunday, this one last, labelled by its Monday), the tasks \
      created in it (by creation date) and those completed in it (by completion date), each \
      with a bar of one mark per task (scaled down when a week has more than 20). The marks \
      are block characters in a UTF-8 locale, # otherwise. Tasks with h:1 are not counted.
      """,
    options: [weeksOption, formatOption], nativeOnly: true
  ) { context, _ throws(TodoError) in
    let weeks = context.invocation.number(weeksOption.name) ?? 8
    let todo = try context.readList(context.settings.todoFile)
    let done = try context.readList(context.settings.doneFile)
    let stats = TaskStatistics(todo: todo, done: done, today: context.today, weeks: weeks)
    if ReportFormat(context.invocation) == .json {
      context.console.write(stats.json())
    } else {
      for line in stats.text(utf8: isUTF8(context.settings), columns: context.console.columns) {
        context.console.line(line)
      }
    }
    return .success
  }

  /// Whether the locale's character set is UTF-8: the first of `LC_ALL`, `LC_CTYPE` and `LANG`
  /// that is set decides, as it does for the C library.
  static func isUTF8(_ settings: Settings) -> Bool {
    let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.map { settings.value($0) }.first { !$0.isEmpty } ?? ""
    let lower = locale.lowercased()
    return lower.contains("utf-8") || lower.contains("utf8")
  }
}

/// The counts `stats` prints, gathered in one pass over each file.
struct TaskStatistics {
  struct Week: Equatable {
    /// The week's Monday.
    var start: TaskDate
    var added = 0
    var completed = 0
  }

  let today: TaskDate
  var open = 0
  var done = 0
  var overdue = 0
  var dueToday = 0
  /// Open tasks due from tomorrow to a week from today.
  var dueSoon = 0
  var prioritized = 0
  var unprioritized = 0
  /// The oldest week first; the last one holds today.
  var weeks: [Week]

  init(todo: TodoList, done doneList: TodoList, today: TaskDate, weeks count: Int) {
    self.today = today
    let monday = today.adding(days: 1 - today.weekday.rawValue)
    let first = monday.adding(weeks: 1 - count)
    weeks = (0..<count).map { Week(start: first.adding(weeks: $0)) }
    let firstDay = first.daysSinceEpoch
    let soon = today.adding(days: 7)

    /// The index of the week holding `date`, if it is one of those shown.
    func week(_ date: TaskDate?) -> Int? {
      guard let date, date <= today else { return nil }
      let offset = date.daysSinceEpoch - firstDay
      return offset >= 0 ? offset / 7 : nil
    }

    for (file, list) in [todo, doneList].enumerated() {
      for task in list where !task.isBlank {
        // Most lines have neither tag: a byte scan answers for them without reading tags.
        let (mayHide, mayBeDue) = task.bytes.withUnsafeBufferPointer {
          (NativeListing.hasToken($0, TagMeaning.hidingToken), NativeListing.hasToken($0, TagMeaning.due.token))
        }
        if mayHide, task.isHidden { continue }
        if let index = week(task.creationDate) { weeks[index].added += 1 }
        if task.isCompleted {
          done += 1
          if let index = week(task.completionDate) { weeks[index].completed += 1 }
          continue
        }
        // An open line in done.txt was put there by hand: it counts as added, not as open.
        guard file == 0 else { continue }
        open += 1
        if task.priority == nil { unprioritized += 1 } else { prioritized += 1 }
        if mayBeDue, let due = task.dueDate {
          if due < today {
            overdue += 1
          } else if due == today {
            dueToday += 1
          } else if due <= soon {
            dueSoon += 1
          }
        }
      }
    }
  }

  /// The summary as label and number, in the order printed.
  var summary: [(label: String, key: String, value: Int)] {
    [
      ("open", "open", open), ("done", "done", done), ("overdue", "overdue", overdue),
      ("due today", "due_today", dueToday), ("due in the next 7 days", "due_soon", dueSoon),
      ("with priority", "with_priority", prioritized), ("without priority", "without_priority", unprioritized),
    ]
  }

  /// The most marks a bar has; a week with more tasks scales every bar down.
  static let barWidth = 20

  /// The marks for `count` tasks when the busiest week has `largest` and a bar may have
  /// `barWidth` marks.
  static func barLength(_ count: Int, largest: Int, barWidth: Int = TaskStatistics.barWidth) -> Int {
    guard count > 0 else { return 0 }
    if largest <= barWidth { return count }
    return max(1, (count * barWidth + largest / 2) / largest)
  }

  /// The summary, a blank line, then a row per week with its two bars; on a terminal of
  /// `columns` the bars are shortened so that no row wraps (at least three marks each).
  func text(utf8: Bool, columns: Int? = nil) -> [String] {
    let labelWidth = summary.map(\.label.count).max() ?? 0
    let valueWidth = summary.map { String($0.value).count }.max() ?? 1
    var lines = summary.map { row in
      row.label + String(repeating: " ", count: labelWidth - row.label.count + 2) + pad(row.value, valueWidth)
    }
    lines.append("")
    let mark = utf8 ? "\u{2588}" : "#"
    let largest = weeks.map { max($0.added, $0.completed) }.max() ?? 0
    let addedWidth = max(5, weeks.map { String($0.added).count }.max() ?? 1)
    let doneWidth = max(4, weeks.map { String($0.completed).count }.max() ?? 1)
    // A row: the week (10), two spaces, the added count, a space, its bar, two spaces, the
    // done count, a space, its bar.
    let fixed = 10 + 2 + addedWidth + 1 + 2 + doneWidth + 1
    let barWidth = columns.map { Swift.max(3, Swift.min(TaskStatistics.barWidth, ($0 - fixed) / 2)) } ?? TaskStatistics.barWidth
    func bar(_ count: Int) -> String {
      String(repeating: mark, count: TaskStatistics.barLength(count, largest: largest, barWidth: barWidth))
    }
    let gap = String(repeating: " ", count: barWidth)
    lines.append(trimmed("week of     " + pad("added", addedWidth) + " " + gap + "  " + pad("done", doneWidth)))
    for week in weeks {
      let added = bar(week.added)
      let filler = String(repeating: " ", count: barWidth - added.count)
      lines.append(
        trimmed(
          "\(week.start)  " + pad(week.added, addedWidth) + " " + added + filler + "  "
            + pad(week.completed, doneWidth) + " " + bar(week.completed)))
    }
    return lines
  }

  /// One JSON object with the summary and the weeks, and a newline.
  func json() -> [UInt8] {
    var writer = JSONWriter()
    writer.raw("{\"today\":")
    writer.string(today.description)
    for row in summary {
      writer.raw(",")
      writer.string(row.key)
      writer.raw(":")
      writer.number(row.value)
    }
    writer.raw(",\"weeks\":[")
    for (index, week) in weeks.enumerated() {
      if index > 0 { writer.raw(",") }
      writer.raw("{\"week\":")
      writer.string(week.start.description)
      writer.raw(",\"added\":")
      writer.number(week.added)
      writer.raw(",\"done\":")
      writer.number(week.completed)
      writer.raw("}")
    }
    writer.raw("]}\n")
    return writer.bytes
  }

  private func pad(_ value: Int, _ width: Int) -> String { pad(String(value), width) }

  private func pad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
  }

  private func trimmed(_ line: String) -> String {
    var line = line
    while line.last == " " { line.removeLast() }
    return line
  }
}
