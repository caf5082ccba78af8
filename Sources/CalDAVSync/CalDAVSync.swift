import TodoCalendar
import TodoStore
import TodoTxt

#if canImport(Glibc)
  import Glibc
#endif

/// One sync of a list (todo.txt and done.txt) with one CalDAV task collection.
///
/// The order of work keeps both sides consistent when it is cut off at any point:
/// 1. the state is read, and the server's changes since the last sync are fetched, without
///    the list's lock (the network may take minutes);
/// 2. under the lock the plan is computed against the list as it is then, and its edits are
///    written as one change of the list (one `todo undo`);
/// 3. the server operations run, each recorded in the state once it succeeded (the state is
///    written every few operations and at the end).
/// Cut off after 2, the list already holds what the server said and its own changes still
/// differ from the state's base, so the next sync sends them; cut off in 3, an operation that
/// succeeded but was not recorded is found by its UID and etag and not done twice.
public final class CalDAVSync {
  public struct Environment {
    public var todoFile: String
    public var doneFile: String
    /// The folder of the list's notes (a `note:` tag names a file in it); nil leaves notes
    /// out of the sync (the server's DESCRIPTION is kept as it is).
    public var notesFolder: String?
    public var collectionURL: String
    public var store: TodoStore
    public var mapping: VTODOMapping
    public var today: TaskDate
    /// Seconds since 1970 (DTSTAMP of what is written).
    public var now: Int
    public var newUID: () -> String
    /// Says how far a long step is (a large first sync); nil says nothing.
    public var progress: ((String) -> Void)?

    public init(
      todoFile: String, doneFile: String, notesFolder: String? = nil, collectionURL: String, store: TodoStore,
      mapping: VTODOMapping, today: TaskDate, now: Int, newUID: @escaping () -> String,
      progress: ((String) -> Void)? = nil
    ) {
      self.todoFile = todoFile
      self.doneFile = doneFile
      self.notesFolder = notesFolder
      self.collectionURL = collectionURL
      self.store = store
      self.mapping = mapping
      self.today = today
      self.now = now
      self.newUID = newUID
      self.progress = progress
    }
  }

  /// What a sync did (or, dry, would do).
  public struct Result: Sendable {
    public var plan: SyncPlan
    /// One line per item or task the sync could not handle (left as it is).
    public var problems: [String] = []
    /// Facts about the list's files the person should know, that are no problem (a note the
    /// server removed, whose file stays; where the list's text of a note in conflict went).
    public var notices: [String] = []
    /// Why the state file was not used, if it was there and not good.
    public var stateProblem: SyncStateError?
    /// Server operations that succeeded.
    public var serverDone = 0
    /// Server operations that found the item changed meanwhile (the next sync merges them).
    public var changedMeanwhile = 0
  }

  let environment: Environment
  let collection: any TaskCollection
  /// The environment's mapping, with the `id:` names of the list's tasks by UID (so that
  /// RELATED-TO holds UIDs and `p:` the list's names).
  var mapping: VTODOMapping
  let stateFile: SyncStateFile?
  /// The list's tasks as the last plan read them, by place: with the note's text and the
  /// manual order, which are not in the line (the edits of the list compare with these).
  var localFields: [TaskPlace: TaskFields] = [:]
  /// The manual order of todo.txt's tasks by UID: as the last plan read it, then as the
  /// list's edits left it (a task the server moved takes its new number).
  var listNumbers: [String: Int] = [:]
  /// The highest number of todo.txt's tasks as the last plan read them.
  var lastNumber: Int?
  /// What the last plan could not read of the list's side (a note behind a link).
  var readingProblems: [String] = []
  /// What the last change of the list did to note files (see ``Result/notices``).
  var notices: [String] = []
  /// How many server operations go by between two writes of the state.
  let saveEvery = 50

