/// A calendar date as todo.txt writes it: `YYYY-MM-DD`, in the proleptic Gregorian calendar.
///
/// Dates are plain values with no time zone: todo.txt has none, and "today" is always handed in
/// by the caller (see ``RelativeDate``), never read from a clock here. Arithmetic goes through a
/// day count so that no date formatter or calendar object is needed on a hot path.
public struct TaskDate: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The year, month and day in one integer (`year << 9 | month << 5 | day`), so that a date
  /// is 4 bytes and two compare as integers: a task holds three optional dates, an agenda or
  /// a sort key one per task, and as three `Int`s each was 24 bytes.
  private let packed: UInt32

  /// The date as one integer in the dates' order, never 0: for a sort key held per task
  /// (``TaskOrder``, ``Agenda``) without a second encoding of its own.
  package var ordinal: UInt32 { packed }

  /// The year, 1 to 9999.
  public var year: Int { Int(packed >> 9) }
  /// The month, 1 to 12.
  public var month: Int { Int(packed >> 5 & 0xF) }
  /// The day of the month, 1 to 31 (as the month has).
  public var day: Int { Int(packed & 0x1F) }

  /// Creates a date when the three parts name a real day between the years 1 and 9999.
  public init?(year: Int, month: Int, day: Int) {
    guard (1...9999).contains(year), (1...12).contains(month),
      (1...TaskDate.daysIn(month: month, year: year)).contains(day)
    else { return nil }
    self.init(unchecked: year, month, day)
  }

  /// Parses exactly `YYYY-MM-DD`; anything else, including `2011-02-30`, gives `nil`.
  public init?(_ text: some StringProtocol) {
    var utf8 = Array(text.utf8)
    guard utf8.count == 10 else { return nil }
    guard let date = utf8.withUnsafeMutableBufferPointer({ TaskDate.parse(UnsafeBufferPointer($0), at: 0) })
    else { return nil }
    self = date
  }

  private init(unchecked year: Int, _ month: Int, _ day: Int) {
    packed = UInt32(truncatingIfNeeded: year) << 9 | UInt32(truncatingIfNeeded: month) << 5 | UInt32(truncatingIfNeeded: day)
  }

  /// Reads a date from ten bytes at `offset`, or returns `nil` when they are not a valid date.
  ///
  /// The caller checks what follows the ten bytes; this only looks at them.
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> TaskDate? {
    guard offset >= 0, offset + 10 <= bytes.count else { return nil }
    @inline(__always) func digit(_ i: Int) -> Int? {
      let value = Int(bytes[offset + i]) &- 48
      return (0...9).contains(value) ? value : nil
    }
    guard bytes[offset + 4] == UInt8(ascii: "-"), bytes[offset + 7] == UInt8(ascii: "-"),
      let y0 = digit(0), let y1 = digit(1), let y2 = digit(2), let y3 = digit(3),
      let m0 = digit(5), let m1 = digit(6), let d0 = digit(8), let d1 = digit(9)
    else { return nil }
    return TaskDate(year: y0 * 1000 + y1 * 100 + y2 * 10 + y3, month: m0 * 10 + m1, day: d0 * 10 + d1)
  }

  // MARK: Calendar facts

  /// Whether `year` has a 29 February (Gregorian rules).
  public static func isLeapYear(_ year: Int) -> Bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
  }

  /// How many days `month` has in `year`.
  public static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return isLeapYear(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  // MARK: Day counts

  /// Days since 1970-01-01 (negative before it).
  ///
  /// Howard Hinnant's `days_from_civil`: exact for every date this type can hold.
  public var daysSinceEpoch: Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let shiftedMonth = month > 2 ? month - 3 : month + 9
    let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date `days` days after 1970-01-01; `nil` outside the years 1 to 9999.
  public init?(daysSinceEpoch days: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    guard (1...9999).contains(year) else { return nil }
    self.init(unchecked: year, month, day)
  }

  /// The date of a moment given in seconds since the epoch, shifted by a UTC offset in seconds.
  public init?(secondsSinceEpoch seconds: Int, utcOffset: Int = 0) {
    let local = seconds + utcOffset
    let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    self.init(daysSinceEpoch: days)
  }

  // MARK: Arithmetic

  /// Adds (or with a negative count, subtracts) days. Clamped to the representable range.
  public func adding(days: Int) -> TaskDate {
    TaskDate(daysSinceEpoch: daysSinceEpoch + days) ?? (days < 0 ? .earliest : .latest)
  }

  /// The date `weeks` weeks later (earlier when negative).
  public func adding(weeks: Int) -> TaskDate { adding(days: weeks * 7) }

  /// Adds calendar months; a day past the end of the target month becomes its last day
  /// (January 31 plus one month is February 28 or 29).
  public func adding(months: Int) -> TaskDate {
    let total = year * 12 + (month - 1) + months
    let newYear = total / 12
    let newMonth = total % 12 + 1
    guard (1...9999).contains(newYear) else { return months < 0 ? .earliest : .latest }
    let newDay = min(day, TaskDate.daysIn(month: newMonth, year: newYear))
    return TaskDate(unchecked: newYear, newMonth, newDay)
  }

  /// Adds years; February 29 becomes February 28 in a common year.
  public func adding(years: Int) -> TaskDate { adding(months: years * 12) }

  /// Adds working days (Monday to Friday). From a weekend day, one business day is the
  /// next Monday; zero leaves the date as it is.
  public func adding(businessDays count: Int) -> TaskDate {
    var date = self
    var remaining = abs(count)
    let step = count < 0 ? -1 : 1
    // Whole weeks first, so that large counts stay cheap. Five business days are seven
    // calendar days only from a weekday; a weekend day counts like the business day just
    // behind it (Saturday + 1 is Friday + 1), so step back onto that one first.
    if remaining > 5 {
      while date.weekday.isWeekend { date = date.adding(days: -step) }
      date = date.adding(days: (remaining / 5) * 7 * step)
      remaining %= 5
    }
    while remaining > 0 {
      date = date.adding(days: step)
      if !date.weekday.isWeekend { remaining -= 1 }
    }
    return date
  }

  /// Whole days from `self` to `other` (positive when `other` is later).
  public func days(until other: TaskDate) -> Int { other.daysSinceEpoch - daysSinceEpoch }

  /// The day of the week.
  public var weekday: Weekday {
    // 1970-01-01 was a Thursday.
    let index = ((daysSinceEpoch % 7) + 7 + 3) % 7  // 0 = Monday
    return Weekday(rawValue: index + 1) ?? .monday
  }

  /// The first date a task line can hold (0001-01-01).
  public static let earliest = TaskDate(unchecked: 1, 1, 1)
  /// The last date a task line can hold (9999-12-31): arithmetic stops here.
  public static let latest = TaskDate(unchecked: 9999, 12, 31)

  public static func < (lhs: TaskDate, rhs: TaskDate) -> Bool { lhs.packed < rhs.packed }

  public var description: String {
    String(decoding: utf8, as: UTF8.self)
  }

  /// The ten bytes `YYYY-MM-DD`.
  public var utf8: [UInt8] {
    func digits(_ value: Int, _ count: Int) -> [UInt8] {
      var out = [UInt8](repeating: 48, count: count)
      var v = value
      for i in stride(from: count - 1, through: 0, by: -1) {
        out[i] = UInt8(48 + v % 10)
        v /= 10
      }
      return out
    }
    return digits(year, 4) + [UInt8(ascii: "-")] + digits(month, 2) + [UInt8(ascii: "-")] + digits(day, 2)
  }
}

/// ISO weekday numbering: Monday is 1, Sunday is 7.
public enum Weekday: Int, Sendable, CaseIterable {
  case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

  /// Saturday or Sunday: what business-day arithmetic skips.
  public var isWeekend: Bool { self == .saturday || self == .sunday }

  /// An English weekday name or any prefix of one of at least two letters (`mo`, `tue`,
  /// `thurs`), in any case; every such prefix names exactly one day.
  public init?(name: some StringProtocol) {
    let lower = name.lowercased()
    guard lower.count >= 2, let day = Weekday.allCases.first(where: { $0.name.hasPrefix(lower) })
    else { return nil }
    self = day
  }

  /// The English name in lower case (`monday`), as date words are typed.
  public var name: String {
    switch self {
    case .monday: "monday"
    case .tuesday: "tuesday"
    case .wednesday: "wednesday"
    case .thursday: "thursday"
    case .friday: "friday"
    case .saturday: "saturday"
    case .sunday: "sunday"
    }
  }
}
