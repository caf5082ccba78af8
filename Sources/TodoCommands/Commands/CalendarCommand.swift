import TodoTxt

/// `cal [MONTH]` (`calendar`): a month as a grid of days, each with the number of open tasks
/// due on it, then those tasks as `ls` lists them.
///
/// The grid answers "where do my deadlines bunch up" at a glance, which a list sorted by due
/// date does not; the list under it is the ordinary listing, so task numbers and colours read
/// the same as everywhere else.
enum CalendarCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "cal", aliases: ["calendar"], usage: "[MONTH]",
    abstract: "Show a month as a calendar of due dates, then the open tasks due in it.",
    discussion: """
      MONTH is 2026-12, a month number of this year (12), an English month name or its first \
      three letters (december, dec), next or prev; without it, this month. Weeks start on \
      Monday. Each day shows how many open tasks are due on it, as 13 (2); today is shown \
      as [13] and a past day with open tasks due as !9 (on a terminal, reversed and in the \
      overdue colour). Done tasks and tasks with h:1 are left out. The tasks are then listed \
      as 'ls --all --sort due' lists them.
      """,
    arguments: [.choice(CalendarMonth.words).month.optional], nativeOnly: true
  ) { context, arguments throws(TodoError) in
    let today = context.today
    let month = try arguments.month(0) ?? CalendarMonth(year: today.year, month: today.month)

    // Read as `ls` reads a file (its fast path): the lines, and a task made only from a line
    // that has a due: tag.
    let path = context.settings.todoFile
    let lines = Lines(bytes: try context.readBytes(path), raw: false)
    var counts = [Int](repeating: 0, count: month.dayCount + 1)
    var selected = [Bool](repeating: false, count: lines.count)
    lines.buffer.withUnsafeBufferPointer { buffer in
      for index in 0..<lines.count {
        let line = UnsafeBufferPointer(rebasing: buffer[lines.starts[index]..<lines.ends[index]])
        guard NativeListing.hasToken(line, TagMeaning.due.token) else { continue }
        let task = lines.task(index)
        guard !task.isCompleted, let due = task.dueDate, due.year == month.year, due.month == month.month,
          !task.isHidden
        else { continue }
        counts[due.day] += 1
        selected[index] = true
      }
    }
    var grid = CalendarGrid(month: month, counts: counts, today: today, settings: context.settings)
    // A terminal narrower than the week's 76 columns gets the narrow grid: no row wraps.
    if let columns = context.console.columns, columns < CalendarGrid.wideWidth { grid.isNarrow = true }
    for line in grid.lines() { context.console.line(line) }
    context.console.line("")

    // The tasks counted, listed by `ls`'s pipeline as `ls --all --sort due -q QUERY` lists
    // them (QueryListing's path for one file as text), with the query's answer taken from the
    // pass above: the query language would read every line's tags a second time.
    var options = ListOptions()
    options.showAll = true
    options.sort = TaskOrder([TaskOrder.Term(.due)])
    let query = "open -h:1 due:>=\(month.first) due:<=\(month.last)"
    let engine = ListEngine(context: context)
    let native = try NativeListing(options, lines: lines, context: context)
    let test = ListEngine.LineTest(command: "query " + ShellQuote.quote(query)) { $0 < selected.count && selected[$0] }
    let padding = String(lines.count).count - (lines.isEmpty ? 1 : 0)
    engine.print(engine.format(lines, padding: padding, terms: [], native: native, test: test), prefixFile: path)
    return .success
  }
}

/// A month of a year, as `cal` is asked for it.
struct CalendarMonth: Equatable {
  var year: Int
  var month: Int

