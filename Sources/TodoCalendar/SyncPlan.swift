import TodoTxt

/// Which of the list's two files a task is in.
public enum ListFile: String, Hashable, Sendable {
  case todo, done
}

/// Where a task is in the list: its file and its line (0-based) as read.
public struct TaskPlace: Hashable, Sendable, Comparable {
  public var file: ListFile
  public var line: Int

  public init(_ file: ListFile, line: Int) {
    self.file = file
    self.line = line
  }

  public static func < (a: TaskPlace, b: TaskPlace) -> Bool {
    (a.file == .todo ? 0 : 1, a.line) < (b.file == .todo ? 0 : 1, b.line)
  }
}

/// One task of the list, as the plan sees it: where it is, its `uid:` and its mapped fields.
public struct LocalTask: Equatable, Sendable {
  public var place: TaskPlace
  public var uid: String?
  public var fields: TaskFields

  public init(place: TaskPlace, uid: String?, fields: TaskFields) {
    self.place = place
    self.uid = uid
    self.fields = fields
  }
}

/// One item read from the server: its version, its UID and its mapped fields.
public struct RemoteTask: Equatable, Sendable {
  public var version: RemoteVersion
  public var uid: String
  /// The series (or the only VTODO) of the item.
  public var fields: TaskFields
  /// Occurrences of a recurring task the phone completed as their own VTODO beside the
  /// series, with the series' UID and a RECURRENCE-ID (one way phones complete them).
  public var completedOccurrences: [TaskFields]

  public init(version: RemoteVersion, uid: String, fields: TaskFields, completedOccurrences: [TaskFields] = []) {
    self.version = version
    self.uid = uid
    self.fields = fields
    self.completedOccurrences = completedOccurrences
  }
}

/// What the last sync left of one task: where it is on the server, the version seen, the
/// fields both sides had (the merge's base) and the server's bytes (so properties the tool
/// does not map survive the next write).
public struct SyncRecord: Equatable, Sendable {
  public var uid: String
  public var version: RemoteVersion
  public var fields: TaskFields
  public var serverCopy: [UInt8]

  public init(uid: String, version: RemoteVersion, fields: TaskFields, serverCopy: [UInt8]) {
    self.uid = uid
    self.version = version
    self.fields = fields
    self.serverCopy = serverCopy
  }
}

/// A change of the list the sync makes.
public enum LocalEdit: Equatable, Sendable {
  /// Gives the task at the place these fields and this `uid:` (its other words and tags
  /// kept), in `file` (a task reopened on the server leaves done.txt).
  case update(TaskPlace, uid: String, fields: TaskFields, file: ListFile)
  /// A new task: a copy of the line at `copying` (its unmapped tags kept) with the fields
  /// applied, or, without one, a task made from the fields alone.
  case add(uid: String, fields: TaskFields, file: ListFile, copying: TaskPlace?)
  /// Removes the task at the place (deleted on the server, unchanged here).
  case delete(TaskPlace)
}

/// A change of the server the sync makes.
public enum ServerOperation: Equatable, Sendable {
  case create(uid: String, fields: TaskFields)
  /// Writes the fields over the item at `version` (its unmapped properties kept);
  /// `dropOccurrences` removes the completed occurrences a phone kept beside the series,
  /// once they are tasks of their own.
  case update(uid: String, version: RemoteVersion, fields: TaskFields, dropOccurrences: Bool)
  case delete(uid: String, version: RemoteVersion)

  public var uid: String {
    switch self {
    case .create(let uid, _), .update(let uid, _, _, _), .delete(let uid, _): return uid
    }
  }
}

/// A change of the sync state that needs no server operation.
public enum RecordChange: Equatable, Sendable {
  /// Both sides hold these fields now, the server at `version`.
  case set(uid: String, version: RemoteVersion, fields: TaskFields)
  /// The task is gone from both sides.
  case forget(uid: String)
}

/// A task whose fields both sides changed differently.
public struct SyncConflict: Equatable, Sendable {
  public var uid: String
  public var title: String
  public var fields: [FieldConflict]
}

