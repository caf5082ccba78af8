import TodoCalendar
import TodoStore
import TodoTxt

/// A note's text travels as DESCRIPTION; in the list it is the file a task's `note:` names in
/// the notes folder, read and written through the store's confined folder (never through a
/// link, never outside the folder).
extension CalDAVSync {
  /// What a task's note file says.
  enum NoteReading: Equatable {
    /// The text in the compared form (``NoteText``); nil for no note, an empty file or a
    /// `note:` naming a file that is not there.
    case text(String?)
    /// The file is there and does not read (a link, a folder, no permission): its text is
    /// left out of the sync, so nothing is sent in its place.
    case unreadable(String)

    var text: String? {
      if case .text(let text) = self { return text }
      return nil
    }
  }

  static func noteText(of task: Task, in folder: NotesFolder) -> NoteReading {
    guard let name = task.note else { return .text(nil) }
    guard ConfinedFolder.isPlainName(name) else { return .unreadable("'\(name)' is not a file name in the notes folder") }
    switch folder {
    case .missing: return .text(nil)
    case .unusable(let error): return .unreadable("\(error)")
    case .present(let folder):
      do {
        return .text(NoteText.normalized(file: try folder.read(name)))
      } catch where error.kind == .notFound {
        return .text(nil)
      } catch {
        return .unreadable("\(error)")
      }
    }
  }

  /// The notes folder as found: there, not there yet (no task has a note), or there and not
  /// usable (a link to elsewhere, a file).
  enum NotesFolder {
    case present(ConfinedFolder)
    case missing
    case unusable(StoreError)

    init(_ path: String, store: TodoStore) {
      do {
        self = .present(try store.folder(path))
      } catch where error.kind == .notFound {
        self = .missing
      } catch {
        self = .unusable(error)
      }
    }
  }

  /// Writes the server's note texts into the list's note files during one change of the list.
  ///
  /// A file that more than one task names (the completed copy of a recurring task shares
  /// its note) is never written over for one of them: that task gets a file of its own.
  struct NoteWriter {
    let path: String
    let store: TodoStore
    var folder: NotesFolder
    /// How many tasks of the lists name each note file.
    var uses: [String: Int] = [:]
    /// Notes the server removed whose files stay (no longer linked), for the report.
    var unlinked: [String] = []

    init(sync: CalDAVSync, lists: [TodoList]) {
      path = sync.environment.notesFolder ?? ""
      store = sync.environment.store
      folder = sync.environment.notesFolder.map { NotesFolder($0, store: sync.environment.store) } ?? .missing
      for list in lists {
        for index in list.indices { if let name = list[index].note { uses[name, default: 0] += 1 } }
      }
    }

    mutating func opened() throws(StoreError) -> ConfinedFolder {
      switch folder {
      case .present(let folder): return folder
      case .unusable(let error): throw error
      case .missing:
        let made = try store.folder(path, creating: true)
        folder = .present(made)
        return made
      }
    }

    /// Makes `text` the note of `task`: written over the file only it names, or into a new
    /// file named after its words and linked by a `note:` tag. A nil text unlinks the note;
    /// its file stays (a phone that emptied a DESCRIPTION does not delete a file here).
    mutating func write(_ text: String?, current: String?, of task: inout Task) throws {
      guard text != current else { return }
      let name = task.note
      guard let text else {
        guard let name else { return }
        try task.setNote(nil)
        uses[name, default: 1] -= 1
        if ConfinedFolder.isPlainName(name) { unlinked.append(path + "/" + name) }
        return
      }
      let folder = try opened()
      if let name, ConfinedFolder.isPlainName(name), uses[name, default: 0] <= 1 {
        try folder.replace(name, contents: NoteText.fileBytes(text))
        uses[name] = 1
        return
      }
      let made = try folder.create(uniqueNameFrom: task.fileNameStem, extension: ".txt", contents: NoteText.fileBytes(text))
      do {
        try task.setNote(made)
      } catch {
        folder.remove(made)
        throw error
      }
      if let name { uses[name, default: 1] -= 1 }
      uses[made] = 1
    }

