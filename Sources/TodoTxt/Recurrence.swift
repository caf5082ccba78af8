/// The value of a `rec:` tag: how a task comes back once it is completed.
///
/// `rec:1w` repeats one week after the day the task was completed; `rec:+1w` ("strict")
/// repeats one week after the old due date, whenever it was done. A missing count means one
/// (`rec:w`), as Simpletask and sleek read it.
public struct Recurrence: Hashable, Sendable, CustomStringConvertible {
  /// The calendar unit of a recurrence or a date offset, by its letter.
  public enum Unit: String, Sendable, CaseIterable {
    case day = "d", week = "w", month = "m", year = "y", businessDay = "b"
  }

  /// Counted from the due date (`rec:+1w`) rather than from the day the task was done.
  public var isStrict: Bool
  /// How many units apart.
  public var count: Int
  /// The unit.
  public var unit: Unit

  /// A recurrence of `count` units, strict when counted from the due date.
  public init(count: Int, unit: Unit, strict: Bool = false) {
    self.count = count
    self.unit = unit
    self.isStrict = strict
  }

  /// Parses a `rec:` value: `[+][N]<d|w|m|y|b>` with N from 1 to 999999.
  public init?(_ text: some StringProtocol) {
    var rest = Substring(text)
    let strict = rest.first == "+"
    if strict { rest.removeFirst() }
    guard let last = rest.last, let unit = Unit(rawValue: String(last)) else { return nil }
    let digits = rest.dropLast()
    var count = 1
    if !digits.isEmpty {
      guard digits.count <= 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits),
        value > 0
      else { return nil }
      count = value
    }
    self.init(count: count, unit: unit, strict: strict)
  }

  /// The date one interval after `date`.
  public func advance(_ date: TaskDate) -> TaskDate {
    RelativeDate.Offset(count: count, unit: unit).apply(to: date)
  }

  public var description: String { (isStrict ? "+" : "") + String(count) + unit.rawValue }
}