  public init(collection: any TaskCollection, environment: Environment) {
    self.collection = collection
    self.environment = environment
    self.mapping = environment.mapping
    self.stateFile = environment.store.stateDirectory.map {
      SyncStateFile(stateDirectory: $0, list: CalDAVSync.resolved(environment.todoFile), collection: environment.collectionURL)
    }
  }

  /// A path with its links resolved, so two names of one list share one state.
  static func resolved(_ path: String) -> String {
    guard let real = realpath(path, nil) else { return path }
    defer { free(real) }
    return String(cString: real)
  }

  // MARK: Running

  public func run(dryRun: Bool, confirmed: Bool) throws(SyncError) -> Result {
    let loaded = stateFile?.load() ?? SyncStateFile.Loaded(state: SyncState(list: "", collection: ""), problem: nil)
    var state = loaded.state
    mapping.relations = CalDAVSync.relations(try readLists(), state: state)
    var remote = try readServer(state: state)
    var result = Result(plan: SyncPlan(
      local: [], records: [:], remote: [], unchanged: [], today: environment.today, confirmed: true, newUID: { "" }))
    result.stateProblem = loaded.problem
    result.problems = remote.problems

    if dryRun {
      let lists = try readLists()
      result.plan = plan(lists: lists, state: state, remote: remote, confirmed: confirmed, newUID: { "(new)" })
      result.problems += readingProblems
      if let refusal = result.plan.refusal { throw .refused(refusal, tasks: refusedCount(refusal, state: state)) }
      return result
    }

    // The list's part, under its lock, against the list as it is now. Where a field changed
    // differently on both sides, the list keeps its own value in this change, and the
    // server's value comes in a second one: `todo undo` then takes back just the tool's
    // choice, and the next sync sends the list's value, instead of undoing the whole sync
    // (the other side's changes would then go back to the server as this side's).
    var applied: SyncPlan
    var problems: [String] = []
    var choices: [String: (fields: TaskFields, file: ListFile)] = [:]
    let paths = [environment.todoFile, environment.doneFile]
    do {
      applied = try environment.store.update(paths, label: "caldav sync") {
        lists throws -> SyncPlan in
        var plan = self.plan(lists: lists, state: state, remote: remote, confirmed: confirmed, newUID: environment.newUID)
        guard plan.refusal == nil else { return plan }
        var listFirst = plan
        problems = self.readingProblems
        self.notices = []
        choices = self.keepingTheList(&listFirst, lists: lists)
        problems += self.apply(&listFirst, to: &lists)
        // The UIDs given now name the list's `id:`s in what is written to the server.
        self.mapping.relations = CalDAVSync.relations(lists, state: state)
        plan.serverOperations = listFirst.serverOperations
        plan.recordChanges = listFirst.recordChanges
        return plan
      }
      if !choices.isEmpty {
        let count = choices.count
        try environment.store.update(paths, label: "caldav sync: the server's value in \(count == 1 ? "1 conflict" : "\(count) conflicts")") {
          lists throws in
          problems += self.applyChoices(choices, to: &lists)
        }
      }
    } catch let error as StoreError {
      throw .store(error)
    } catch {
      throw .store(StoreError(.notFound, path: environment.todoFile, operation: .write))
    }
    result.problems += problems
    result.notices = notices
    result.plan = applied
    if let refusal = applied.refusal { throw .refused(refusal, tasks: refusedCount(refusal, state: state)) }

    for change in applied.recordChanges {
      switch change {
      case .set(let uid, let version, let fields):
        let copy = remote.bodies[version.href] ?? state.records[uid]?.serverCopy ?? []
        state.records[uid] = SyncRecord(uid: uid, version: version, fields: fields, serverCopy: copy)
      case .forget(let uid):
        state.records[uid] = nil
      }
    }
    try save(state)

    // The server's part, recorded as it goes.
    let operations = applied.serverOperations
    var sinceSave = 0
    for (index, operation) in operations.enumerated() {
      if operations.count >= 100, index % 100 == 0 {
        environment.progress?("caldav: sending \(index + 1)-\(min(index + 100, operations.count)) of \(operations.count)")
      }
      do throws(CalendarServerError) {
        try perform(operation, state: &state, bodies: &remote.bodies)
        result.serverDone += 1
      } catch {
        switch error {
        case .changedMeanwhile, .alreadyExists, .notFound:
          result.changedMeanwhile += 1
          result.problems.append("\(error); the next sync merges it")
        case .invalidResponse, .status:
          result.problems.append("\(error)")
        default:
          try save(state)
          throw .server(error)
        }
      }
      sinceSave += 1
      if sinceSave >= saveEvery {
        try save(state)
        sinceSave = 0
      }
    }
    // The token is kept only once every change it covers is settled: otherwise the next sync
    // asks for everything again and finds what is left by comparing etags.
    state.token = result.changedMeanwhile == 0 && result.problems.isEmpty ? remote.token : nil
    try save(state)
    return result
  }

