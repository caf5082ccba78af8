/// Why two versions of a task could not be merged.
public enum MergeConflictReason: Hashable, Sendable {
  /// Both sides changed the text (the words that are not tags) differently.
  case text
  /// Both sides changed the priority, to different values.
  case priority
  /// Both sides changed this tag, to different values.
  case tag(String)
  /// One side deleted the task and the other changed it.
  case deletedAndChanged
  /// One side deleted the task and the other moved it, as it was, to the other list file,
  /// where git keeps it: the deletion stands only if the line there goes too (see
  /// ``TodoMerge/OtherFileMerge/git``).
  case deletedAndMoved
  /// One side's line was taken for this task only because its words resemble it (it may be
  /// a new task written like an old one), and the other side changed the task: joining the
  /// two could put one task's change on another.
  case uncertainMatch
}

/// The parts of a task that a merge weighs one by one.
struct TaskFields: Equatable {
  /// `nil` for an open task; the completion date as written (empty without one) when done.
  var completion: String?
  var priority: Priority?
  var creationDate: TaskDate?
  /// The body without its tags (``LineKey/core``).
  var text: [UInt8]
  /// The values of each tag key, in order; `pri:` on a completed task is its priority, not a
  /// tag.
  var tags: [String: [String]]

  init(_ task: Task) {
    completion = task.isCompleted ? (task.completionDate?.description ?? "") : nil
    priority = task.priority
    creationDate = task.creationDate
    text = LineKey(task).core
    var tags: [String: [String]] = [:]
    for tag in task.tags where !(task.isCompleted && tag.key == TagMeaning.keptPriority.key) {
      tags[tag.key, default: []].append(tag.value)
    }
    self.tags = tags
  }

  init(
    completion: String?, priority: Priority?, creationDate: TaskDate?, text: [UInt8],
    tags: [String: [String]]
  ) {
    self.completion = completion
    self.priority = priority
    self.creationDate = creationDate
    self.text = text
    self.tags = tags
  }
}

/// The merge of one task's versions.
enum TaskMerge {
  enum Outcome: Equatable {
    case merged(Task)
    case conflict(MergeConflictReason)
  }

  /// Whether `task` is `base` completed and nothing else (the priority dropped by completing
  /// it the todo.sh way included). Deleting such a task on the other side is no conflict:
  /// that is what archiving it there does, and either way the task is finished.
  static func onlyCompleted(_ base: Task, _ task: Task) -> Bool {
    guard task.isCompleted, !base.isCompleted else { return false }
    var fields = TaskFields(task)
    fields.completion = nil
    fields.priority = normalizedPriority(task, reference: base)
    return fields == TaskFields(base)
  }

  /// Of two next occurrences of one recurring task (the same `rec:`, text, priority and
  /// other tags; only `due:`/`t:` and the creation date differ), the one that comes first:
  /// both sides completed the task, the completions merge into the earlier one, and the
  /// next task is the one that completion made. `nil` for anything else.
  static func nextOccurrence(_ ours: Task, _ theirs: Task) -> Task? {
    let o = TaskFields(ours)
    let t = TaskFields(theirs)
    guard o.completion == nil, t.completion == nil, let rec = o.tags["rec"], rec == t.tags["rec"],
      o.text == t.text, o.priority == t.priority
    else { return nil }
    let dated: Set<String> = ["due", "t"]
    guard o.tags.filter({ !dated.contains($0.key) }) == t.tags.filter({ !dated.contains($0.key) })
    else { return nil }
    let ourDate = o.tags["due"]?.first ?? o.tags["t"]?.first ?? ""
    let theirDate = t.tags["due"]?.first ?? t.tags["t"]?.first ?? ""
    return theirDate < ourDate ? theirs : ours
  }

