import Testing
import TodoTestSupport
import TodoTxt

@testable import TodoCalendar

/// Both sides of a sync in memory, and the state between them, with the plan's edits and
/// operations applied as the engine applies them.
struct SyncWorld {
  var local: [LocalTask] = []
  var server: [String: RemoteTask] = [:]
  var records: [String: SyncRecord] = [:]
  var serial = 0
  var etagSerial = 0
  let today = TaskDate("2026-06-10")!

  mutating func nextUID() -> String {
    serial += 1
    return "u\(serial)"
  }

  mutating func etag() -> String {
    etagSerial += 1
    return "\"e\(etagSerial)\""
  }

  /// Puts an item on the server as a phone would.
  mutating func phoneSaves(_ uid: String, _ fields: TaskFields, occurrences: [TaskFields] = []) {
    let href = server[uid]?.version.href ?? "/c/\(uid).ics"
    server[uid] = RemoteTask(
      version: RemoteVersion(href: href, etag: etag()), uid: uid, fields: fields, completedOccurrences: occurrences)
  }

  mutating func listAdds(_ fields: TaskFields, uid: String? = nil, file: ListFile = .todo) {
    let line = local.filter { $0.place.file == file }.count
    local.append(LocalTask(place: TaskPlace(file, line: line), uid: uid, fields: fields))
  }

  func localTask(_ uid: String) -> LocalTask? { local.first { $0.uid == uid } }

  func plan(confirmed: Bool = false) -> SyncPlan {
    var read: [RemoteTask] = []
    var unchanged: Set<String> = []
    for item in server.values {
      if let record = records[item.uid], record.version == item.version {
        unchanged.insert(item.version.href)
      } else {
        read.append(item)
      }
    }
    var copy = self
    let plan = SyncPlan(
      local: local, records: records, remote: read.sorted { $0.version.href < $1.version.href },
      unchanged: unchanged, today: today, confirmed: confirmed, newUID: { copy.nextUID() })
    return plan
  }

  /// Runs one sync; returns its plan.
  @discardableResult
  mutating func sync(confirmed: Bool = false) -> SyncPlan {
    var read: [RemoteTask] = []
    var unchanged: Set<String> = []
    for item in server.values.sorted(by: { $0.version.href < $1.version.href }) {
      if let record = records[item.uid], record.version == item.version {
        unchanged.insert(item.version.href)
      } else {
        read.append(item)
      }
    }
    var uids = serial
    let plan = SyncPlan(
      local: local, records: records, remote: read, unchanged: unchanged, today: today, confirmed: confirmed,
      newUID: {
        uids += 1
        return "u\(uids)"
      })
    serial = uids
    apply(plan)
    return plan
  }

  mutating func apply(_ plan: SyncPlan) {
    var lines = Dictionary(uniqueKeysWithValues: local.map { ($0.place, $0) })
    var added: [LocalTask] = []
    for edit in plan.localEdits {
      switch edit {
      case .update(let place, let uid, let fields, let file):
        lines[place] = LocalTask(place: TaskPlace(file, line: place.line), uid: uid, fields: fields)
      case .add(let uid, let fields, let file, _):
        added.append(LocalTask(place: TaskPlace(file, line: 0), uid: uid, fields: fields))
      case .delete(let place):
        lines[place] = nil
      }
    }
    var all = lines.keys.sorted().compactMap { lines[$0] } + added
    var counts: [ListFile: Int] = [:]
    for index in all.indices {
      let file = all[index].place.file
      all[index].place = TaskPlace(file, line: counts[file, default: 0])
      counts[file, default: 0] += 1
    }
    local = all
    for change in plan.recordChanges {
      switch change {
      case .set(let uid, let version, let fields):
        records[uid] = SyncRecord(uid: uid, version: version, fields: fields, serverCopy: [])
      case .forget(let uid):
        records[uid] = nil
      }
    }
    for operation in plan.serverOperations {
      switch operation {
      case .create(let uid, let fields):
        precondition(server[uid] == nil, "create of an existing UID \(uid)")
        phoneSaves(uid, fields)
      case .update(let uid, let version, let fields, _):
        precondition(server[uid]?.version == version, "update of a changed item")
        phoneSaves(uid, fields)
      case .delete(let uid, let version):
        precondition(server[uid]?.version == version, "delete of a changed item")
        server[uid] = nil
        records[uid] = nil
        continue
      }
      if let item = server[operation.uid] {
        records[operation.uid] = SyncRecord(uid: operation.uid, version: item.version, fields: item.fields, serverCopy: [])
      }
    }
  }

