/// Dates in the words people say them: `next monday`, `in 3 days`, `dec 10`, `weekend`, and
/// the same glued into one word for a tag (`next-monday`, `nextmonday`, `dec10`, `10dec`,
/// `in-3-days`).
extension RelativeDate {
  /// A word or a number of a date phrase.
  enum Token: Equatable {
    case word(String)
    case number(Int, digits: Int)
  }

  /// The most words a phrase may have: every form below has at most four, after the
  /// filler words are left out.
  package static let longestPhrase = 6

  /// Reads `text` as a date phrase; `nil` when it is none.
  ///
  /// The grammar, after the text is split into words and numbers (at blanks, `-`, `_`, `,`
  /// and `.`, and where letters meet digits, so that `dec10` is `dec 10`; a leading `next` or
  /// `this` is split from the word it is glued to), with `on`, `the`, `of` and the ordinal
  /// endings of numbers (`10th`) left out:
  /// - `day after tomorrow`;
  /// - `weekend`, `this weekend`: the coming Saturday (today on a Saturday or Sunday);
  ///   `next weekend`: the Saturday after the coming Monday;
  /// - `this WEEKDAY`: today when it is that day, else its next occurrence; `next WEEKDAY`:
  ///   the same as `WEEKDAY`, its next occurrence after today;
  /// - `next week`: the coming Monday; `next month`, `next year`: the first day of either;
  /// - `end of week`, `end of month`, `end of year`: as `eow`, `eom`, `eoy`;
  /// - `[in] N UNIT`: N (digits, `a`, `an`, or `one` to `ten`) days, weeks, months, years or
  ///   business days (`business days`, `working days`, `workdays`) from today;
  /// - `MONTH DAY [YEAR]`, `DAY MONTH [YEAR]`: the month by its English name or first three
  ///   letters (`sept` too); without a year, the next such day from today on.
  static func phrase(_ text: some StringProtocol, today: TaskDate) -> TaskDate? {
    guard let tokens = tokens(text), !tokens.isEmpty, tokens.count <= longestPhrase else { return nil }
    return phrase(tokens, today: today)
  }

  private static func phrase(_ tokens: [Token], today: TaskDate) -> TaskDate? {
    let words = tokens.map { token -> String? in
      if case .word(let word) = token { return word }
      return nil
    }
    switch words {
    case ["weekend"], ["this", "weekend"]:
      // The coming Saturday, or today at the weekend.
      return today.weekday.isWeekend ? today : today.adding(days: Weekday.saturday.rawValue - today.weekday.rawValue)
    default:
      break
    }
    // `on friday` leaves one word, read as the one-word forms are (the longest of them,
    // `wednesday` and `yesterday`, have nine letters).
    if words.count == 1, let word = words[0] { return word.count < 10 ? oneWord(word, today: today) : nil }
    switch words {
    case ["day", "after", "tomorrow"]:
      return today.adding(days: 2)
    case ["next", "weekend"]:
      // The Saturday after the coming Monday.
      return today.adding(days: 8 - today.weekday.rawValue + 5)
    case ["next", "week"]:
      return today.adding(days: 8 - today.weekday.rawValue)
    case ["next", "month"]:
      let next = today.adding(months: 1)
      return TaskDate(year: next.year, month: next.month, day: 1)
    case ["next", "year"]:
      return today.year < 9999 ? TaskDate(year: today.year + 1, month: 1, day: 1) : nil
    case ["end", "week"]:
      return oneWord("eow", today: today)
    case ["end", "month"]:
      return oneWord("eom", today: today)
    case ["end", "year"]:
      return oneWord("eoy", today: today)
    default:
      break
    }
    if tokens.count == 2, let first = words[0], first == "this" || first == "next",
      let name = words[1], let weekday = Weekday(name: name)
    {
      let ahead = (weekday.rawValue - today.weekday.rawValue + 7) % 7
      return today.adding(days: first == "next" && ahead == 0 ? 7 : ahead)
    }
    if let offset = offset(tokens) { return offset.apply(to: today) }
    return dayOfMonth(tokens, today: today)
  }