    /// Keeps `text` in a new file of its own beside the notes (the list's side of a note both
    /// sides changed); its path, or nil when there is no text to keep.
    mutating func keep(_ text: String?, of task: Task) throws -> String? {
      guard let text else { return nil }
      let folder = try opened()
      let name = try folder.create(
        uniqueNameFrom: task.fileNameStem + "-this-list", extension: ".txt", contents: NoteText.fileBytes(text))
      return folder.path(of: name)
    }
  }

  /// Gives a number of the manual order to each task the plan leaves in todo.txt without
  /// one, and sends it back in this sync, so the next sync has nothing to do: a task that
  /// stays in its line takes the number its place has (a phone dropped the number), one that
  /// arrives (an item a phone made, a task a phone reopened) the number after the list's last.
  func numberArrivals(_ plan: inout SyncPlan) {
    var last = lastNumber
    func numbered(_ fields: inout TaskFields, at place: TaskPlace?) -> Bool {
      guard fields.sortOrder.flatMap({ Int($0) }) == nil else { return false }
      if let place, place.file == .todo, let own = localFields[place]?.sortOrder, Int(own) != nil {
        fields.sortOrder = own
        return true
      }
      guard let number = ManualOrder.number(after: last) else { return false }
      fields.sortOrder = String(number)
      last = number
      return true
    }
    for (position, edit) in plan.localEdits.enumerated() {
      var fields: TaskFields
      let uid: String
      switch edit {
      case .add(let added, let addedFields, .todo, let copying):
        (uid, fields) = (added, addedFields)
        guard numbered(&fields, at: nil) else { continue }
        plan.localEdits[position] = .add(uid: uid, fields: fields, file: .todo, copying: copying)
      case .update(let place, let updated, let updatedFields, .todo):
        (uid, fields) = (updated, updatedFields)
        guard numbered(&fields, at: place) else { continue }
        plan.localEdits[position] = .update(place, uid: uid, fields: fields, file: .todo)
      default: continue
      }
      if let index = plan.serverOperations.firstIndex(where: { $0.uid == uid }) {
        switch plan.serverOperations[index] {
        case .create: plan.serverOperations[index] = .create(uid: uid, fields: fields)
        case .update(_, let version, _, let drop):
          plan.serverOperations[index] = .update(uid: uid, version: version, fields: fields, dropOccurrences: drop)
        case .delete: break
        }
      } else if let index = plan.recordChanges.firstIndex(where: {
        if case .set(let recorded, _, _) = $0 { return recorded == uid }
        return false
      }), case .set(_, let version, _) = plan.recordChanges[index] {
        plan.recordChanges.remove(at: index)
        plan.serverOperations.append(.update(uid: uid, version: version, fields: fields, dropOccurrences: false))
      }
    }
  }

  /// Moves the tasks of todo.txt whose UIDs `movers` holds to the places their numbers say
  /// among the others (whose numbers `numbers` holds): a phone moved them.
  static func place(_ movers: [String: Int], in list: inout TodoList, numbers: [String: Int]) {
    guard !movers.isEmpty else { return }
    func uid(_ task: Task) -> String? { task.tagValue(TagMeaning.uid.key).flatMap(LocalUID.uid(fromTagValue:)) }
    var marked = Array(repeating: false, count: list.count)
    var taken: [(number: Int, line: Int, task: Task)] = []
    for index in list.indices {
      guard let uid = uid(list[index]), let number = movers[uid] else { continue }
      marked[index] = true
      taken.append((number, index, list[index]))
    }
    guard !taken.isEmpty else { return }
    list.removeLines(marked: marked)
    var lineNumbers: [Int?] = list.indices.map { uid(list[$0]).flatMap { numbers[$0] } }
    for mover in taken.sorted(by: { ($0.number, $0.line) < ($1.number, $1.line) }) {
      let at = ManualOrder.place(of: mover.number, among: lineNumbers)
      list.insert(mover.task, at: at)
      lineNumbers.insert(mover.number, at: at)
    }
  }
}