/// Something the person should know that is not a conflict of fields.
public enum SyncReport: Equatable, Sendable {
  /// Several items on the server have this UID: none of them is synced until one is left.
  case duplicateOnServer(uid: String, hrefs: [String])
  /// Several tasks in the list had this `uid:`: the others got `uid:`s of their own.
  case duplicateInList(uid: String, title: String, renamed: Int)
  /// Deleted in the list, changed on the server: brought back to the list.
  case keptDeletedLocally(uid: String, title: String)
  /// Deleted on the server, changed in the list: sent to the server again.
  case keptDeletedOnServer(uid: String, title: String)
  /// A recurring task the phone completed: one completion and one next task on both sides.
  case recurringCompleted(uid: String, title: String)
  /// A task new on both sides with the same fields: one task, with the server's UID.
  case paired(uid: String, title: String)
}

/// Which side the sync would empty, and so will not touch without confirmation.
public enum EmptiedSide: Equatable, Sendable {
  /// The server has no items, the list has tasks synced before: the sync would delete them.
  case server
  /// The list has no tasks, the server has items synced before: the sync would delete them.
  case list
}

/// What one sync does: computed from the list, the sync state and the server, changing
/// nothing. It is recomputed under the list's lock against the list as it is then, so it
/// is cheap and depends on nothing but its inputs.
///
/// Identity is the `uid:` tag (the VTODO's UID). Per task:
/// - on one side only and not in the state: new, created on the other side (a task of the
///   list without `uid:` gets one first);
/// - on both sides: merged field by field (``FieldMerge``), the state's copy as the base;
/// - in the state, gone from one side: deleted on the other when unchanged there; when it
///   was changed there, kept and reported (never lost);
/// - in the state, gone from both: forgotten.
///
/// A recurring task completed on a phone, in any of the three ways phones do it, ends as one
/// completed task and one next task on both sides: the same UID moved on to a later due
/// date (the phone rescheduled it), a completed item plus a new open one (nothing to do:
/// each is its own task), or a completed occurrence beside the series in one item (the
/// occurrence becomes a completed task of its own, the series moves on). A recurring task
/// completed here (the completed task and the next one share the `uid:`) keeps its UID on
/// the completed task; the next one gets a new UID.
public struct SyncPlan: Equatable, Sendable {
  public var localEdits: [LocalEdit] = []
  public var serverOperations: [ServerOperation] = []
  public var recordChanges: [RecordChange] = []
  public var conflicts: [SyncConflict] = []
  public var reports: [SyncReport] = []
  /// Set when the sync would empty a side: nothing else is planned then.
  public var refusal: EmptiedSide?

  /// Whether the sync changes nothing anywhere.
  public var isEmpty: Bool {
    localEdits.isEmpty && serverOperations.isEmpty && recordChanges.isEmpty
  }

  /// - Parameters:
  ///   - local: the tasks of todo.txt and done.txt.
  ///   - records: the sync state's records, by UID (empty on a first sync).
  ///   - remote: the items read from the server (changed since the last sync, or all).
  ///   - unchanged: hrefs the server still has at the version the state recorded (not read).
  ///   - today: the day a completion without a date is dated.
  ///   - confirmed: the person confirmed emptying a side (`--yes`).
  ///   - newUID: makes a UID for a task that needs one.
  public init(
    local: [LocalTask], records: [String: SyncRecord], remote: [RemoteTask], unchanged: Set<String>,
    today: TaskDate, confirmed: Bool, newUID: () -> String
  ) {
    self = withoutActuallyEscaping(newUID) { newUID in
      var planner = Planner(today: today, newUID: newUID)
      planner.plan(local: local, records: records, remote: remote, unchanged: unchanged, confirmed: confirmed)
      return planner.result
    }
  }

  init() {}
}

/// The plan's working state while it walks the tasks.
private struct Planner {
  let today: TaskDate
  let newUID: () -> String
  var result = SyncPlan()
  /// Completed items new on the server, by title and due date: a phone's completed copy of a
  /// recurring task's occurrence, beside the series it moved on.
  var completedElsewhere: [String: Int] = [:]

