import TodoTxt

/// Why fields cannot be written into a todo.txt line as they are, typed where the task
/// mapping raises it and worded once, in `description`.
public enum TaskMappingError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The title would make the line read another way: it starts with `x `, `(A) ` or a date
  /// where nothing in the head stands before it, and todo.txt has no escaping.
  case titleReadsAsHead(String)
  /// The title holds a line break, which would make two lines.
  case titleNotOneLine
  /// A name or tag value the line cannot hold (a `p:` with a colon, a project with a space).
  case model(Task.ModelError)

  public var description: String {
    switch self {
    case .titleReadsAsHead(let title):
      return "the title '\(ICalendarError.shown(title))' would read as a done mark, a priority or a date in todo.txt"
    case .titleNotOneLine: return "the title holds a line break"
    case .model(let error): return error.description
    }
  }
}

extension TaskFields {
  /// The fields of a todo.txt task. The note's text and the manual order are not in the line:
  /// the caller gives them (the note file's contents, the order it keeps).
  ///
  /// The title is the body's words joined by single spaces, `+project` and `@context` words
  /// included, without the tags mapped to fields (`due:`, `t:`, `rec:`, `id:`, `p:`, `pri:`)
  /// and without the tool's own (`uid:`, `note:`, `att:`, `h:`), whatever their value, as
  /// ``Task/title`` reads it. Invalid UTF-8 reads as U+FFFD.
  public init(_ task: Task, note: String? = nil, sortOrder: String? = nil) {
    self.init(
      title: TaskFields.titleWords(of: task).map(\.word).joined(separator: " "), priority: task.priority,
      projects: task.projects, contexts: task.contexts, due: task.dueDate, start: task.thresholdDate,
      isCompleted: task.isCompleted, completed: task.completionDate, created: task.creationDate,
      recurrence: task.recurrence, id: task.dependencyID, parents: TaskFields.unique(task.parentIDs), note: note,
      sortOrder: sortOrder)
  }

  static func unique(_ values: [String]) -> [String] {
    var result: [String] = []
    for value in values where !result.contains(value) { result.append(value) }
    return result
  }

  /// The body's words that make the title, with their ranges (indices of `task.bytes`).
  static func titleWords(of task: Task) -> [(range: Range<Int>, word: String)] {
    var words: [(Range<Int>, String)] = []
    task.forEachToken { token in
      if isMapped(token, in: task) { return }
      words.append((token.range, String(decoding: task.bytes[token.range], as: UTF8.self)))
    }
    return words
  }

  /// A tag with meaning (a field of its own, or the tool's), whatever its value: a `due:soon`
  /// is not in the title either, since setting the due date writes over its value.
  static func isMapped(_ token: Token, in task: Task) -> Bool {
    guard case .tag(let colon) = token.kind else { return false }
    return TagMeaning.named(String(decoding: task.bytes[token.range.lowerBound..<colon], as: UTF8.self)) != nil
  }
}

extension Task {
  /// A new task saying `fields` (for a VTODO that came from the server): the head, the title,
  /// then the tags, in the order ``apply(_:)`` appends them. A done task without a completion
  /// date has no place for a creation date (see ``setCreationDate(_:)``): it is left out.
  public init(fields: TaskFields) throws(TaskMappingError) {
    var head = ""
    if fields.isCompleted {
      head = "x " + (fields.completed.map { $0.description + " " } ?? "")
      if fields.completed != nil, let created = fields.created { head += created.description + " " }
    } else {
      if let priority = fields.priority { head = "(" + priority.description + ") " }
      if let created = fields.created { head += created.description + " " }
    }
    var task = Task(parsing: head)
    try task.replaceTitle(with: fields.title)
    if fields.isCompleted, let priority = fields.priority {
      try Task.typed { () throws(Task.ModelError) in try task.set(.keptPriority, to: priority.description) }
    }
    try task.apply(fields)
    self = task
  }

