import TodoTxt

/// A mistake the user made or a problem with the files: one line on standard error.
struct Failure: Error {
  let message: String
  init(_ message: String) { self.message = message }
}

/// The task as a phone app shows it, read and written through the typed model of `TodoTxt`:
/// the category is the first `+project`, the priority is `(A)`/`(B)`/`(C)` for high, medium
/// and low, the due date is `due:`, the note and photo are `note:` and `att:` files.
extension Task {
  var category: String? { projects.first }

  /// Makes `name` the category: the old one is renamed where it stands, or `+name` is added.
  mutating func setCategory(_ name: String) throws(ModelError) {
    if let old = category { try renameProject(old, to: name) } else { try addProject(name) }
  }
}

extension Priority {
  /// `low`, `medium` or `high` (or `l`, `m`, `h`); `none` is no priority. Other letters of
  /// todo.txt are not offered by this app.
  static func level(_ word: String) throws(Failure) -> Priority? {
    if word == "none" { return nil }
    guard let priority = Priority(word: word), Priority.Level(priority) != nil else {
      throw Failure("\(word.debugDescription) is not a priority: use low, medium, high or none")
    }
    return priority
  }
}

extension Task.ModelError {
  /// The error as a sentence for the user.
  var message: String {
    switch self {
    case .notAName(let name): "\(name.debugDescription) is not a category name: no spaces or control characters"
    case .notAValue("due", let value): "\(value.debugDescription) is not a date: use 2026-05-01, today, fri, +2w or eom"
    case .notAValue(let key, let value): "\(key): cannot hold \(value.debugDescription)"
    default: description
    }
  }
}