  static func completionKey(title: String, due: TaskDate?) -> String { title + "\u{0}" + (due?.description ?? "") }

  init(today: TaskDate, newUID: @escaping () -> String) {
    self.today = today
    self.newUID = newUID
  }

  mutating func plan(
    local: [LocalTask], records: [String: SyncRecord], remote: [RemoteTask], unchanged: Set<String>,
    confirmed: Bool
  ) {
    // The server's side by UID: items read, and items unchanged since the state's record.
    var remoteByUID: [String: [RemoteTask]] = [:]
    for item in remote { remoteByUID[item.uid, default: []].append(item) }
    var unchangedByUID: [String: SyncRecord] = [:]
    for record in records.values where unchanged.contains(record.version.href) {
      unchangedByUID[record.uid] = record
    }
    var duplicated: Set<String> = []
    for (uid, items) in remoteByUID {
      var hrefs = Set(items.map(\.version.href))
      if let record = unchangedByUID[uid] { hrefs.insert(record.version.href) }
      guard hrefs.count > 1 else { continue }
      duplicated.insert(uid)
      result.reports.append(.duplicateOnServer(uid: uid, hrefs: hrefs.sorted()))
    }

    // The list's side by UID; the tasks without one, and the extra copies of a UID, are new.
    var localByUID: [String: LocalTask] = [:]
    var fresh: [LocalTask] = []
    var groups: [String: [LocalTask]] = [:]
    for task in local {
      if let uid = task.uid { groups[uid, default: []].append(task) } else { fresh.append(task) }
    }
    for uid in groups.keys.sorted() {
      guard let group = groups[uid] else { continue }
      if group.count == 1 || duplicated.contains(uid) {
        localByUID[uid] = group[0]
        continue
      }
      let keeper = Planner.keeper(of: group)
      localByUID[uid] = keeper
      let others = group.filter { $0.place != keeper.place }
      fresh += others.map { LocalTask(place: $0.place, uid: nil, fields: $0.fields) }
      if !Planner.isRecurringCompletion(group) {
        result.reports.append(.duplicateInList(uid: uid, title: keeper.fields.title, renamed: others.count))
      }
    }

    let remoteCount = remote.count + unchangedByUID.count
    if !confirmed, !records.isEmpty {
      let syncedHere = localByUID.keys.contains { records[$0] != nil }
      if remoteCount == 0, syncedHere {
        result.refusal = .server
        return
      }
      let syncedThere = remoteByUID.keys.contains { records[$0] != nil } || !unchangedByUID.isEmpty
      if local.isEmpty, syncedThere {
        result.refusal = .list
        return
      }
    }

    // Tasks new on both sides with the very same fields are one task (a first sync of a list
    // imported on both sides, a recurring task's next occurrence made on both sides).
    var unpaired: [TaskFields: [RemoteTask]] = [:]
    for uid in remoteByUID.keys.sorted() where records[uid] == nil && localByUID[uid] == nil {
      guard !duplicated.contains(uid), let item = remoteByUID[uid]?.first, item.completedOccurrences.isEmpty else {
        continue
      }
      unpaired[item.fields, default: []].append(item)
    }
    var stillFresh: [LocalTask] = []
    for task in fresh {
      if var candidates = unpaired[task.fields], !candidates.isEmpty {
        let item = candidates.removeFirst()
        unpaired[task.fields] = candidates
        localByUID[item.uid] = LocalTask(place: task.place, uid: nil, fields: task.fields)
        result.reports.append(.paired(uid: item.uid, title: item.fields.title))
      } else {
        stillFresh.append(task)
      }
    }

    for (uid, items) in remoteByUID where records[uid] == nil && localByUID[uid] == nil {
      guard let fields = items.first?.fields, fields.isCompleted else { continue }
      completedElsewhere[Planner.completionKey(title: fields.title, due: fields.due), default: 0] += 1
    }
    let uids = Set(localByUID.keys).union(remoteByUID.keys).union(records.keys).sorted()
    for uid in uids where !duplicated.contains(uid) {
      let remoteTask = remoteByUID[uid]?.first
      let record = records[uid]
      let remoteSide: RemoteSide?
      if let remoteTask {
        remoteSide = .read(remoteTask)
      } else if let record, unchangedByUID[uid] != nil {
        remoteSide = .unchanged(record)
      } else {
        remoteSide = nil
      }
      settle(uid: uid, local: localByUID[uid], remote: remoteSide, record: record)
    }
    for task in stillFresh.sorted(by: { $0.place < $1.place }) {
      let uid = newUID()
      result.localEdits.append(.update(task.place, uid: uid, fields: task.fields, file: task.place.file))
      result.serverOperations.append(.create(uid: uid, fields: task.fields))
    }
  }