  /// Three-way (with `base`) or two-way merge of one task, field by field.
  ///
  /// A field changed on one side only takes that side's value; changed on both sides to the
  /// same value, that value; to different values, the text, the priority and tags conflict,
  /// while completion and the creation date take the earlier date (a task done on both sides
  /// is done). Completing a task the todo.sh way drops its priority: that is not counted as
  /// a change of priority. Without a base, a field present on one side only is taken.
  static func merge(base: Task?, ours: Task, theirs: Task) -> Outcome {
    if ours == theirs { return .merged(ours) }
    if let base {
      if ours == base { return .merged(theirs) }
      if theirs == base { return .merged(ours) }
    }
    let o = TaskFields(ours)
    let t = TaskFields(theirs)
    let b =
      base.map(TaskFields.init)
      ?? TaskFields(completion: nil, priority: nil, creationDate: nil, text: o.text, tags: [:])
    // A priority dropped by completing the task counts as unchanged.
    let oursReference = base ?? theirs
    let theirsReference = base ?? ours
    let oursPriority = normalizedPriority(ours, reference: oursReference)
    let theirsPriority = normalizedPriority(theirs, reference: theirsReference)
    let basePriority = base == nil && oursPriority == theirsPriority ? oursPriority : b.priority

    guard let text = resolve(b.text, o.text, t.text) else { return .conflict(.text) }
    guard let priority = resolve(basePriority, oursPriority, theirsPriority) else {
      return .conflict(.priority)
    }
    var tags: [String: [String]] = [:]
    for key in Set(o.tags.keys).union(t.tags.keys).union(b.tags.keys) {
      guard let values = resolve(b.tags[key] ?? [], o.tags[key] ?? [], t.tags[key] ?? []) else {
        return .conflict(.tag(key))
      }
      if !values.isEmpty { tags[key] = values }
    }
    // Done on both sides on different days: done, on the earlier day; the same for the
    // creation date. Either way round gives the same task.
    let completion =
      resolve(b.completion, o.completion, t.completion) ?? earlier(o.completion, t.completion)
    let creationDate =
      resolve(b.creationDate, o.creationDate, t.creationDate)
      ?? earlier(o.creationDate, t.creationDate)
    let merged = TaskFields(
      completion: completion, priority: priority, creationDate: creationDate, text: text, tags: tags
    )

    // Start from the side whose words won (both: the line that sorts first, so that the
    // result does not depend on which side is ours), and bring the other fields over.
    let oursCarries =
      o.text == text && (t.text != text || !theirs.bytes.lexicographicallyPrecedes(ours.bytes))
    var task = oursCarries ? ours : theirs
    let reference = oursCarries ? oursReference : theirsReference
    let completer = o.completion == completion ? ours : theirs
    apply(merged, to: &task, reference: reference, completer: completer)
    var result = TaskFields(task)
    // A done task without a priority reads as completed the todo.sh way (the priority
    // dropped, still the reference's); when the merge removed the priority, it is that too.
    let dropped = merged.priority == nil && task.isCompleted && task.priority == nil
    result.priority = dropped ? nil : normalizedPriority(task, reference: reference)
    guard result == merged else { return .conflict(.text) }
    return .merged(task)
  }

  /// The value of a field after a three-way merge, or `nil` for a conflict.
  static func resolve<T: Equatable>(_ base: T, _ ours: T, _ theirs: T) -> T? {
    if ours == theirs { return ours }
    if ours == base { return theirs }
    if theirs == base { return ours }
    return nil
  }

  /// The earlier of two values, or the one that is there.
  static func earlier<T: Comparable>(_ a: T?, _ b: T?) -> T? {
    guard let a else { return b }
    guard let b else { return a }
    return min(a, b)
  }

  /// A task's priority, except that a task completed without one, where `reference` was still
  /// open, keeps `reference`'s (todo.sh drops the priority when it completes a task).
  static func normalizedPriority(_ task: Task, reference: Task) -> Priority? {
    if task.isCompleted, task.priority == nil, !reference.isCompleted { return reference.priority }
    return task.priority
  }

  /// Edits `task` until its fields are `fields`, touching only the parts that differ.
  private static func apply(
    _ fields: TaskFields, to task: inout Task, reference: Task, completer: Task
  ) {
    let current = TaskFields(task)
    if current.completion != fields.completion {
      if let completion = fields.completion {
        if task.isCompleted { task.reopen() }
        // Complete the way the side that did it did: keeping the priority in `pri:` or not.
        let style: CompletedPriorityStyle = completer.priority == nil ? .drop : .tag
        if let date = TaskDate(completion) {
          task.complete(on: date, priorityStyle: style)
        } else {
          if style == .drop { task.setPriority(nil) }
          task.setLine([.lowercaseX, .space] + task.bytes)
        }
      } else {
        task.reopen()
      }
    }
    if normalizedPriority(task, reference: reference) != fields.priority {
      task.setPriority(fields.priority)
    }
    if task.creationDate != fields.creationDate { task.setCreationDate(fields.creationDate) }
    let tags = TaskFields(task).tags
    var keys: [String] = []
    for tag in task.tags + completer.tags where !keys.contains(tag.key) { keys.append(tag.key) }
    for key in fields.tags.keys.sorted() where !keys.contains(key) { keys.append(key) }
    for key in keys where tags[key] != fields.tags[key] && !(task.isCompleted && key == TagMeaning.keptPriority.key) {
      let values = fields.tags[key] ?? []
      if let old = tags[key], old.count == 1, values.count == 1 {
        task.setTag(key, values[0])
      } else {
        task.removeTag(key)
        for value in values { task.appendText(key + ":" + value) }
      }
    }
  }
}
