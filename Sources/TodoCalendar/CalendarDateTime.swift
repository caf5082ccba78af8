import TodoTxt

/// A DATE (`20261203`) or DATE-TIME (`20261203T150000`, `…Z`) value of RFC 5545, and the
/// rule that turns one into the day a todo.txt tag holds.
public struct CalendarDateTime: Equatable, Sendable {
  public var date: TaskDate
  /// Seconds since midnight; nil for a DATE.
  public var secondsOfDay: Int?
  /// A DATE-TIME in UTC (ends in `Z`).
  public var isUTC: Bool

  public init(date: TaskDate, secondsOfDay: Int? = nil, isUTC: Bool = false) {
    self.date = date
    self.secondsOfDay = secondsOfDay
    self.isUTC = isUTC
  }

  /// Reads `YYYYMMDD` or `YYYYMMDDTHHMMSS[Z]` (seconds up to 60, for a leap second); nil for
  /// anything else.
  public init?(_ value: some StringProtocol) {
    let b = Array(value.utf8)
    func number(_ range: Range<Int>) -> Int? {
      var result = 0
      for i in range {
        guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
        result = result * 10 + Int(b[i] - 0x30)
      }
      return result
    }
    guard b.count == 8 || b.count == 15 || b.count == 16, let year = number(0..<4), let month = number(4..<6),
      let day = number(6..<8), let date = TaskDate(year: year, month: month, day: day)
    else { return nil }
    self.date = date
    guard b.count > 8 else {
      secondsOfDay = nil
      isUTC = false
      return
    }
    guard b[8] == UInt8(ascii: "T"), let hour = number(9..<11), let minute = number(11..<13),
      let second = number(13..<15), hour < 24, minute < 60, second <= 60
    else { return nil }
    if b.count == 16 { guard b[15] == UInt8(ascii: "Z") else { return nil } }
    secondsOfDay = hour * 3600 + minute * 60 + second
    isUTC = b.count == 16
  }

  /// The day a todo.txt tag gets: a DATE is that day; a DATE-TIME with a TZID or floating
  /// (no zone) is the day written, the day in its own zone; a UTC DATE-TIME is the day it is
  /// in the person's zone (`utcOffset`, seconds east of UTC). So a phone's "due 09:00 on
  /// the 3rd" stays the 3rd, wherever the zone.
  public func day(utcOffset: Int) -> TaskDate {
    guard isUTC, let secondsOfDay else { return date }
    return TaskDate(secondsSinceEpoch: date.daysSinceEpoch * 86_400 + secondsOfDay, utcOffset: utcOffset) ?? date
  }

  /// The value as written.
  public var written: String {
    var text = CalendarDateTime.compact(date)
    if let secondsOfDay {
      text += "T" + CalendarDateTime.twoDigits(secondsOfDay / 3600) + CalendarDateTime.twoDigits(secondsOfDay / 60 % 60)
        + CalendarDateTime.twoDigits(secondsOfDay % 60) + (isUTC ? "Z" : "")
    }
    return text
  }

  /// The UTC DATE-TIME of a moment in seconds since the epoch (DTSTAMP, LAST-MODIFIED).
  public static func utc(secondsSinceEpoch seconds: Int) -> CalendarDateTime {
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let date = TaskDate(daysSinceEpoch: days) ?? (days < 0 ? .earliest : .latest)
    return CalendarDateTime(date: date, secondsOfDay: seconds - days * 86_400, isUTC: true)
  }

  /// A day of the person's as a UTC DATE-TIME (COMPLETED and CREATED must be UTC): noon of
  /// that day in their zone, which ``day(utcOffset:)`` reads back as the same day, and which
  /// stays that day for another reader in any zone within twelve hours of theirs.
  public static func noon(of date: TaskDate, utcOffset: Int) -> CalendarDateTime {
    utc(secondsSinceEpoch: date.daysSinceEpoch * 86_400 + 12 * 3600 - utcOffset)
  }

  /// `20261203` for 2026-12-03.
  static func compact(_ date: TaskDate) -> String {
    String(repeating: "0", count: max(0, 4 - String(date.year).count)) + String(date.year) + twoDigits(date.month)
      + twoDigits(date.day)
  }

  private static func twoDigits(_ value: Int) -> String { value < 10 ? "0" + String(value) : String(value) }
}
