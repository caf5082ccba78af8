// A phone app's task manager on the command line, built on the public API of TodoTxt and
// TodoStore only: a documentation example of an app holding a todo.txt list with
// `TodoDocument`. Each command opens the list, edits `document.list` and saves (which merges
// whatever another program changed meanwhile).

import Foundation
import TodoStore
import TodoTxt
import TodoTxtFoundation

let seeUsage = " (run task-manager alone for its usage)"
let usage = """
  usage: task-manager [--file PATH] COMMAND
    add TITLE [--category C] [--priority low|medium|high] [--due DATE] [--note TEXT]
    update N [--title T] [--category C] [--priority P|none] [--due DATE|none] [--note TEXT]
    complete N
    list [--open|--done|--all] [--sort manual|date|priority]
    search WORDS
    move N TO
    note N TEXT
    attach N FILE
    show N
  N is a task's line number. A TITLE or TEXT of - is read from standard input.
  The list is --file PATH, else $TASKS_FILE, else ./tasks.txt.
  """

/// The command line: the command, its words, and `--option value` pairs or flags.
struct Invocation {
  static let valued: Set = ["--file", "--title", "--category", "--priority", "--due", "--note", "--sort"]
  static let flags: Set = ["--open", "--done", "--all"]
  static let fields: Set = ["--category", "--priority", "--due", "--note"]
  /// Per command: how many words it takes and which options.
  static let commands: [String: (words: ClosedRange<Int>, options: Set<String>)] = [
    "add": (1...Int.max, fields), "update": (1...1, fields.union(["--title"])),
    "complete": (1...1, []), "list": (0...0, flags.union(["--sort"])), "search": (1...Int.max, []),
    "move": (2...2, []), "note": (2...Int.max, []), "attach": (2...2, []), "show": (1...1, []),
  ]

  var command = ""
  var words: [String] = []
  var options: [String: String] = [:]

  init(_ arguments: [String]) throws(Failure) {
    var rest = arguments[...]
    while let word = rest.popFirst() {
      if word == "--" {
        words += rest
        break
      } else if Invocation.valued.contains(word) || Invocation.flags.contains(word) {
        let value = Invocation.flags.contains(word) ? "" : rest.popFirst()
        guard let value else { throw Failure("\(word) needs a value") }
        guard options.updateValue(value, forKey: word) == nil else { throw Failure("\(word) is given twice") }
      } else if word.hasPrefix("--") {
        throw Failure("unknown option \(word.debugDescription)" + seeUsage)
      } else if command.isEmpty {
        command = word
      } else {
        words.append(word)
      }
    }
    guard let shape = Invocation.commands[command] else {
      throw Failure(command.isEmpty ? usage : "unknown command \(command.debugDescription)" + seeUsage)
    }
    guard shape.words.contains(words.count) else { throw Failure("wrong number of words for \(command)" + seeUsage) }
    if let extra = options.keys.sorted().first(where: { $0 != "--file" && !shape.options.contains($0) }) {
      throw Failure("\(command) does not take \(extra)")
    }
  }

  /// The words from `index` on, as one text.
  func text(from index: Int) -> String { words[index...].joined(separator: " ") }
}

/// The text as typed, or standard input for `-` (without its final newline).
func typed(_ text: String) -> String {
  guard text == "-" else { return text }
  let input = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
  return input.hasSuffix("\n") ? String(input.dropLast()) : input
}

/// Writes text for a terminal: control characters a task line may hold (written there by
/// another program) are shown escaped, never sent to the terminal.
func say(_ text: String) {
  print(
    text.unicodeScalars.map { $0 != "\n" && $0.properties.generalCategory == .control ? $0.escaped(asASCII: true) : String($0) }
      .joined())
}

/// The index in the list of task number `word` (its line number).
func index(_ word: String, in list: TodoList) throws(Failure) -> Int {
  guard let number = Int(word), list.indices.contains(number - 1), !list[number - 1].isBlank else {
    throw Failure("there is no task \(word.debugDescription) (tasks are numbered 1 to \(list.count))")
  }
  return number - 1
}

/// One line of a listing: `3 [ ] Buy milk  (shopping, high, due 2026-05-01)`.
func row(_ index: Int, _ task: Task) -> String {
  var details = [task.category, task.priorityLevel?.rawValue, task.dueDate.map { "due \($0)" }].compactMap { $0 }
  if task.note != nil { details.append("note") }
  if !task.attachments.isEmpty { details.append("photo") }
  let mark = task.isCompleted ? "x" : " "
  return "\(index + 1) [\(mark)] \(task.title)" + (details.isEmpty ? "" : "  (\(details.joined(separator: ", ")))")
}

/// Sets the fields given as options on the task at `index` of the document's list.
func apply(_ options: [String: String], toTaskAt index: Int, of document: TodoDocument, today: TaskDate) throws {
  var task = document.list[index]
  if let title = options["--title"] { try task.setTitle(typed(title)) }
  if let category = options["--category"] { try task.setCategory(category) }
  if let word = options["--priority"] { task.setPriority(try Priority.level(word)) }
  if let due = options["--due"] {
    if due == "none" { try task.setDueDate(nil) } else { try task.setDueDate(due, today: today) }
  }
  document.list.replace(at: index, with: task)
  // The note's file is written at once: last, once every other field is known to be good.
  if let note = options["--note"] { try document.setNoteText(typed(note), ofTaskAt: index) }
}