  enum RemoteSide {
    case read(RemoteTask)
    case unchanged(SyncRecord)

    var fields: TaskFields {
      switch self {
      case .read(let item): return item.fields
      case .unchanged(let record): return record.fields
      }
    }

    var version: RemoteVersion {
      switch self {
      case .read(let item): return item.version
      case .unchanged(let record): return record.version
      }
    }

    var occurrences: [TaskFields] {
      if case .read(let item) = self { return item.completedOccurrences }
      return []
    }
  }

  mutating func settle(uid: String, local: LocalTask?, remote: RemoteSide?, record: SyncRecord?) {
    switch (local, remote) {
    case (nil, nil):
      if record != nil { result.recordChanges.append(.forget(uid: uid)) }

    case (let local?, nil):
      if let record {
        if local.fields == record.fields {
          result.localEdits.append(.delete(local.place))
          result.recordChanges.append(.forget(uid: uid))
          return
        }
        result.reports.append(.keptDeletedOnServer(uid: uid, title: local.fields.title))
        result.recordChanges.append(.forget(uid: uid))
      }
      if local.uid != uid {
        result.localEdits.append(.update(local.place, uid: uid, fields: local.fields, file: local.place.file))
      }
      result.serverOperations.append(.create(uid: uid, fields: local.fields))

    case (nil, let remote?):
      var series = remote.fields
      let dropOccurrences = splitOccurrences(uid: uid, remote: remote, series: &series, copying: nil)
      if let record {
        if series == record.fields && !dropOccurrences {
          result.serverOperations.append(.delete(uid: uid, version: remote.version))
          return
        }
        result.reports.append(.keptDeletedLocally(uid: uid, title: series.title))
      }
      result.localEdits.append(.add(uid: uid, fields: series, file: series.isCompleted ? .done : .todo, copying: nil))
      if dropOccurrences {
        result.serverOperations.append(.update(uid: uid, version: remote.version, fields: series, dropOccurrences: true))
      } else {
        result.recordChanges.append(.set(uid: uid, version: remote.version, fields: series))
      }

    case (let local?, let remote?):
      var series = remote.fields
      var dropOccurrences = splitOccurrences(uid: uid, remote: remote, series: &series, copying: local.place)
      if let base = record?.fields, !dropOccurrences, isRescheduledOccurrence(base: base, local: local.fields, remote: series) {
        // The phone completed the occurrence by moving the same item on: the occurrence as
        // it was becomes a completed task of its own, here and there.
        // A phone that also wrote the completed occurrence as an item of its own (a completed
        // copy beside the moved series) has made the completion already.
        let key = Planner.completionKey(title: base.title, due: base.due)
        if let count = completedElsewhere[key], count > 0 {
          completedElsewhere[key] = count - 1
        } else {
          var done = local.fields
          done.isCompleted = true
          done.completed = today
          addCompleted(done, copying: local.place)
        }
        result.reports.append(.recurringCompleted(uid: uid, title: local.fields.title))
        dropOccurrences = false
      }
      let merge = FieldMerge(base: record?.fields, local: local.fields, remote: series)
      if !merge.conflicts.isEmpty {
        result.conflicts.append(SyncConflict(uid: uid, title: merge.merged.title, fields: merge.conflicts))
      }
      var file = local.place.file
      if !merge.merged.isCompleted, file == .done { file = .todo }
      if merge.changesLocal || local.uid != uid || file != local.place.file {
        result.localEdits.append(.update(local.place, uid: uid, fields: merge.merged, file: file))
      }
      if merge.merged != remote.fields || dropOccurrences {
        result.serverOperations.append(
          .update(uid: uid, version: remote.version, fields: merge.merged, dropOccurrences: dropOccurrences))
      } else if record?.fields != merge.merged || record?.version != remote.version {
        result.recordChanges.append(.set(uid: uid, version: remote.version, fields: merge.merged))
      }
    }
  }

