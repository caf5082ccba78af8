import TodoTxt

/// The mapping between a VTODO and ``TaskFields``: what a VTODO says as the fields of a task,
/// and a VTODO changed to say given fields.
///
/// A VTODO is edited, never rebuilt: only the properties of fields that differ are
/// rewritten, everything else (alarms set on a phone, X- properties, ATTACH, GEO, LOCATION,
/// parameters this tool does not know) stays, byte for byte. The rules, both ways, are the
/// table in `man todo` (CALDAV MAPPING); the doc comment of each rule says why.
public struct VTODOMapping: Sendable {
  /// When the reminder of ours fires: `offset` seconds from the due date (the start of the
  /// due day for a date; negative is before). `-86400` is the day before at midnight, `32400`
  /// nine in the morning of the due day.
  public struct Reminder: Equatable, Sendable {
    public var offset: Int
    public init(offset: Int) { self.offset = offset }
  }

  /// Our reminder, or nil for none (phone alarms are kept either way).
  public var reminder: Reminder?
  /// The person's zone, seconds east of UTC: the day a UTC time falls on (COMPLETED, CREATED
  /// and a phone's UTC DUE) is the day in this zone.
  public var utcOffset: Int
  /// The names `id:`/`p:` use for the UIDs RELATED-TO holds.
  public var relations: TaskRelations

  public init(reminder: Reminder? = nil, utcOffset: Int = 0, relations: TaskRelations = TaskRelations()) {
    self.reminder = reminder
    self.utcOffset = utcOffset
    self.relations = relations
  }

  /// The PRODID of objects this tool creates.
  public static let productID = "-//todo//todo.txt CalDAV sync//EN"
  /// The exact priority letter when it is D…Z (PRIORITY holds only its band).
  public static let priorityLetterProperty = "X-TODO-PRIORITY"
  /// `rec:` counted from completion (`1w`): RRULE cannot say it.
  public static let recurrenceProperty = "X-TODO-RECURRENCE"
  /// `id:` of the task: the name its dependents' `p:` use.
  public static let idProperty = "X-TODO-ID"
  /// Marks the VALARM that is ours (its value `1`): the one this tool updates and removes.
  public static let reminderProperty = "X-TODO-REMINDER"
  /// The manual order Apple Reminders, Nextcloud Tasks and tasks.org share.
  public static let sortOrderProperty = "X-APPLE-SORT-ORDER"

  // MARK: VTODO → fields

  /// What the VTODO says, as the fields of a task.
  public func fields(of todo: ICalendarComponent) -> TaskFields {
    let (title, projects, contexts) = VTODOMapping.title(
      summary: todo.property("SUMMARY")?.text ?? "", categories: VTODOMapping.categories(of: todo))
    var fields = TaskFields(title: title, projects: projects, contexts: contexts)
    fields.priority = VTODOMapping.priority(
      todo.property("PRIORITY")?.valueString, letter: todo.property(VTODOMapping.priorityLetterProperty)?.valueString)
    fields.due = day(todo.property("DUE"))
    fields.start = day(todo.property("DTSTART"))
    let status = todo.property("STATUS")?.valueString.uppercased()
    let completed = todo.property("COMPLETED")
    fields.isCompleted = status == "COMPLETED" || status == "CANCELLED" || (status == nil && completed != nil)
    fields.completed = fields.isCompleted ? day(completed) : nil
    fields.created = day(todo.property("CREATED"))
    fields.recurrence = VTODOMapping.recurrence(
      rule: todo.property("RRULE")?.valueString, kept: todo.property(VTODOMapping.recurrenceProperty)?.valueString)
    fields.id = todo.property(VTODOMapping.idProperty)?.text ?? todo.uid.flatMap { relations.idsByUID[$0] }
    var parents: [String] = []
    for link in todo.properties("RELATED-TO") where VTODOMapping.isParentLink(link) {
      let id = relations.id(forUID: link.text)
      if !id.isEmpty, !parents.contains(id) { parents.append(id) }
    }
    fields.parents = parents
    fields.note = todo.property("DESCRIPTION").flatMap { NoteText.normalized($0.text) }
    fields.sortOrder = todo.property(VTODOMapping.sortOrderProperty).map { property in
      let value = property.valueString.trimmingSpaces
      return Int(value).map(String.init) ?? value
    }
    return fields
  }

