import Testing
import TodoCalendar
import TodoTestSupport
import TodoTxt

func day(_ text: String) -> TaskDate {
  guard let date = TaskDate(text) else { preconditionFailure("not a date: \(text)") }
  return date
}

func letter(_ text: String) -> Priority? { Priority(text) }

/// Reads the first VTODO of `text` (lines joined with CRLF).
func todo(_ lines: String...) throws -> ICalendarComponent { try todo(lines) }

func todo(_ lines: [String]) throws -> ICalendarComponent {
  let text = (["BEGIN:VCALENDAR", "BEGIN:VTODO"] + lines + ["END:VTODO", "END:VCALENDAR", ""]).joined(separator: "\r\n")
  return try #require(try ICalendarDocument(parsing: Array(text.utf8)).todos.first)
}

/// The lines of a component as written, without their CRLF, unfolded.
func lines(_ component: ICalendarComponent) -> [String] {
  String(decoding: component.written, as: UTF8.self).replacing("\r\n ", with: "").split(separator: "\r\n").map(String.init)
}

/// Every row of the mapping table, VTODO → fields and fields → VTODO, and what an edit keeps.
@Suite struct VTODOMappingTests {
  let paris = VTODOMapping(utcOffset: 3600)

  @Test func aPhoneVTODOReadsAsTheTableSays() throws {
    let phone = try todo(
      "UID:phone-1", "SUMMARY:Buy milk\\, bread", "CATEGORIES:Errands,@home", "CATEGORIES:+shop",
      "PRIORITY:3", "DUE;VALUE=DATE:20261203", "DTSTART;TZID=Europe/Paris:20261201T090000",
      "STATUS:IN-PROCESS", "CREATED:20261130T233000Z", "RRULE:FREQ=WEEKLY;INTERVAL=2",
      "RELATED-TO:parent-uid", "RELATED-TO;RELTYPE=CHILD:child-uid", "DESCRIPTION:line one\\nline two",
      "X-APPLE-SORT-ORDER:123456")
    let fields = paris.fields(of: phone)
    #expect(fields.title == "Buy milk, bread +Errands @home +shop")
    #expect(fields.projects == ["Errands", "shop"] && fields.contexts == ["home"])
    #expect(fields.priority == letter("A"))
    #expect(fields.due == day("2026-12-03") && fields.start == day("2026-12-01"))
    #expect(!fields.isCompleted && fields.completed == nil)
    // 23:30 UTC is half past midnight in Paris.
    #expect(fields.created == day("2026-12-01"))
    #expect(fields.recurrence == Recurrence("+2w"))
    #expect(fields.parents == ["parent-uid"] && fields.id == nil)
    #expect(fields.note == "line one\nline two")
    #expect(fields.sortOrder == "123456")
  }

  @Test func summaryWordsThatReadAsTagsWithMeaningAreLeftOutOfTheTitle() throws {
    let item = try todo("UID:w", "SUMMARY:Call\tdue:soon  uid:x\\n ref:1 http://x.y p:1 +p:q due:")
    #expect(paris.fields(of: item).title == "Call ref:1 http://x.y +p:q due:")
    #expect(paris.fields(of: item).projects == ["p:q"])
  }

