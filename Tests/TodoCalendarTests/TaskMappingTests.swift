import Testing
import TodoCalendar
import TodoTestSupport
import TodoTxt

/// The todo.txt side of the mapping: the fields of a line, and a line changed to say given
/// fields with every other byte kept.
@Suite struct TaskMappingTests {
  @Test func theFieldsOfALine() {
    let task = Task(parsing: "(A) 2026-12-01 Call  mom +family @phone due:2026-12-05 t:2026-12-03 rec:1w id:a p:b p:c p:b uid:xyz note:n.txt ref:1 due:soon h:1")
    let fields = TaskFields(task, note: "the note", sortOrder: "7")
    #expect(fields.title == "Call mom +family @phone ref:1")
    #expect(fields.priority == letter("A") && fields.created == day("2026-12-01"))
    #expect(fields.projects == ["family"] && fields.contexts == ["phone"])
    #expect(fields.due == day("2026-12-05") && fields.start == day("2026-12-03"))
    #expect(fields.recurrence == Recurrence("1w") && fields.id == "a" && fields.parents == ["b", "c"])
    #expect(!fields.isCompleted && fields.completed == nil)
    #expect(fields.note == "the note" && fields.sortOrder == "7")
    let done = TaskFields(Task(parsing: "x 2026-12-05 2026-12-01 Call mom pri:B"))
    #expect(done.isCompleted && done.completed == day("2026-12-05") && done.created == day("2026-12-01"))
    #expect(done.priority == letter("B") && done.title == "Call mom")
  }

  @Test func appliedFieldsChangeOnlyTheBytesTheyMust() throws {
    var task = Task(parsing: "(A) Call  mom due:2026-12-05 +family  at noon uid:u1")
    var fields = TaskFields(task)
    fields.title = "Call dad +family at noon"
    try task.apply(fields)
    #expect(task.line == "(A) Call  dad due:2026-12-05 +family  at noon uid:u1")
    // Words around a tag replaced: the tag stays, after the new words.
    var tagged = Task(parsing: "a b due:2026-12-05 c d")
    var taggedFields = TaskFields(tagged)
    taggedFields.title = "a z d"
    try tagged.apply(taggedFields)
    #expect(tagged.line == "a z due:2026-12-05 d")
    // Words added at the end, at the start, and taken away.
    var grown = Task(parsing: "2026-12-01 pay rent due:2026-12-31")
    var grownFields = TaskFields(grown)
    grownFields.title = "now pay rent today"
    try grown.apply(grownFields)
    #expect(grown.line == "2026-12-01 now pay rent today due:2026-12-31")
    grownFields.title = "rent"
    try grown.apply(grownFields)
    #expect(grown.line == "2026-12-01 rent due:2026-12-31")
    // Dates, priority, names and dependencies through the typed setters.
    grownFields.due = day("2027-01-31")
    grownFields.start = day("2027-01-20")
    grownFields.priority = letter("C")
    grownFields.projects = ["home"]
    grownFields.title = "rent +home"
    grownFields.parents = ["bank"]
    grownFields.id = "r1"
    grownFields.recurrence = Recurrence("+1m")
    try grown.apply(grownFields)
    #expect(grown.line == "(C) 2026-12-01 rent +home due:2027-01-31 t:2027-01-20 rec:+1m id:r1 p:bank")
    #expect(TaskFields(grown) == grownFields)
  }

  @Test func doneAndOpenAgainThroughTheHead() throws {
    var task = Task(parsing: "(B) 2026-12-01 file taxes +home")
    var fields = TaskFields(task)
    fields.isCompleted = true
    fields.completed = day("2026-12-05")
    try task.apply(fields)
    #expect(task.line == "x 2026-12-05 2026-12-01 file taxes +home pri:B")
    #expect(TaskFields(task) == fields)
    fields.completed = day("2026-12-06")
    try task.apply(fields)
    #expect(task.line == "x 2026-12-06 2026-12-01 file taxes +home pri:B")
    fields.priority = letter("D")
    try task.apply(fields)
    #expect(task.line == "x 2026-12-06 2026-12-01 file taxes +home pri:D")
    fields.isCompleted = false
    fields.completed = nil
    try task.apply(fields)
    #expect(task.line == "(D) 2026-12-01 file taxes +home")
    // Done without a date (a phone's CANCELLED without COMPLETED).
    fields.isCompleted = true
    try task.apply(fields)
    #expect(task.line == "x file taxes +home pri:D")
  }

