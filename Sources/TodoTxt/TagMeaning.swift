/// A `key:value` tag that means something to the tool, and everything the layers above need
/// to know about it: one entry here is all it takes to add one.
///
/// The format itself gives meaning to no tag; these are the keys todo.txt programs agree on
/// (`due:`, `t:`, `rec:`, `h:`, `pri:`, `id:`/`p:`) and the ones this tool adds (`note:`,
/// `att:`, `uid:`). A tag with another key is text that happens to hold a colon: kept and
/// shown as written.
public struct TagMeaning: Hashable, Sendable {
  /// What the value holds.
  public enum Value: Hashable, Sendable {
    /// `YYYY-MM-DD`; typed values may be date words (`fri`, `+2w`), turned into a date.
    case date
    /// `[+]N<d|w|m|y|b>` (see ``Recurrence``).
    case recurrence
    /// `1` for yes; anything else (`0`) for no.
    case flag
    /// One priority letter `A`–`Z`.
    case priority
    /// A name other tasks refer to (no whitespace, no colon).
    case identifier
    /// A file's name in one of the list's folders (no `/`).
    case fileName
  }

  /// The key, before the colon (case-sensitive).
  public let key: String
  /// `key:`, for the byte scans of large lists (which take a static string).
  public let token: StaticString
  /// What a value must be for the tag to mean something.
  public let value: Value
  /// Whether the readable listing leaves the tag out of the task's text (it shows the
  /// meaning its own way: a date column, a mark).
  public let hiddenInListing: Bool
  /// The field the query language and JSON call it by.
  public let field: String
  /// What completion shows beside the key.
  public let summary: String
  /// Whether the task may hold several (`p:1 p:4`, `att:a.png att:b.pdf`); for the others
  /// the first counts and `doctor` reports a repeat.
  public let repeats: Bool

  /// `due:`: the day the task is due.
  public static let due = TagMeaning(
    key: "due", token: "due:", value: .date, hiddenInListing: true, field: "due", summary: "the day it is due", repeats: false)
  /// `t:`: the day the task starts to show (a threshold).
  public static let threshold = TagMeaning(
    key: "t", token: "t:", value: .date, hiddenInListing: true, field: "threshold",
    summary: "the day it starts to show (threshold)", repeats: false)
  /// `rec:`: the task comes back after completion.
  public static let recurrence = TagMeaning(
    key: "rec", token: "rec:", value: .recurrence, hiddenInListing: true, field: "recurrence",
    summary: "comes back after completion (rec:1w, rec:+1m)", repeats: false)
  /// `h:1`: hidden from listings (a placeholder line, say).
  public static let hidden = TagMeaning(
    key: "h", token: "h:", value: .flag, hiddenInListing: true, field: "hidden", summary: "h:1 hides it from listings",
    repeats: false)
  /// `pri:`: the priority a completed task had.
  public static let keptPriority = TagMeaning(
    key: "pri", token: "pri:", value: .priority, hiddenInListing: true, field: "priority",
    summary: "the priority a done task had", repeats: false)
  /// `id:`: the name of this task's wait: it waits for every task whose `p:` has this value.
  public static let id = TagMeaning(
    key: "id", token: "id:", value: .identifier, hiddenInListing: false, field: "id",
    summary: "it waits for the tasks whose p: has this value", repeats: false)
  /// `p:`: the `id:` of a task that waits for this one (may repeat).
  public static let parent = TagMeaning(
    key: "p", token: "p:", value: .identifier, hiddenInListing: false, field: "parents",
    summary: "the id: of a task that waits for this one", repeats: true)
  /// `note:`: the task's note, a file in the notes folder.
  public static let note = TagMeaning(
    key: "note", token: "note:", value: .fileName, hiddenInListing: true, field: "note",
    summary: "its note, a file in the notes folder", repeats: false)
  /// `att:`: an attached file in the attachments folder (may repeat).
  public static let attachment = TagMeaning(
    key: "att", token: "att:", value: .fileName, hiddenInListing: true, field: "attachments",
    summary: "an attached file in the attachments folder", repeats: true)
  /// `uid:`: the task's identity in a calendar (CalDAV).
  public static let uid = TagMeaning(
    key: "uid", token: "uid:", value: .identifier, hiddenInListing: true, field: "uid",
    summary: "its identity for calendar sync", repeats: false)

  public static func == (lhs: TagMeaning, rhs: TagMeaning) -> Bool { lhs.key == rhs.key }
  public func hash(into hasher: inout Hasher) { hasher.combine(key) }

  /// `h:1`, the whole word that hides a task, for the byte scans.
  public static let hidingToken: StaticString = "h:1"

  /// Every tag with meaning, in the order help and completion list them.
  public static let all: [TagMeaning] = [
    due, threshold, recurrence, hidden, keptPriority, id, parent, note, attachment, uid,
  ]

  /// The meaning of `key`, or `nil` for a tag with none.
  public static func named(_ key: some StringProtocol) -> TagMeaning? {
    all.first { $0.key.utf8.elementsEqual(key.utf8) }
  }

  /// Whether `value` is one this tag can hold, as it would be written (a date as
  /// `YYYY-MM-DD`, not a date word): what the typed setters of ``Task`` accept and `doctor`
  /// checks.
  public func accepts(_ value: some StringProtocol) -> Bool {
    let text = String(value)
    guard TagMeaning.isTagValue(text) else { return false }
    switch self.value {
    case .date: return TaskDate(text) != nil
    case .recurrence: return Recurrence(text) != nil
    case .flag: return true
    case .priority: return Priority(text) != nil
    case .identifier: return !text.contains(":")
    case .fileName: return !text.contains("/") && text != "." && text != ".."
    }
  }

  /// Whether `text` can stand after `key:` and read back as the same tag: not empty, no
  /// whitespace or line break, no control character, no second colon, and not starting with
  /// `//` (which makes a link, not a tag).
  static func isTagValue(_ text: String) -> Bool {
    guard !text.isEmpty, !text.hasPrefix("//") else { return false }
    return !text.unicodeScalars.contains { $0.value <= 0x20 || $0.value == 0x7F || $0 == ":" }
  }
}