  @Test func prioritiesGoByTheBandsBothWays() throws {
    let expected: [String?: String?] = [
      nil: nil, "0": nil, "1": "A", "2": "A", "3": "A", "4": "A", "5": "B", "6": "C", "7": "C", "8": "C", "9": "C",
      "10": nil, "x": nil, " 5 ": "B",
    ]
    for (value, priority) in expected {
      let item = try value.map { try todo("UID:p", "PRIORITY:" + $0) } ?? todo("UID:p")
      #expect(paris.fields(of: item).priority == priority.flatMap(letter), "PRIORITY:\(value ?? "none")")
    }
    // Every letter goes out in its band and comes back exactly.
    for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") {
      let priority = Priority(byte)
      var item = try todo("UID:p")
      paris.apply(TaskFields(title: "t", priority: priority), to: &item, now: 0)
      let value = byte == UInt8(ascii: "A") ? "1" : byte == UInt8(ascii: "B") ? "5" : "9"
      #expect(item.property("PRIORITY")?.valueString == value)
      #expect((item.property("X-TODO-PRIORITY") != nil) == (byte > UInt8(ascii: "C")))
      #expect(paris.fields(of: item).priority == priority)
    }
    // A phone that moves a D task into the high band wins; one that stays in the band keeps D.
    #expect(paris.fields(of: try todo("UID:p", "PRIORITY:2", "X-TODO-PRIORITY:D")).priority == letter("A"))
    #expect(paris.fields(of: try todo("UID:p", "PRIORITY:7", "X-TODO-PRIORITY:D")).priority == letter("D"))
  }

  @Test func anEditRewritesOnlyTheMappedPropertiesThatChanged() throws {
    let kept = [
      "X-PHONE-COLOUR;X-PARAM=\"a:b;c\",plain:#ff0000", "ATTACH;FMTTYPE=image/png:https://example.org/p.png",
      "GEO:48.85;2.35", "LOCATION:Corner shop", "CATEGORIES:Errands", "DESCRIPTION;LANGUAGE=fr:Lait",
    ]
    var item = try todo(
      ["UID:phone-2", "DTSTAMP:20261201T101500Z", "SUMMARY:Buy milk", "DUE;VALUE=DATE:20261203"] + kept
        + ["BEGIN:VALARM", "ACTION:AUDIO", "TRIGGER:-PT15M", "END:VALARM"])
    var fields = paris.fields(of: item)
    #expect(fields.title == "Buy milk +Errands")
    fields.due = day("2026-12-04")
    fields.title = "Buy oat milk +Errands"
    paris.apply(fields, to: &item, now: 1_796_000_000)
    let written = lines(item)
    for line in kept { #expect(written.contains(line), "\(line)") }
    #expect(written.contains("SUMMARY:Buy oat milk +Errands"))
    #expect(written.contains("DUE;VALUE=DATE:20261204"))
    #expect(written.contains("ACTION:AUDIO") && written.contains("TRIGGER:-PT15M"))
    // 1_796_000_000 seconds is 2026-11-30 00:53:20 UTC.
    #expect(written.contains("DTSTAMP:20261130T005320Z") && written.contains("LAST-MODIFIED:20261130T005320Z"))
    #expect(paris.fields(of: item) == fields)
    // Nothing changed: nothing is written, not even the stamp.
    let before = item.written
    paris.apply(fields, to: &item, now: 1_900_000_000)
    #expect(item.written == before)
  }

  @Test func categoriesKeepTheTwoKindsApartAndAPhonesSpelling() throws {
    var item = try todo("UID:c", "SUMMARY:Plan", "CATEGORIES:Home Office,@ phone ", "CATEGORIES:+work\\,late")
    var fields = paris.fields(of: item)
    #expect(fields.projects == ["Home_Office", "work,late"] && fields.contexts == ["phone"])
    fields.contexts.append("desk")
    fields.title += " @desk"
    paris.apply(fields, to: &item, now: 0)
    // One CATEGORIES, the old names as the phone spelled them, the new one with its sigil.
    #expect(item.properties("CATEGORIES").count == 1)
    #expect(item.property("CATEGORIES")?.textList == ["Home Office", "+work,late", "@ phone ", "@desk"])
    #expect(paris.fields(of: item) == fields)
    // No names: no CATEGORIES.
    fields.title = "Plan"
    fields.projects = []
    fields.contexts = []
    paris.apply(fields, to: &item, now: 0)
    #expect(item.property("CATEGORIES") == nil)
  }

  @Test func datesFromAPhoneBecomeDaysByTheDocumentedRule() throws {
    let east = VTODOMapping(utcOffset: 3600)
    let west = VTODOMapping(utcOffset: -5 * 3600)
    let utc = try todo("UID:d", "DUE:20261203T233000Z")
    #expect(east.fields(of: utc).due == day("2026-12-04"))
    #expect(west.fields(of: utc).due == day("2026-12-03"))
    var zoned = try todo("UID:d", "DUE;TZID=America/New_York:20261203T233000", "DTSTART:20261201T080000")
    #expect(east.fields(of: zoned).due == day("2026-12-03") && east.fields(of: zoned).start == day("2026-12-01"))
    // A new day keeps the phone's time and zone.
    var fields = east.fields(of: zoned)
    fields.due = day("2026-12-10")
    east.apply(fields, to: &zoned, now: 0)
    #expect(lines(zoned).contains("DUE;TZID=America/New_York:20261210T233000"))
    #expect(east.fields(of: try todo("UID:d", "DUE;VALUE=DATE:2026120")).due == nil)
  }

  @Test func doneIsStatusCompletedWithAUTCTime() throws {
    var item = try todo("UID:s", "SUMMARY:Call", "STATUS:NEEDS-ACTION", "PERCENT-COMPLETE:40")
    var fields = paris.fields(of: item)
    fields.isCompleted = true
    fields.completed = day("2026-12-05")
    paris.apply(fields, to: &item, now: 0)
    // Noon in Paris is 11:00 UTC.
    #expect(lines(item).contains("STATUS:COMPLETED") && lines(item).contains("COMPLETED:20261205T110000Z"))
    #expect(item.property("PERCENT-COMPLETE")?.valueString == "100")
    #expect(paris.fields(of: item) == fields)
    fields.isCompleted = false
    fields.completed = nil
    paris.apply(fields, to: &item, now: 0)
    #expect(item.property("STATUS")?.valueString == "NEEDS-ACTION" && item.property("COMPLETED") == nil)
    #expect(item.property("PERCENT-COMPLETE") == nil)
    // Phones' other states: CANCELLED is done and stays CANCELLED; IN-PROCESS is open.
    var cancelled = try todo("UID:s", "SUMMARY:Call", "STATUS:CANCELLED")
    var cancelledFields = paris.fields(of: cancelled)
    #expect(cancelledFields.isCompleted && cancelledFields.completed == nil)
    cancelledFields.title = "Call back"
    paris.apply(cancelledFields, to: &cancelled, now: 0)
    #expect(cancelled.property("STATUS")?.valueString == "CANCELLED")
    #expect(!paris.fields(of: try todo("UID:s", "STATUS:IN-PROCESS")).isCompleted)
    #expect(paris.fields(of: try todo("UID:s", "COMPLETED:20261205T110000Z")).isCompleted)
  }

  @Test func recurrenceIsAnRRuleAndFromCompletionAnXProperty() throws {
    let rows: [(String, String, String?)] = [
      ("+1d", "FREQ=DAILY", nil), ("+1w", "FREQ=WEEKLY", nil), ("+2m", "FREQ=MONTHLY;INTERVAL=2", nil),
      ("+1y", "FREQ=YEARLY", nil), ("+1b", "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR", nil),
      ("1w", "FREQ=WEEKLY", "1w"), ("3b", "FREQ=DAILY;INTERVAL=3;BYDAY=MO,TU,WE,TH,FR", "3b"), ("10d", "FREQ=DAILY;INTERVAL=10", "10d"),
    ]
    for (rec, rule, kept) in rows {
      var item = try todo("UID:r")
      let fields = TaskFields(title: "t", recurrence: Recurrence(rec))
      paris.apply(fields, to: &item, now: 0)
      #expect(item.property("RRULE")?.valueString == rule)
      #expect(item.property("X-TODO-RECURRENCE")?.valueString == kept)
      #expect(paris.fields(of: item).recurrence == Recurrence(rec), "\(rec)")
    }
    // A phone's rule with more than a rhythm maps to none and stays as it is.
    var counted = try todo("UID:r", "SUMMARY:t", "RRULE:FREQ=WEEKLY;COUNT=5;BYDAY=MO,WE")
    var fields = paris.fields(of: counted)
    #expect(fields.recurrence == nil)
    fields.title = "u"
    paris.apply(fields, to: &counted, now: 0)
    #expect(counted.property("RRULE")?.valueString == "FREQ=WEEKLY;COUNT=5;BYDAY=MO,WE")
    // A phone that changed the rhythm wins over the kept value.
    #expect(paris.fields(of: try todo("UID:r", "RRULE:FREQ=DAILY", "X-TODO-RECURRENCE:1w")).recurrence == Recurrence("+1d"))
    #expect(paris.fields(of: try todo("UID:r", "rrule:freq=weekly;interval=1;wkst=MO", "X-TODO-RECURRENCE:1w")).recurrence == Recurrence("1w"))
  }

  @Test func dependenciesAreRelatedToThroughTheRelationNames() throws {
    let mapping = VTODOMapping(relations: TaskRelations(idsByUID: ["uid-7": "7", "uid-me": "me"]))
    var item = try todo("UID:uid-me", "RELATED-TO:uid-7", "RELATED-TO;RELTYPE=SIBLING:s", "RELATED-TO;RELTYPE=PARENT:gone")
    var fields = mapping.fields(of: item)
    #expect(fields.parents == ["7", "gone"] && fields.id == "me")
    fields.parents = ["7", "9"]
    fields.id = "me2"
    mapping.apply(fields, to: &item, now: 0)
    let written = lines(item)
    #expect(written.contains("RELATED-TO:uid-7") && written.contains("RELATED-TO;RELTYPE=SIBLING:s"))
    #expect(written.contains("RELATED-TO;RELTYPE=PARENT:9") && !written.contains("RELATED-TO;RELTYPE=PARENT:gone"))
    #expect(written.contains("X-TODO-ID:me2"))
    #expect(mapping.fields(of: item) == fields)
  }

  @Test func ourReminderIsOneMarkedAlarmAndPhoneAlarmsAreNeverTouched() throws {
    var mapping = VTODOMapping(reminder: .init(offset: -86_400))
    var item = try todo("UID:a", "SUMMARY:Pay", "BEGIN:VALARM", "ACTION:AUDIO", "TRIGGER:-PT5M", "END:VALARM")
    var fields = mapping.fields(of: item)
    fields.due = day("2026-12-03")
    mapping.apply(fields, to: &item, now: 0)
    func ours(_ item: ICalendarComponent) -> [ICalendarComponent] {
      item.components.filter { $0.property("X-TODO-REMINDER") != nil }
    }
    #expect(item.components.count == 2)
    #expect(ours(item).first?.property("TRIGGER")?.valueString == "-P1D")
    #expect(ours(item).first?.property("TRIGGER")?.parameterToken("RELATED") == "END")
    #expect(ours(item).first?.property("DESCRIPTION")?.text == "Pay")
    // Another lead time moves ours; a copy a client made goes.
    mapping.reminder = .init(offset: 9 * 3600 + 30 * 60)
    item.items.append(.component(ours(item)[0]))
    mapping.apply(fields, to: &item, now: 0)
    #expect(ours(item).count == 1 && ours(item).first?.property("TRIGGER")?.valueString == "PT9H30M")
    // No due date, done, or no reminder set: ours goes, the phone's stays.
    fields.due = nil
    mapping.apply(fields, to: &item, now: 0)
    #expect(ours(item).isEmpty && item.components.count == 1)
    #expect(item.components.first?.property("TRIGGER")?.valueString == "-PT5M")
    #expect(VTODOMappingDurations.all.allSatisfy { VTODOMappingDurations.check($0) })
  }

  @Test func aNewObjectHasOurProductTheUIDAndTheStamp() throws {
    let fields = TaskFields(
      title: "Pay rent +home @desk", priority: letter("B"), projects: ["home"], contexts: ["desk"], due: day("2026-12-31"),
      start: day("2026-12-20"), created: day("2026-12-01"), recurrence: Recurrence("+1m"), id: "rent", parents: ["bank"],
      note: "IBAN, ref; \\ and\nmore", sortOrder: "-5")
    let document = paris.newObject(for: fields, uid: "new-uid@todo", now: 1_796_000_000)
    let bytes = document.bytes
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//todo//todo.txt CalDAV sync//EN\r\nBEGIN:VTODO\r\nUID:new-uid@todo\r\nDTSTAMP:20261130T005320Z\r\nSTATUS:NEEDS-ACTION\r\n"))
    #expect(text.hasSuffix("END:VTODO\r\nEND:VCALENDAR\r\n"))
    #expect(text.contains("DESCRIPTION:IBAN\\, ref\\; \\\\ and\\nmore\r\n"))
    let reread = try ICalendarDocument(parsing: bytes)
    #expect(reread.todos.count == 1)
    #expect(paris.fields(of: reread.todos[0]) == fields)
  }

  @Test func generatedFieldsGoThroughAVTODOUnchanged() throws {
    var generator = SplitMix64(seed: 37)
    let words = ["Call", "mom", "+family", "@phone", "é😜", "a,b;c\\d", "x", "(A)", "2026-01-01", "12:30", "+Проект", "@首都", "ref:1", "http://x"]
    for round in 0..<400 {
      let fields = randomFields(&generator, words: words)
      let mapping = VTODOMapping(reminder: generator.below(2) == 0 ? nil : .init(offset: -3600), utcOffset: (generator.below(27) - 12) * 3600)
      let document = mapping.newObject(for: fields, uid: "u\(round)", now: 1_796_000_000 + round)
      let reread = try ICalendarDocument(parsing: document.bytes)
      #expect(reread.bytes == document.bytes)
      #expect(mapping.fields(of: reread.todos[0]) == fields, "round \(round)")
      // Applied onto a phone's object instead, the same fields read back too.
      var phone = try todo("UID:p", "SUMMARY:Old", "CATEGORIES:Errands", "PRIORITY:7", "RRULE:FREQ=YEARLY", "STATUS:CANCELLED", "GEO:1;2")
      mapping.apply(fields, to: &phone, now: 0)
      #expect(mapping.fields(of: phone) == fields, "round \(round) on a phone object")
      #expect(phone.property("GEO")?.valueString == "1;2")
    }
  }

  @Test func hostileFieldsAreWrittenAsValidLines() throws {
    let note = String(repeating: "ten megabytes, of; text\\ ", count: 10 << 20 / 25) + "\u{0}\u{1B}[2J\u{85}"
    let fields = TaskFields(title: "Evil\u{1B}[31m title", note: note)
    let document = paris.newObject(for: fields, uid: "x\r\ny", now: 0)
    let bytes = document.bytes
    // No physical line longer than 75 octets, no control character but CR before LF and tabs.
    var previous: UInt8 = 0
    var width = 0
    var (bareLineFeeds, controls, longLines) = (0, 0, 0)
    for byte in bytes {
      if byte == 0x0A {
        if previous != 0x0D { bareLineFeeds += 1 }
        if width > 76 { longLines += 1 }
        width = 0
      } else {
        width += 1
        if byte != 0x0D, byte < 0x20 || byte == 0x7F { controls += 1 }
      }
      previous = byte
    }
    #expect(bareLineFeeds == 0 && controls == 0 && longLines == 0)
    let clock = ContinuousClock()
    var reread: ICalendarComponent?
    let elapsed = try clock.measure { reread = try ICalendarDocument(parsing: bytes).todos.first }
    #expect(elapsed < .seconds(30), "\(elapsed)")
    guard let reread else { return }
    #expect(reread.uid == "x\ny")
    #expect(paris.fields(of: reread).title == "Evil\u{FFFD}[31m title")
    #expect(paris.fields(of: reread).note == String(repeating: "ten megabytes, of; text\\ ", count: 10 << 20 / 25) + "\u{FFFD}\u{FFFD}[2J\u{FFFD}")
  }
}

