import TodoTxt

/// `--format '{n} {priority} {text}'`: one line per task from a template, read once.
///
/// Fields: `{n}` line number, `{file}`, `{raw}` the whole line, `{hash}`, `{done}` (`x` or
/// nothing), `{priority}`, `{created}`, `{completed}`, `{due}`, `{threshold}` (dates as
/// `YYYY-MM-DD` or nothing), `{projects}` and `{contexts}` (`+a +b`, `@c`), `{tags}`
/// (`key:value ...`), `{text}` (the line after its head), `{tag:KEY}` (the first value of a
/// tag). `{{` and `}}` write braces; `\t` and `\n` write a tab and a newline.
struct TaskTemplate {
  enum Field: String, CaseIterable {
    case n, file, raw, hash, done, priority, created, completed, due, threshold, projects, contexts, tags, text
  }

  enum Part: Equatable {
    case literal([UInt8])
    case field(Field)
    case tag(String)
  }

  let parts: [Part]

  /// Reads a template; a field name it does not know is an error naming it.
  init(_ template: String) throws(TodoError) {
    var parts: [Part] = []
    var literal: [UInt8] = []
    let bytes = Array(template.utf8)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "{"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "{") {
        literal.append(byte)
        index += 2
      } else if byte == UInt8(ascii: "}"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "}") {
        literal.append(byte)
        index += 2
      } else if byte == UInt8(ascii: "\\"), index + 1 < bytes.count,
        bytes[index + 1] == UInt8(ascii: "t") || bytes[index + 1] == UInt8(ascii: "n")
      {
        literal.append(bytes[index + 1] == UInt8(ascii: "t") ? 0x09 : 0x0A)
        index += 2
      } else if byte == UInt8(ascii: "{") {
        guard let close = bytes[index...].firstIndex(of: UInt8(ascii: "}")) else {
          throw .badOptionValue("--format", template)
        }
        let name = String(decoding: bytes[(index + 1)..<close], as: UTF8.self)
        if !literal.isEmpty { parts.append(.literal(literal)) }
        literal = []
        if name.hasPrefix("tag:"), name.count > 4 {
          parts.append(.tag(String(name.dropFirst(4))))
        } else if let field = Field(rawValue: name) {
          parts.append(.field(field))
        } else {
          throw .unknownField(name)
        }
        index = close + 1
      } else {
        literal.append(byte)
        index += 1
      }
    }
    if !literal.isEmpty { parts.append(.literal(literal)) }
    self.parts = parts
  }

  /// The task's line under this template (without a newline).
  func render(_ task: Task, line: Int, file: String) -> [UInt8] {
    var out: [UInt8] = []
    func date(_ value: TaskDate?) -> String { value?.description ?? "" }
    for part in parts {
      switch part {
      case .literal(let bytes): out += bytes
      case .tag(let key): out += Array((task.tagValue(key) ?? "").utf8)
      case .field(let field):
        switch field {
        case .n: out += Array(String(line).utf8)
        case .file: out += Array(file.utf8)
        case .raw: out += task.bytes
        case .hash: out += Array(task.contentHash.utf8)
        case .done: out += task.isCompleted ? [UInt8(ascii: "x")] : []
        case .priority: out += Array((task.priority?.description ?? "").utf8)
        case .created: out += Array(date(task.creationDate).utf8)
        case .completed: out += Array(date(task.completionDate).utf8)
        case .due: out += Array(date(task.dueDate).utf8)
        case .threshold: out += Array(date(task.thresholdDate).utf8)
        case .projects: out += Array(task.projects.map { "+" + $0 }.joined(separator: " ").utf8)
        case .contexts: out += Array(task.contexts.map { "@" + $0 }.joined(separator: " ").utf8)
        case .tags: out += Array(task.tags.map { $0.key + ":" + $0.value }.joined(separator: " ").utf8)
        case .text: out += task.bodyBytes
        }
      }
    }
    return out
  }
}