  /// The day of a DUE, DTSTART, COMPLETED or CREATED (see ``CalendarDateTime/day(utcOffset:)``).
  func day(_ property: ICalendarProperty?) -> TaskDate? {
    guard let property else { return nil }
    let value = property.valueString.trimmingSpaces
    return CalendarDateTime(value)?.day(utcOffset: utcOffset)
  }

  /// The title and the names, from SUMMARY and CATEGORIES.
  ///
  /// The title is SUMMARY with its white space (tabs, line breaks) made single spaces and
  /// control characters made U+FFFD (a todo.txt line holds neither), without the words
  /// todo.txt would read as a tag with meaning (`due:soon`, `uid:x`): in a line those would
  /// count as the tag, or be written over when the field is set. Its `+word`s and
  /// `@word`s are projects and contexts; a category the title does not name is appended to it
  /// as a `+name` or `@name` word, so a category set on a phone shows in the line. The names
  /// are then those of the title, in order: the union of both, which a round trip keeps.
  static func title(summary: String, categories: [(Category.Kind, String)]) -> (String, [String], [String]) {
    var words = summary.unicodeScalars.split { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }.map { word in
      String(String.UnicodeScalarView(word.map { ICalendarText.isControl($0) ? "\u{FFFD}" : $0 }))
    }.filter { !isTagWithMeaning($0) }
    var (projects, contexts) = names(in: words)
    var seenProjects = Set(projects)
    var seenContexts = Set(contexts)
    for (kind, name) in categories {
      switch kind {
      case .project where seenProjects.insert(name).inserted:
        projects.append(name)
        words.append("+" + name)
      case .context where seenContexts.insert(name).inserted:
        contexts.append(name)
        words.append("@" + name)
      default: break
      }
    }
    return (words.joined(separator: " "), projects, contexts)
  }

  /// Whether todo.txt reads `word` as a tag with meaning: `key:value`, one colon, neither side
  /// empty, the value not starting with `//`, the key one of ``TagMeaning``'s.
  static func isTagWithMeaning(_ word: String) -> Bool {
    let bytes = Array(word.utf8)
    guard let first = bytes.first,
      bytes.count < 2 || (first != UInt8(ascii: "+") && first != UInt8(ascii: "@")),
      let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, colon < bytes.count - 1,
      !bytes[(colon + 1)...].contains(UInt8(ascii: ":")), !bytes[(colon + 1)...].starts(with: Array("//".utf8))
    else { return false }
    return TagMeaning.named(String(decoding: bytes[..<colon], as: UTF8.self)) != nil
  }

  /// The `+project` and `@context` names of words, each once, in order (as todo.txt reads
  /// them: a sigil and at least one more character).
  static func names(in words: [String]) -> ([String], [String]) {
    var projects: [String] = []
    var contexts: [String] = []
    var seen = (projects: Set<String>(), contexts: Set<String>())
    for word in words where word.utf8.count >= 2 {
      let name = String(decoding: word.utf8.dropFirst(), as: UTF8.self)
      if word.utf8.first == UInt8(ascii: "+"), seen.projects.insert(name).inserted { projects.append(name) }
      if word.utf8.first == UInt8(ascii: "@"), seen.contexts.insert(name).inserted { contexts.append(name) }
    }
    return (projects, contexts)
  }

  /// The categories of every CATEGORIES property (it may repeat, each a comma list), read as
  /// names: see ``Category``.
  static func categories(of todo: ICalendarComponent) -> [(Category.Kind, String)] {
    todo.properties("CATEGORIES").flatMap(\.textList).compactMap { Category(value: $0).map { ($0.kind, $0.name) } }
  }

