import Foundation
import Testing
import TodoTestSupport
import TodoTxt

/// The typed model on ``Task``: each value set reads back, and each setter changes one run
/// of bytes of the line and no other meaning of it.
@Suite struct TaskTypedModelTests {
  @Test func theTitleIsTheTextWithoutNamesAndTagsWithMeaning() {
    let task = Task(parsing: "(A) 2026-12-01 Call  mom +family @phone due:2026-12-05 at 12:30 ref:x note:a.txt h:1")
    #expect(task.title == "Call mom at 12:30 ref:x")
    #expect(Task(parsing: "x 2026-12-02 2026-12-01 +only @names").title == "")
  }

  @Test func projectsAndContextsAreAddedRemovedAndRenamedInPlace() throws {
    var task = Task(parsing: "(B) buy milk +shop @store  tomorrow")
    try task.addProject("home")
    #expect(task.line == "(B) buy milk +shop @store  tomorrow +home")
    try task.addProject("home")
    #expect(task.line == "(B) buy milk +shop @store  tomorrow +home")
    let renamed = try task.renameProject("shop", to: "errands")
    #expect(renamed)
    #expect(task.line == "(B) buy milk +errands @store  tomorrow +home")
    let removed = try task.removeContext("store")
    #expect(removed)
    #expect(task.line == "(B) buy milk +errands  tomorrow +home")
    let again = try task.removeContext("store")
    #expect(!again)
    // Renamed onto a name it has: the old one goes, the name is there once.
    let merged = try task.renameProject("errands", to: "home")
    #expect(merged)
    #expect(task.line == "(B) buy milk  tomorrow +home")
    #expect(throws: Task.ModelError.notAName("two words")) { try task.addContext("two words") }
    #expect(throws: Task.ModelError.notAName("")) { try task.addProject("") }
  }