  /// Whether both sides hold the same tasks under the same UIDs, each UID once.
  var isConsistent: Bool {
    let localUIDs = local.compactMap(\.uid)
    guard localUIDs.count == local.count, Set(localUIDs).count == localUIDs.count else { return false }
    guard Set(localUIDs) == Set(server.keys) else { return false }
    return local.allSatisfy { task in server[task.uid ?? ""]?.fields == task.fields }
  }
}

@Suite struct SyncPlanTests {
  let milk = TaskFields(title: "Buy milk +shop", projects: ["shop"])
  let call = TaskFields(title: "Call Mum", priority: Priority("A"), due: TaskDate("2026-06-12"))

  func synced(_ tasks: [TaskFields]) -> SyncWorld {
    var world = SyncWorld()
    for task in tasks { world.listAdds(task) }
    world.sync()
    return world
  }

  @Test func aFirstSyncGivesUIDsAndCreatesEveryTask() {
    var world = SyncWorld()
    world.listAdds(milk)
    world.listAdds(call)
    let plan = world.sync()
    #expect(plan.serverOperations.count == 2)
    #expect(world.isConsistent)
    #expect(world.local.map(\.fields) == [milk, call])
    #expect(world.sync().isEmpty)
  }

  @Test func newOnTheServerIsAddedToTheListCompletedToDone() {
    var world = synced([milk])
    var done = call
    done.isCompleted = true
    done.completed = TaskDate("2026-06-09")
    world.phoneSaves("phone-1", done)
    world.phoneSaves("phone-2", call)
    let plan = world.sync()
    #expect(plan.localEdits.contains(.add(uid: "phone-1", fields: done, file: .done, copying: nil)))
    #expect(plan.localEdits.contains(.add(uid: "phone-2", fields: call, file: .todo, copying: nil)))
    #expect(plan.serverOperations.isEmpty)
    #expect(world.isConsistent)
    #expect(world.sync().isEmpty)
  }

  @Test func editsOnBothSidesMergeByField() {
    var world = synced([call])
    let uid = world.local[0].uid!
    world.local[0].fields.priority = Priority("C")
    var phone = call
    phone.due = TaskDate("2026-07-01")
    world.phoneSaves(uid, phone)
    let plan = world.sync()
    #expect(plan.conflicts.isEmpty)
    #expect(world.localTask(uid)?.fields.priority == Priority("C"))
    #expect(world.localTask(uid)?.fields.due == TaskDate("2026-07-01"))
    #expect(world.isConsistent)
  }