  /// The `id:` of each task that has one and a UID, in the list or in the state.
  static func relations(_ lists: [TodoList], state: SyncState) -> TaskRelations {
    var ids: [String: String] = [:]
    for record in state.records.values { if let id = record.fields.id { ids[record.uid] = id } }
    for list in lists {
      for index in list.indices {
        let task = list[index]
        guard let tag = task.tagValue(TagMeaning.uid.key), let uid = LocalUID.uid(fromTagValue: tag),
          let id = task.tagValue(TagMeaning.id.key)
        else { continue }
        ids[uid] = id
      }
    }
    return TaskRelations(idsByUID: ids)
  }

  func refusedCount(_ side: EmptiedSide, state: SyncState) -> Int { state.records.count }

  func save(_ state: SyncState) throws(SyncError) {
    guard let stateFile else { return }
    do throws(StoreError) { try stateFile.save(state) } catch { throw .stateNotSaved(error) }
  }

  func readLists() throws(SyncError) -> [TodoList] {
    var lists: [TodoList] = []
    for path in [environment.todoFile, environment.doneFile] {
      do throws(StoreError) {
        lists.append(try environment.store.read(path))
      } catch where error.kind == .notFound {
        lists.append(TodoList())
      } catch {
        throw .store(error)
      }
    }
    return lists
  }

  // MARK: The server's side

  /// The server as the plan needs it: items read, hrefs unchanged since the state, bodies.
  struct RemoteView {
    var tasks: [RemoteTask] = []
    var unchanged: Set<String> = []
    var bodies: [String: [UInt8]] = [:]
    var token: String?
    var problems: [String] = []
  }

  func readServer(state: SyncState) throws(SyncError) -> RemoteView {
    var view = RemoteView()
    let changes: RemoteChanges
    do throws(CalendarServerError) { changes = try collection.changes(since: state.token) } catch { throw .server(error) }
    var recordsByHref: [String: SyncRecord] = [:]
    for record in state.records.values { recordsByHref[record.version.href] = record }
    var wanted: [String] = []
    switch changes {
    case .full(let versions, let token):
      view.token = token
      var seen: Set<String> = []
      for version in versions where seen.insert(version.href).inserted {
        if let record = recordsByHref[version.href], record.version.etag != nil, record.version.etag == version.etag {
          view.unchanged.insert(version.href)
        } else {
          wanted.append(version.href)
        }
      }
    case .delta(let changed, let removed, let token):
      view.token = token
      let gone = Set(removed)
      var touched: Set<String> = gone
      for version in changed where touched.insert(version.href).inserted {
        if let record = recordsByHref[version.href], record.version.etag != nil, record.version.etag == version.etag {
          view.unchanged.insert(version.href)
        } else {
          wanted.append(version.href)
        }
      }
      for href in recordsByHref.keys where !touched.contains(href) { view.unchanged.insert(href) }
    }
    if wanted.count >= 100 { environment.progress?("caldav: reading \(wanted.count) items") }
    var items: [RemoteItem] = []
    let batch = 500
    var start = 0
    while start < wanted.count {
      let hrefs = Array(wanted[start..<min(start + batch, wanted.count)])
      do throws(CalendarServerError) { items += try collection.fetch(hrefs) } catch { throw .server(error) }
      start += batch
      if wanted.count >= 100 { environment.progress?("caldav: read \(min(start, wanted.count)) of \(wanted.count)") }
    }
    for item in items {
      let href = item.version.href
      switch readItem(item) {
      case .success(let task):
        view.tasks.append(task)
        view.bodies[href] = item.body
      case .notATask where recordsByHref[href] == nil:
        // An event or a journal entry of a calendar that also holds tasks: not the list's.
        continue
      case .notATask:
        view.problems.append("\(href): no VTODO any more; left as it is")
        view.unchanged.insert(href)
      case .failure(let why):
        view.problems.append("\(href): \(why); left as it is")
        // An item that does not read is never taken as deleted: its record stays.
        if recordsByHref[href] != nil { view.unchanged.insert(href) }
      }
    }
    return view
  }