  @Test func datesAreSetWhereTheyStandOrAppended() throws {
    var task = Task(parsing: "pay rent due:2026-12-01 +home")
    try task.setDueDate(day("2026-12-31"))
    #expect(task.line == "pay rent due:2026-12-31 +home")
    #expect(task.dueDate == day("2026-12-31"))
    try task.setThresholdDate(day("2026-12-20"))
    #expect(task.line == "pay rent due:2026-12-31 +home t:2026-12-20")
    try task.setDueDate(nil)
    #expect(task.line == "pay rent +home t:2026-12-20")
    // 2026-12-03 is a Thursday.
    try task.setDueDate("fri", today: day("2026-12-03"))
    #expect(task.dueDate == day("2026-12-04"))
    try task.setThresholdDate("+1w", today: day("2026-12-03"))
    #expect(task.thresholdDate == day("2026-12-10"))
    #expect(throws: Task.ModelError.notAValue(key: "due", value: "tomorow")) {
      try task.setDueDate("tomorow", today: day("2026-12-03"))
    }
  }

  @Test func recurrenceHiddenNotesAttachmentsAndDependencies() throws {
    var task = Task(parsing: "water plants")
    try task.setRecurrence(Recurrence("+1w"))
    try task.setHidden(true)
    try task.setNote("plants.txt")
    try task.addAttachment("photo.jpg")
    try task.addAttachment("photo.jpg")
    try task.addAttachment("list.pdf")
    try task.setDependencyID("w1")
    try task.addParent("h2")
    #expect(task.line == "water plants rec:+1w h:1 note:plants.txt att:photo.jpg att:list.pdf id:w1 p:h2")
    #expect(task.recurrence == Recurrence("+1w") && task.isHidden && task.note == "plants.txt")
    #expect(task.attachments == ["photo.jpg", "list.pdf"] && task.dependencyID == "w1" && task.parentIDs == ["h2"])
    #expect(task.title == "water plants")
    try task.setHidden(false)
    let detached = try task.removeAttachment("photo.jpg")
    let unlinked = try task.removeParent("h2")
    #expect(detached && unlinked)
    try task.setNote(nil)
    #expect(task.line == "water plants rec:+1w att:list.pdf id:w1")
    #expect(throws: Task.ModelError.notAValue(key: "att", value: "../x")) { try task.addAttachment("../x") }
    #expect(throws: Task.ModelError.notAValue(key: "note", value: "a b")) { try task.setNote("a b") }
    #expect(throws: Task.ModelError.notAValue(key: "id", value: "a:b")) { try task.setDependencyID("a:b") }
  }

  /// A task whose text is `x`, `(A)` or a date would read as done, prioritised or dated with
  /// a word after it: a new word goes in front instead, and a removal that would bring such
  /// text to the front is refused.
  @Test func noEditMakesTheTextReadAsAHead() throws {
    var done = Task(parsing: "x")
    try done.addProject("home")
    #expect(done.line == "+home x" && !done.isCompleted)
    var priority = Task(parsing: "(A)")
    try priority.setDueDate(day("2026-12-31"))
    #expect(priority.line == "due:2026-12-31 (A)" && priority.priority == nil)
    var dated = Task(parsing: "2026-11-01")
    try dated.addAttachment("a.png")
    // A date alone is already the creation date: the word goes after it.
    #expect(dated.line == "2026-11-01 att:a.png" && dated.creationDate == day("2026-11-01"))
    var front = Task(parsing: "+home x marks the spot")
    #expect(throws: Task.ModelError.wouldChangeHead("home")) { try front.removeProject("home") }
    #expect(front.line == "+home x marks the spot")
    var tagged = Task(parsing: "due:2026-12-01 (B) is a grade")
    #expect(throws: Task.ModelError.wouldChangeHead("due:")) { try tagged.setDueDate(nil) }
  }

  @Test func priorityWordsAndLevels() {
    #expect(Priority(word: "high") == Priority("A") && Priority(word: "MEDIUM") == Priority("B"))
    #expect(Priority(word: "l") == Priority("C") && Priority(word: "L") == Priority("L"))
    #expect(Priority(word: "q") == Priority("Q") && Priority(word: "urgent") == nil)
    // Letters that upper-case to ASCII ones (long s, dotless i, the Kelvin sign's k) are none.
    #expect(Priority(word: "\u{17F}") == nil && Priority(word: "\u{131}") == nil && Priority(word: "\u{212A}") == nil)
    #expect(Task(parsing: "(A) x").priorityLevel == .high && Task(parsing: "(D) x").priorityLevel == nil)
    #expect(Priority.Level.allCases.map(\.priority.description) == ["A", "B", "C"])
  }

  @Test func theTableNamesEachTagOnce() {
    #expect(Set(TagMeaning.all.map(\.key)).count == TagMeaning.all.count)
    #expect(Set(TagMeaning.all.map(\.field)).count == TagMeaning.all.count)
    #expect(TagMeaning.named("due") == .due && TagMeaning.named("ref") == nil)
    #expect(TagMeaning.all.allSatisfy { $0.token.description == $0.key + ":" })
    #expect(TagMeaning.hidingToken.description == TagMeaning.hidden.key + ":1")
    #expect(TagMeaning.due.accepts("2026-02-28") && !TagMeaning.due.accepts("2026-02-30"))
    #expect(!TagMeaning.note.accepts("//x") && !TagMeaning.note.accepts("a\u{1B}b"))
  }

  /// What a line means apart from the bytes of one edit.
  struct Meaning: Equatable {
    var completed: Bool
    var completion: TaskDate?
    var creation: TaskDate?
    var priority: Priority?
    var projects: [String]
    var contexts: [String]
    var tags: [Tag]

    init(_ task: Task, without edited: String? = nil) {
      completed = task.isCompleted
      completion = task.completionDate
      creation = task.creationDate
      priority = task.priority
      projects = task.projects.filter { "+" + $0 != edited }
      contexts = task.contexts.filter { "@" + $0 != edited }
      tags = task.tags.filter { $0.key != edited }
    }
  }

  /// The edits applied to every line: what each sets, and the key or name it touches.
  static var edits: [(name: String, touches: String, apply: (inout Task) throws -> Void, check: (Task) -> Bool)] { [
    ("add project", "+zeta", { try $0.addProject("zeta") }, { $0.projects.contains("zeta") }),
    ("add context", "@zeta", { try $0.addContext("zeta") }, { $0.contexts.contains("zeta") }),
    ("remove project", "+Family", { try $0.removeProject("Family") }, { !$0.projects.contains("Family") }),
    ("set due", "due", { try $0.setDueDate(TaskDate("2030-01-02")) }, { $0.dueDate == TaskDate("2030-01-02") }),
    ("remove due", "due", { try $0.setDueDate(nil) }, { $0.dueDate == nil && $0.tagValue("due") == nil }),
    ("set threshold", "t", { try $0.setThresholdDate(TaskDate("2030-01-02")) }, { $0.thresholdDate == TaskDate("2030-01-02") }),
    ("set recurrence", "rec", { try $0.setRecurrence(Recurrence("2m")) }, { $0.recurrence == Recurrence("2m") }),
    ("hide", "h", { try $0.setHidden(true) }, { $0.isHidden }),
    ("set note", "note", { try $0.setNote("n.txt") }, { $0.note == "n.txt" }),
    ("add attachment", "att", { try $0.addAttachment("a.png") }, { $0.attachments.contains("a.png") }),
    ("set id", "id", { try $0.setDependencyID("k9") }, { $0.dependencyID == "k9" }),
    ("add parent", "p", { try $0.addParent("k1") }, { $0.parentIDs.contains("k1") }),
  ] }

  /// Every line of the fixture files (the format's examples, CRLF, a byte order mark, odd
  /// spacing, invalid UTF-8, bad dates) and seeded random lines, under every edit: the value
  /// reads back, the line differs from the old in one run of bytes, and nothing else it
  /// means has changed.
  @Test func everyEditChangesOneRunAndNoOtherMeaning() throws {
    var lines: [[UInt8]] = []
    for name in Fixtures.names {
      let list = TodoList(bytes: try Fixtures.bytes(name))
      lines += list.map { Array($0.bytes) }
    }
    var random = SplitMix64(seed: 33)
    let words = ["call", "+Family", "@phone", "due:2026-12-01", "t:2026-11-30", "rec:1w", "h:1", "x", "(A)",
                 "2026-11-01", "note:a.txt", "att:b.png", "id:k1", "p:k0", "12:30", "\u{FEFF}", "\u{E9}", "\t"]
    for _ in 0..<200 {
      let count = random.below(7)
      let text = (0..<count).map { _ in words[random.below(words.count)] }.joined(separator: random.below(4) == 0 ? "  " : " ")
      lines.append(Array(text.utf8) + (random.below(5) == 0 ? [0xFF, 0xFE] : []))
    }
    var refused = 0
    for line in lines {
      for edit in TaskTypedModelTests.edits {
        var task = Task(bytes: line)
        let label = "\(edit.name) on \(String(decoding: line, as: UTF8.self).debugDescription)"
        do {
          try edit.apply(&task)
        } catch Task.ModelError.wouldChangeHead {
          // Refused: the line stays as it was, and only where the removal would have left
          // the text starting with x, a priority or a date.
          #expect(Array(task.bytes) == line, "\(label)")
          refused += 1
          continue
        }
        #expect(edit.check(task), "\(label): \(task.line.debugDescription)")
        #expect(Meaning(task, without: edit.touches) == Meaning(Task(bytes: line), without: edit.touches), "\(label)")
        let new = Array(task.bytes)
        if edit.name.hasPrefix("remove") {
          // Only deletions: the new line is the old one with some runs taken out.
          var rest = line[...]
          for byte in new {
            guard let at = rest.firstIndex(of: byte) else { rest = []; break }
            rest = rest[(at + 1)...]
          }
          #expect(new.count <= line.count && (new.isEmpty || !rest.isEmpty || new.last == line.last), "\(label)")
        } else {
          // One run replaced or inserted: a common start and a common end cover the rest.
          let prefix = zip(line, new).prefix { $0 == $1 }.count
          let suffix = zip(line.reversed(), new.reversed()).prefix { $0 == $1 }.count
          let oldRun = line.count - min(prefix + suffix, min(line.count, new.count))
          let newRun = new.count - min(prefix + suffix, min(line.count, new.count))
          #expect(line.count - oldRun + newRun == new.count, "\(label)")
          #expect(oldRun == 0 || edit.touches.count <= 4, "\(label): only a tag's value is replaced")
        }
      }
    }
    // The refusals are the rare lines built for them, not the rule.
    #expect(refused < lines.count / 10, "\(refused) refusals")
  }
}