extension VTODOMappingTests {
  @Test func megabytesOfNamesReadInLinearTime() throws {
    var generator = SplitMix64(seed: 10)
    var summary = ""
    var categories = ""
    while summary.utf8.count < 2 << 20 {
      let number = String(generator.below(1 << 30))
      summary += "+p\(number) @c\(number) w\u{1}\(number)\\n "
      categories += "Cat \(number)\\,x,@ctx\(number),"
    }
    let item = try todo("UID:big", "SUMMARY:" + summary, "CATEGORIES:" + categories)
    let clock = ContinuousClock()
    var fields: TaskFields?
    let elapsed = clock.measure { fields = paris.fields(of: item) }
    #expect(elapsed < .seconds(30), "\(elapsed)")
    #expect((fields?.projects.count ?? 0) > 40_000 && (fields?.contexts.count ?? 0) > 40_000)
    #expect(fields?.title.contains("\u{1}") == false)
  }
}

/// Durations as RFC 5545 writes them, each parsed back by hand.
enum VTODOMappingDurations {
  static let all = [0, 1, 59, 60, 3600, 86_400, 90_061, -86_400, -90_061]
  static func check(_ seconds: Int) -> Bool {
    var mapping = VTODOMapping(reminder: .init(offset: seconds))
    mapping.utcOffset = 0
    guard var item = try? todo("UID:d") else { return false }
    mapping.apply(TaskFields(title: "t", due: day("2026-12-03")), to: &item, now: 0)
    guard let trigger = item.components.first?.property("TRIGGER")?.valueString else { return false }
    var total = 0
    var number = 0
    var negative = false
    for character in trigger {
      switch character {
      case "-": negative = true
      case "P", "T": continue
      case "D": total += number * 86_400; number = 0
      case "H": total += number * 3600; number = 0
      case "M": total += number * 60; number = 0
      case "S": total += number; number = 0
      default: number = number * 10 + (character.wholeNumberValue ?? 0)
      }
    }
    return (negative ? -total : total) == seconds
  }
}

