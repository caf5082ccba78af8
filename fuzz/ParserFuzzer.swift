// libFuzzer entry for the todo.txt parser. Built together with the TodoTxt sources into one
// module (see fuzz/run), so it also reaches the index's internal chunked path.
//
// For every input it checks that reading is lossless, that every derived view of every line
// can be computed, that the index agrees with what the lines say one by one (and with itself
// when built in chunks), and that an edit changes its own line and nothing else.

/// Stops the run; libFuzzer saves the input that got here.
func violated(_ what: @autoclosure () -> String) -> Never {
  fatalError("violated: \(what())")
}

func check(_ condition: Bool, _ what: @autoclosure () -> String) {
  if !condition { violated(what()) }
}

/// The index computed line by line from the public views of each task.
struct ReferenceIndex {
  var projects: [String: [Int]] = [:]
  var contexts: [String: [Int]] = [:]
  var tagKeys: [String: Int] = [:]
  var dueDates: [(Int, TaskDate)] = []
  var thresholdDates: [(Int, TaskDate)] = []
  var taskCount = 0
  var completedCount = 0
  var prioritizedCount = 0

  init(_ list: TodoList) {
    // Names are gathered as bytes first: distinct byte strings that decode to the same text
    // (invalid UTF-8) keep the lines of the one seen first, as the index documents.
    var projectBytes: [[UInt8]: [Int]] = [:]
    var projectOrder: [[UInt8]] = []
    var contextBytes: [[UInt8]: [Int]] = [:]
    var contextOrder: [[UInt8]] = []
    var keyBytes: [[UInt8]: Int] = [:]
    var keyOrder: [[UInt8]] = []
    for (index, task) in list.enumerated() {
      let number = index + 1
      if task.isBlank { continue }
      taskCount += 1
      if task.isCompleted { completedCount += 1 }
      if task.headPriority != nil { prioritizedCount += 1 }
      var keysOnLine: Set<[UInt8]> = []
      for token in task.tokens {
        switch token.kind {
        case .word:
          break
        case .project:
          let name = Array(task.bytes[(token.range.lowerBound + 1)..<token.range.upperBound])
          if projectBytes[name] == nil { projectOrder.append(name) }
          if projectBytes[name, default: []].last != number { projectBytes[name, default: []].append(number) }
        case .context:
          let name = Array(task.bytes[(token.range.lowerBound + 1)..<token.range.upperBound])
          if contextBytes[name] == nil { contextOrder.append(name) }
          if contextBytes[name, default: []].last != number { contextBytes[name, default: []].append(number) }
        case .tag(let colon):
          let key = Array(task.bytes[token.range.lowerBound..<colon])
          if keyBytes[key] == nil { keyOrder.append(key) }
          if keysOnLine.insert(key).inserted { keyBytes[key, default: 0] += 1 }
        }
      }
      if let due = task.dueDate { dueDates.append((number, due)) }
      if let threshold = task.thresholdDate { thresholdDates.append((number, threshold)) }
    }
    func strings<Value>(_ order: [[UInt8]], _ values: [[UInt8]: Value]) -> [String: Value] {
      var result: [String: Value] = [:]
      for name in order {
        let text = String(decoding: name, as: UTF8.self)
        if result[text] == nil { result[text] = values[name] }
      }
      return result
    }
    projects = strings(projectOrder, projectBytes)
    contexts = strings(contextOrder, contextBytes)
    tagKeys = strings(keyOrder, keyBytes)
  }
}

func checkSame(_ index: TodoIndex, _ reference: ReferenceIndex, _ label: String) {
  check(index.taskCount == reference.taskCount, "\(label): taskCount")
  check(index.completedCount == reference.completedCount, "\(label): completedCount")
  check(index.prioritizedCount == reference.prioritizedCount, "\(label): prioritizedCount")
  check(index.projects == reference.projects, "\(label): projects")
  check(index.contexts == reference.contexts, "\(label): contexts")
  check(index.tagKeys == reference.tagKeys, "\(label): tagKeys")
  check(index.dueDates.map(\.number) == reference.dueDates.map(\.0), "\(label): due lines")
  check(index.dueDates.map(\.date) == reference.dueDates.map(\.1), "\(label): due dates")
  check(index.thresholdDates.map(\.number) == reference.thresholdDates.map(\.0), "\(label): t lines")
  check(index.thresholdDates.map(\.date) == reference.thresholdDates.map(\.1), "\(label): t dates")
}