  /// Turns the completed occurrences a phone kept beside the series into completed tasks of
  /// their own, and moves the series on past them when the phone did not; `true` when there
  /// were any (the item is then rewritten without them).
  mutating func splitOccurrences(uid: String, remote: RemoteSide, series: inout TaskFields, copying: TaskPlace?)
    -> Bool
  {
    let occurrences = remote.occurrences.filter(\.isCompleted)
    guard !occurrences.isEmpty else { return false }
    for occurrence in occurrences {
      addCompleted(occurrence, copying: copying)
      if let recurrence = series.recurrence, let done = occurrence.due ?? occurrence.start {
        let current = series.due ?? series.start
        if let current, current <= done {
          let anchor = recurrence.isStrict ? done : (occurrence.completed ?? today)
          let next = recurrence.advance(anchor)
          let shift = current.days(until: next)
          series.due = series.due?.adding(days: shift)
          series.start = series.start?.adding(days: shift)
        }
      }
    }
    result.reports.append(.recurringCompleted(uid: uid, title: series.title))
    return true
  }

  /// A completed occurrence as a task of its own on both sides, under a new UID.
  mutating func addCompleted(_ fields: TaskFields, copying: TaskPlace?) {
    let uid = newUID()
    result.localEdits.append(.add(uid: uid, fields: fields, file: .done, copying: copying))
    result.serverOperations.append(.create(uid: uid, fields: fields))
  }

  /// Whether the server's copy is the base's recurring task moved on to a later due date by a
  /// phone that completed it that way, while the list left the date alone. A strict
  /// recurrence must land on its schedule; a plain one on any later day (it counts from the
  /// day it was done).
  func isRescheduledOccurrence(base: TaskFields, local: TaskFields, remote: TaskFields) -> Bool {
    guard let recurrence = base.recurrence, remote.recurrence == recurrence, !base.isCompleted,
      !local.isCompleted, !remote.isCompleted, local.due == base.due, let before = base.due,
      let after = remote.due, after > before
    else { return false }
    guard recurrence.isStrict else { return true }
    // Every third (or later) business day has no exact RRULE: a phone reads the one written
    // (DAILY, INTERVAL=N, on weekdays) as every Nth calendar day that is a weekday, and
    // moves the task on by that reading.
    if recurrence.unit == .businessDay, recurrence.count > 2 {
      let days = before.days(until: after)
      if days % recurrence.count == 0, !after.weekday.isWeekend { return true }
    }
    var date = before
    for _ in 0..<1000 {
      date = recurrence.advance(date)
      if date == after { return true }
      if date > after { return false }
    }
    return false
  }

  /// Of the list's tasks sharing a UID, the one that keeps it: the completed one of a
  /// recurring task completed here, else the first.
  static func keeper(of group: [LocalTask]) -> LocalTask {
    let ordered = group.sorted { $0.place < $1.place }
    if isRecurringCompletion(group), let done = ordered.first(where: \.fields.isCompleted) { return done }
    return ordered[0]
  }

  /// A completed recurring task and the next one, as completing it here leaves them.
  static func isRecurringCompletion(_ group: [LocalTask]) -> Bool {
    group.count == 2 && group.filter(\.fields.isCompleted).count == 1 && group.allSatisfy { $0.fields.recurrence != nil }
  }
}
