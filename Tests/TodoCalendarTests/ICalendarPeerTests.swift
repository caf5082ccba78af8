import Foundation
import Testing
import TodoCalendar
import TodoTestSupport
import TodoTxt

/// Another implementation reads what the mapping writes and writes what it reads: the Python
/// icalendar library (Debian's python3-icalendar, for /usr/bin/python3), as a phone's CalDAV
/// stack would.
@Suite struct ICalendarPeerTests {
  static let python = "/usr/bin/python3"
  static let install = "install it with: apt-get install python3-icalendar"

  /// Runs a Python script with arguments; nil (and a recorded issue saying what to install)
  /// when the interpreter or the library is missing.
  static func runPython(_ script: String, _ arguments: [String]) throws -> String? {
    guard FileManager.default.isExecutableFile(atPath: python) else {
      Issue.record("\(python) is missing: the peer test needs Debian's python3 and python3-icalendar; \(install)")
      return nil
    }
    let result = try ChildProcess.run(python, ["-c", script] + arguments)
    if result.errors.contains("No module named 'icalendar'") {
      Issue.record("the Python icalendar library is missing; \(install)")
      return nil
    }
    #expect(result.status == 0, "python failed: \(result.errors)")
    return result.output
  }

  static func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("todo-ical-peer-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Prints, for each file given, one JSON object of what icalendar reads in its VTODO.
  static let reader = #"""
import icalendar, json, sys
def text(c, name):
    value = c.get(name)
    return None if value is None else str(value)
def day(c, name):
    if c.get(name) is None: return None
    value = c.decoded(name)
    return value.isoformat()
def listed(value):
    if value is None: return []
    return value if isinstance(value, list) else [value]
for path in sys.argv[1:]:
    with open(path, 'rb') as f:
        cal = icalendar.Calendar.from_ical(f.read())
    for c in cal.walk('VTODO'):
        cats = []
        for prop in listed(c.get('categories')):
            cats += [str(x) for x in prop.cats]
        print(json.dumps({
            'prodid': text(cal, 'prodid'), 'uid': text(c, 'uid'), 'summary': text(c, 'summary'),
            'priority': None if c.get('priority') is None else int(c.get('priority')),
            'categories': cats, 'due': day(c, 'due'), 'dtstart': day(c, 'dtstart'),
            'status': text(c, 'status'), 'completed': day(c, 'completed'), 'created': day(c, 'created'),
            'rrule': None if c.get('rrule') is None else c.get('rrule').to_ical().decode(),
            'xrecurrence': text(c, 'x-todo-recurrence'), 'xpriority': text(c, 'x-todo-priority'),
            'xid': text(c, 'x-todo-id'),
            'related': [[str(r), r.params.get('RELTYPE')] for r in listed(c.get('related-to'))],
            'description': text(c, 'description'), 'sortorder': text(c, 'x-apple-sort-order'),
            'geo': None if c.get('geo') is None else [c.get('geo').latitude, c.get('geo').longitude],
            'location': text(c, 'location'),
            'alarms': [[a.decoded('trigger').total_seconds(), a.get('trigger').params.get('RELATED'),
                        text(a, 'x-todo-reminder'), text(a, 'action')] for a in c.walk('VALARM')],
        }))
"""#

  static func read(_ files: [URL]) throws -> [[String: Any]]? {
    guard let output = try runPython(reader, files.map(\.path)) else { return nil }
    return try output.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
  }

  @Test func icalendarReadsWhatWeWriteWithTheSameValues() throws {
    let folder = try Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let mapping = VTODOMapping(reminder: .init(offset: -86_400), utcOffset: 3600)
    let cases = [
      TaskFields(
        title: "Pay rent, now; \\ really +home @desk", priority: Priority("A"), projects: ["home"], contexts: ["desk"],
        due: day("2026-12-31"), start: day("2026-12-20"), created: day("2026-12-01"), recurrence: Recurrence("1m"),
        id: "rent", parents: ["bank-uid"], note: "IBAN: 12\nref; x, y é😜", sortOrder: "-42"),
      TaskFields(
        title: "Filed taxes " + Array(repeating: "long words é", count: 20).joined(separator: " "), priority: Priority("D"), isCompleted: true,
        completed: day("2026-12-05"), created: day("2026-11-01"), recurrence: Recurrence("+3b")),
      TaskFields(title: "Plain", priority: Priority("B"), due: day("2027-01-02"), recurrence: Recurrence("+2w")),
    ]
    var files: [URL] = []
    for (index, fields) in cases.enumerated() {
      let file = folder.appendingPathComponent("\(index).ics")
      try Data(mapping.newObject(for: fields, uid: "uid-\(index)", now: 1_796_000_000).bytes).write(to: file)
      files.append(file)
    }
    guard let read = try Self.read(files) else { return }
    try #require(read.count == cases.count)
    // Expected values as RFC 5545 and the table say, written out by hand.
    let first = read[0]
    #expect(first["prodid"] as? String == "-//todo//todo.txt CalDAV sync//EN" && first["uid"] as? String == "uid-0")
    #expect(first["summary"] as? String == "Pay rent, now; \\ really +home @desk")
    #expect(first["priority"] as? Int == 1 && first["xpriority"] is NSNull)
    #expect(first["categories"] as? [String] == ["+home", "@desk"])
    #expect(first["due"] as? String == "2026-12-31" && first["dtstart"] as? String == "2026-12-20")
    #expect(first["status"] as? String == "NEEDS-ACTION" && first["completed"] is NSNull)
    // Noon in a zone an hour east of UTC is 11:00 UTC.
    #expect(first["created"] as? String == "2026-12-01T11:00:00+00:00")
    #expect(first["rrule"] as? String == "FREQ=MONTHLY" && first["xrecurrence"] as? String == "1m")
    #expect(first["xid"] as? String == "rent")
    #expect((first["related"] as? [[String]]) == [["bank-uid", "PARENT"]])
    #expect(first["description"] as? String == "IBAN: 12\nref; x, y é😜" && first["sortorder"] as? String == "-42")
    let alarms = first["alarms"] as? [[Any]]
    #expect(alarms?.count == 1)
    #expect(alarms?.first?[0] as? Double == -86_400 && alarms?.first?[1] as? String == "END")
    #expect(alarms?.first?[2] as? String == "1" && alarms?.first?[3] as? String == "DISPLAY")

    let second = read[1]
    #expect(second["summary"] as? String == "Filed taxes" + String(repeating: " long words é", count: 20))
    #expect(second["priority"] as? Int == 9 && second["xpriority"] as? String == "D")
    #expect(second["status"] as? String == "COMPLETED" && second["completed"] as? String == "2026-12-05T11:00:00+00:00")
    #expect(second["rrule"] as? String == "FREQ=DAILY;INTERVAL=3;BYDAY=MO,TU,WE,TH,FR" && second["xrecurrence"] is NSNull)
    #expect((second["alarms"] as? [[Any]])?.isEmpty == true)

    let third = read[2]
    #expect(third["priority"] as? Int == 5 && third["rrule"] as? String == "FREQ=WEEKLY;INTERVAL=2")
    #expect(third["categories"] as? [String] == [] && third["due"] as? String == "2027-01-02")
  }

  /// Writes VTODOs the way a Python CalDAV client does.
  static let writer = #"""
import icalendar, datetime, sys
utc = datetime.timezone.utc
def calendar(todo, name):
    cal = icalendar.Calendar()
    cal.add('prodid', '-//Peer//Python icalendar//EN')
    cal.add('version', '2.0')
    cal.add_component(todo)
    with open(sys.argv[1] + '/' + name, 'wb') as f:
        f.write(cal.to_ical())
t = icalendar.Todo()
t.add('uid', 'phone-1')
t.add('dtstamp', datetime.datetime(2026, 12, 1, 10, 0, tzinfo=utc))
t.add('summary', 'Buy milk, bread\nnow')
t.add('categories', ['Errands', '@home'])
t.add('priority', 3)
t.add('due', datetime.date(2026, 12, 3))
t.add('dtstart', datetime.datetime(2026, 12, 1, 9, 0))
t.add('status', 'IN-PROCESS')
t.add('created', datetime.datetime(2026, 11, 30, 23, 30, tzinfo=utc))
t.add('rrule', {'freq': 'weekly', 'interval': 2})
t.add('related-to', 'parent-1', parameters={'RELTYPE': 'PARENT'})
t.add('description', 'line one\nline two; with, commas')
t.add('x-apple-sort-order', '42')
t.add('geo', (48.85, 2.35))
t.add('location', 'Corner shop')
a = icalendar.Alarm()
a.add('action', 'AUDIO')
a.add('trigger', datetime.timedelta(minutes=-15))
t.add_component(a)
calendar(t, 'phone-1.ics')
t = icalendar.Todo()
t.add('uid', 'phone-2')
t.add('summary', 'Filed')
t.add('priority', 6)
t.add('status', 'COMPLETED')
t.add('completed', datetime.datetime(2026, 12, 5, 23, 30, tzinfo=utc))
calendar(t, 'phone-2.ics')
t = icalendar.Todo()
t.add('uid', 'phone-3')
t.add('summary', 'Stand-up')
t.add('priority', 5)
t.add('due', datetime.datetime(2026, 12, 3, 23, 30, tzinfo=utc))
t.add('rrule', {'freq': 'daily', 'byday': ['MO', 'TU', 'WE', 'TH', 'FR']})
calendar(t, 'phone-3.ics')
t = icalendar.Todo()
t.add('uid', 'phone-4')
t.add('summary', 'Dropped')
t.add('status', 'CANCELLED')
t.add('priority', 0)
calendar(t, 'phone-4.ics')
"""#

  @Test func vtodosIcalendarWritesMapAsTheTableSays() throws {
    let folder = try Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    guard try Self.runPython(Self.writer, [folder.path]) != nil else { return }
    let mapping = VTODOMapping(utcOffset: 3600)
    func object(_ name: String) throws -> ICalendarDocument {
      try ICalendarDocument(parsing: Array(try Data(contentsOf: folder.appendingPathComponent(name))))
    }
    var first = try object("phone-1.ics")
    let position = try #require(first.todoPositions.first)
    let phone = try #require(first[position])
    let fields = mapping.fields(of: phone)
    #expect(fields.title == "Buy milk, bread now +Errands @home")
    #expect(fields.projects == ["Errands"] && fields.contexts == ["home"] && fields.priority == Priority("A"))
    #expect(fields.due == day("2026-12-03") && fields.start == day("2026-12-01") && !fields.isCompleted)
    #expect(fields.created == day("2026-12-01") && fields.recurrence == Recurrence("+2w"))
    #expect(fields.parents == ["parent-1"] && fields.note == "line one\nline two; with, commas" && fields.sortOrder == "42")
    let second = mapping.fields(of: try #require(try object("phone-2.ics").todos.first))
    #expect(second.isCompleted && second.completed == day("2026-12-06") && second.priority == Priority("C"))
    let third = mapping.fields(of: try #require(try object("phone-3.ics").todos.first))
    #expect(third.priority == Priority("B") && third.recurrence == Recurrence("+1b") && third.due == day("2026-12-04"))
    let fourth = mapping.fields(of: try #require(try object("phone-4.ics").todos.first))
    #expect(fourth.isCompleted && fourth.completed == nil && fourth.priority == nil)

    // Edited by us and read again by icalendar: the phone's alarm, GEO and LOCATION are there.
    var edited = phone
    var changed = fields
    changed.due = day("2026-12-10")
    changed.title = "Buy oat milk, bread now +Errands @home"
    mapping.apply(changed, to: &edited, now: 1_796_000_000)
    first[position] = edited
    let file = folder.appendingPathComponent("edited.ics")
    try Data(first.bytes).write(to: file)
    guard let read = try Self.read([file]) else { return }
    let again = try #require(read.first)
    #expect(again["summary"] as? String == "Buy oat milk, bread now +Errands @home")
    #expect(again["due"] as? String == "2026-12-10" && again["location"] as? String == "Corner shop")
    #expect((again["geo"] as? [Double]) == [48.85, 2.35])
    #expect(again["categories"] as? [String] == ["Errands", "@home"] && again["status"] as? String == "IN-PROCESS")
    let alarms = again["alarms"] as? [[Any]]
    #expect(alarms?.count == 1 && alarms?.first?[0] as? Double == -900 && alarms?.first?[3] as? String == "AUDIO")
  }
}