  @Test func aTitleThatWouldReadAsAHeadIsRefused() throws {
    var task = Task(parsing: "call")
    for title in ["x marks the spot", "(A) first", "2026-01-01 party"] {
      var fields = TaskFields(task)
      fields.title = title
      #expect(throws: TaskMappingError.titleReadsAsHead(title)) { try task.apply(fields) }
      #expect(task.line == "call")
    }
    // After a creation date the same words are text.
    var dated = Task(parsing: "2026-12-01 call")
    var fields = TaskFields(dated)
    fields.title = "x marks the spot"
    try dated.apply(fields)
    #expect(dated.line == "2026-12-01 x marks the spot")
    fields.title = "two\nlines"
    #expect(throws: TaskMappingError.titleNotOneLine) { try dated.apply(fields) }
    var linked = Task(parsing: "a")
    #expect(throws: TaskMappingError.model(.notAValue(key: "p", value: "urn:uuid:1"))) {
      try linked.apply(TaskFields(title: "a", parents: ["urn:uuid:1"]))
    }
  }

  @Test func aNewTaskFromFields() throws {
    let open = TaskFields(
      title: "Buy milk +shop @store", priority: letter("A"), projects: ["shop"], contexts: ["store"], due: day("2026-12-03"),
      created: day("2026-12-01"), recurrence: Recurrence("1w"))
    #expect(try Task(fields: open).line == "(A) 2026-12-01 Buy milk +shop @store due:2026-12-03 rec:1w")
    let done = TaskFields(title: "Paid", priority: letter("B"), isCompleted: true, completed: day("2026-12-05"), created: day("2026-12-01"))
    #expect(try Task(fields: done).line == "x 2026-12-05 2026-12-01 Paid pri:B")
    #expect(try TaskFields(Task(fields: open)) == open)
    #expect(try TaskFields(Task(fields: done)) == done)
    #expect(throws: TaskMappingError.titleReadsAsHead("x y")) { try Task(fields: TaskFields(title: "x y")) }
  }

  @Test func fieldsAppliedToTheirOwnLineChangeNoByte() throws {
    // Awkward lines of every kind: control characters, invalid UTF-8, a megabyte of text.
    for line in AwkwardLines.corpus(seed: 37, count: 600) {
      var task = Task(bytes: line)
      let before = task.bytes
      try task.apply(TaskFields(task))
      #expect(task.bytes.elementsEqual(before), "\(String(decoding: line.prefix(80), as: UTF8.self))")
    }
  }

  @Test func generatedFieldsGoThroughALineAndAVTODOUnchanged() throws {
    var generator = SplitMix64(seed: 38)
    let words = ["Call", "mom", "+family", "@phone", "é😜", "a,b;c\\d", "x", "(A)", "2026-01-01", "12:30", "+Проект", "@首都"]
    var checked = 0
    for round in 0..<400 {
      var fields = randomFields(&generator, words: words)
      // What a line cannot hold: a creation date on a done task without a completion date,
      // a title that starts like a head with nothing before it.
      if fields.isCompleted, fields.completed == nil { fields.created = nil }
      fields.note = nil
      fields.sortOrder = nil
      guard let task = try? Task(fields: fields) else {
        #expect(["x", "(A)", "2026-01-01"].contains(fields.title.split(separator: " ").first.map(String.init) ?? ""), "round \(round)")
        continue
      }
      #expect(TaskFields(task) == fields, "round \(round): \(task.line)")
      let mapping = VTODOMapping(utcOffset: 3600)
      let object = try ICalendarDocument(parsing: mapping.newObject(for: TaskFields(task), uid: "u", now: 0).bytes)
      let back = mapping.fields(of: object.todos[0])
      // Another line takes them: its own tags of the tool's stay.
      let head = !back.isCompleted ? "2020-01-01" : back.completed == nil ? "x" : "x 2020-01-02 2020-01-01"
      var other = Task(parsing: head + " something else entirely +old due:2020-01-01 uid:keep att:a.png")
      do { try other.apply(back) } catch {
        // A title that starts like a head cannot stand first in a line.
        #expect(["x", "(A)", "2026-01-01"].contains(fields.title.split(separator: " ").first.map(String.init) ?? ""), "\(error): \(other.line) \(back)")
        continue
      }
      #expect(TaskFields(other) == fields, "round \(round): \(other.line)")
      #expect(other.tags.contains(Tag(key: "uid", value: "keep")) && other.attachments == ["a.png"])
      checked += 1
    }
    #expect(checked > 250)
  }
}