  enum ItemReading {
    case success(RemoteTask)
    /// A calendar object without a VTODO (a VEVENT, a VJOURNAL).
    case notATask
    case failure(String)
  }

  /// The task an item holds: the VTODO without RECURRENCE-ID (the series or the only one),
  /// and the completed occurrences beside it.
  func readItem(_ item: RemoteItem) -> ItemReading {
    let document: ICalendarDocument
    do throws(ICalendarError) { document = try ICalendarDocument(parsing: item.body) } catch {
      return .failure("\(error)")
    }
    let todos = document.todos
    guard let master = todos.first(where: { $0.recurrenceID == nil }) ?? todos.first else { return .notATask }
    guard let uid = master.uid, !uid.isEmpty else { return .failure("a VTODO without UID") }
    guard todos.allSatisfy({ $0.uid == uid }) else { return .failure("VTODOs with different UIDs in one item") }
    let occurrences = todos.filter { $0.recurrenceID != nil }.map(mapping.fields(of:)).filter(\.isCompleted)
    return .success(
      RemoteTask(version: item.version, uid: uid, fields: mapping.fields(of: master), completedOccurrences: occurrences))
  }

  // MARK: Planning

  func plan(lists: [TodoList], state: SyncState, remote: RemoteView, confirmed: Bool, newUID: () -> String) -> SyncPlan {
    var remoteByUID: [String: RemoteTask] = [:]
    for task in remote.tasks { remoteByUID[task.uid] = task }
    let local = localTasks(lists, state: state, remoteByUID: remoteByUID)
    localFields = [:]
    for task in local { localFields[task.place] = task.fields }
    return SyncPlan(
      local: local, records: state.records, remote: remote.tasks, unchanged: remote.unchanged, today: environment.today,
      confirmed: confirmed, newUID: newUID)
  }

