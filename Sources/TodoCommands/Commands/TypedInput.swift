import TodoTxt

/// Dates and priorities as people type them, turned into what the file stores.
///
/// Under the name `todo`, `due:fri`, `t:+2w` and `due:eom` in typed text become absolute
/// `YYYY-MM-DD` dates, so every other todo.txt tool reads the same date; `high`, `medium` and
/// `low` name the priorities A, B and C. Under the name todo.sh text is stored as typed.
enum TypedInput {
  /// The tag keys whose values are dates.
  static let dateKeys: Set<String> = Set(TagMeaning.all.filter { $0.value == .date }.map(\.key))

  /// `text` with every `due:` and `t:` value that is a date expression replaced by its date.
  ///
  /// - Throws: ``TodoError/notADate(_:)`` for a value that is neither a date nor a date
  ///   expression (`due:tomorow`, `due:2026-02-30`): stored, it would be a task that never
  ///   shows as due. `--verbatim` stores such text on purpose.
  static func resolvingDates(in text: [UInt8], today: TaskDate) throws(TodoError) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(text.count)
    var index = 0
    while index < text.count {
      let isBlank = text[index] == 0x20 || text[index] == 0x09
      var end = index
      while end < text.count, (text[end] == 0x20 || text[end] == 0x09) == isBlank { end += 1 }
      let token = text[index..<end]
      if !isBlank, let resolved = try resolvedTag(token, today: today) {
        result += resolved
      } else {
        result += token
      }
      index = end
    }
    return result
  }

  /// `key:DATE` for a `due:`/`t:` token whose value is a relative date, `nil` for any other
  /// token or a valid date.
  private static func resolvedTag(_ token: ArraySlice<UInt8>, today: TaskDate) throws(TodoError) -> [UInt8]? {
    guard let colon = token.firstIndex(of: UInt8(ascii: ":")) else { return nil }
    let key = String(decoding: token[..<colon], as: UTF8.self)
    let value = String(decoding: token[(colon + 1)...], as: UTF8.self)
    guard dateKeys.contains(key), !value.isEmpty, TaskDate(value) == nil else { return nil }
    return Array(token[...colon]) + (try date(value, today: today)).utf8
  }

  /// The date `text` says (a date, a date word or an English phrase: see
  /// ``RelativeDate/resolve(_:today:)``).
  ///
  /// - Throws: ``TodoError/ambiguousDate(_:readings:)`` for a numeric date that reads
  ///   differently by country (`12/10`), naming its readings as `YYYY-MM-DD`;
  ///   ``TodoError/notADate(_:)`` naming the whole text otherwise.
  static func date(_ text: String, today: TaskDate) throws(TodoError) -> TaskDate {
    if let date = RelativeDate.resolve(text, today: today) { return date }
    if let readings = RelativeDate.numericReadings(text, today: today), !readings.isEmpty {
      throw .ambiguousDate(text, readings: readings)
    }
    throw .notADate(text)
  }

  /// `--verbatim`: the text is stored as typed.
  static let verbatimOption = OptionSpec(
    ["--verbatim"], help: "Store the text exactly as typed: due: and t: values are neither turned into dates nor checked.")

  /// A tag value as typed for `key`: a date expression for `due` and `t`, resolved; a
  /// priority word for `pri` (`high` → `A`); any other value as typed.
  static func tagValue(_ value: String, key: String, today: TaskDate) throws(TodoError) -> String {
    switch TagMeaning.named(key)?.value {
    case .date?: return try date(value, today: today).description
    case .priority?: return Priority(word: value)?.description ?? value
    default: return value
    }
  }

  /// A duration such as `3d`, `1w`, `2m`, `1y` or `5b` (`-1d` goes back), or in words: `3 days`,
  /// `2 weeks`, `a month`, `5 business days`.
  static func duration(_ text: String) throws(TodoError) -> RelativeDate.Offset {
    var typed = Substring(text)
    if typed.first == "+" { typed.removeFirst() }
    // A bare number counts days.
    if !typed.isEmpty, typed.allSatisfy({ $0.isASCII && $0.isNumber }) { typed += "d" }
    guard let offset = RelativeDate.Offset(typed) ?? RelativeDate.Offset(words: typed) else {
      throw .notADuration(text)
    }
    return offset
  }

  /// The priorities a `listpri` selection names under the name `todo` with a priority word:
  /// `high`, `high-medium`, `a-low` (a single letter is the letter, as in todo.sh and in
  /// queries), as the letters of a bracket expression (`A-B`); `nil` for anything else,
  /// which the caller reads as todo.sh does.
  static func prioritySelection(_ word: String, mode: Mode) -> String? {
    guard mode.policy.resolvesTypedValues, word.utf8.count <= 13 else { return nil }
    let parts = word.split(separator: "-", omittingEmptySubsequences: false)
    let priorities = parts.compactMap { $0.count > 1 ? Priority(word: $0) : Priority($0.uppercased()) }
    guard parts.count <= 2, priorities.count == parts.count, parts.contains(where: { $0.count > 1 }),
      let first = priorities.first, let last = priorities.last
    else { return nil }
    return "\(min(first, last))-\(max(first, last))"
  }
}

