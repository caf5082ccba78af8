import TodoCalendar
import TodoStore

/// Why a sync stopped, typed where it is raised; worded once, in `description`, as one line.
public enum SyncError: Error, Sendable, CustomStringConvertible {
  case server(CalendarServerError)
  case store(StoreError)
  /// The sync would empty a side; `--yes` confirms.
  case refused(EmptiedSide, tasks: Int)
  /// The state could not be written (the list was changed: the next sync settles the rest).
  case stateNotSaved(StoreError)

  public var description: String {
    switch self {
    case .server(let error): return error.description
    case .store(let error): return "\(error)"
    case .refused(.server, let tasks):
      return "the collection is empty: syncing would delete \(tasks) tasks of the list (run again with --yes to do it)"
    case .refused(.list, let tasks):
      return "the list is empty: syncing would delete \(tasks) items of the collection (run again with --yes to do it)"
    case .stateNotSaved(let error): return "the sync state was not saved: \(error)"
    }
  }
}
