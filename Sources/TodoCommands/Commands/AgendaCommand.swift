import TodoTxt

/// `agenda [DAYS] [--days N] [--quiet]` (`due`): what is overdue, due today and due soon.
enum AgendaCommand {
  static let daysOption = OptionSpec(
    ["--days"], value: .number(0...36_600), valueName: "N", help: "Look N days ahead instead of 7 (the same as DAYS).")
  static let quietOption = OptionSpec(
    ["--quiet", "-q"], help: "Print nothing; exit 1 when a task is overdue, 0 otherwise.")

  static let spec: CommandSpec = CommandSpec(
    name: "agenda", aliases: ["due"], usage: "[DAYS]",
    abstract: "Show the open tasks that are overdue, due today, and due in the next DAYS days (7).",
    discussion: """
      Tasks are grouped by due date under a heading per day, overdue ones first. Tasks with \
      h:1 are left out; a task still waiting for an open task (p:) is marked [blocked]. With --quiet nothing is printed and the exit status tells: 1 when a \
      task is overdue, 0 otherwise (for shell prompts and cron).
      """,
    arguments: [.text.counting(0...36_600, named: "DAYS").optional], options: [daysOption, quietOption], nativeOnly: true
  ) { context, arguments throws(TodoError) in
    let days = try arguments.number(0) ?? context.invocation.number(daysOption.name) ?? 7
    let quiet = context.invocation.has(quietOption.name)

    let today = context.today
    // The file's lines, not a TodoList (whose line table is a quarter of a large file), and
    // only the lines with a `due:` token are made into tasks.
    let (lines, _) = try context.readLines(context.settings.todoFile, raw: false)
    let agenda = Agenda(
      candidates: lines.indices(holdingToken: TagMeaning.due.token), today: today, days: days, task: lines.task)
    let last = agenda.last
    let entries = agenda.entries
    // Counted, not filtered: a filter copies every overdue entry (a whole task each).
    if quiet { return entries.contains { $0.due < today } ? .failure : .success }

    let width = String(lines.count).count
    let palette = Palette(context.settings)
    let colours = Colours(palette: palette, settings: context.settings)
    let heading: [UInt8] = context.settings.isPlain ? [] : [0x1B] + bytes("[1m")
    // What ends the heading's bold: DEFAULT, else ESC [0m (an empty DEFAULT left it bold).
    let reset = palette.reset
    // A task that waits for an open one is due all the same, but cannot be done yet: marked
    // as `ls --all` would show it hidden.
    let blocked = Dependencies.blockedIDs(in: lines)
    // A task's row: its number, a blank and the task, with the mark of a blocked one.
    func row(_ entry: Agenda.Entry) -> (line: [UInt8], textStart: Int) {
      let shown = String(entry.index + 1)
      let waits = entry.task.dependencyID.map(blocked.contains) ?? false
      let prefix = [UInt8](repeating: UInt8(ascii: "0"), count: max(0, width - shown.count)) + bytes(shown) + [0x20]
      return (prefix + Array(entry.task.bytes) + (waits ? bytes(" [blocked]") : []), prefix.count)
    }
    // On a terminal the tasks are drawn as `ls` draws them, all in one set of columns: from
    // rows made for all of them. Else each line is made as it is written.
    let layout = TerminalLayout.active(in: context)
    let drawn = layout.map { layout in
      var rows = ListingRows()
      rows.reserve(rows: entries.count, bytes: entries.reduce(0) { $0 + width + 11 + $1.task.bytes.count })
      for entry in entries {
        let (line, textStart) = row(entry)
        rows.append(Int32(entry.index), line, textStart: textStart)
      }
      return layout.draw(rows, numbering: .byLine, display: context.display)
    }
    let engine = ListEngine(context: context)
    var previous: String?
    for (offset, entry) in entries.enumerated() {
      let title = entry.due < today ? "Overdue" : title(for: entry.due, today: today)
      if title != previous {
        context.console.line(heading + bytes(title) + (heading.isEmpty ? [] : reset))
        previous = title
      }
      if let drawn {
        engine.printLine(bytes("  ") + drawn.lines.line(offset), indent: drawn.indent + 2)
        continue
      }
      let (made, textStart) = row(entry)
      let line = Array(made[..<textStart]) + context.display(Array(made[textStart...]))
      let due = palette.dueColour(entry.due, today: today)
      // The number fills every place before the blank (zeros, not blanks, left of its digits).
      context.console.line(bytes("  ") + colours.apply(to: line, numberEnd: textStart - 1, due: due))
    }
    if context.verbose {
      if entries.isEmpty {
        context.console.line("Nothing is due in the next \(days) days.")
      } else {
        let late = entries.reduce(0) { $0 + ($1.due < today ? 1 : 0) }
        context.summary(["\(context.todoPrefix): \(entries.count) tasks due by \(last), \(late) overdue"])
      }
    }
    return .success
  }

  /// `Today, Fri 2009-02-13`, `Tomorrow, Sat 2009-02-14`, `Mon 2009-02-16`.
  static func title(for date: TaskDate, today: TaskDate) -> String {
    let day = "\(dayName(date, short: true)) \(date)"
    switch today.days(until: date) {
    case 0: return "Today, " + day
    case 1: return "Tomorrow, " + day
    default: return day
    }
  }

  /// `Friday`, or `Fri` when `short`.
  static func dayName(_ date: TaskDate, short: Bool) -> String {
    let name = date.weekday.name
    let shown = short ? String(name.prefix(3)) : name
    return shown.prefix(1).uppercased() + shown.dropFirst()
  }
}