extension TypedInput {
  /// `add --priority WORD TEXT`: a letter or high, medium, low (h, m, l).
  static let priorityOption = OptionSpec(
    ["--priority"], value: .priority, valueName: "PRIORITY",
    help: "Give the new task this priority: a letter A-Z, or high, medium or low.")

  /// `text` with its leading `(X) ` replaced by, or preceded by, `(letter) `.
  static func prioritized(_ text: [UInt8], _ letter: UInt8) -> [UInt8] {
    let body = hasAnyPriorityPrefix(text) ? Array(text.dropFirst(4)) : text
    return [UInt8(ascii: "("), letter, UInt8(ascii: ")"), UInt8(ascii: " ")] + body
  }
}

extension CommandContext {
  /// Typed task text as it is stored: relative dates resolved under the name `todo`.
  func storedText(_ text: [UInt8]) throws(TodoError) -> [UInt8] {
    guard settings.policy.resolvesTypedValues, !invocation.has(TypedInput.verbatimOption.name) else { return text }
    return try TypedInput.resolvingDates(in: text, today: today)
  }

  /// Edits several tasks of todo.txt under one lock, in the order given; nothing is written
  /// when any of them fails.
  ///
  /// - Returns: each reference with its task as written.
  @discardableResult
  func editTasks(
    _ references: [TaskReference], label: String, _ edit: (TaskReference, inout Task) throws(TodoError) -> Void
  ) throws(TodoError) -> EditedTasks {
    try editTasks(label: label, choosing: { _ throws(TodoError) in references }, edit)
  }

  /// Edits the tasks `choose` picks on the snapshot being changed (a `-q` query's tasks),
  /// in one change, in the order given; nothing is written when any of them fails.
  ///
  /// - Parameter asking: `choose` may ask the person (see ``change(_:label:asking:_:)``).
  @discardableResult
  func editTasks(
    label: String, asking: Bool = false, choosing choose: (TodoList) throws(TodoError) -> [TaskReference],
    _ edit: (TaskReference, inout Task) throws(TodoError) -> Void
  ) throws(TodoError) -> EditedTasks {
    let file = settings.todoFile
    return try change(file, label: label, asking: asking) { list in
      let references = try choose(list)
      // A task edited more than once (`postpone 1 1 1d`) is shown as each edit left it.
      var seen = Set<Int>()
      var repeated = Set<Int>()
      for reference in references where !seen.insert(reference.number).inserted { repeated.insert(reference.number) }
      var kept: [Int: Task] = [:]
      for (position, reference) in references.enumerated() {
        var task = try reference.task(in: list, file: file, mode: settings.mode)
        try edit(reference, &task)
        list.replace(number: reference.number, with: task)
        if repeated.contains(reference.number) { kept[position] = task }
      }
      return EditedTasks(references: references, list: list, kept: kept)
    }
  }
}

/// The tasks an edit of several wrote, each with its reference, as written: read from the
/// list as written when they are shown, not held apart (a `-q` edit of 250,000 tasks held a
/// copy of each), but for a task edited again later, kept as each edit left it.
struct EditedTasks: Sequence {
  let references: [TaskReference]
  let list: TodoList
  /// Tasks as an edit left them, by position among `references`.
  let kept: [Int: Task]

  func makeIterator() -> AnyIterator<(TaskReference, Task)> {
    var position = 0
    return AnyIterator {
      guard position < references.count else { return nil }
      defer { position += 1 }
      let reference = references[position]
      return (reference, kept[position] ?? list[reference.number - 1])
    }
  }
}
