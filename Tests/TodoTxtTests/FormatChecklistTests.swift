import Testing
import TodoTxt

/// One test per item F-01 … F-33 of the format checklist (todo-txt-format.md, §1.3). Each
/// test's name starts with its item number, so `swift test --filter F-12` finds it.
@Suite("Format checklist")
struct FormatChecklistTests {
  // MARK: Header and completion

  @Test(
    "F-01 a single date after x is the completion date",
    arguments: [
      Reading(line: "x 2011-03-03 Call Mom", completed: true, completion: "2011-03-03", body: "Call Mom"),
      Reading(line: "x 2011-03-03", completed: true, completion: "2011-03-03", body: ""),
      Reading(line: "x 2011-03-03 ", completed: true, completion: "2011-03-03", body: ""),
    ])
  func f01(_ reading: Reading) {
    reading.check(Task(parsing: reading.line))
  }

  @Test("F-02 two dates after x: completion, then creation")
  func f02() {
    Reading(
      line: "x 2011-03-02 2011-03-01 Review Tim's pull request +TodoTxtTouch @github",
      completed: true, completion: "2011-03-02", creation: "2011-03-01",
      body: "Review Tim's pull request +TodoTxtTouch @github"
    ).check(Task(parsing: "x 2011-03-02 2011-03-01 Review Tim's pull request +TodoTxtTouch @github"))
  }

  @Test(
    "F-03 only a lower-case x and a space at the very start completes",
    arguments: [
      Reading(line: "xylophone lesson", body: "xylophone lesson"),
      // A capital X is text, and so the date after it is not a creation date either.
      Reading(line: "X 2012-01-01 Make resolutions", body: "X 2012-01-01 Make resolutions"),
      Reading(line: "(A) x Find ticket prices", priority: "A", body: "x Find ticket prices"),
      Reading(line: "x\tfoo", body: "x\tfoo"),
      Reading(line: "x", body: "x"),
      Reading(line: " x 2020-01-01 indented", body: " x 2020-01-01 indented"),
    ])
  func f03(_ reading: Reading) {
    reading.check(Task(parsing: reading.line))
  }

  @Test("F-04 x without a date is complete, and completing writes a date")
  func f04() {
    Reading(line: "x done without date", completed: true, body: "done without date")
      .check(Task(parsing: "x done without date"))
    var task = Task(parsing: "done today")
    task.complete(on: day("2026-03-04"))
    #expect(task.line == "x 2026-03-04 done today")
    #expect(task.completionDate == day("2026-03-04"))
  }

  @Test(
    "F-05 a priority is (A-Z) and a space, first on the line",
    arguments: [
      Reading(line: "(A) Call Mom", priority: "A", body: "Call Mom"),
      Reading(line: "(Z) last", priority: "Z", body: "last"),
      Reading(line: "Really gotta call Mom (A)", body: "Really gotta call Mom (A)"),
      Reading(line: "(b) Get back to the boss", body: "(b) Get back to the boss"),
      Reading(line: "(B)->Submit TPS report", body: "(B)->Submit TPS report"),
      Reading(line: " (A) leading space", body: " (A) leading space"),
      // Decision: the format asks for a space after the priority, so `(A)` alone is text.
      Reading(line: "(A)", body: "(A)"),
      // Decision: exactly one space separates head fields; a tab is not one.
      Reading(line: "(A)\tCall Mom", body: "(A)\tCall Mom"),
      Reading(line: "(AB) two letters", body: "(AB) two letters"),
    ])
  func f05(_ reading: Reading) {
    reading.check(Task(parsing: reading.line))
  }