  /// The list's tasks as the plan compares them. Two fields live outside the line (and a
  /// done line without a completion date cannot hold a creation date):
  /// - the note's text is the file its `note:` names (without a notes folder, or where the
  ///   file does not read, the synced value stays, so nothing is sent);
  /// - the manual order of todo.txt is its line order, as numbers that keep the ones the
  ///   last sync recorded wherever the lines still agree with them (``ManualOrder``), so a
  ///   task moved by `reorder` is the one task sent. done.txt's tasks keep theirs.
  func localTasks(_ lists: [TodoList], state: SyncState, remoteByUID: [String: RemoteTask]) -> [LocalTask] {
    readingProblems = []
    let notes = environment.notesFolder.map { NotesFolder($0, store: environment.store) } ?? .missing
    var local: [LocalTask] = []
    var known: [Int?] = []
    var ordered: [Int] = []
    for (fileIndex, list) in lists.enumerated() {
      let file: ListFile = fileIndex == 0 ? .todo : .done
      for index in list.indices {
        let task = list[index]
        guard !task.isBlank else { continue }
        let uid = task.tagValue(TagMeaning.uid.key).flatMap(LocalUID.uid(fromTagValue:))
        // The base of these two is the state's record (what both sides last agreed on); a
        // task found by its UID on a first sync takes the server's.
        let synced = uid.flatMap { state.records[$0]?.fields ?? remoteByUID[$0]?.fields }
        var fields = TaskFields(task)
        fields.note = synced?.note
        // A done line without a completion date has no place for a creation date: the
        // server's CREATED stays as it is rather than read as removed here.
        if task.isCompleted, task.completionDate == nil { fields.created = synced?.created }
        if environment.notesFolder != nil {
          switch CalDAVSync.noteText(of: task, in: notes) {
          case .text(let text): fields.note = text
          case .unreadable(let why): readingProblems.append("\(fields.title): the note \(why); its text is not synced")
          }
        }
        if file == .todo {
          known.append(synced?.sortOrder.flatMap { Int($0) })
          ordered.append(local.count)
        } else {
          fields.sortOrder = synced?.sortOrder
        }
        local.append(LocalTask(place: TaskPlace(file, line: index), uid: uid, fields: fields))
      }
    }
    listNumbers = [:]
    let numbers = ManualOrder.numbers(keeping: known)
    lastNumber = numbers.last
    for (number, position) in zip(numbers, ordered) {
      local[position].fields.sortOrder = String(number)
      if let uid = local[position].uid { listNumbers[uid] = number }
    }
    return local
  }

  // MARK: The list's side

  /// Turns the plan's edits of tasks in conflict into edits that keep the list's values of
  /// the conflicting fields; returns, by UID, the fields and file the tool chose (the
  /// server's values), for the second change of the list.
  func keepingTheList(_ plan: inout SyncPlan, lists: [TodoList]) -> [String: (fields: TaskFields, file: ListFile)] {
    var conflicting: [String: [TaskField]] = [:]
    for conflict in plan.conflicts { conflicting[conflict.uid, default: []] += conflict.fields.map(\.field) }
    guard !conflicting.isEmpty else { return [:] }
    var choices: [String: (fields: TaskFields, file: ListFile)] = [:]
    for (position, edit) in plan.localEdits.enumerated() {
      guard case .update(let place, let uid, let chosen, let file) = edit, let fields = conflicting[uid] else { continue }
      let list = lists[place.file == .todo ? 0 : 1]
      guard place.line < list.count else { continue }
      let own = localFields[place] ?? TaskFields(list[place.line])
      var kept = chosen
      for field in fields { field.copy(from: own, into: &kept) }
      guard kept != chosen else { continue }
      let keptFile: ListFile = !kept.isCompleted && place.file == .done ? .todo : (kept.isCompleted ? place.file : file)
      plan.localEdits[position] = .update(place, uid: uid, fields: kept, file: keptFile)
      choices[uid] = (chosen, file)
    }
    return choices
  }

