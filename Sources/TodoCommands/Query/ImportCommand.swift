import TodoTxt

/// `import` (and `add --json`): tasks as JSON on standard input, appended to todo.txt.
enum ImportCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "import",
    abstract: "Add tasks read as JSON from standard input (one object per line, or an array).",
    discussion: """
      Each object needs "text"; "priority" (a letter, or high, medium or low), "created", \
      "completed", "done", "due", \
      "threshold" (dates, or date words such as "next monday"), "projects", "contexts" and \
      "tags" are optional and become the line's head \
      and tags when the text does not already say them. Objects as ls --format json writes \
      them are read back to the same lines. A missing "created" is today's date when dates \
      are added on add; null means none. All tasks are appended in one change.
      """,
    nativeOnly: true
  ) { context, _ throws(TodoError) in
    try run(context)
  }

  /// Reads standard input to its end and appends the tasks.
  static func run(_ context: CommandContext) throws(TodoError) -> ExitStatus {
    var input: [UInt8] = []
    while let line = context.input.readLine() {
      input += line
      input.append(0x0A)
    }
    let values: [JSONValue]
    do {
      values = try JSONReader.values(input)
    } catch {
      throw .badImport("line \(error.line), column \(error.column): \(error.message)")
    }
    var objects: [JSONValue] = []
    for value in values {
      if case .array(let elements) = value { objects += elements } else { objects.append(value) }
    }
    let lines = try objects.enumerated().map { offset, object throws(TodoError) in
      try line(for: object, number: offset + 1, context: context)
    }
    guard !lines.isEmpty else { return .success }
    let file = context.settings.todoFile
    try context.ensureDirectory(for: file)
    let numbers = try context.storing { try context.store.append(lines, to: file, label: "import") }
    if context.verbose {
      for (number, line) in zip(numbers, lines) {
        context.echo(String(number), line)
        context.console.line("\(context.todoPrefix): \(number) added.")
      }
    }
    return .success
  }

  /// The todo.txt line for one imported object: its ``TaskRecord`` (which says what each
  /// member should hold), then what the members mean, checked here.
  static func line(for object: JSONValue, number: Int, context: CommandContext) throws(TodoError) -> [UInt8] {
    func fail(_ detail: String) -> TodoError { .badImport("task \(number): \(detail)") }
    let record: TaskRecord
    do {
      record = try JSONValueDecoder().decode(TaskRecord.self, from: object)
    } catch let error as DecodingError {
      throw fail(error.problem)
    } catch {
      throw fail("\(error)")
    }
    let rawText = record.text
    let text = String(decoding: cleanInput(Array(rawText.utf8)), as: UTF8.self).trimmingSpaces()
    guard !text.isEmpty else { throw fail("\"text\" is empty") }

    func date(_ value: String??, _ name: String) throws(TodoError) -> TaskDate?? {
      switch value {
      case .none: return .none
      case .some(nil): return .some(nil)
      case .some(let value?):
        guard let date = RelativeDate.resolve(value, today: context.today) else {
          throw fail("\"\(name)\" is not a date: \(value)")
        }
        return .some(date)
      }
    }
    func names(_ values: [String]?, _ name: String, sigil: Character) throws(TodoError) -> [String] {
      var result: [String] = []
      for var value in values ?? [] {
        if value.first == sigil { value.removeFirst() }
        if let scalar = controlCharacter(in: value.utf8) {
          throw .controlCharacter(what: "import: task \(number): \"\(name)\"", scalar: scalar)
        }
        guard !value.isEmpty, !value.contains(where: { $0 == " " || $0 == "\t" }) else {
          throw fail("'\(value)' in \"\(name)\" cannot be a name (no spaces)")
        }
        result.append(value)
      }
      return result
    }

    var done = record.done ?? false
    var priority: Priority?
    if case .some(let value?) = record.priority {
      guard let letter = Priority(word: value) else {
        throw fail("\"priority\" should be a letter A to Z, or high, medium or low")
      }
      priority = letter
    }
    let completed = try date(record.completed, "completed")
    if case .some(.some) = completed { done = true }
    let created = try date(record.created, "created")
    let task = Task(parsing: text)

    var line = ""
    if done {
      line += "x "
      switch completed {
      case .none: line += context.today.description + " "
      case .some(let date?): line += date.description + " "
      case .some(nil): break
      }
    }
    if let priority, !done { line += "(\(priority)) " }
    switch created {
    case .none: if context.settings.datesOnAdd { line += context.today.description + " " }
    case .some(let date?): line += date.description + " "
    case .some(nil): break
    }
    // The text's own due: and t: values, as add takes them (relative dates resolved, others refused).
    line += String(decoding: try context.storedText(Array(text.utf8)), as: UTF8.self)

    var existingTags = Set(task.tags.map { $0.key + ":" + $0.value })
    func addTag(_ key: String, _ value: String) throws(TodoError) {
      if let scalar = controlCharacter(in: Array((key + value).utf8)) {
        throw .controlCharacter(what: "import: task \(number): \"tags\"", scalar: scalar)
      }
      guard isTagPart(key), isTagPart(value), !value.hasPrefix("//") else {
        throw fail("'\(key):\(value)' cannot be a tag (no spaces or colons)")
      }
      guard existingTags.insert(key + ":" + value).inserted else { return }
      line += " \(key):\(value)"
    }
    let projects = task.projects
    for name in try names(record.projects, "projects", sigil: "+") where !projects.contains(name) { line += " +" + name }
    let contexts = task.contexts
    for name in try names(record.contexts, "contexts", sigil: "@") where !contexts.contains(name) { line += " @" + name }
    if case .some(let due?) = try date(record.due, TagMeaning.due.field), task.tagValue(TagMeaning.due.key) == nil {
      try addTag(TagMeaning.due.key, due.description)
    }
    if case .some(let threshold?) = try date(record.threshold, TagMeaning.threshold.field),
      task.tagValue(TagMeaning.threshold.key) == nil
    {
      try addTag(TagMeaning.threshold.key, threshold.description)
    }
    if done, let priority, task.tagValue(TagMeaning.keptPriority.key) == nil {
      try addTag(TagMeaning.keptPriority.key, priority.description)
    }
    for tag in record.tags ?? [] { try addTag(tag.key, tag.value) }
    // The text may hold what a line of the file may hold (a tab, a BEL: export and import
    // round-trip them, and a terminal sees them escaped); its CR and LF became spaces, as add
    // makes them. A NUL is no part of a text line. The names and tags are checked above for
    // every control character.
    if rawText.utf8.contains(0) { throw .controlCharacter(what: "import: task \(number): \"text\"", scalar: 0) }
    return Array(line.utf8)
  }

  /// Non-empty, without whitespace or a colon: one side of a `key:value` tag.
  static func isTagPart(_ text: String) -> Bool {
    !text.isEmpty && !text.utf8.contains { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x3A }
  }
}