  static let names = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
    "november", "december",
  ]

  /// The words completion offers: the month names, then the relative ones.
  static let words = names + ["next", "prev"]

  init(year: Int, month: Int) {
    self.year = year
    self.month = month
  }

  /// Reads `2026-12`, `12`, `dec`, `december`, `next` or `prev` (any case), relative to
  /// `today`; anything else, a month out of range included, gives `nil`.
  init?(_ word: String, today: TaskDate) {
    let lower = word.lowercased()
    let isDigits = { (text: Substring) in !text.isEmpty && text.utf8.allSatisfy { (48...57).contains($0) } }
    switch lower {
    case "next", "prev":
      let shifted = TaskDate(year: today.year, month: today.month, day: 1)?.adding(months: lower == "next" ? 1 : -1)
      guard let shifted else { return nil }
      self.init(year: shifted.year, month: shifted.month)
      return
    default: break
    }
    if let index = CalendarMonth.names.firstIndex(where: { $0 == lower || (lower.count == 3 && $0.hasPrefix(lower)) }) {
      self.init(year: today.year, month: index + 1)
      return
    }
    let parts = lower.split(separator: "-", omittingEmptySubsequences: false)
    if parts.count == 1, isDigits(parts[0]), parts[0].count <= 2, let number = Int(parts[0]),
      (1...12).contains(number)
    {
      self.init(year: today.year, month: number)
      return
    }
    guard parts.count == 2, parts[0].count == 4, isDigits(parts[0]), isDigits(parts[1]), parts[1].count <= 2,
      let year = Int(parts[0]), let number = Int(parts[1]), (1...9999).contains(year), (1...12).contains(number)
    else { return nil }
    self.init(year: year, month: number)
  }

  var dayCount: Int { TaskDate.daysIn(month: month, year: year) }
  var first: TaskDate { TaskDate(year: year, month: month, day: 1) ?? .earliest }
  var last: TaskDate { TaskDate(year: year, month: month, day: dayCount) ?? .latest }

  /// `February 2009`.
  var title: String {
    let name = CalendarMonth.names[month - 1]
    return name.prefix(1).uppercased() + name.dropFirst() + " \(year)"
  }
}

/// The grid `cal` prints: a title, a header of weekdays from Monday, and a row per week.
///
/// Every day takes a cell ten columns wide plus a space (76 columns for a week): the day
/// number in columns 2–3, a marker on either side of it (`[13]`, `!9`), then the count of
/// open tasks due, `(2)`, up to `(999+)`. Without colours the markers carry the meaning (`[13]` today, `!9`
/// overdue); with colours today is reversed and an overdue day takes the overdue colour, so
/// the grid reads the same either way.
///
/// On a terminal narrower than that, the grid is narrow (34 columns): four columns a day,
/// the marker, the day number and `*` when tasks are due.
struct CalendarGrid {
  static let wideCellWidth = 10
  static let narrowCellWidth = 4
  /// The columns a week takes in the wide grid.
  static let wideWidth = 7 * (wideCellWidth + 1) - 1
  /// Four columns a day, for a terminal narrower than ``wideWidth``.
  var isNarrow = false
  var cellWidth: Int { isNarrow ? CalendarGrid.narrowCellWidth : CalendarGrid.wideCellWidth }
  let month: CalendarMonth
  /// Open tasks due per day of the month (index 0 unused).
  let counts: [Int]
  let today: TaskDate
  let todayStyle: [UInt8]
  let overdueStyle: [UInt8]
  let dueTodayStyle: [UInt8]
  let reset: [UInt8]

  init(month: CalendarMonth, counts: [Int], today: TaskDate, settings: Settings) {
    self.month = month
    self.counts = counts
    self.today = today
    let plain = settings.isPlain
    // Reverse video is an attribute, not a colour: it shows on any terminal theme.
    todayStyle = plain ? [] : [0x1B] + Array("[7m".utf8)
    let palette = Palette(settings)
    overdueStyle = palette.overdue
    dueTodayStyle = palette.dueToday
    reset = palette.reset
  }

  var isPlain: Bool { todayStyle.isEmpty }

  /// The title, the weekday header, the weeks and a legend, without line endings.
  func lines() -> [[UInt8]] {
    let width = 7 * (cellWidth + 1) - 1
    let title = month.title
    var result: [[UInt8]] = [Array((String(repeating: " ", count: max(0, (width - title.count) / 2)) + title).utf8)]
    let header = Weekday.allCases.map { day in
      " " + day.name.prefix(1).uppercased() + day.name.dropFirst().prefix(isNarrow ? 1 : 2)
    }
    result.append(Array(header.map { $0.padding(to: cellWidth) }.joined(separator: " ").utf8).trimmedEnd())

    let leading = month.first.weekday.rawValue - 1
    let blank = [UInt8](repeating: 0x20, count: cellWidth)
    var row: [[UInt8]] = Array(repeating: blank, count: leading)
    for day in 1...month.dayCount {
      row.append(cell(day))
      if row.count == 7 || day == month.dayCount {
        result.append(Array(row.joined(separator: [0x20])).trimmedEnd())
        row = []
      }
    }
    result.append([])
    result.append(legend())
    return result
  }