/// The meaning of a tag is read from ``TagMeaning`` only: no source file outside its own
/// names a tag key in a tag lookup or edit, or writes `key:` of a tag with meaning by hand.
@Suite struct TagLiteralTests {
  @Test func noSourceNamesATagKeyOutsideTheTable() throws {
    let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")
    let keys = TagMeaning.all.map(\.key).joined(separator: "|")
    let patterns = [
      try Regex("(tagValue|tagValueRange|lastTagRange|setTag|removeTag)\\(\"(\(keys))\""),
      try Regex("key == \"(\(keys))\""),
      try Regex("\"(\(keys)):"),
    ]
    var found: [String] = []
    let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
    #expect(files.count > 50)
    for file in files where file.hasSuffix(".swift") && !file.hasSuffix("TagMeaning.swift") {
      let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
      where !line.trimmingCharacters(in: .whitespaces).hasPrefix("///") && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
        if patterns.contains(where: { line.contains($0) }) { found.append("\(file):\(number + 1): \(line)") }
      }
    }
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
  }
}

@Suite struct RepeatedTagSplitTests {
  @Test func theTagsATaskHasAreTakenOutWithTheirSpace() {
    let task = Task(parsing: "pay rent due:2026-12-01 rec:1m p:a")
    let split = task.splittingRepeatedTags(from: Array("due:2026-12-04  call\tthem rec:2w p:b due:2026-12-09 t:2026-12-01".utf8))
    #expect(String(decoding: split.rest, as: UTF8.self) == "call\tthem p:b due:2026-12-09 t:2026-12-01")
    #expect(split.repeated.map(\.meaning.key) == ["due", "rec"])
    #expect(split.repeated.map(\.new) == ["2026-12-04", "2w"] && split.repeated.map(\.old) == ["2026-12-01", "1m"])
    // A value the tag cannot hold stays text.
    #expect(task.splittingRepeatedTags(from: Array("due:soon".utf8)).repeated.isEmpty)
  }
}

