import TodoTxt

/// One mapped field of a task, as the three-way merge compares them.
///
/// The completion mark and its date are one field: a task done on one side and reopened on
/// the other is one question, not two.
public enum TaskField: String, CaseIterable, Sendable, CustomStringConvertible {
  case title, priority, projects, contexts, due, start, completion, created, recurrence, id
  case parents, note, sortOrder

  public var description: String {
    switch self {
    case .sortOrder: return "order"
    case .start: return "t"
    default: return rawValue
    }
  }

  /// Whether the field is a set of names merged name by name (a project added on the phone
  /// and a context added here are both kept) rather than one value.
  var isNameSet: Bool { self == .projects || self == .contexts || self == .parents }

  func same(_ a: TaskFields, _ b: TaskFields) -> Bool {
    switch self {
    case .title: return a.title == b.title
    case .priority: return a.priority == b.priority
    case .projects: return a.projects == b.projects
    case .contexts: return a.contexts == b.contexts
    case .due: return a.due == b.due
    case .start: return a.start == b.start
    case .completion: return a.isCompleted == b.isCompleted && a.completed == b.completed
    case .created: return a.created == b.created
    case .recurrence: return a.recurrence == b.recurrence
    case .id: return a.id == b.id
    case .parents: return a.parents == b.parents
    case .note: return a.note == b.note
    case .sortOrder: return a.sortOrder == b.sortOrder
    }
  }

  public func copy(from source: TaskFields, into target: inout TaskFields) {
    switch self {
    case .title: target.title = source.title
    case .priority: target.priority = source.priority
    case .projects: target.projects = source.projects
    case .contexts: target.contexts = source.contexts
    case .due: target.due = source.due
    case .start: target.start = source.start
    case .completion:
      target.isCompleted = source.isCompleted
      target.completed = source.completed
    case .created: target.created = source.created
    case .recurrence: target.recurrence = source.recurrence
    case .id: target.id = source.id
    case .parents: target.parents = source.parents
    case .note: target.note = source.note
    case .sortOrder: target.sortOrder = source.sortOrder
    }
  }

  func names(_ fields: TaskFields) -> [String] {
    switch self {
    case .projects: return fields.projects
    case .contexts: return fields.contexts
    case .parents: return fields.parents
    default: return []
    }
  }

  func setNames(_ names: [String], in fields: inout TaskFields) {
    switch self {
    case .projects: fields.projects = names
    case .contexts: fields.contexts = names
    case .parents: fields.parents = names
    default: break
    }
  }

  /// The field's value in a conflict report: what a person reads to choose.
  public func text(of fields: TaskFields) -> String {
    func optional(_ value: (some CustomStringConvertible)?) -> String { value.map { "\($0)" } ?? "(none)" }
    switch self {
    case .title: return fields.title
    case .priority: return fields.priority.map { "(\($0))" } ?? "(none)"
    case .projects: return fields.projects.map { "+" + $0 }.joined(separator: " ")
    case .contexts: return fields.contexts.map { "@" + $0 }.joined(separator: " ")
    case .due: return optional(fields.due)
    case .start: return optional(fields.start)
    case .completion:
      guard fields.isCompleted else { return "open" }
      return fields.completed.map { "done \($0)" } ?? "done"
    case .created: return optional(fields.created)
    case .recurrence: return optional(fields.recurrence)
    case .id: return optional(fields.id)
    case .parents: return fields.parents.joined(separator: " ")
    case .note: return fields.note ?? "(none)"
    case .sortOrder: return optional(fields.sortOrder)
    }
  }
}

/// A field both sides changed, each its own way: both values, and which one the merge kept.
public struct FieldConflict: Equatable, Sendable {
  public var field: TaskField
  /// The field's value in the list before the sync.
  public var local: String
  /// The field's value on the server before the sync.
  public var remote: String

  public init(field: TaskField, local: String, remote: String) {
    self.field = field
    self.local = local
    self.remote = remote
  }
}

/// The three-way merge of one task, field by field.
///
/// The base is the task as both sides last agreed on it (the sync state's copy). A field only
/// one side changed takes that side's value; a field both changed to the same value is no
/// question. A field both changed to different values is a conflict, and the rule is fixed:
/// **the server's value is kept on both sides**, and the list's value is reported with it.
/// The list's value is not lost: the sync is one change of the list, so `todo undo` brings it
/// back, and the next sync sends it to the server as a change of the list's.
///
/// The manual order (X-APPLE-SORT-ORDER) is never a conflict: see ``init(base:local:remote:)``.
///
/// Projects, contexts and parents are sets of names merged name by name: a name added on
/// either side is added, a name removed on either side is removed, so these never conflict.
///
/// Without a base (a first sync that found a task on both sides by its `uid:`), every field
/// that differs is a conflict (the server's value kept), except the name sets, which are
/// joined.
public struct FieldMerge: Equatable, Sendable {
  public let merged: TaskFields
  public let conflicts: [FieldConflict]
  /// Whether the list's copy must change to become `merged`.
  public let changesLocal: Bool
  /// Whether the server's copy must change to become `merged`.
  public let changesRemote: Bool

  public init(base: TaskFields?, local: TaskFields, remote: TaskFields) {
    var merged = remote
    var conflicts: [FieldConflict] = []
    for field in TaskField.allCases where !field.same(local, remote) {
      if field.isNameSet {
        let names = FieldMerge.mergeNames(
          base: base.map(field.names), local: field.names(local), remote: field.names(remote))
        field.setNames(names, in: &merged)
        continue
      }
      if field == .sortOrder {
        // The manual order is a place, not content: it is never a conflict. The server's
        // number wins where both sides moved the task (or a first sync finds both
        // numbered), the list's where the server has none.
        if remote.sortOrder == nil || base.map({ field.same($0, remote) }) == true { field.copy(from: local, into: &merged) }
        continue
      }
      if let base, field.same(base, remote) {
        field.copy(from: local, into: &merged)
      } else if let base, field.same(base, local) {
        continue
      } else {
        conflicts.append(FieldConflict(field: field, local: field.text(of: local), remote: field.text(of: remote)))
      }
    }
    self.merged = merged
    self.conflicts = conflicts
    self.changesLocal = merged != local
    self.changesRemote = merged != remote
  }

  /// Name-by-name merge: the names both sides kept of the base, then the names either side
  /// added, the list's first; in the order the list has them, then the server's.
  static func mergeNames(base: [String]?, local: [String], remote: [String]) -> [String] {
    let baseSet = Set(base ?? [])
    let localSet = Set(local)
    let remoteSet = Set(remote)
    var result: [String] = []
    var seen: Set<String> = []
    for name in local + remote where !seen.contains(name) {
      let kept: Bool
      if baseSet.contains(name) {
        kept = localSet.contains(name) && remoteSet.contains(name)
      } else {
        kept = true
      }
      if kept {
        result.append(name)
        seen.insert(name)
      }
    }
    return result
  }
}