  /// `[in] N UNIT`.
  fileprivate static func offset(_ tokens: [Token]) -> Offset? {
    var rest = tokens[...]
    if rest.first == .word("in") { rest.removeFirst() }
    guard let first = rest.popFirst(), let count = count(first), !rest.isEmpty else { return nil }
    let unitWords = rest.map { token -> String in
      if case .word(let word) = token { return word }
      return ""
    }
    let unit: Recurrence.Unit
    switch unitWords {
    case ["d"], ["day"], ["days"]: unit = .day
    case ["w"], ["wk"], ["wks"], ["week"], ["weeks"]: unit = .week
    case ["m"], ["mo"], ["month"], ["months"]: unit = .month
    case ["y"], ["yr"], ["yrs"], ["year"], ["years"]: unit = .year
    case ["b"], ["workday"], ["workdays"], ["business", "day"], ["business", "days"], ["working", "day"],
      ["working", "days"]:
      unit = .businessDay
    default: return nil
    }
    return Offset(count: count, unit: unit)
  }

  /// A count: digits (at most six), `a`, `an`, or a number word up to ten.
  private static func count(_ token: Token) -> Int? {
    switch token {
    case .number(let value, let digits): return digits <= 6 ? value : nil
    case .word(let word):
      let words = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
      if word == "a" || word == "an" { return 1 }
      return words.firstIndex(of: word).map { $0 + 1 }
    }
  }

  /// `MONTH DAY [YEAR]` or `DAY MONTH [YEAR]`.
  private static func dayOfMonth(_ tokens: [Token], today: TaskDate) -> TaskDate? {
    guard tokens.count == 2 || tokens.count == 3 else { return nil }
    let month: Int
    let day: Int
    switch (tokens[0], tokens[1]) {
    case (.word(let name), .number(let number, let digits)) where digits <= 2:
      guard let named = monthNumber(name) else { return nil }
      (month, day) = (named, number)
    case (.number(let number, let digits), .word(let name)) where digits <= 2:
      guard let named = monthNumber(name) else { return nil }
      (month, day) = (named, number)
    default:
      return nil
    }
    if tokens.count == 3 {
      guard case .number(let year, digits: 4) = tokens[2] else { return nil }
      return TaskDate(year: year, month: month, day: day)
    }
    return nextOccurrence(month: month, day: day, from: today)
  }

  /// The first `month`/`day` on or after `today` (a 29 February may be years away).
  static func nextOccurrence(month: Int, day: Int, from today: TaskDate) -> TaskDate? {
    for year in today.year...min(today.year + 8, 9999) {
      if let date = TaskDate(year: year, month: month, day: day), date >= today { return date }
    }
    return nil
  }

  /// The number of a month named in English, in full or by its first three letters (`sept`
  /// too).
  static func monthNumber(_ name: String) -> Int? {
    let names = [
      "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
      "december",
    ]
    if name == "sept" { return 9 }
    guard name.count >= 3, let index = names.firstIndex(where: { $0 == name || $0.prefix(3) == name }) else {
      return nil
    }
    return index + 1
  }

