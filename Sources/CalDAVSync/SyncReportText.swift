import TodoCalendar

/// The words of a sync's report, one line per fact, written in one place.
///
/// Everything that came from the server or the list goes through ``shown(_:)``: a title may
/// hold escape sequences that would drive the terminal, or be ten megabytes long.
enum SyncReportText {
  static func lines(_ result: CalDAVSync.Result, dryRun: Bool) -> [String] {
    var lines: [String] = []
    if let problem = result.stateProblem {
      lines.append("caldav: the sync state was \(problem); synced as a first sync, matching by uid")
    }
    let plan = result.plan
    for conflict in plan.conflicts {
      for field in conflict.fields {
        lines.append(
          "conflict: \(shown(conflict.title)) [\(shown(conflict.uid))]: \(field.field) was \(quote(field.local)) here, "
            + "\(quote(field.remote)) on the server; kept the server's"
            + (dryRun ? "" : field.field == .note ? " (this list's text stays in a file of its own)" : " (todo undo brings the list's back)"))
      }
    }
    for report in plan.reports { lines.append(text(of: report)) }
    lines += result.problems.map { "problem: " + shown($0) }
    lines += result.notices.map { "caldav: " + shown($0) }
    if dryRun { lines += changes(plan) }
    var added = 0
    var changed = 0
    var removed = 0
    for edit in plan.localEdits {
      switch edit {
      case .add: added += 1
      case .update: changed += 1
      case .delete: removed += 1
      }
    }
    var created = 0
    var updated = 0
    var deleted = 0
    for operation in plan.serverOperations {
      switch operation {
      case .create: created += 1
      case .update: updated += 1
      case .delete: deleted += 1
      }
    }
    let verb = dryRun ? "would change" : "changed"
    lines.append(
      "caldav: \(verb) the list +\(added) ~\(changed) -\(removed), the server +\(created) ~\(updated) -\(deleted)"
        + (plan.conflicts.isEmpty ? "" : ", \(plan.conflicts.count) in conflict"))
    return lines
  }

  /// One line per change a dry run would make: `list: add TITLE`, `server: update TITLE`.
  static func changes(_ plan: SyncPlan) -> [String] {
    var lines: [String] = []
    for edit in plan.localEdits {
      switch edit {
      case .add(_, let fields, let file, _):
        lines.append("list: add \(quote(fields.title))" + (file == .done ? " to done.txt" : ""))
      case .update(let place, _, let fields, let file):
        let moved = file == place.file ? "" : " and move it to \(file.rawValue).txt"
        lines.append("list: change \(place.file.rawValue).txt line \(place.line + 1) to \(quote(fields.title))\(moved)")
      case .delete(let place):
        lines.append("list: delete \(place.file.rawValue).txt line \(place.line + 1)")
      }
    }
    for operation in plan.serverOperations {
      switch operation {
      case .create(_, let fields): lines.append("server: create \(quote(fields.title))")
      case .update(_, let version, let fields, _): lines.append("server: update \(shown(version.href)) to \(quote(fields.title))")
      case .delete(_, let version): lines.append("server: delete \(shown(version.href))")
      }
    }
    return lines
  }

  static func text(of report: SyncReport) -> String {
    switch report {
    case .duplicateOnServer(let uid, let hrefs):
      return "duplicate: \(hrefs.count) items on the server have the UID \(shown(uid)) (\(hrefs.map(shown).joined(separator: ", "))); "
        + "none of them is synced until one is left"
    case .duplicateInList(let uid, let title, let renamed):
      return "duplicate: \(renamed + 1) tasks of the list had uid:\(shown(uid)) (\(shown(title))); the others got their own"
    case .keptDeletedLocally(let uid, let title):
      return "kept: \(shown(title)) [\(shown(uid))] was deleted here and changed on the server; it is back in the list"
    case .keptDeletedOnServer(let uid, let title):
      return "kept: \(shown(title)) [\(shown(uid))] was deleted on the server and changed here; it is sent again"
    case .recurringCompleted(let uid, let title):
      return "recurring: \(shown(title)) [\(shown(uid))] was completed on the server; one completed task and the next one"
    case .paired(let uid, let title):
      return "paired: \(shown(title)) was new on both sides; one task with the server's UID \(shown(uid))"
    }
  }

  static func quote(_ text: String) -> String { "\"" + shown(text) + "\"" }

  /// Text safe for one line of a terminal: control characters (C0, DEL, C1) as `?`, and at
  /// most 200 characters.
  static func shown(_ text: String) -> String {
    var scalars = String.UnicodeScalarView()
    var count = 0
    for scalar in text.unicodeScalars {
      if count == 200 {
        scalars.append("…")
        break
      }
      let value = scalar.value
      scalars.append(value < 0x20 || value == 0x7F || (0x80...0x9F).contains(value) ? "?" : scalar)
      count += 1
    }
    return String(scalars)
  }
}
