/// The task as an app sees it: a title, categories, a priority level, dates, notes and
/// attachments, dependencies, each read and set as a typed value.
///
/// Every setter rewrites only the bytes it must (see `Task+Editing.swift`): a value is
/// replaced where it stands, a new tag or name is appended with one space, a removed one
/// goes with the whitespace before it. Line endings, spacing elsewhere, invalid UTF-8 and
/// every other token are kept.
extension Task {
  /// What a typed setter refuses: a value that would not read back as what was set.
  public enum ModelError: Error, Equatable, Sendable {
    /// A project or context name that is empty or holds whitespace or a control character.
    case notAName(String)
    /// A value `key:` cannot hold (see ``TagMeaning/accepts(_:)``).
    case notAValue(key: String, value: String)
    /// Taking the word away would leave a line that reads another way: its text would then
    /// start with `x `, `(A) ` or a date, and the task would read as done, prioritised or
    /// dated. The line is left as it was.
    case wouldChangeHead(String)
    /// A word to remove that the task does not have.
    case wordNotFound(String)
    /// The removal would leave the task with no text.
    case wouldLeaveNoText
    /// A title that would not read back as typed: empty, holding a line break or another
    /// control character, or words todo.txt reads as names, tags or a head (`+team`,
    /// `due:friday`, a leading `x ` or date). todo.txt has no escaping.
    case notPlainText(String)
  }

  // MARK: Words

  /// Removes every whole word of the text equal, byte for byte, to one of `words` (a tag only
  /// when written whole, so no value is ever cut), each with the whitespace before it.
  /// Refuses a word the task does not have, a removal that leaves no text, and one that
  /// would make the text read as a head; the task is then as it was.
  public mutating func removeWords(_ words: [String]) throws(ModelError) {
    var edited = self
    for word in words where !word.isEmpty {
      let wanted = Array(word.utf8)
      var found: [Range<Int>] = []
      edited.forEachToken { token in
        if edited.bytes[token.range].elementsEqual(wanted) {
          found.append((token.range.lowerBound - edited.bytes.startIndex)..<(token.range.upperBound - edited.bytes.startIndex))
        }
      }
      guard !found.isEmpty else { throw .wordNotFound(word) }
      for range in found.reversed() {
        edited.removeToken((edited.bytes.startIndex + range.lowerBound)..<(edited.bytes.startIndex + range.upperBound))
      }
    }
    guard !edited.bodyBytes.allSatisfy(\.isTaskWhitespace) else { throw .wouldLeaveNoText }
    guard edited.readsHeadAs(self) else { throw .wouldChangeHead(words.joined(separator: " ")) }
    self = edited
  }

  // MARK: Title

  /// The task as a person reads it: the body without `+project` and `@context` names and
  /// without tags with meaning (``TagMeaning``), words joined by single spaces. Other
  /// `key:value` words (`12:30`, `ref:ab12`) are part of the text.
  public var title: String {
    var words: [String] = []
    forEachToken { token in
      switch token.kind {
      case .project, .context: return
      case .tag(let colon):
        if TagMeaning.named(String(decoding: bytes[token.range.lowerBound..<colon], as: UTF8.self)) != nil { return }
      case .word: break
      }
      words.append(String(decoding: bytes[token.range], as: UTF8.self))
    }
    return words.joined(separator: " ")
  }

  /// A new open task with this title (see ``setTitle(_:)``), created `created` when given.
  public init(title: String, created: TaskDate? = nil) throws(ModelError) {
    self.init(bytes: [])
    if let created { setCreationDate(created) }
    try setTitle(title)
  }