func run(_ invocation: Invocation, today: TaskDate) throws {
  let environment = ProcessInfo.processInfo.environment["TASKS_FILE"].flatMap { $0.isEmpty ? nil : $0 }
  let document = try TodoDocument(path: invocation.options["--file"] ?? environment ?? "tasks.txt")
  let words = invocation.words
  let options = invocation.options
  var output: [String] = []
  switch invocation.command {
  case "add":
    document.list.append(try Task(title: typed(invocation.text(from: 0)), created: today))
    try apply(options, toTaskAt: document.list.count - 1, of: document, today: today)
    output.append("added \(document.list.count): \(document.list[document.list.count - 1].title)")
  case "update":
    let task = try index(words[0], in: document.list)
    try apply(options, toTaskAt: task, of: document, today: today)
    output.append(row(task, document.list[task]))
  case "complete":
    let index = try index(words[0], in: document.list)
    var task = document.list[index]
    task.complete(on: today)
    document.list.replace(at: index, with: task)
    output.append(row(index, task))
  case "list":
    let shown = ["--open", "--done", "--all"].filter { options[$0] != nil }
    guard shown.count <= 1 else { throw Failure("list takes one of --open, --done and --all") }
    let sort = options["--sort"] ?? "manual"
    guard ["manual", "date", "priority"].contains(sort) else {
      throw Failure("\(sort.debugDescription) is not a sort order: use manual, date or priority")
    }
    let rows = document.list.indices.filter { index in
      let task = document.list[index]
      return !task.isBlank && (shown == ["--all"] || task.isCompleted == (shown == ["--done"]))
    }
    // Ties keep the manual order; a task without a due date or priority goes last.
    func key(_ task: Task) -> Int {
      switch sort {
      case "date": task.dueDate?.daysSinceEpoch ?? Int.max
      case "priority": task.priority.map { Int($0.byte) } ?? Int.max
      default: 0
      }
    }
    for index in rows.sorted(by: { (key(document.list[$0]), $0) < (key(document.list[$1]), $1) }) {
      output.append(row(index, document.list[index]))
    }
  case "search":
    let wanted = words.map { CaseFolding.folded($0) }
    for index in document.list.indices where !document.list[index].isBlank {
      let task = document.list[index]
      let text = [task.title, task.category ?? "", try document.noteText(of: task) ?? ""].joined(separator: "\n")
      let folded = CaseFolding.folded(text)
      if wanted.allSatisfy({ folded.contains($0) }) { output.append(row(index, task)) }
    }
  case "move":
    let from = try index(words[0], in: document.list)
    let to = try index(words[1], in: document.list)
    document.list.move(from: from, to: to)
    output.append(row(to, document.list[to]))
  case "note":
    let index = try index(words[0], in: document.list)
    try document.setNoteText(typed(invocation.text(from: 1)), ofTaskAt: index)
    output.append(row(index, document.list[index]))
  case "attach":
    let index = try index(words[0], in: document.list)
    guard let contents = FileManager.default.contents(atPath: words[1]) else {
      throw Failure("cannot read \(words[1].debugDescription)")
    }
    let name = try document.attach(
      Array(contents), named: URL(fileURLWithPath: words[1]).lastPathComponent, toTaskAt: index)
    output.append("attached \(document.attachmentsPath)/\(name)")
  default:  // show
    let task = document.list[try index(words[0], in: document.list)]
    var lines = [
      "title:    \(task.title)",
      "category: \(task.category ?? "-")",
      "priority: \(task.priorityLevel?.rawValue ?? "-")",
      "due:      \(task.dueDate?.description ?? "-")",
      "created:  \(task.creationDate?.description ?? "-")",
      "done:     \(task.isCompleted ? "yes, \(task.completionDate?.description ?? "date unknown")" : "no")",
    ]
    if let note = try document.noteText(of: task) {
      lines.append("note:     " + note.split(separator: "\n").joined(separator: "\n          "))
    }
    lines += document.attachmentPaths(of: task).map { "photo:    \($0)" }
    output += lines
  }
  // Commands that only read change nothing, and write nothing.
  if document.hasUnsavedChanges {
    let outcome = try document.save(label: "task-manager \(invocation.command)")
    if !outcome.conflicts.isEmpty { output.append("another program changed these tasks meanwhile: both versions kept") }
  }
  output.forEach(say)
}

do {
  guard let today = TaskDate(Date()) else { throw Failure("the clock is outside the years 1 to 9999") }
  try run(try Invocation(Array(CommandLine.arguments.dropFirst())), today: today)
} catch {
  let message =
    switch error {
    case let failure as Failure: failure.message
    case let error as Task.ModelError: error.message
    default: "\(error)"
    }
  FileHandle.standardError.write(Data("task-manager: \(message)\n".utf8))
  exit(1)
}