/// Reads every derived view of a task, and checks the ones that must agree with each other.
func touch(_ task: Task) {
  let n = task.bytes.count
  check(task.bodyOffset >= 0 && task.bodyOffset <= n, "body offset inside the line")
  _ = task.line
  _ = task.text
  _ = task.isBlank
  _ = task.priority
  _ = task.keptPriority
  _ = task.completionDate?.description
  _ = task.creationDate?.daysSinceEpoch
  var projects: [String] = []
  var contexts: [String] = []
  var previousEnd = task.bytes.startIndex + task.bodyOffset
  for token in task.tokens {
    check(token.range.lowerBound >= previousEnd, "tokens in order")
    check(token.range.upperBound <= task.bytes.endIndex, "token inside the line")
    check(!token.range.isEmpty, "token not empty")
    previousEnd = token.range.upperBound
    let name = String(decoding: task.bytes[(token.range.lowerBound + 1)..<token.range.upperBound], as: UTF8.self)
    if token.kind == .project, !projects.contains(name) { projects.append(name) }
    if token.kind == .context, !contexts.contains(name) { contexts.append(name) }
  }
  check(task.projects == projects, "projects agree with tokens")
  check(task.contexts == contexts, "contexts agree with tokens")
  for tag in task.tags {
    check(!tag.key.isEmpty && !tag.value.isEmpty, "tag sides not empty")
  }
  _ = task.dueDate?.weekday
  _ = task.thresholdDate?.adding(days: 1)
  _ = task.isHidden
  _ = task.dependencyID
  _ = task.parentIDs
  if let recurrence = task.recurrence {
    _ = recurrence.description
    let today = TaskDate(year: 2026, month: 1, day: 15) ?? .earliest
    if let next = task.nextOccurrence(completedOn: today) {
      check(!next.isCompleted || next.bytes.starts(with: [.lowercaseX, .space]), "next occurrence")
      _ = next.dueDate
    }
  }
}

/// Applies `edit` to line `index` and checks that every other line, its ending, the byte order
/// mark and the file's end are exactly as before.
func checkEdit(_ list: TodoList, _ index: Int, _ label: String, _ edit: (inout Task) -> Void) {
  var edited = list
  var task = list[index]
  edit(&task)
  edited.replace(at: index, with: task)
  check(edited.count == list.count, "\(label): line count")
  check(edited.hasByteOrderMark == list.hasByteOrderMark, "\(label): byte order mark")
  var expected: [UInt8] = list.hasByteOrderMark ? TodoList.byteOrderMark : []
  for j in 0..<list.count {
    check(edited.lineEnding(at: j) == list.lineEnding(at: j), "\(label): line ending of \(j)")
    if j != index { check(edited[j].bytes.elementsEqual(list[j].bytes), "\(label): line \(j) changed") }
    expected += j == index ? Array(task.bytes) : Array(list[j].bytes)
    expected += list.lineEnding(at: j).bytes
  }
  check(edited.serialized() == expected, "\(label): serialized")
  for change in edited.changes() {
    switch change {
    case .keep(let original, let current): check(original == current && current != index, "\(label): kept")
    case .replace(let original, let current): check(original == index && current == index, "\(label): replaced")
    case .insert, .delete: violated("\(label): lines inserted or deleted")
    }
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let input = size > 0 ? Array(UnsafeBufferPointer(start: data, count: size)) : []
  let list = TodoList(bytes: input)
  check(list.serialized() == input, "round trip")
  check(list.originalCount == list.count, "original count")
  for task in list { touch(task) }

  let reference = ReferenceIndex(list)
  checkSame(TodoIndex(list), reference, "index")
  for chunks in [2, 3, 7] {
    checkSame(TodoIndex(list, chunkCount: chunks), reference, "index in \(chunks) chunks")
  }

  let day = TaskDate(year: 2026, month: 2, day: 3) ?? .earliest
  for index in Set([0, list.count / 2, list.count - 1]) where index >= 0 && index < list.count {
    checkEdit(list, index, "complete") { task in
      task.complete(on: day)
      check(task.isCompleted, "completed after complete")
    }
    checkEdit(list, index, "complete dropping priority") { $0.complete(on: day, priorityStyle: .drop) }
    checkEdit(list, index, "setPriority") { $0.setPriority(Priority(UInt8(ascii: "B"))) }
    checkEdit(list, index, "remove priority") { $0.setPriority(nil) }
    checkEdit(list, index, "setTag") { task in
      task.setTag("due", "2026-03-04")
      check(task.tagValue("due") == "2026-03-04", "tag value after setTag")
    }
    checkEdit(list, index, "reopen") { $0.reopen() }
    checkEdit(list, index, "complete then reopen") { task in
      task.complete(on: day)
      task.reopen()
    }
  }
  return 0
}