  /// Gives the task a new title, keeping its head (done, dates, priority), its `+project`
  /// and `@context` names and its tags with meaning (due date, note, attachments): what an
  /// app's "rename" does. Runs of spaces become one.
  ///
  /// Refuses, leaving the task as it was, a title that would read back as something else:
  /// see ``ModelError/notPlainText(_:)``. Other `key:value` words (`12:30`) are plain text.
  public mutating func setTitle(_ typed: String) throws(ModelError) {
    if typed.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
      throw .notPlainText(typed)
    }
    let title = typed.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    guard !title.isEmpty else { throw .notPlainText(typed) }
    var edited = self
    edited.replaceBody(title)
    for name in projects { try edited.addProject(name) }
    for name in contexts { try edited.addContext(name) }
    edited.keepTagsWithMeaning(of: self)
    guard edited.title == title, edited.projects == projects, edited.contexts == contexts,
      edited.isCompleted == isCompleted, edited.creationDate == creationDate,
      edited.completionDate == completionDate, edited.priority == priority
    else { throw .notPlainText(typed) }
    self = edited
  }

  // MARK: Projects and contexts

  /// Adds `+name` at the end of the line, unless the task has that project already.
  public mutating func addProject(_ name: String) throws(ModelError) { try addName(name, kind: .project) }

  /// Removes every `+name` (and the whitespace before each); whether there was one.
  @discardableResult
  public mutating func removeProject(_ name: String) throws(ModelError) -> Bool { try removeName(name, kind: .project) }

  /// Renames `+old` to `+new` where it stands; whether there was one. A task that already has
  /// `+new` loses `+old` instead, so the name is not there twice.
  @discardableResult
  public mutating func renameProject(_ old: String, to new: String) throws(ModelError) -> Bool {
    try renameName(old, to: new, kind: .project)
  }

  /// Adds `@name` at the end of the line, unless the task has that context already.
  public mutating func addContext(_ name: String) throws(ModelError) { try addName(name, kind: .context) }

  /// Removes every `@name`; whether there was one.
  @discardableResult
  public mutating func removeContext(_ name: String) throws(ModelError) -> Bool { try removeName(name, kind: .context) }

  /// Renames `@old` to `@new` where it stands (see ``renameProject(_:to:)``).
  @discardableResult
  public mutating func renameContext(_ old: String, to new: String) throws(ModelError) -> Bool {
    try renameName(old, to: new, kind: .context)
  }

  private static func sigil(_ kind: Token.Kind) -> UInt8 { kind == .project ? .plus : .at }

  private static func checkName(_ name: String) throws(ModelError) {
    guard !name.isEmpty, !name.unicodeScalars.contains(where: { $0.value <= 0x20 || (0x7F...0x9F).contains($0.value) })
    else { throw .notAName(name) }
  }

  private func ranges(of name: String, kind: Token.Kind) -> [Range<Int>] {
    let wanted = [Task.sigil(kind)] + Array(name.utf8)
    var found: [Range<Int>] = []
    forEachToken { token in
      if token.kind == kind, bytes[token.range].elementsEqual(wanted) { found.append(token.range) }
    }
    return found
  }

  private mutating func addName(_ name: String, kind: Token.Kind) throws(ModelError) {
    try Task.checkName(name)
    guard ranges(of: name, kind: kind).isEmpty else { return }
    appendKeepingHead(String(decoding: [Task.sigil(kind)], as: UTF8.self) + name)
  }

  private mutating func removeName(_ name: String, kind: Token.Kind) throws(ModelError) -> Bool {
    let start = bytes.startIndex
    let found = ranges(of: name, kind: kind).map { ($0.lowerBound - start)..<($0.upperBound - start) }
    try keepingHead(name) { task in
      // From the last back, offsets from the line's start (each removal makes a new line).
      for range in found.reversed() {
        task.removeToken((task.bytes.startIndex + range.lowerBound)..<(task.bytes.startIndex + range.upperBound))
      }
    }
    return !found.isEmpty
  }

  /// Runs `edit` on a copy and keeps the result only when the head reads as before.
  private mutating func keepingHead(_ what: String, _ edit: (inout Task) -> Void) throws(ModelError) {
    var edited = self
    edit(&edited)
    guard edited.readsHeadAs(self) else { throw .wouldChangeHead(what) }
    self = edited
  }

  private mutating func renameName(_ old: String, to new: String, kind: Token.Kind) throws(ModelError) -> Bool {
    try Task.checkName(new)
    guard old != new else { return !ranges(of: old, kind: kind).isEmpty }
    if !ranges(of: new, kind: kind).isEmpty { return try removeName(old, kind: kind) }
    let start = bytes.startIndex
    let found = ranges(of: old, kind: kind).map { ($0.lowerBound - start)..<($0.upperBound - start) }
    guard let first = found.first else { return false }
    try keepingHead(old) { task in
      // The first becomes the new name where it stands; repeats of the old name go.
      for range in found.dropFirst().reversed() {
        task.removeToken((task.bytes.startIndex + range.lowerBound)..<(task.bytes.startIndex + range.upperBound))
      }
      task.replaceBytes(
        (task.bytes.startIndex + first.lowerBound + 1)..<(task.bytes.startIndex + first.upperBound), with: Array(new.utf8))
    }
    return true
  }

  // MARK: Tags with meaning

  /// Sets the first `key:` tag of `meaning` to `value` in place, or appends it; `nil`
  /// removes every such tag. Refuses a value the tag cannot hold.
  public mutating func set(_ meaning: TagMeaning, to value: String?) throws(ModelError) {
    guard let value else {
      try keepingHead(meaning.key + ":") { $0.removeTag(meaning.key) }
      return
    }
    guard meaning.accepts(value) else { throw .notAValue(key: meaning.key, value: value) }
    if let range = tagValueRange(meaning.key) {
      replaceBytes(range, with: Array(value.utf8))
    } else {
      appendKeepingHead(meaning.key + ":" + value)
    }
  }

  /// Appends a word as ``appendText(_:)`` does, unless the line would then read another way:
  /// a task whose whole text is `x`, `(A)` or a date would become done, gain a priority or a
  /// creation date with a word after it. Then the word goes before the text instead.
  mutating func appendKeepingHead(_ word: String) {
    var appended = self
    appended.appendText(word)
    if appended.readsHeadAs(self) {
      self = appended
      return
    }
    var prepended = self
    prepended.prependText(word)
    self = prepended
  }

  /// Whether the head (completion, dates, priority) reads as `other`'s.
  func readsHeadAs(_ other: Task) -> Bool {
    isCompleted == other.isCompleted && completionDate == other.completionDate
      && creationDate == other.creationDate && headPriority == other.headPriority
  }

  /// Sets or removes `due:`.
  public mutating func setDueDate(_ date: TaskDate?) throws(ModelError) {
    try set(.due, to: date?.description)
  }

  /// Sets or removes `t:`, the threshold.
  public mutating func setThresholdDate(_ date: TaskDate?) throws(ModelError) {
    try set(.threshold, to: date?.description)
  }

  /// Sets `due:` from what a person types: a date or a date word (`today`, `fri`, `+2w`,
  /// `eom`; see ``RelativeDate``), counted from `today`. Refuses anything else.
  public mutating func setDueDate(_ typed: String, today: TaskDate) throws(ModelError) {
    guard let date = TaskDate(typed) ?? RelativeDate.resolve(typed, today: today) else {
      throw .notAValue(key: TagMeaning.due.key, value: typed)
    }
    try setDueDate(date)
  }

  /// Sets `t:` from what a person types (see ``setDueDate(_:today:)``).
  public mutating func setThresholdDate(_ typed: String, today: TaskDate) throws(ModelError) {
    guard let date = TaskDate(typed) ?? RelativeDate.resolve(typed, today: today) else {
      throw .notAValue(key: TagMeaning.threshold.key, value: typed)
    }
    try setThresholdDate(date)
  }

  /// Sets or removes `rec:`.
  public mutating func setRecurrence(_ recurrence: Recurrence?) throws(ModelError) {
    try set(.recurrence, to: recurrence?.description)
  }

  /// `h:1`, or no `h:` tag at all.
  public mutating func setHidden(_ hidden: Bool) throws(ModelError) {
    try set(.hidden, to: hidden ? "1" : nil)
  }

  /// The priority as a word (high, medium, low), or `nil` for none or another letter.
  public var priorityLevel: Priority.Level? { priority.flatMap(Priority.Level.init) }

  // MARK: Notes and attachments

  /// The name of the note's file in the notes folder (`note:NAME`).
  public var note: String? { tagValue(TagMeaning.note.key) }

  /// A file name for this task's note or attachment, without extension: its first plain
  /// words, lower case, letters and digits only, joined by `-`, at most 32 characters
  /// (`call-mom-about`); `note` when it has no such word. Safe in any folder: no separator,
  /// no dot, no control character.
  public var fileNameStem: String {
    var words: [String] = []
    forEachToken { token in
      guard token.kind == .word else { return }
      let word = String(decoding: bytes[token.range], as: UTF8.self).lowercased()
      let kept = String(word.unicodeScalars.filter { ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") })
      if !kept.isEmpty { words.append(kept) }
    }
    var stem = ""
    for word in words where stem.count + word.count + 1 <= 32 { stem += (stem.isEmpty ? "" : "-") + word }
    return stem.isEmpty ? "note" : stem
  }

  /// Sets or removes `note:`.
  public mutating func setNote(_ name: String?) throws(ModelError) { try set(.note, to: name) }

  /// The names of the attached files in the attachments folder, in order.
  public var attachments: [String] { tags.filter { $0.key == TagMeaning.attachment.key }.map(\.value) }

  /// Appends `att:NAME`, unless the task has it already.
  public mutating func addAttachment(_ name: String) throws(ModelError) { try add(.attachment, name) }

  /// Removes `att:NAME`; whether there was one.
  @discardableResult
  public mutating func removeAttachment(_ name: String) throws(ModelError) -> Bool { try remove(.attachment, name) }

  /// Appends `key:value` of a tag that may repeat, unless the task has that very one.
  private mutating func add(_ meaning: TagMeaning, _ value: String) throws(ModelError) {
    guard meaning.accepts(value) else { throw .notAValue(key: meaning.key, value: value) }
    guard !tags.contains(Tag(key: meaning.key, value: value)) else { return }
    appendKeepingHead(meaning.key + ":" + value)
  }

  /// Removes `key:value` of a tag that may repeat; whether there was one.
  private mutating func remove(_ meaning: TagMeaning, _ value: String) throws(ModelError) -> Bool {
    var removed = false
    try keepingHead(meaning.key + ":" + value) { removed = $0.removeTag(meaning.key, value: value) }
    return removed
  }

  // MARK: Dependencies

  /// Sets or removes `id:`, the name other tasks wait for this one by.
  public mutating func setDependencyID(_ id: String?) throws(ModelError) { try set(.id, to: id) }

  /// Appends `p:ID` (this task waits for the task whose `id:` is ID), unless it is there.
  public mutating func addParent(_ id: String) throws(ModelError) { try add(.parent, id) }

  /// Removes `p:ID`; whether there was one.
  @discardableResult
  public mutating func removeParent(_ id: String) throws(ModelError) -> Bool { try remove(.parent, id) }
}

extension Priority {
  /// The three priorities phone task apps offer, as the tool names them: high is `A`,
  /// medium `B`, low `C`.
  public enum Level: String, CaseIterable, Sendable {
    case high, medium, low

    /// The level of `A`, `B` or `C`; `nil` for the other letters.
    public init?(_ priority: Priority) {
      switch priority.byte {
      case UInt8(ascii: "A"): self = .high
      case UInt8(ascii: "B"): self = .medium
      case UInt8(ascii: "C"): self = .low
      default: return nil
      }
    }

    /// The letter this level is written as.
    public var priority: Priority {
      switch self {
      case .high: Priority(UInt8(ascii: "A"))!
      case .medium: Priority(UInt8(ascii: "B"))!
      case .low: Priority(UInt8(ascii: "C"))!
      }
    }
  }

  /// A priority as a person types it: a letter `A`–`Z` (either case), or `high`, `medium`
  /// (`med`), `low`, or their first letters `h`, `m`, `l` in lower case (so that `H`, `M`
  /// and `L` stay letters). Only ASCII letters are letters here: `ſ` and `ı` upper-case to
  /// `S` and `I`, and a priority typed that way was not typed.
  public init?(word: some StringProtocol) {
    let text = String(word)
    guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
    switch text {
    case "h": self = Level.high.priority
    case "m": self = Level.medium.priority
    case "l": self = Level.low.priority
    default:
      switch text.lowercased() {
      case "high": self = Level.high.priority
      case "medium", "med": self = Level.medium.priority
      case "low": self = Level.low.priority
      default: self.init(text.uppercased())
      }
    }
  }
}

extension Task.ModelError: CustomStringConvertible {
  /// The refusal in words, for a message to a person; control characters of the text are
  /// shown as `?`, so that printing it cannot drive the terminal.
  public var description: String {
    func shown(_ text: String) -> String {
      String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "?" : $0 }))
    }
    return switch self {
    case .notAName(let name): "'\(shown(name))' cannot be a name: it needs at least one character and no space or control character"
    case .notAValue(let key, let value): "\(shown(key)): cannot hold '\(shown(value))'"
    case .wouldChangeHead(let word): "taking away '\(shown(word))' would make the task read as done, prioritised or dated"
    case .wordNotFound(let word): "the task has no word '\(shown(word))'"
    case .wouldLeaveNoText: "the task would be left with no text"
    case .notPlainText(let text):
      "'\(shown(text))' would not read back as typed: a title is one line, and +word, @word, key:value tags or a leading x, (A) or date mean something in todo.txt"
    }
  }
}