  /// The words and numbers of `text`, lower case, with the filler words and ordinal endings
  /// left out; `nil` when it holds anything but ASCII letters, digits and separators.
  static func tokens(_ text: some StringProtocol) -> [Token]? {
    // A sign belongs to the one-word offsets (`-3d`): `-3 days` is not three days ahead.
    guard text.first(where: { $0 != " " && $0 != "\t" }) != "-" else { return nil }
    var tokens: [Token] = []
    var run: [UInt8] = []
    var runIsDigits = false
    func flush() {
      defer { run.removeAll() }
      guard !run.isEmpty else { return }
      if runIsDigits {
        // A long run of digits is no count, day or year: kept as a number no rule takes.
        let value = run.count <= 6 ? run.reduce(0) { $0 * 10 + Int($1 - 48) } : 0
        tokens.append(.number(value, digits: run.count))
        return
      }
      let word = String(decoding: run, as: UTF8.self)
      if case .number? = tokens.last, ["st", "nd", "rd", "th"].contains(word) { return }
      if ["on", "the", "of"].contains(word) { return }
      for glued in ["next", "this"] where word.count > glued.count && word.hasPrefix(glued) {
        tokens.append(.word(glued))
        tokens.append(.word(String(word.dropFirst(glued.count))))
        return
      }
      tokens.append(.word(word))
    }
    for byte in text.utf8 {
      let lower = byte | 0x20
      if (0x61...0x7A).contains(lower) {
        if runIsDigits { flush() }
        runIsDigits = false
        run.append(lower)
      } else if (0x30...0x39).contains(byte) {
        if !runIsDigits { flush() }
        runIsDigits = true
        run.append(byte)
      } else if [0x20, 0x09, 0x2D, 0x5F, 0x2C, 0x2E].contains(byte) {
        flush()
      } else {
        return nil
      }
      // A phrase is a few words: a long text is none, and is not read to its end.
      if tokens.count > longestPhrase * 2 { return nil }
    }
    flush()
    return tokens
  }

  /// The dates a numeric date other than `YYYY-MM-DD` can mean, or `nil` when `text` is not
  /// one: `12/10`, `12/10/2026`, `10.12.`, `10.12.26`, `12-10` mean 10 December in some
  /// countries and 12 October in others, so they are not guessed; the caller names both
  /// readings in the one form that reads the same everywhere. A form with the year first
  /// (`2026/12/10`, `2026-5-1`) has one reading. Without a year, the next such day from
  /// today on; a two-digit year is in 2000–2099. Empty when no reading is a real day.
  public static func numericReadings(_ text: some StringProtocol, today: TaskDate) -> [TaskDate]? {
    var bytes = Array(text.utf8)
    guard TaskDate(text) == nil, bytes.count <= 12 else { return nil }
    if bytes.last == UInt8(ascii: ".") { bytes.removeLast() }
    let separators: Set<UInt8> = [UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "-")]
    guard let separator = bytes.first(where: { separators.contains($0) }),
      bytes.allSatisfy({ $0 == separator || (0x30...0x39).contains($0) })
    else { return nil }
    let groups = bytes.split(separator: separator, omittingEmptySubsequences: false)
    guard (2...3).contains(groups.count), groups.allSatisfy({ (1...4).contains($0.count) }) else { return nil }
    let numbers = groups.map { $0.reduce(0) { $0 * 10 + Int($1 - 48) } }
    if groups[0].count == 4 {
      guard groups.count == 3, groups[1].count <= 2, groups[2].count <= 2 else { return nil }
      return [TaskDate(year: numbers[0], month: numbers[1], day: numbers[2])].compactMap { $0 }
    }
    guard groups[0].count <= 2, groups[1].count <= 2 else { return nil }
    var year: Int?
    if groups.count == 3 {
      guard groups[2].count == 2 || groups[2].count == 4 else { return nil }
      year = groups[2].count == 2 ? 2000 + numbers[2] : numbers[2]
    }
    func date(month: Int, day: Int) -> TaskDate? {
      if let year { return TaskDate(year: year, month: month, day: day) }
      return nextOccurrence(month: month, day: day, from: today)
    }
    var readings: [TaskDate] = []
    for reading in [date(month: numbers[0], day: numbers[1]), date(month: numbers[1], day: numbers[0])] {
      if let reading, !readings.contains(reading) { readings.append(reading) }
    }
    return readings
  }
}

extension RelativeDate.Offset {
  /// A count of units in words, as `postpone` takes a duration: `3 days`, `2 weeks`, `a
  /// month`, `5 business days`, or glued (`3days`, `3-days`); `nil` for anything else,
  /// including `in 3 days`, which is a date.
  public init?(words text: some StringProtocol) {
    guard let tokens = RelativeDate.tokens(text), tokens.first != .word("in"),
      tokens.count <= RelativeDate.longestPhrase, let offset = RelativeDate.offset(tokens)
    else { return nil }
    self = offset
  }
}