  /// The second change of a sync with conflicts: the tasks, found by their `uid:`, take the
  /// fields the tool chose, moving between todo.txt and done.txt where completion says.
  func applyChoices(_ choices: [String: (fields: TaskFields, file: ListFile)], to lists: inout [TodoList]) -> [String] {
    var problems: [String] = []
    var moved: [(Int, Task)] = []
    var removed = lists.map { Array(repeating: false, count: $0.count) }
    var movers: [String: Int] = [:]
    var notes = NoteWriter(sync: self, lists: lists)
    for fileIndex in lists.indices {
      for index in lists[fileIndex].indices {
        let task = lists[fileIndex][index]
        guard let uid = task.tagValue(TagMeaning.uid.key).flatMap(LocalUID.uid(fromTagValue:)),
          let (fields, file) = choices[uid]
        else { continue }
        // The list's values, as the first change left them (its own, in the conflicting fields).
        var own = TaskFields(task)
        switch CalDAVSync.noteText(of: task, in: notes.folder) {
        case .text(let text): own.note = text
        case .unreadable: own.note = fields.note
        }
        var chosen = task
        do {
          try chosen.apply(fields)
          if environment.notesFolder != nil, fields.note != own.note {
            // Both texts stay: the server's becomes the note, the list's goes to a file of its own.
            if let kept = try notes.keep(own.note, of: task) {
              notices.append("\(fields.title): this list's text of the note is kept in \(kept)")
            }
            try notes.write(fields.note, current: own.note, of: &chosen)
          }
        } catch {
          problems.append("\(fields.title): \(error); the list's value stays")
          continue
        }
        let target = file == .todo ? 0 : 1
        if target == 0, let number = fields.sortOrder.flatMap({ Int($0) }), number != listNumbers[uid] {
          movers[uid] = number
          listNumbers[uid] = number
        }
        if target == fileIndex {
          lists[fileIndex].replace(at: index, with: chosen)
        } else {
          removed[fileIndex][index] = true
          moved.append((target, chosen))
        }
      }
    }
    for (file, task) in moved { _ = lists[file].append(task) }
    for file in lists.indices where removed[file].contains(true) {
      removed[file] += Array(repeating: false, count: lists[file].count - removed[file].count)
      lists[file].removeLines(marked: removed[file])
    }
    CalDAVSync.place(movers, in: &lists[0], numbers: listNumbers)
    notices += notes.unlinked.map { "the server removed a note; its file \($0) stays, no longer linked" }
    return problems
  }

  /// Writes the plan's edits into the lists; an edit the line cannot take (a title that
  /// would read as a priority) is left out with the server operations and record of its task,
  /// and reported.
  func apply(_ plan: inout SyncPlan, to lists: inout [TodoList]) -> [String] {
    var problems: [String] = []
    var failed: Set<String> = []
    var removed = lists.map { Array(repeating: false, count: $0.count) }
    var appended: [(Int, Task)] = []
    var movers: [String: Int] = [:]
    var notes = NoteWriter(sync: self, lists: lists)
    numberArrivals(&plan)
    func index(_ file: ListFile) -> Int { file == .todo ? 0 : 1 }
    func made(_ base: Task, uid: String, fields: TaskFields, current: TaskFields?, shared: Bool) -> Task? {
      var task = base
      do {
        try task.apply(fields)
        try task.set(.uid, to: LocalUID.tagValue(for: uid))
        if environment.notesFolder != nil, fields.note != current?.note {
          if shared, task.note != nil { try task.setNote(nil) }
          try notes.write(fields.note, current: shared ? nil : current?.note, of: &task)
        }
        return task
      } catch {
        problems.append("\(fields.title): \(error); left out of the list")
        failed.insert(uid)
        return nil
      }
    }
    /// A task that lands in todo.txt with a number other than the one its line had goes to
    /// the place that number says (a phone moved it).
    func order(_ uid: String, _ fields: TaskFields, to file: ListFile, had current: TaskFields?) {
      guard file == .todo, let number = fields.sortOrder.flatMap({ Int($0) }) else { return }
      if current?.sortOrder.flatMap({ Int($0) }) != number { movers[uid] = number }
      listNumbers[uid] = number
    }
    for edit in plan.localEdits {
      switch edit {
      case .update(let place, let uid, let fields, let file):
        let from = index(place.file)
        let current = localFields[place]
        guard let task = made(lists[from][place.line], uid: uid, fields: fields, current: current, shared: false) else {
          continue
        }
        order(uid, fields, to: file, had: place.file == .todo ? current : nil)
        if file == place.file {
          lists[from].replace(at: place.line, with: task)
        } else {
          removed[from][place.line] = true
          appended.append((index(file), task))
        }
      case .add(let uid, let fields, let file, let copying):
        let base: Task
        if let copying {
          base = lists[index(copying.file)][copying.line]
        } else {
          do { base = try Task(fields: fields) } catch {
            problems.append("\(fields.title): \(error); left out of the list")
            failed.insert(uid)
            continue
          }
        }
        // A copy shares its source's note file: a text of its own goes to a file of its own.
        let current = copying.flatMap { localFields[$0] }
        if let task = made(base, uid: uid, fields: fields, current: current, shared: copying != nil) {
          order(uid, fields, to: file, had: nil)
          appended.append((index(file), task))
        }
      case .delete(let place):
        removed[index(place.file)][place.line] = true
      }
    }
    for (file, task) in appended { _ = lists[file].append(task) }
    for file in lists.indices where removed[file].contains(true) {
      removed[file] += Array(repeating: false, count: lists[file].count - removed[file].count)
      lists[file].removeLines(marked: removed[file])
    }
    for uid in failed { movers[uid] = nil }
    CalDAVSync.place(movers, in: &lists[0], numbers: listNumbers)
    notices += notes.unlinked.map { "the server removed a note; its file \($0) stays, no longer linked" }
    if !failed.isEmpty {
      plan.serverOperations.removeAll { failed.contains($0.uid) }
      plan.recordChanges.removeAll {
        switch $0 {
        case .set(let uid, _, _), .forget(let uid): return failed.contains(uid)
        }
      }
    }
    return problems
  }