  /// Changes the task to say `fields`, each part only where it differs: the head (done and
  /// its date, priority, creation date) through the typed setters, the title by replacing
  /// only the words that changed (tags between them are kept), names and tags set, added or
  /// removed where they stand. Every other word, tag and byte of the line stays. The note's
  /// text and the order are the caller's to store. A done task's completion date is not
  /// removed (a creation date would take its place).
  public mutating func apply(_ fields: TaskFields) throws(TaskMappingError) {
    var task = self
    if fields.isCompleted != task.isCompleted {
      if !fields.isCompleted {
        task.reopen()
      } else if let date = fields.completed {
        task.complete(on: date, priorityStyle: .tag)
      } else {
        // `x ` alone: a creation date after it would read as the completion date, so it
        // goes; the priority moves to `pri:` as `complete` moves it.
        let priority = task.headPriority
        task.setPriority(nil)
        task.setCreationDate(nil)
        task.setLine([UInt8(ascii: "x"), 0x20] + task.bytes)
        task.setPriority(priority)
      }
    } else if fields.isCompleted, let date = fields.completed, task.completionDate != date {
      var line = Array(task.bytes)
      if task.completionDate != nil {
        line.replaceSubrange(2..<12, with: date.utf8)
      } else {
        line.insert(contentsOf: date.utf8 + [0x20], at: 2)
      }
      task.setLine(line)
    }
    if task.priority != fields.priority { task.setPriority(fields.priority) }
    if task.creationDate != fields.created { task.setCreationDate(fields.created) }
    try task.replaceTitle(with: fields.title)
    try Task.typed { () throws(Task.ModelError) in
      let (projects, contexts) = (task.projects, task.contexts)
      for name in fields.projects where !projects.contains(name) { try task.addProject(name) }
      for name in projects where !fields.projects.contains(name) { try task.removeProject(name) }
      for name in fields.contexts where !contexts.contains(name) { try task.addContext(name) }
      for name in contexts where !fields.contexts.contains(name) { try task.removeContext(name) }
      if task.dueDate != fields.due { try task.setDueDate(fields.due) }
      if task.thresholdDate != fields.start { try task.setThresholdDate(fields.start) }
      if task.recurrence != fields.recurrence { try task.setRecurrence(fields.recurrence) }
      if task.dependencyID != fields.id { try task.setDependencyID(fields.id) }
      let parents = task.parentIDs
      for id in parents where !fields.parents.contains(id) { try task.removeParent(id) }
      for id in fields.parents where !parents.contains(id) { try task.addParent(id) }
    }
    self = task
  }

  /// Runs edits through the typed setters, their refusal typed as the mapping's.
  static func typed(_ edits: () throws(Task.ModelError) -> Void) throws(TaskMappingError) {
    do { try edits() } catch { throw .model(error) }
  }

  /// Replaces the title words that differ from `title`'s: the common words at the start and
  /// the end stay where they are; the words between are replaced, keeping the mapped tags
  /// that stood among them after the new words. Refuses a title that would change the head.
  /// (A title from ``VTODOMapping`` holds no word todo.txt reads as a tag with meaning.)
  mutating func replaceTitle(with title: String) throws(TaskMappingError) {
    guard !title.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }) else { throw .titleNotOneLine }
    let old = TaskFields.titleWords(of: self)
    let new = title.utf8.split(separator: 0x20).map { String(decoding: $0, as: UTF8.self) }
    guard old.map(\.word) != new else { return }
    var prefix = 0
    while prefix < old.count, prefix < new.count, old[prefix].word == new[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < old.count - prefix, suffix < new.count - prefix,
      old[old.count - 1 - suffix].word == new[new.count - 1 - suffix]
    {
      suffix += 1
    }
    let base = bytes.startIndex
    var line = Array(bytes)
    let inserted = new[prefix..<(new.count - suffix)]
    if prefix < old.count - suffix {
      let lower = old[prefix].range.lowerBound - base
      let upper = old[old.count - 1 - suffix].range.upperBound - base
      // The mapped tags among the replaced words stay, after the new ones.
      var kept: [String] = []
      forEachToken { token in
        if token.range.lowerBound - base >= lower, token.range.upperBound - base <= upper,
          TaskFields.isMapped(token, in: self)
        {
          kept.append(String(decoding: bytes[token.range], as: UTF8.self))
        }
      }
      let replacement = Array((Array(inserted) + kept).joined(separator: " ").utf8)
      if replacement.isEmpty {
        // The words go with the white space before them (after them at the body's start).
        var from = lower
        var to = upper
        let bodyStart = bodyOffset
        while from > bodyStart, line[from - 1].isWhitespace { from -= 1 }
        if from == lower { while to < line.count, line[to].isWhitespace { to += 1 } }
        line.replaceSubrange(from..<to, with: [])
      } else {
        line.replaceSubrange(lower..<upper, with: replacement)
      }
    } else if prefix > 0 {
      let at = old[prefix - 1].range.upperBound - base
      line.insert(contentsOf: Array((" " + inserted.joined(separator: " ")).utf8), at: at)
    } else if !old.isEmpty {
      let at = old[0].range.lowerBound - base
      line.insert(contentsOf: Array((inserted.joined(separator: " ") + " ").utf8), at: at)
    } else {
      var edited = self
      edited.prependText(inserted.joined(separator: " "))
      line = Array(edited.bytes)
    }
    let edited = Task(bytes: line)
    guard edited.isCompleted == isCompleted, edited.completionDate == completionDate,
      edited.creationDate == creationDate, edited.headPriority == headPriority
    else { throw .titleReadsAsHead(title) }
    self = edited
  }
}

extension UInt8 {
  /// The white space between todo.txt words.
  fileprivate var isWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0D }
}