  @Test(
    "F-06 a creation date only right after the priority or first on the line",
    arguments: [
      Reading(line: "2011-03-02 Document +TodoTxt", creation: "2011-03-02", body: "Document +TodoTxt"),
      Reading(line: "(A) 2011-03-02 Call Mom", creation: "2011-03-02", priority: "A", body: "Call Mom"),
      Reading(line: "(A) Call Mom 2011-03-02", priority: "A", body: "Call Mom 2011-03-02"),
      Reading(line: "friends birthday of 1901-02-03", body: "friends birthday of 1901-02-03"),
      // Decision: a date may end the line.
      Reading(line: "2011-03-02", creation: "2011-03-02", body: ""),
      // Decision: exactly one space after the date; a tab or a second space makes it text.
      Reading(line: "2011-03-02\tfoo", body: "2011-03-02\tfoo"),
      Reading(line: "(A)  2011-03-02 two spaces", priority: "A", body: " 2011-03-02 two spaces"),
      Reading(line: "2011-03-02x glued", body: "2011-03-02x glued"),
      Reading(line: "2011-3-02 short month", body: "2011-3-02 short month"),
    ])
  func f06(_ reading: Reading) {
    reading.check(Task(parsing: reading.line))
  }

  @Test(
    "F-07 a date that is not a real day is text, kept byte for byte",
    arguments: [
      Reading(line: "2011-02-30 no such day", body: "2011-02-30 no such day"),
      Reading(line: "2025-13-01 no such month", body: "2025-13-01 no such month"),
      Reading(line: "0000-01-01 no year zero", body: "0000-01-01 no year zero"),
      Reading(line: "2023-02-29 not a leap year", body: "2023-02-29 not a leap year"),
      Reading(line: "x 2011-02-30 done", completed: true, body: "2011-02-30 done"),
      Reading(
        line: "x 2011-03-01 2011-02-30 done", completed: true, completion: "2011-03-01",
        body: "2011-02-30 done"),
      Reading(line: "(A) 2011-04-31 call", priority: "A", body: "2011-04-31 call"),
    ])
  func f07(_ reading: Reading) {
    reading.check(Task(parsing: reading.line))
    let file = utf8(reading.line + "\n")
    #expect(TodoList(bytes: file).serialized() == file)
  }

  @Test("F-07 an invalid due: value stays as written and gives no due date", arguments: [
    "pay due:notadate", "pay due:2025-02-30", "pay due:2025-2-3",
  ])
  func f07Tags(_ line: String) {
    let task = Task(parsing: line)
    #expect(task.dueDate == nil)
    #expect(task.tagValue("due") == String(line.dropFirst("pay due:".count)))
    #expect(task.line == line)
  }

  @Test(
    "F-08 a completed task's priority is read in all three placements",
    arguments: [
      "x 2016-05-20 2016-04-30 text pri:A",
      "x (A) 2016-05-20 2016-04-30 text",
      "x 2016-05-20 (A) 2016-04-30 text",
    ])
  func f08Read(_ line: String) {
    let task = Task(parsing: line)
    #expect(task.isCompleted)
    #expect(task.priority == Priority("A"))
    #expect(task.completionDate == day("2016-05-20"))
    #expect(task.creationDate == day("2016-04-30"))
    #expect(task.text.hasPrefix("text"))
    // Reopening puts the priority back in front, whichever way it was kept.
    var reopened = task
    reopened.reopen()
    #expect(reopened.line == "(A) 2016-04-30 text")
  }

  @Test("F-08 completing writes pri:A by default, or drops the priority")
  func f08Write() {
    var kept = Task(parsing: "(A) 2016-04-30 text")
    kept.complete(on: day("2016-05-20"))
    #expect(kept.line == "x 2016-05-20 2016-04-30 text pri:A")
    #expect(kept.priority == Priority("A"))

    var dropped = Task(parsing: "(A) 2016-04-30 text")
    dropped.complete(on: day("2016-05-20"), priorityStyle: .drop)
    #expect(dropped.line == "x 2016-05-20 2016-04-30 text")
    #expect(dropped.priority == nil)

    // A pri: already on an open task is the user's text: it stays, and the priority the task
    // had when done is appended after it, the last pri: being the one that counts.
    var stale = Task(parsing: "(A) text pri:C")
    stale.complete(on: day("2016-05-20"))
    #expect(stale.line == "x 2016-05-20 text pri:C pri:A")
    #expect(stale.priority == Priority("A"))
  }

