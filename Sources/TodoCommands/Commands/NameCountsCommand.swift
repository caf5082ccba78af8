import TodoTxt

/// `projects` and `contexts`: each +project (@context) with how many of its tasks are open,
/// overdue and done, to see where work piles up. `listproj`/`listcon` stay todo.sh's plain
/// list of words; these are tables of their own.
enum NameCountsCommand {
  /// The columns a table can be sorted by.
  enum Key: String, CaseIterable {
    case name, open, overdue, done
  }

  static let sortOption = OptionSpec(
    ["--sort"], value: .listOf(Key.allCases.map(\.rawValue)), valueName: "KEYS",
    help: "Order by these comma-separated columns (name when not given); a key with - in front sorts descending.")
  static let formatOption = OptionSpec.reportFormat(help: "Print a table (text) or a JSON array (json).")

  static let projectsSpec = spec(
    "projects", sigil: "+", kind: "project",
    abstract: "Count the open, overdue and done tasks of each +project, done.txt included.")
  static let contextsSpec = spec(
    "contexts", sigil: "@", kind: "context",
    abstract: "Count the open, overdue and done tasks of each @context, done.txt included.")

  /// The counts of one name.
  struct Counts: Equatable {
    var open = 0
    var overdue = 0
    var done = 0
  }

  static func spec(_ name: String, sigil: Character, kind: String, abstract: String) -> CommandSpec {
    CommandSpec(
      name: name, abstract: abstract,
      discussion: """
        A task counts once for each \(sigil)\(kind) it names, written exactly so (case counts). \
        Open counts every task not done, hidden or waiting ones too; overdue counts the open \
        tasks whose due: date is before today; done counts the done tasks of todo.txt and of \
        done.txt.
        """,
      options: [sortOption, formatOption], nativeOnly: true
    ) { context, _ throws(TodoError) in
      // The parser took only this table's keys (``sortOption``).
      let keys = (context.invocation.keys(sortOption.name) ?? [OptionValue.Key(word: Key.name.rawValue, descending: false)])
        .compactMap { key in Key(rawValue: key.word).map { (key: $0, descending: key.descending) } }
      let counts = try count(sigil == "+" ? \.projects : \.contexts, context: context)
      let rows = sorted(counts, by: keys)
      if ReportFormat(context.invocation) == .json {
        var writer = JSONWriter()
        writer.raw("[")
        for (offset, row) in rows.enumerated() {
          writer.raw(offset == 0 ? "\n" : ",\n")
          writer.raw("{\"name\":")
          writer.string(row.name)
          writer.raw(",\"open\":")
          writer.number(row.counts.open)
          writer.raw(",\"overdue\":")
          writer.number(row.counts.overdue)
          writer.raw(",\"done\":")
          writer.number(row.counts.done)
          writer.raw("}")
        }
        writer.raw(rows.isEmpty ? "]\n" : "\n]\n")
        context.console.write(writer.bytes)
        return .success
      }
      for line in table(rows, heading: kind.uppercased(), sigil: sigil) { context.console.line(context.display(line)) }
      return .success
    }
  }

  /// The counts of every name of `names` (a task's projects or contexts) in todo.txt and done.txt.
  static func count(_ names: KeyPath<Task, [String]>, context: CommandContext) throws(TodoError) -> [String: Counts] {
    let today = context.today
    var counts: [String: Counts] = [:]
    for task in try context.readList(context.settings.todoFile) where !task.isBlank {
      for name in task[keyPath: names] {
        if task.isCompleted {
          counts[name, default: Counts()].done += 1
        } else {
          counts[name, default: Counts()].open += 1
          if let due = task.dueDate, due < today { counts[name, default: Counts()].overdue += 1 }
        }
      }
    }
    for task in try context.readList(context.settings.doneFile) where !task.isBlank && task.isCompleted {
      for name in task[keyPath: names] { counts[name, default: Counts()].done += 1 }
    }
    return counts
  }

  /// The rows in the order of `keys`, then by name.
  static func sorted(
    _ counts: [String: Counts], by keys: [(key: Key, descending: Bool)]
  ) -> [(name: String, counts: Counts)] {
    let names = counts.keys.map { ($0, TextOrder.key($0)) }
    func compareNames(_ x: (String, [UInt32]), _ y: (String, [UInt32])) -> Int {
      let value = TextOrder.compare(x.1, y.1)
      if value != 0 { return value }
      return x.0 < y.0 ? -1 : (x.0 == y.0 ? 0 : 1)
    }
    let ordered = names.sorted { x, y in
      let a = counts[x.0] ?? Counts()
      let b = counts[y.0] ?? Counts()
      for (key, descending) in keys {
        let result: Int
        switch key {
        case .name: result = compareNames(x, y)
        case .open: result = a.open == b.open ? 0 : (a.open < b.open ? -1 : 1)
        case .overdue: result = a.overdue == b.overdue ? 0 : (a.overdue < b.overdue ? -1 : 1)
        case .done: result = a.done == b.done ? 0 : (a.done < b.done ? -1 : 1)
        }
        if result != 0 { return descending ? result > 0 : result < 0 }
      }
      return compareNames(x, y) < 0
    }
    return ordered.map { ($0.0, counts[$0.0] ?? Counts()) }
  }

  /// The table's lines: a heading, then a row per name; names left-aligned, counts right-aligned.
  static func table(_ rows: [(name: String, counts: Counts)], heading: String, sigil: Character) -> [[UInt8]] {
    let titles = ["OPEN", "OVERDUE", "DONE"]
    let names = rows.map { String(sigil) + $0.name }
    let width = max(heading.count, names.map(\.count).max() ?? 0)
    func padded(_ text: String, _ width: Int, left: Bool) -> String {
      let fill = String(repeating: " ", count: max(0, width - text.count))
      return left ? text + fill : fill + text
    }
    let values = rows.map { [$0.counts.open, $0.counts.overdue, $0.counts.done].map(String.init) }
    let widths = titles.indices.map { column in max(titles[column].count, values.map { $0[column].count }.max() ?? 0) }
    let header = zip(titles, widths).map { padded($0, $1, left: false) }
    var lines = [Array((padded(heading, width, left: true) + "  " + header.joined(separator: "  ")).utf8)]
    for (row, name) in zip(values, names) {
      let cells = zip(row, widths).map { padded($0, $1, left: false) }
      lines.append(Array((padded(name, width, left: true) + "  " + cells.joined(separator: "  ")).utf8))
    }
    return lines
  }
}