  /// A category as a todo.txt name. `@name` is a context; `+name` a project; any other
  /// category (a phone's "Errands") is a project: one kind, so that a plain category is read
  /// the same way every time. A name holds no white space or control character: runs of
  /// white space become `_`, control characters go.
  struct Category {
    enum Kind { case project, context }
    var kind: Kind
    var name: String

    init?(value: String) {
      var text = value.trimmingSpaces
      kind = .project
      if text.utf8.count >= 2, let sigil = text.utf8.first, sigil == UInt8(ascii: "@") || sigil == UInt8(ascii: "+") {
        kind = sigil == UInt8(ascii: "@") ? .context : .project
        text = String(decoding: text.utf8.dropFirst(), as: UTF8.self)
      }
      var bytes: [UInt8] = []
      var space = false
      for scalar in text.unicodeScalars {
        if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{A0}" {
          space = true
          continue
        }
        if ICalendarText.isControl(scalar) { continue }
        if space, !bytes.isEmpty { bytes.append(UInt8(ascii: "_")) }
        space = false
        UTF8.encode(scalar) { bytes.append($0) }
      }
      guard !bytes.isEmpty else { return nil }
      name = String(decoding: bytes, as: UTF8.self)
    }
  }

  /// The letter of a PRIORITY by the bands of RFC 5545: 1–4 `A`, 5 `B`, 6–9 `C`; 0, absent
  /// or not a number: none. `letter` (``priorityLetterProperty``) gives the exact letter back
  /// while it is in the band PRIORITY says; a phone that moved the priority to another band
  /// wins.
  static func priority(_ value: String?, letter: String?) -> Priority? {
    guard let value, let number = Int(value.trimmingSpaces), (1...9).contains(number) else { return nil }
    let band = number <= 4 ? Priority("A") : number == 5 ? Priority("B") : Priority("C")
    if let kept = letter.flatMap({ Priority($0.trimmingSpaces) }), kept.byte > UInt8(ascii: "C"),
      priorityValue(kept) == priorityValue(band ?? kept)
    {
      return kept
    }
    return band
  }

  /// PRIORITY for a letter: `A` 1 (high), `B` 5 (medium), `C`…`Z` 9 (low).
  static func priorityValue(_ priority: Priority) -> Int {
    switch priority.byte {
    case UInt8(ascii: "A"): 1
    case UInt8(ascii: "B"): 5
    default: 9
    }
  }

  /// `rec:` from RRULE. FREQ DAILY, WEEKLY, MONTHLY, YEARLY with INTERVAL N are `+Nd`, `+Nw`,
  /// `+Nm`, `+Ny` (strict: a calendar counts from the dates, not from completion); DAILY on
  /// BYDAY=MO,TU,WE,TH,FR is `+Nb`. A rule with more (COUNT, UNTIL, other BY parts) has no
  /// `rec:` and maps to none; the RRULE stays as it is. `kept` (``recurrenceProperty``) gives
  /// back `rec:` counted from completion while the RRULE still says its interval.
  static func recurrence(rule: String?, kept: String?) -> Recurrence? {
    guard let rule, let derived = recurrence(rule: rule) else { return nil }
    if let kept = kept.flatMap({ Recurrence($0.trimmingSpaces) }), kept.count == derived.count,
      kept.unit == derived.unit
    {
      return kept
    }
    return derived
  }

  private static func recurrence(rule: String) -> Recurrence? {
    var parts: [String: String] = [:]
    for part in rule.trimmingSpaces.split(separator: ";") {
      let pair = part.split(separator: "=", maxSplits: 1)
      guard pair.count == 2 else { return nil }
      let key = pair[0].uppercased()
      guard parts[key] == nil else { return nil }
      parts[key] = pair[1].uppercased()
    }
    var count = 1
    if let interval = parts.removeValue(forKey: "INTERVAL") {
      guard interval.count <= 6, let value = Int(interval), value > 0 else { return nil }
      count = value
    }
    parts.removeValue(forKey: "WKST")
    let byDay = parts.removeValue(forKey: "BYDAY")
    guard let frequency = parts.removeValue(forKey: "FREQ"), parts.isEmpty else { return nil }
    let unit: Recurrence.Unit
    switch (frequency, byDay) {
    case ("DAILY", nil): unit = .day
    case ("DAILY", let days?) where Set(days.split(separator: ",")) == ["MO", "TU", "WE", "TH", "FR"]:
      unit = .businessDay
    case ("WEEKLY", nil): unit = .week
    case ("MONTHLY", nil): unit = .month
    case ("YEARLY", nil): unit = .year
    default: return nil
    }
    return Recurrence(count: count, unit: unit, strict: true)
  }

  /// RRULE for `rec:`: FREQ, INTERVAL when more than one, and the weekdays for business days.
  static func rule(_ recurrence: Recurrence) -> String {
    let frequency: String
    switch recurrence.unit {
    case .day, .businessDay: frequency = "DAILY"
    case .week: frequency = "WEEKLY"
    case .month: frequency = "MONTHLY"
    case .year: frequency = "YEARLY"
    }
    var rule = "FREQ=" + frequency
    if recurrence.count != 1 { rule += ";INTERVAL=" + String(recurrence.count) }
    if recurrence.unit == .businessDay { rule += ";BYDAY=MO,TU,WE,TH,FR" }
    return rule
  }

  /// RELATED-TO links to a parent: RELTYPE=PARENT, or no RELTYPE (PARENT is its default).
  static func isParentLink(_ property: ICalendarProperty) -> Bool {
    (property.parameterToken("RELTYPE") ?? "PARENT") == "PARENT"
  }

  // MARK: Fields → VTODO

  /// Changes `todo` to say `fields`: the properties of each field that differs from what it
  /// says now are rewritten; the reminder of ours is set, moved or removed. When anything
  /// changed, DTSTAMP and LAST-MODIFIED become `now` (seconds since the epoch) and a SEQUENCE
  /// the object has is counted up.
  public func apply(_ fields: TaskFields, to todo: inout ICalendarComponent, now: Int) {
    let current = self.fields(of: todo)
    let before = todo
    if fields.title != current.title {
      todo.set("SUMMARY", text: fields.title.isEmpty ? nil : fields.title)
    }
    if fields.projects != current.projects || fields.contexts != current.contexts {
      setCategories(projects: fields.projects, contexts: fields.contexts, in: &todo)
    }
    if fields.priority != current.priority {
      todo.set("PRIORITY", value: fields.priority.map { String(VTODOMapping.priorityValue($0)) })
      let letter = fields.priority.flatMap { $0.byte > UInt8(ascii: "C") ? $0 : nil }
      todo.set(VTODOMapping.priorityLetterProperty, value: letter?.description)
    }
    if fields.due != current.due {
      setDay("DUE", fields.due, in: &todo)
      if fields.due != nil { todo.removeAll("DURATION") }
    }
    if fields.start != current.start { setDay("DTSTART", fields.start, in: &todo) }
    if fields.isCompleted != current.isCompleted || fields.completed != current.completed {
      setCompletion(fields, wasCompleted: current.isCompleted, in: &todo)
    }
    if fields.created != current.created {
      todo.set("CREATED", value: fields.created.map { CalendarDateTime.noon(of: $0, utcOffset: utcOffset).written })
    }
    if fields.recurrence != current.recurrence {
      todo.set("RRULE", value: fields.recurrence.map(VTODOMapping.rule))
      let kept = fields.recurrence.flatMap { $0.isStrict ? nil : $0 }
      todo.set(VTODOMapping.recurrenceProperty, value: kept?.description)
    }
    if fields.id != current.id {
      todo.set(VTODOMapping.idProperty, text: fields.id)
    }
    if fields.parents != current.parents { setParents(fields.parents, in: &todo) }
    if fields.note != current.note {
      todo.set("DESCRIPTION", text: fields.note)
    }
    if fields.sortOrder != current.sortOrder {
      todo.set(VTODOMapping.sortOrderProperty, value: fields.sortOrder)
    }
    setReminder(fields, in: &todo)
    guard todo != before else { return }
    let stamp = CalendarDateTime.utc(secondsSinceEpoch: now).written
    todo.set("DTSTAMP", value: stamp)
    todo.set("LAST-MODIFIED", value: stamp)
    if let sequence = todo.property("SEQUENCE"), let number = Int(sequence.valueString.trimmingSpaces), number >= 0,
      number < Int.max
    {
      todo.set("SEQUENCE", value: String(number + 1))
    }
  }

  /// A new calendar object for a task that has none on the server: a VCALENDAR with our
  /// PRODID and one VTODO with `uid`, DTSTAMP `now` and the properties of `fields`.
  public func newObject(for fields: TaskFields, uid: String, now: Int) -> ICalendarDocument {
    var todo = ICalendarComponent(name: "VTODO")
    todo.append(ICalendarProperty(name: "UID", text: uid))
    todo.append(ICalendarProperty(name: "DTSTAMP", value: CalendarDateTime.utc(secondsSinceEpoch: now).written))
    if !fields.isCompleted { todo.append(ICalendarProperty(name: "STATUS", value: "NEEDS-ACTION")) }
    apply(fields, to: &todo, now: now)
    let calendar = ICalendarComponent(name: "VCALENDAR", items: [
      .property(ICalendarProperty(name: "VERSION", value: "2.0")),
      .property(ICalendarProperty(name: "PRODID", text: VTODOMapping.productID)),
      .component(todo),
    ])
    return ICalendarDocument(items: [.component(calendar)])
  }

  /// One CATEGORIES with the projects, then the contexts; a name that was there keeps the
  /// spelling it had (a phone's "Home Office" stays that), a new one is written `+name` or
  /// `@name`.
  private func setCategories(projects: [String], contexts: [String], in todo: inout ICalendarComponent) {
    var spelled: [String: String] = [:]
    for value in todo.properties("CATEGORIES").flatMap(\.textList) {
      guard let category = Category(value: value) else { continue }
      let key = (category.kind == .project ? "+" : "@") + category.name
      if spelled[key] == nil { spelled[key] = value }
    }
    let values = projects.map { spelled["+" + $0] ?? "+" + $0 } + contexts.map { spelled["@" + $0] ?? "@" + $0 }
    todo.set("CATEGORIES", value: values.isEmpty ? nil : ICalendarText.escapeList(values))
  }

  /// DUE or DTSTART on `date`: a date (VALUE=DATE); a phone's DATE-TIME that is not UTC keeps
  /// its time and TZID, only the day changes.
  private func setDay(_ name: String, _ date: TaskDate?, in todo: inout ICalendarComponent) {
    guard let date else {
      todo.removeAll(name)
      return
    }
    if var old = todo.property(name), var value = CalendarDateTime(old.valueString.trimmingSpaces),
      value.secondsOfDay != nil, !value.isUTC
    {
      value.date = date
      old.value = Array(value.written.utf8)
      todo.set(name, old)
    } else {
      todo.set(name, value: CalendarDateTime(date: date).written, parameters: [.init("VALUE", "DATE")])
    }
  }

  /// STATUS, COMPLETED and PERCENT-COMPLETE. Done is STATUS:COMPLETED and a COMPLETED time
  /// (a CANCELLED task stays CANCELLED); open again is NEEDS-ACTION without COMPLETED.
  private func setCompletion(_ fields: TaskFields, wasCompleted: Bool, in todo: inout ICalendarComponent) {
    if fields.isCompleted {
      if !wasCompleted { todo.set("STATUS", value: "COMPLETED") }
      todo.set("COMPLETED", value: fields.completed.map { CalendarDateTime.noon(of: $0, utcOffset: utcOffset).written })
      if todo.property("PERCENT-COMPLETE") != nil { todo.set("PERCENT-COMPLETE", value: "100") }
    } else {
      todo.set("STATUS", value: "NEEDS-ACTION")
      todo.removeAll("COMPLETED")
      todo.removeAll("PERCENT-COMPLETE")
    }
  }

  /// RELATED-TO;RELTYPE=PARENT for each `p:`: links still wanted stay as they are, others go,
  /// new ones are added. CHILD and SIBLING links are not touched.
  private func setParents(_ parents: [String], in todo: inout ICalendarComponent) {
    var present: [String] = []
    todo.removeProperties { link in
      guard link.is("RELATED-TO"), VTODOMapping.isParentLink(link) else { return false }
      let id = relations.id(forUID: link.text)
      guard parents.contains(id), !present.contains(id) else { return true }
      present.append(id)
      return false
    }
    for id in parents where !present.contains(id) {
      todo.append(
        ICalendarProperty(name: "RELATED-TO", parameters: [.init("RELTYPE", "PARENT")], text: relations.uid(forID: id)))
    }
  }

  /// The VALARM of ours: there while the task is open, has a due date and a reminder is set;
  /// its TRIGGER the lead time before DUE, its DESCRIPTION the title. Another VALARM is never
  /// touched; a second one of ours (a copy a client made) goes.
  private func setReminder(_ fields: TaskFields, in todo: inout ICalendarComponent) {
    let ours = todo.items.indices.filter { index in
      guard case .component(let alarm) = todo.items[index], alarm.is("VALARM") else { return false }
      return alarm.property(VTODOMapping.reminderProperty) != nil
    }
    guard let reminder, fields.due != nil, !fields.isCompleted else {
      for index in ours.reversed() { todo.items.remove(at: index) }
      return
    }
    var alarm: ICalendarComponent
    if let first = ours.first, case .component(let old) = todo.items[first] {
      alarm = old
    } else {
      alarm = ICalendarComponent(name: "VALARM")
      alarm.append(ICalendarProperty(name: VTODOMapping.reminderProperty, value: "1"))
    }
    alarm.set("ACTION", value: "DISPLAY")
    alarm.set("TRIGGER", value: VTODOMapping.duration(reminder.offset), parameters: [.init("RELATED", "END")])
    alarm.set("DESCRIPTION", text: fields.title.isEmpty ? "Reminder" : fields.title)
    if let first = ours.first {
      if case .component(let old) = todo.items[first], old != alarm { todo.items[first] = .component(alarm) }
      for index in ours.dropFirst().reversed() { todo.items.remove(at: index) }
    } else {
      todo.items.append(.component(alarm))
    }
  }

  /// A DURATION (`-P1D`, `PT9H30M`, `PT0S`) of `seconds`.
  static func duration(_ seconds: Int) -> String {
    var rest = seconds.magnitude
    var text = seconds < 0 ? "-P" : "P"
    let days = rest / 86_400
    rest %= 86_400
    if days > 0 { text += String(days) + "D" }
    if rest > 0 || days == 0 {
      text += "T"
      if rest / 3600 > 0 { text += String(rest / 3600) + "H" }
      if rest / 60 % 60 > 0 { text += String(rest / 60 % 60) + "M" }
      if rest % 60 > 0 || rest == 0 { text += String(rest % 60) + "S" }
    }
    return text
  }
}

/// The names `id:` and `p:` give tasks, for the UIDs RELATED-TO holds: the sync engine knows
/// both (each task's `uid:` and `id:`) and builds this; without an entry the UID is the name,
/// so a round trip through a VTODO is exact either way.
public struct TaskRelations: Equatable, Sendable {
  public var idsByUID: [String: String]
  public var uidsByID: [String: String]

  public init(idsByUID: [String: String] = [:]) {
    self.idsByUID = idsByUID
    var uids: [String: String] = [:]
    for (uid, id) in idsByUID { uids[id] = uid }
    uidsByID = uids
  }

  /// The `id:` name of the task with `uid`; the UID itself when none is known.
  public func id(forUID uid: String) -> String { idsByUID[uid] ?? uid }
  /// The UID of the task named `id`; the name itself when none is known.
  public func uid(forID id: String) -> String { uidsByID[id] ?? id }
}

extension String {
  /// Without leading and trailing spaces and tabs.
  var trimmingSpaces: String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
      let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })
    else { return "" }
    return String(scalars[first...last])
  }
}