  @Test func aConflictKeepsTheServerValueAndReportsBoth() {
    var world = synced([call])
    let uid = world.local[0].uid!
    world.local[0].fields.title = "Call Mum tonight"
    var phone = call
    phone.title = "Call Mum tomorrow"
    world.phoneSaves(uid, phone)
    let plan = world.sync()
    #expect(
      plan.conflicts == [
        SyncConflict(
          uid: uid, title: "Call Mum tomorrow",
          fields: [FieldConflict(field: .title, local: "Call Mum tonight", remote: "Call Mum tomorrow")])
      ])
    #expect(world.localTask(uid)?.fields.title == "Call Mum tomorrow")
    #expect(world.isConsistent)
  }

  @Test func deletedOnOneSideUnchangedOnTheOtherIsDeleted() {
    var world = synced([milk, call, TaskFields(title: "Book flights")])
    let gone = world.local[0].uid!
    world.local.removeFirst()
    var plan = world.sync()
    #expect(plan.serverOperations.map(\.uid) == [gone])
    #expect(world.server[gone] == nil)
    let other = world.local[0].uid!
    world.server[other] = nil
    plan = world.sync()
    #expect(plan.localEdits == [.delete(TaskPlace(.todo, line: 0))])
    #expect(world.local.map(\.fields.title) == ["Book flights"])
    #expect(world.records.count == 1)
  }

  @Test func deletedOnOneSideEditedOnTheOtherIsKeptAndReported() {
    var world = synced([milk, call])
    let milkUID = world.local[0].uid!
    let callUID = world.local[1].uid!
    world.local.removeFirst()
    world.local[0].place.line = 0
    var edited = milk
    edited.priority = Priority("A")
    world.phoneSaves(milkUID, edited)
    world.local[0].fields.note = "about the holidays"
    world.server[callUID] = nil
    let plan = world.sync()
    #expect(plan.reports.contains(.keptDeletedLocally(uid: milkUID, title: milk.title)))
    #expect(plan.reports.contains(.keptDeletedOnServer(uid: callUID, title: call.title)))
    #expect(world.isConsistent)
    #expect(world.local.count == 2)
    #expect(world.localTask(milkUID)?.fields.priority == Priority("A"))
    #expect(world.server[callUID]?.fields.note == "about the holidays")
  }

  @Test func duplicateUIDsOnTheServerAreReportedAndLeftAlone() {
    var world = synced([milk])
    let uid = world.local[0].uid!
    world.server["copy"] = RemoteTask(
      version: RemoteVersion(href: "/c/copy.ics", etag: "\"x\""), uid: uid, fields: call)
    var plan = SyncWorld.read(world)
    #expect(plan.reports == [.duplicateOnServer(uid: uid, hrefs: ["/c/copy.ics", "/c/\(uid).ics"])])
    #expect(plan.isEmpty)
    world.local[0].fields.title = "changed here"
    plan = SyncWorld.read(world)
    #expect(plan.localEdits.isEmpty && plan.serverOperations.isEmpty)
  }

  @Test func duplicateUIDsInTheListGetUIDsOfTheirOwn() {
    var world = synced([milk])
    let uid = world.local[0].uid!
    world.listAdds(call, uid: uid)
    let plan = world.sync()
    #expect(plan.reports == [.duplicateInList(uid: uid, title: milk.title, renamed: 1)])
    #expect(world.isConsistent)
    #expect(world.server.count == 2)
  }

  @Test func anEmptiedServerOrListIsRefusedUntilConfirmed() {
    var world = synced([milk, call])
    let kept = world.server
    world.server = [:]
    var plan = world.sync()
    #expect(plan.refusal == .server)
    #expect(plan.isEmpty)
    #expect(world.local.count == 2)
    plan = world.sync(confirmed: true)
    #expect(plan.refusal == nil)
    #expect(world.local.isEmpty)

    world = synced([milk, call])
    world.local = []
    plan = world.sync()
    #expect(plan.refusal == .list)
    #expect(world.server.count == 2)
    _ = kept
  }

  @Test func aFirstSyncIntoAnEmptyCollectionIsNotRefused() {
    var world = SyncWorld()
    world.listAdds(milk)
    #expect(world.sync().refusal == nil)
  }

  @Test func tasksNewOnBothSidesWithTheSameFieldsArePaired() {
    var world = SyncWorld()
    world.listAdds(milk)
    world.phoneSaves("phone-milk", milk)
    let plan = world.sync()
    #expect(plan.reports == [.paired(uid: "phone-milk", title: milk.title)])
    #expect(plan.serverOperations.isEmpty)
    #expect(world.local.map(\.uid) == ["phone-milk"])
    #expect(world.isConsistent)
  }

  // MARK: Recurring tasks

  var weekly: TaskFields {
    TaskFields(title: "Water plants", due: TaskDate("2026-06-10"), recurrence: Recurrence("+1w"))
  }

  /// One completed occurrence and one open next one, on both sides, each once.
  func expectOneCompletionAndOneNext(_ world: SyncWorld, nextDue: String) {
    #expect(world.isConsistent)
    let done = world.local.filter { $0.fields.isCompleted && $0.fields.title == "Water plants" }
    let open = world.local.filter { !$0.fields.isCompleted && $0.fields.title == "Water plants" }
    #expect(done.count == 1)
    #expect(open.count == 1)
    #expect(done.first?.fields.due == TaskDate("2026-06-10"))
    #expect(open.first?.fields.due == TaskDate(nextDue))
  }

  @Test func aPhoneMovingTheSameUIDOnIsOneCompletionAndOneNext() {
    var world = synced([weekly])
    let uid = world.local[0].uid!
    var next = weekly
    next.due = TaskDate("2026-06-17")
    world.phoneSaves(uid, next)
    let plan = world.sync()
    #expect(plan.reports == [.recurringCompleted(uid: uid, title: "Water plants")])
    expectOneCompletionAndOneNext(world, nextDue: "2026-06-17")
    #expect(world.localTask(uid)?.fields.isCompleted == false)
    #expect(world.sync().isEmpty)
  }

  @Test func aPhoneCompletingACopyAndAddingTheNextIsOneCompletionAndOneNext() {
    var world = synced([weekly])
    let uid = world.local[0].uid!
    var done = weekly
    done.isCompleted = true
    done.completed = TaskDate("2026-06-10")
    world.phoneSaves(uid, done)
    var next = weekly
    next.due = TaskDate("2026-06-17")
    world.phoneSaves("phone-next", next)
    world.sync()
    expectOneCompletionAndOneNext(world, nextDue: "2026-06-17")
    #expect(world.sync().isEmpty)
  }

  @Test func aPhoneCompletingAnOccurrenceBesideTheSeriesIsOneCompletionAndOneNext() {
    var world = synced([weekly])
    let uid = world.local[0].uid!
    var occurrence = weekly
    occurrence.isCompleted = true
    occurrence.completed = TaskDate("2026-06-10")
    world.phoneSaves(uid, weekly, occurrences: [occurrence])
    let plan = world.sync()
    #expect(
      plan.serverOperations.contains {
        if case .update(uid, _, _, true) = $0 { return true } else { return false }
      })
    world.server[uid]?.completedOccurrences = []
    expectOneCompletionAndOneNext(world, nextDue: "2026-06-17")
    #expect(world.sync().isEmpty)
  }

  @Test func aRecurringTaskCompletedHereKeepsItsUIDOnTheCompletion() {
    var world = synced([weekly])
    let uid = world.local[0].uid!
    world.local[0].fields.isCompleted = true
    world.local[0].fields.completed = TaskDate("2026-06-10")
    var next = weekly
    next.due = TaskDate("2026-06-17")
    world.listAdds(next, uid: uid)
    let plan = world.sync()
    #expect(plan.reports.isEmpty)
    expectOneCompletionAndOneNext(world, nextDue: "2026-06-17")
    #expect(world.localTask(uid)?.fields.isCompleted == true)
  }

  @Test func aStrictTaskMovedOffItsScheduleIsAnEditNotACompletion() {
    var world = synced([weekly])
    let uid = world.local[0].uid!
    var moved = weekly
    moved.due = TaskDate("2026-06-12")
    world.phoneSaves(uid, moved)
    let plan = world.sync()
    #expect(plan.reports.isEmpty)
    #expect(world.local.count == 1)
    #expect(world.localTask(uid)?.fields.due == TaskDate("2026-06-12"))
  }

  @Test func aPhoneMovingEveryThirdBusinessDayOnByItsRuleIsACompletion() {
    // rec:+3b from Thursday 2026-06-11: the list's next is Tuesday 06-16; a phone reading the
    // RRULE (every third day, on weekdays) moves it to Wednesday 06-17.
    let task = TaskFields(title: "Water plants", due: TaskDate("2026-06-11"), recurrence: Recurrence("+3b"))
    var world = synced([task])
    let uid = world.local[0].uid!
    var moved = task
    moved.due = TaskDate("2026-06-17")
    world.phoneSaves(uid, moved)
    let plan = world.sync()
    #expect(plan.reports == [.recurringCompleted(uid: uid, title: "Water plants")])
    #expect(world.local.filter(\.fields.isCompleted).map(\.fields.due) == [TaskDate("2026-06-11")])
    // A day off both readings is an edit.
    var world2 = synced([task])
    var off = task
    off.due = TaskDate("2026-06-15")
    world2.phoneSaves(world2.local[0].uid!, off)
    #expect(world2.sync().reports.isEmpty)
  }

  // MARK: Property

  /// Random edits on both sides between syncs: after each sync both sides hold the same
  /// tasks, no task is doubled, a task is gone only when one side deleted it and the other
  /// left it alone, and a second sync changes nothing.
  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
  func noTaskIsLostOrDoubled(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var world = SyncWorld()
    var made = 0
    func fresh() -> TaskFields {
      made += 1
      return TaskFields(title: "t\(made)", projects: random.below(2) == 0 ? ["p\(random.below(3))"] : [])
    }
    func key(_ fields: TaskFields) -> String { String(fields.title.split(separator: " ").first ?? "") }
    for _ in 0..<25 {
      var deletedHere: Set<String> = []
      var deletedThere: Set<String> = []
      var editedHere: Set<String> = []
      var editedThere: Set<String> = []
      for _ in 0..<random.below(6) {
        switch random.below(5) {
        case 0: world.listAdds(fresh())
        case 1: world.phoneSaves("p\(made)-\(random.below(1000))", fresh())
        case 2 where !world.local.isEmpty:
          let index = random.below(world.local.count)
          editedHere.insert(key(world.local[index].fields))
          mutate(&world.local[index].fields, &random)
        case 3 where !world.server.isEmpty:
          let uid = world.server.keys.sorted()[random.below(world.server.count)]
          var fields = world.server[uid]!.fields
          editedThere.insert(key(fields))
          mutate(&fields, &random)
          world.phoneSaves(uid, fields)
        case 4 where !world.local.isEmpty && random.below(2) == 0:
          let index = random.below(world.local.count)
          deletedHere.insert(key(world.local[index].fields))
          world.local.remove(at: index)
          world.local = world.local.enumerated().map { offset, task in
            var task = task
            task.place = TaskPlace(task.place.file, line: offset)
            return task
          }
        case 4 where !world.server.isEmpty:
          let uid = world.server.keys.sorted()[random.below(world.server.count)]
          deletedThere.insert(key(world.server[uid]!.fields))
          world.server[uid] = nil
        default: break
        }
      }
      let before = Set(world.local.map { key($0.fields) }).union(world.server.values.map { key($0.fields) })
      world.sync(confirmed: true)
      #expect(world.isConsistent, "seed \(seed)")
      let keys = world.local.map { key($0.fields) }
      #expect(Set(keys).count == keys.count, "a task doubled, seed \(seed)")
      for name in before where !Set(keys).contains(name) {
        let deletedAlone =
          (deletedHere.contains(name) && !editedThere.contains(name))
          || (deletedThere.contains(name) && !editedHere.contains(name))
          || (deletedHere.contains(name) && deletedThere.contains(name))
        #expect(deletedAlone, "\(name) lost, seed \(seed)")
      }
      #expect(world.sync().isEmpty, "second sync not idle, seed \(seed)")
    }
  }

  func mutate(_ fields: inout TaskFields, _ random: inout SplitMix64) {
    switch random.below(5) {
    case 0: fields.title += " x\(random.below(9))"
    case 1:
      // Always a change: the property counts an edit as one.
      let letters = ["A", "B", "C", "D"].filter { Priority($0) != fields.priority }
      fields.priority = Priority(letters[random.below(letters.count)])
    case 2: fields.due = (fields.due ?? TaskDate.earliest).adding(days: 1 + random.below(30))
    case 3:
      fields.isCompleted.toggle()
      fields.completed = fields.isCompleted ? TaskDate("2026-06-0\(1 + random.below(8))") : nil
    default: fields.contexts.append("c\(random.below(3))")
    }
  }
}

extension SyncWorld {
  static func read(_ world: SyncWorld) -> SyncPlan { world.plan() }
}

extension SyncPlanTests {
  @Test func aPhoneMovingTheSeriesOnBesideACompletedCopyIsOneCompletionAndOneNext() {
    var world = synced([weekly])
    let uid = world.local[0].uid!
    var next = weekly
    next.due = TaskDate("2026-06-17")
    world.phoneSaves(uid, next)
    var copy = weekly
    copy.recurrence = nil
    copy.isCompleted = true
    copy.completed = TaskDate("2026-06-10")
    world.phoneSaves("phone-copy", copy)
    world.sync()
    #expect(world.isConsistent)
    #expect(world.local.filter(\.fields.isCompleted).count == 1)
    #expect(world.local.filter { !$0.fields.isCompleted }.map(\.fields.due) == [TaskDate("2026-06-17")])
    #expect(world.sync().isEmpty)
  }
}