@Suite("Task titles")
struct TaskTitleTests {
  @Test("setTitle keeps the head, the names and the tags with meaning; only the words change")
  func setTitleKeepsTheRest() throws {
    var task = Task(parsing: "(A) 2026-12-01 call  Mum +family @phone due:2026-12-24 note:call-mum.txt ref:77")
    try task.setTitle("ring   Dad tonight")
    #expect(task.line == "(A) 2026-12-01 ring Dad tonight +family @phone due:2026-12-24 note:call-mum.txt")
    #expect(task.title == "ring Dad tonight")
  }

  @Test("a new task from a title, created on a day")
  func newFromTitle() throws {
    let task = try Task(title: "buy oat milk at 12:30", created: TaskDate(year: 2026, month: 12, day: 3)!)
    #expect(task.line == "2026-12-03 buy oat milk at 12:30")
    #expect(try Task(title: "plain").line == "plain")
  }

  @Test(
    "a title that would read as something else is refused and the task stays as it was",
    arguments: [
      "meet +team", "call @home", "pay due:friday", "x done already", "2026-01-01 dated", "(A) urgent",
      "two\nlines", "carriage\rreturn", "esc\u{1B}[2J", "nel\u{85}", "", "   ", "h:1 hidden",
    ])
  func refused(_ title: String) throws {
    var task = Task(parsing: "keep me +p")
    #expect(throws: Task.ModelError.notPlainText(title)) { try task.setTitle(title) }
    #expect(task.line == "keep me +p")
    do {
      try task.setTitle(title)
    } catch {
      #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }
  }
}
