/// Date input as people type it (`today`, `fri`, `+2w`, `eom`, `next monday`, `dec 10`),
/// resolved against a given today.
///
/// Relative dates are an input convenience only: the file always receives the absolute
/// `YYYY-MM-DD` form, so every other todo.txt tool reads the same date.
public enum RelativeDate {
  /// Resolves `text` against `today`, or returns `nil` when it is not a date expression.
  ///
  /// Accepted, case-insensitively:
  /// - an absolute date `YYYY-MM-DD`;
  /// - `today`, `tomorrow`, `yesterday` (also `tod`, `tom`);
  /// - a weekday name or prefix (`mon`, `friday`): its next occurrence after today;
  /// - an offset `[+|-]N` with a unit `d` (days), `w` (weeks), `m` (months, clamped to the
  ///   month's end), `y` (years) or `b` (business days): `3d`, `+2w`, `-1m`, `5b`;
  /// - `eow` (the coming Sunday, today when it is Sunday), `eom` (the month's last day),
  ///   `eoy` (December 31);
  /// - `weekend` (the coming Saturday, today at the weekend);
  /// - the phrases of English (``phrase(_:today:)``): `next monday`, `this fri`, `in 3 days`,
  ///   `2 weeks`, `dec 10`, `10th of december 2026`, `next week`, `next month`, `end of
  ///   month`, `day after tomorrow`, and each of them glued into one word for a tag, with
  ///   `-` or nothing between the words: `next-monday`, `nextmonday`, `in-3-days`, `dec10`,
  ///   `10dec`.
  ///
  /// Numeric dates other than `YYYY-MM-DD` (`12/10`) are refused: they mean different days
  /// in different countries (``numericReadings(_:today:)`` gives the readings).
  public static func resolve(_ text: some StringProtocol, today: TaskDate) -> TaskDate? {
    if let absolute = TaskDate(text) { return absolute }
    let word = text.lowercased()
    return oneWord(word, today: today) ?? phrase(word, today: today)
  }

  /// The forms of one word without separators (`today`, `fri`, `+2w`, `eom`), the ones
  /// read before phrases were; `word` is in lower case.
  package static func oneWord(_ word: String, today: TaskDate) -> TaskDate? {
    if let absolute = TaskDate(word) { return absolute }
    switch word {
    case "today", "tod": return today
    case "tomorrow", "tom": return today.adding(days: 1)
    case "yesterday": return today.adding(days: -1)
    case "eow":
      return today.adding(days: 7 - today.weekday.rawValue)
    case "eom":
      return TaskDate(
        year: today.year, month: today.month,
        day: TaskDate.daysIn(month: today.month, year: today.year))
    case "eoy":
      return TaskDate(year: today.year, month: 12, day: 31)
    default:
      break
    }
    if let offset = Offset(word) { return offset.apply(to: today) }
    if let weekday = Weekday(name: word) {
      let ahead = (weekday.rawValue - today.weekday.rawValue + 7) % 7
      return today.adding(days: ahead == 0 ? 7 : ahead)
    }
    return nil
  }

  /// A signed count of calendar units, such as `+2w` or `-1m`.
  public struct Offset: Hashable, Sendable {
    /// How many units; negative counts go back in time.
    public var count: Int
    /// The calendar unit (day, week, month, year, business day).
    public var unit: Recurrence.Unit

    /// An offset of `count` units.
    public init(count: Int, unit: Recurrence.Unit) {
      self.count = count
      self.unit = unit
    }

    /// Parses `[+|-]N<unit>`; the count has at most six digits.
    public init?(_ text: some StringProtocol) {
      var scalars = Substring(text)
      var sign = 1
      if scalars.first == "+" {
        scalars.removeFirst()
      } else if scalars.first == "-" {
        sign = -1
        scalars.removeFirst()
      }
      guard let unitCharacter = scalars.last, let unit = Recurrence.Unit(rawValue: unitCharacter.lowercased()),
        scalars.count >= 2, scalars.count <= 7
      else { return nil }
      let digits = scalars.dropLast()
      guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let count = Int(digits) else { return nil }
      self.init(count: sign * count, unit: unit)
    }

    /// `date` moved by the offset (a month's day is clamped to the month's end).
    public func apply(to date: TaskDate) -> TaskDate {
      switch unit {
      case .day: date.adding(days: count)
      case .week: date.adding(weeks: count)
      case .month: date.adding(months: count)
      case .year: date.adding(years: count)
      case .businessDay: date.adding(businessDays: count)
      }
    }
  }
}