extension Task {
  /// A tag with meaning that `text` gives again: its meaning, the value the task has and the
  /// value the text gives.
  public struct RepeatedTag: Equatable, Sendable {
    /// The tag.
    public var meaning: TagMeaning
    /// The value the task has.
    public var old: String
    /// The value the text gives.
    public var new: String
  }

  /// Splits text about to be added to this task (`append`, `prepend`) into the tags with
  /// meaning that would give the task a second value of a tag that holds one (`due:` on a
  /// task that has a `due:`) and the rest of the text, whose bytes and spacing are kept.
  ///
  /// A second `due:` would be kept in the line but not count, so the date the person just
  /// typed would silently mean nothing: the caller sets such values in place instead (a value
  /// equal to the old one then changes nothing). Tags that repeat by nature
  /// (``TagMeaning/repeats``: `p:`, `att:`) and values the tag cannot hold are left in the text.
  public func splittingRepeatedTags(from text: [UInt8]) -> (rest: [UInt8], repeated: [RepeatedTag]) {
    var repeated: [RepeatedTag] = []
    var removed: [Range<Int>] = []
    text.withUnsafeBufferPointer { b in
      var i = 0
      while i < b.count {
        while i < b.count, b[i].isTaskWhitespace { i += 1 }
        let start = i
        while i < b.count, !b[i].isTaskWhitespace { i += 1 }
        guard i > start, case .tag(let colon) = Token.Kind.classify(b, start, i) else { continue }
        let key = String(decoding: b[start..<colon], as: UTF8.self)
        let value = String(decoding: b[(colon + 1)..<i], as: UTF8.self)
        guard let meaning = TagMeaning.named(key), !meaning.repeats, meaning.accepts(value),
          let old = tagValue(key),
          !repeated.contains(where: { $0.meaning == meaning })
        else { continue }
        repeated.append(RepeatedTag(meaning: meaning, old: old, new: value))
        removed.append(start..<i)
      }
    }
    var rest = text
    for range in removed.reversed() {
      // The tag and the whitespace before it (after it, when it starts the text).
      var lower = range.lowerBound
      var upper = range.upperBound
      while lower > 0, rest[lower - 1].isTaskWhitespace { lower -= 1 }
      if lower == range.lowerBound { while upper < rest.count, rest[upper].isTaskWhitespace { upper += 1 } }
      rest.removeSubrange(lower..<upper)
    }
    return (rest, repeated)
  }
}

extension Task {
  /// The tags with meaning `old` has that this task does not give (by key; for tags that
  /// repeat, by key and value), appended in their order: what a replaced text keeps of the
  /// task it replaces, so that its note, attachments, dates and dependencies are not cut
  /// loose. Returns the tags kept.
  @discardableResult
  public mutating func keepTagsWithMeaning(of old: Task) -> [Tag] {
    var kept: [Tag] = []
    for tag in old.tags {
      guard let meaning = TagMeaning.named(tag.key) else { continue }
      let has = meaning.repeats
        ? tags.contains(tag) : tags.contains { $0.key == tag.key }
      guard !has else { continue }
      appendKeepingHead(tag.key + ":" + tag.value)
      kept.append(tag)
    }
    return kept
  }
}