  @Test("F-09 a priority after both dates of a completed task is text")
  func f09() {
    Reading(
      line: "x 2016-05-20 2016-04-30 (A) text", completed: true, completion: "2016-05-20",
      creation: "2016-04-30", body: "(A) text"
    ).check(Task(parsing: "x 2016-05-20 2016-04-30 (A) text"))
  }

  // MARK: Projects and contexts

  @Test(
    "F-10 + and @ start a project or context only at line start or after whitespace",
    arguments: ["Email SoAndSo at soandso@example.com", "Learn how to add 2+2", "a+b c@d"])
  func f10(_ line: String) {
    let task = Task(parsing: line)
    #expect(task.projects.isEmpty)
    #expect(task.contexts.isEmpty)
  }

  @Test("F-11 a project or context may start the line")
  func f11() {
    #expect(Task(parsing: "@GroceryStore pies").contexts == ["GroceryStore"])
    #expect(Task(parsing: "+goals Do the thing").projects == ["goals"])
    #expect(Task(parsing: "(A) +goals after a priority").projects == ["goals"])
  }

  @Test("F-12 trailing punctuation is part of the name")
  func f12() {
    let task = Task(parsing: "finish +project. then go @home, ok")
    #expect(task.projects == ["project."])
    #expect(task.contexts == ["home,"])
  }

  @Test("F-13 a doubled sigil stays in the name; a lone sigil is text")
  func f13() {
    #expect(Task(parsing: "@@double").contexts == ["@double"])
    #expect(Task(parsing: "++plus").projects == ["+plus"])
    let lone = Task(parsing: "a + b @ c")
    #expect(lone.projects.isEmpty)
    #expect(lone.contexts.isEmpty)
  }

  @Test("F-14 names and values may be any Unicode")
  func f14() {
    let task = Task(parsing: "visit +Москва @首都 mood:😜")
    #expect(task.projects == ["Москва"])
    #expect(task.contexts == ["首都"])
    #expect(task.tags == [Tag(key: "mood", value: "😜")])
  }

  @Test(
    "F-15 runs of spaces and tabs separate tokens; a no-break space does not",
    arguments: [
      ("a\t+tabproj", ["tabproj"]),
      ("a   +spaced\t\t+both", ["spaced", "both"]),
      ("a\u{00A0}+nbsp", []),
      ("a \u{00A0}+nbsp", []),
      ("a +nb\u{00A0}sp", ["nb\u{00A0}sp"]),
    ])
  func f15(_ line: String, _ projects: [String]) {
    #expect(Task(parsing: line).projects == projects)
  }

  @Test("F-16 names keep their case and differ by it")
  func f16() {
    let task = Task(parsing: "+Foo +foo @Home")
    #expect(task.projects == ["Foo", "foo"])
    #expect(task.contexts == ["Home"])
    let index = TodoIndex(TodoList(parsing: "a +Foo\nb +foo\n"))
    #expect(index.projects == ["Foo": [1], "foo": [2]])
  }

  @Test("F-17 a name repeated on one line counts once and stays where it is")
  func f17() {
    let line = "+p one +q two +p three"
    let task = Task(parsing: line)
    #expect(task.projects == ["p", "q"])
    #expect(task.line == line)
    #expect(TodoIndex(TodoList(parsing: line + "\n")).projects["p"] == [1])
  }

  @Test(
    "F-18 a tag is key:value with exactly one colon and both sides non-empty",
    arguments: [
      ("due:2016-05-30", [Tag(key: "due", value: "2016-05-30")]),
      ("a:b:c", []),
      ("see http://x.y/z", []),
      ("see https://example.com:8080/x", []),
      (":foo", []),
      ("foo:", []),
      ("due:", []),
      ("k:/single/slash", [Tag(key: "k", value: "/single/slash")]),
      ("mailto:me@example.com", [Tag(key: "mailto", value: "me@example.com")]),
    ])
  func f18(_ line: String, _ tags: [Tag]) {
    #expect(Task(parsing: line).tags == tags)
  }

