import TodoTxt

/// Tasks as an iCalendar (RFC 5545) VCALENDAR of VTODO entries, which calendar and task
/// applications import: CRLF line endings, lines folded at 75 octets, text escaped.
struct ICalendarWriter {
  private(set) var bytes: [UInt8] = []
  let stamp: String

  /// - Parameter today: the day written as each entry's DTSTAMP.
  init(today: TaskDate) {
    stamp = ICalendarWriter.compact(today) + "T000000Z"
    line("BEGIN:VCALENDAR")
    line("VERSION:2.0")
    line("PRODID:-//todo//todo.txt tasks//EN")
  }

  mutating func finish() -> [UInt8] {
    line("END:VCALENDAR")
    return bytes
  }

  /// The text written so far, handed over and forgotten: a long list is written out in
  /// pieces instead of held whole.
  mutating func drain() -> [UInt8] {
    defer { bytes.removeAll(keepingCapacity: true) }
    return bytes
  }

  /// `20261130` for 2026-11-30.
  static func compact(_ date: TaskDate) -> String { date.description.filter { $0 != "-" } }

  mutating func task(_ task: Task) {
    line("BEGIN:VTODO")
    line("UID:\(ICalendarWriter.identity(of: task))@todo.txt")
    line("DTSTAMP:\(stamp)")
    line("SUMMARY:" + ICalendarWriter.escape(summary(of: task)))
    line("DESCRIPTION:" + ICalendarWriter.escape(String(decoding: task.bytes, as: UTF8.self)))
    if let created = task.creationDate { line("CREATED:\(ICalendarWriter.compact(created))T000000Z") }
    let start = task.thresholdDate ?? (task.recurrence != nil ? task.dueDate : nil)
    if let start { line("DTSTART;VALUE=DATE:\(ICalendarWriter.compact(start))") }
    if let due = task.dueDate, start.map({ $0 <= due }) ?? true { line("DUE;VALUE=DATE:\(ICalendarWriter.compact(due))") }
    if let priority = task.priority {
      line("PRIORITY:\(min(9, Int(priority.byte) - 64))")
    }
    if task.isCompleted {
      line("STATUS:COMPLETED")
      if let completed = task.completionDate { line("COMPLETED:\(ICalendarWriter.compact(completed))T000000Z") }
    } else {
      line("STATUS:NEEDS-ACTION")
    }
    let categories = task.projects.map { "+" + $0 } + task.contexts.map { "@" + $0 }
    if !categories.isEmpty { line("CATEGORIES:" + categories.map(ICalendarWriter.escape).joined(separator: ",")) }
    if start != nil, let rule = task.recurrence.flatMap(ICalendarWriter.rule) { line("RRULE:" + rule) }
    line("END:VTODO")
  }

  /// A UID that follows the text, not the head or a kept `pri:`, so completing or
  /// prioritizing a task keeps it (and the next task of a `rec:`, due later, gets another).
  static func identity(of task: Task) -> String {
    var words: [UInt8] = []
    task.forEachToken { token in
      if case .tag(let colon) = token.kind, task.bytes[token.range.lowerBound..<colon].elementsEqual(TagMeaning.keptPriority.key.utf8) { return }
      if !words.isEmpty { words.append(0x20) }
      words += task.bytes[token.range]
    }
    return Task(bytes: words).contentHash
  }

  /// The text without the tags that became properties.
  private func summary(of task: Task) -> String {
    var words: [String] = []
    task.forEachToken { token in
      if case .tag(let colon) = token.kind,
        [TagMeaning.due, .threshold, .recurrence, .keptPriority].map(\.key).contains(String(decoding: task.bytes[token.range.lowerBound..<colon], as: UTF8.self))
      {
        return
      }
      words.append(String(decoding: task.bytes[token.range], as: UTF8.self))
    }
    return words.joined(separator: " ")
  }

  /// An RRULE for `rec:`, when one says the same: days, weeks, months, years, and single
  /// business days. (A `rec:` without `+` counts from the day the task is done, which a
  /// calendar cannot; the rule then gives the planned rhythm.)
  static func rule(_ recurrence: Recurrence) -> String? {
    switch recurrence.unit {
    case .day: "FREQ=DAILY;INTERVAL=\(recurrence.count)"
    case .week: "FREQ=WEEKLY;INTERVAL=\(recurrence.count)"
    case .month: "FREQ=MONTHLY;INTERVAL=\(recurrence.count)"
    case .year: "FREQ=YEARLY;INTERVAL=\(recurrence.count)"
    case .businessDay: recurrence.count == 1 ? "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR" : nil
    }
  }

  /// TEXT escaping: backslash, semicolon, comma and newline; other control characters are
  /// left out (TEXT may not hold them).
  static func escape(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": result += "\\\\"
      case ";": result += "\\;"
      case ",": result += "\\,"
      case "\n": result += "\\n"
      case "\t": result.unicodeScalars.append(scalar)
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F { continue }
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// Writes a content line, folded so that no line exceeds 75 octets (a continuation line
  /// starts with a space), never inside a UTF-8 sequence.
  private mutating func line(_ text: String) {
    let utf8 = Array(text.utf8)
    var start = 0
    var limit = 75
    while utf8.count - start > limit {
      var end = start + limit
      while end > start, utf8[end] & 0xC0 == 0x80 { end -= 1 }
      if start > 0 { bytes.append(0x20) }
      bytes.append(contentsOf: utf8[start..<end])
      bytes.append(contentsOf: [0x0D, 0x0A])
      start = end
      limit = 74
    }
    if start > 0 { bytes.append(0x20) }
    bytes.append(contentsOf: utf8[start...])
    bytes.append(contentsOf: [0x0D, 0x0A])
  }
}