  // MARK: Server operations

  func perform(_ operation: ServerOperation, state: inout SyncState, bodies: inout [String: [UInt8]])
    throws(CalendarServerError)
  {
    switch operation {
    case .create(let uid, let fields):
      let body = mapping.newObject(for: fields, uid: uid, now: environment.now).bytes
      let version: RemoteVersion
      do throws(CalendarServerError) {
        version = try collection.create(name: CalDAVSync.fileName(for: uid), body: body)
      } catch .alreadyExists {
        // Created by an earlier sync that was cut off before it recorded it: a name of our
        // own that exists is that item; the next sync finds it by its UID and merges.
        throw .alreadyExists(href: CalDAVSync.fileName(for: uid))
      }
      state.records[uid] = SyncRecord(uid: uid, version: version, fields: fields, serverCopy: body)
    case .update(let uid, let version, let fields, let dropOccurrences):
      let base = bodies[version.href] ?? state.records[uid]?.serverCopy ?? []
      let body: [UInt8]
      if var document = try? ICalendarDocument(parsing: base),
        let position = document.todoPositions.first(where: { document[$0]?.recurrenceID == nil })
      {
        if var todo = document[position] {
          mapping.apply(fields, to: &todo, now: environment.now)
          document[position] = todo
        }
        if dropOccurrences { CalDAVSync.removeOccurrences(from: &document) }
        body = document.bytes
      } else {
        body = mapping.newObject(for: fields, uid: uid, now: environment.now).bytes
      }
      let written = try collection.update(version, body: body)
      state.records[uid] = SyncRecord(uid: uid, version: written, fields: fields, serverCopy: body)
    case .delete(let uid, let version):
      try collection.delete(version)
      state.records[uid] = nil
    }
  }

  /// Removes the VTODOs with a RECURRENCE-ID (completed occurrences, now tasks of their own).
  static func removeOccurrences(from document: inout ICalendarDocument) {
    document.items = document.items.compactMap { item in
      guard case .component(var outer) = item else { return item }
      if outer.is("VTODO") { return outer.recurrenceID == nil ? item : nil }
      outer.items.removeAll { inner in
        if case .component(let todo) = inner, todo.is("VTODO"), todo.recurrenceID != nil { return true }
        return false
      }
      return .component(outer)
    }
  }

  /// The name a new item gets in the collection: its UID when that is a safe file name,
  /// else a name made of a hash of the UID.
  static func fileName(for uid: String) -> String {
    let safe = uid.utf8.count <= 200 && !uid.isEmpty && uid.first != "."
      && uid.utf8.allSatisfy { byte in
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
          || byte == 0x2D || byte == 0x5F || byte == 0x2E || byte == 0x40
      }
    if safe { return uid + ".ics" }
    return "u-" + TodoStore.digest(of: Array(uid.utf8)).prefix(40) + ".ics"
  }
}