/// Random fields that a todo.txt line and a VTODO can both hold: names in the title, a done
/// task's dates in order.
func randomFields(_ generator: inout SplitMix64, words: [String]) -> TaskFields {
  var title: [String] = []
  for _ in 0..<(1 + generator.below(6)) { title.append(words[generator.below(words.count)]) }
  var projects: [String] = []
  var contexts: [String] = []
  for word in title where word.utf8.count >= 2 {
    let name = String(word.dropFirst())
    if word.hasPrefix("+"), !projects.contains(name) { projects.append(name) }
    if word.hasPrefix("@"), !contexts.contains(name) { contexts.append(name) }
  }
  func someDay() -> TaskDate? { generator.below(3) == 0 ? nil : TaskDate(daysSinceEpoch: 20_000 + generator.below(2000)) }
  let completed = generator.below(3) == 0
  let recurrences = ["1d", "+1w", "2m", "+1y", "+1b", "5b", "+3d"]
  return TaskFields(
    title: title.joined(separator: " "), priority: generator.below(3) == 0 ? nil : Priority(UInt8(65 + generator.below(26))),
    projects: projects, contexts: contexts, due: someDay(), start: someDay(), isCompleted: completed,
    completed: completed ? someDay() : nil, created: someDay(),
    recurrence: generator.below(2) == 0 ? nil : Recurrence(recurrences[generator.below(recurrences.count)]),
    id: generator.below(3) == 0 ? "id\(generator.below(9))" : nil,
    parents: (0..<generator.below(3)).map { "p\($0)" }, note: generator.below(2) == 0 ? nil : "note, \(generator.below(99))\nline",
    sortOrder: generator.below(2) == 0 ? nil : String(generator.below(1_000_000)))
}