  /// One day's cell, padded to ``cellWidth`` visible columns.
  func cell(_ day: Int) -> [UInt8] {
    let date = TaskDate(year: month.year, month: month.month, day: day) ?? today
    let count = counts[day]
    let isToday = date == today
    let isOverdue = date < today && count > 0
    let number = Array((day < 10 ? " \(day)" : "\(day)").utf8)
    if isNarrow { return narrowCell(day: day, number: number, count: count, isToday: isToday, isOverdue: isOverdue) }
    let tally = count == 0 ? "" : count > 999 ? "(999+)" : "(\(count))"
    let visible = 4 + tally.count
    var cell: [UInt8]
    if isPlain {
      // The marker stands right against the digits: ` [5]`, `[13]`, ` !9`, `!10`.
      let marked = (isToday ? "[" : isOverdue ? "!" : "") + String(day)
      let padding = String(repeating: " ", count: max(0, 3 - marked.count))
      cell = Array((padding + marked + (isToday ? "]" : " ") + tally).utf8)
    } else if isToday {
      cell = [0x20] + todayStyle + number + reset + [0x20]
      cell += tally.isEmpty || dueTodayStyle.isEmpty ? Array(tally.utf8) : dueTodayStyle + Array(tally.utf8) + reset
    } else if isOverdue, !overdueStyle.isEmpty {
      cell = [0x20] + overdueStyle + number + [0x20] + Array(tally.utf8) + reset
    } else {
      cell = [0x20] + number + [0x20] + Array(tally.utf8)
    }
    return cell + Array(repeating: 0x20, count: max(0, cellWidth - visible))
  }

  /// A day in four columns: the marker against the number (`[13` today, `!9` overdue, when
  /// plain), then `*` when tasks are due (how many, the list below the grid tells).
  func narrowCell(day: Int, number: [UInt8], count: Int, isToday: Bool, isOverdue: Bool) -> [UInt8] {
    let flag: [UInt8] = count == 0 ? [0x20] : [UInt8(ascii: "*")]
    if isPlain {
      let marked = Array(((isToday ? "[" : isOverdue ? "!" : "") + String(day)).utf8)
      return [UInt8](repeating: 0x20, count: max(0, 3 - marked.count)) + marked + flag
    }
    if isToday {
      let shown = count == 0 || dueTodayStyle.isEmpty ? flag : dueTodayStyle + flag + reset
      return [0x20] + todayStyle + number + reset + shown
    }
    if isOverdue, !overdueStyle.isEmpty { return [0x20] + overdueStyle + number + flag + reset }
    return [0x20] + number + flag
  }

  /// What the markers mean, drawn with the markers themselves.
  func legend() -> [UInt8] {
    if isNarrow {
      if isPlain { return Array("[13 today  !9 overdue  20* tasks due".utf8) }
      return todayStyle + Array("today".utf8) + reset + Array("  ".utf8)
        + (overdueStyle.isEmpty ? Array("overdue".utf8) : overdueStyle + Array("overdue".utf8) + reset)
        + Array("  20* tasks due".utf8)
    }
    if isPlain { return Array("[13] today   !9 overdue   (2) open tasks due".utf8) }
    return todayStyle + Array("today".utf8) + reset + Array("   ".utf8)
      + (overdueStyle.isEmpty ? Array("overdue".utf8) : overdueStyle + Array("overdue".utf8) + reset)
      + Array("   (2) open tasks due".utf8)
  }
}

extension String {
  /// The string with spaces after it up to `width` characters (never cut).
  fileprivate func padding(to width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}

extension Array where Element == UInt8 {
  /// The bytes without trailing spaces.
  fileprivate func trimmedEnd() -> [UInt8] {
    var end = count
    while end > 0, self[end - 1] == 0x20 { end -= 1 }
    return Array(self[..<end])
  }
}