  @Test("F-19 a time like 12:30 reads as a tag without meaning and is shown as written")
  func f19() {
    let task = Task(parsing: "meet at 12:30")
    #expect(task.tags == [Tag(key: "12", value: "30")])
    #expect(task.text == "meet at 12:30")
    #expect(task.dueDate == nil)
  }

  @Test("F-20 a project or context with a colon is not a tag")
  func f20() {
    let task = Task(parsing: "+proj:x @ctx:y")
    #expect(task.projects == ["proj:x"])
    #expect(task.contexts == ["ctx:y"])
    #expect(task.tags.isEmpty)
  }

  @Test("F-21 the first of a repeated key wins; the others stay in the line")
  func f21() {
    var task = Task(parsing: "pay due:2020-01-01 due:2020-02-01")
    #expect(task.dueDate == day("2020-01-01"))
    #expect(task.tags.count == 2)
    task.setTag("due", "2020-03-01")
    #expect(task.line == "pay due:2020-03-01 due:2020-02-01")
  }

  @Test("F-22 keys are case-sensitive")
  func f22() {
    let task = Task(parsing: "a Due:2020-01-01 T:2020-01-01 REC:1w H:1 PRI:A")
    #expect(task.dueDate == nil)
    #expect(task.thresholdDate == nil)
    #expect(task.recurrence == nil)
    #expect(!task.isHidden)
    #expect(task.tags.map(\.key) == ["Due", "T", "REC", "H", "PRI"])
  }

  @Test(
    "F-23 only h:1 hides a task",
    arguments: [("a h:1", true), ("a h:0", false), ("a h:yes", false), ("a hide:1", false), ("a", false)])
  func f23(_ line: String, _ hidden: Bool) {
    #expect(Task(parsing: line).isHidden == hidden)
  }

  // MARK: File level

  @Test("F-24 a byte order mark is kept and invisible to parsing")
  func f24() {
    let file = TodoList.byteOrderMark + utf8("(A) first +p\nsecond\n")
    var list = TodoList(bytes: file)
    #expect(list.hasByteOrderMark)
    #expect(list[0].priority == Priority("A"))
    #expect(list[0].projects == ["p"])
    #expect(list[0].line == "(A) first +p")
    #expect(list.serialized() == file)
    var first = list[0]
    first.setPriority(Priority("B"))
    list.replace(at: 0, with: first)
    #expect(list.serialized() == TodoList.byteOrderMark + utf8("(B) first +p\nsecond\n"))
  }

  @Test("F-25 CRLF lines keep CRLF, new lines get it, and no CR ends up in a token")
  func f25() {
    var list = TodoList(parsing: "(A) one +proj\r\ntwo @ctx\r\n")
    #expect(list[0].projects == ["proj"])
    #expect(list[1].contexts == ["ctx"])
    #expect(list.lineEnding(at: 0) == .crlf)
    list.append(Task(parsing: "three"))
    #expect(list.text == "(A) one +proj\r\ntwo @ctx\r\nthree\r\n")
    // A stray CR (here at the end of a file without a final LF) separates tokens.
    let stray = TodoList(parsing: "a\r\nb +cr\r")
    #expect(stray[1].projects == ["cr"])
    #expect(stray.text == "a\r\nb +cr\r")
  }

  @Test("F-26 appending to a file without a final newline never joins two lines")
  func f26() {
    var list = TodoList(parsing: "first\nno trailing newline")
    list.append(Task(parsing: "New one"))
    #expect(list.text == "first\nno trailing newline\nNew one\n")
    #expect(list.count == 3)
  }

  @Test("F-27 blank lines are kept and hold a task number")
  func f27() {
    let text = "a\n\n \t \nb\n"
    let list = TodoList(parsing: text)
    #expect(list.count == 4)
    #expect(list.task(number: 2)?.isBlank == true)
    #expect(list.task(number: 3)?.isBlank == true)
    #expect(list.task(number: 4)?.line == "b")
    #expect(list.text == text)
    #expect(TodoIndex(list).taskCount == 2)
  }

  @Test("F-28 a comment line is an ordinary line and is never rewritten")
  func f28() {
    let text = "# plans for +home\n(B) task\n"
    var list = TodoList(parsing: text)
    #expect(!list[0].isCompleted)
    #expect(list[0].projects == ["home"])
    var second = list[1]
    second.setPriority(Priority("A"))
    list.replace(at: 1, with: second)
    #expect(list.text == "# plans for +home\n(A) task\n")
  }

  @Test("F-29 invalid UTF-8 does not stop parsing and its bytes survive")
  func f29() {
    let latin1: [UInt8] = utf8("(A) caf") + [0xE9] + utf8(" +p\n") + [0xFF, 0xFE, 0x80] + utf8("\nlast\n")
    var list = TodoList(bytes: latin1)
    #expect(list.count == 3)
    #expect(list[0].priority == Priority("A"))
    #expect(list[0].projects == ["p"])
    #expect(list[0].text == "caf\u{FFFD} +p")
    var last = list[2]
    last.appendText("more")
    list.replace(at: 2, with: last)
    #expect(list.serialized() == utf8("(A) caf") + [0xE9] + utf8(" +p\n") + [0xFF, 0xFE, 0x80] + utf8("\nlast more\n"))
  }

  @Test("F-30 listing order follows meaning, not bytes")
  func f30() {
    let lines = [
      "x 2020-01-01 done first", "xylophone lesson", "öl kaufen", "\"funny\" quote", "(B) second",
      "(A) first", "x 2020-01-02 done pri:A", "Apple",
    ]
    let sorted = lines.map { Task(parsing: $0) }.sorted { $0.precedes($1) }.map(\.line)
    #expect(
      sorted == [
        // Text compares by code point after lower-casing: no locale, so ö follows x.
        "(A) first", "(B) second", "\"funny\" quote", "Apple", "xylophone lesson", "öl kaufen",
        "x 2020-01-02 done pri:A", "x 2020-01-01 done first",
      ])
  }

  @Test("F-31 a file of 100,000 lines reads, indexes and writes back")
  func f31() {
    var text = ""
    text.reserveCapacity(100_000 * 60)
    for i in 0..<100_000 {
      if i % 5 == 0 { text += "x 2026-01-0\(i % 9 + 1) " }
      text += "task \(i) +p\(i % 50) @c\(i % 7)"
      if i % 5 < 2 { text += " due:2026-02-\(10 + i % 18)" }
      text += "\n"
    }
    let list = TodoList(parsing: text)
    #expect(list.count == 100_000)
    let index = TodoIndex(list)
    #expect(index.taskCount == 100_000)
    #expect(index.completedCount == 20_000)
    #expect(index.dueDates.count == 40_000)
    #expect(index.projects.count == 50)
    #expect(list.text == text)
  }

  @Test("F-32 runs of whitespace and trailing whitespace survive append, pri and do")
  func f32() {
    let line = "(A)  two  spaces\t\ttabs   "
    var appended = Task(parsing: line)
    appended.appendText("more")
    #expect(appended.line == line + "more")
    var prioritized = Task(parsing: line)
    prioritized.setPriority(Priority("C"))
    #expect(prioritized.line == "(C)  two  spaces\t\ttabs   ")
    var done = Task(parsing: line)
    done.complete(on: day("2026-01-05"))
    #expect(done.line == "x 2026-01-05  two  spaces\t\ttabs    pri:A")
    let file = "\(line)\n  lead and trail  \n"
    #expect(TodoList(parsing: file).text == file)
  }

  @Test(
    "F-33 a task may have an empty body",
    arguments: [
      Reading(line: "(A) 2020-01-01", creation: "2020-01-01", priority: "A", body: ""),
      Reading(line: "(A) ", priority: "A", body: ""),
      Reading(line: "+project", body: "+project"),
    ])
  func f33(_ reading: Reading) {
    let task = Task(parsing: reading.line)
    reading.check(task)
    #expect(!task.isBlank)
  }
}
