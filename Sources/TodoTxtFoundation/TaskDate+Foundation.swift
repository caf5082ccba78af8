import Foundation
import TodoTxt

/// Foundation's `Date` for apps, kept out of ``TodoTxt`` so that the command line, which
/// imports that module, starts without loading Foundation.
///
/// A todo.txt date is a calendar day with no time and no zone; a `Date` is an instant. The
/// bridge goes through a `Calendar` (the user's, by default): a day becomes its first
/// instant in that calendar's time zone, and an instant becomes the day it falls on there.
extension TaskDate {
  /// The day `date` falls on in `calendar` (Gregorian years 1 to 9999); `nil` outside them.
  public init?(_ date: Date, in calendar: Calendar = .current) {
    var gregorian = Calendar(identifier: .gregorian)
    gregorian.timeZone = calendar.timeZone
    let parts = gregorian.dateComponents([.year, .month, .day], from: date)
    guard let year = parts.year, let month = parts.month, let day = parts.day else { return nil }
    self.init(year: year, month: month, day: day)
  }

  /// The first instant of this day in `calendar`'s time zone.
  public func date(in calendar: Calendar = .current) -> Date {
    var gregorian = Calendar(identifier: .gregorian)
    gregorian.timeZone = calendar.timeZone
    let parts = DateComponents(year: year, month: month, day: day)
    // Every day of years 1 to 9999 exists in the Gregorian calendar.
    return gregorian.date(from: parts) ?? Date(timeIntervalSince1970: 0)
  }
}

extension Task {
  /// ``dueDate`` as the first instant of its day in `calendar`.
  public func due(in calendar: Calendar = .current) -> Date? { dueDate?.date(in: calendar) }

  /// Sets or removes `due:` to the day `date` falls on in `calendar`.
  public mutating func setDue(_ date: Date?, in calendar: Calendar = .current) throws(ModelError) {
    try setDueDate(date.flatMap { TaskDate($0, in: calendar) })
  }

  /// ``thresholdDate`` as the first instant of its day in `calendar`.
  public func threshold(in calendar: Calendar = .current) -> Date? { thresholdDate?.date(in: calendar) }

  /// Sets or removes `t:` to the day `date` falls on in `calendar`.
  public mutating func setThreshold(_ date: Date?, in calendar: Calendar = .current) throws(ModelError) {
    try setThresholdDate(date.flatMap { TaskDate($0, in: calendar) })
  }

  /// ``creationDate`` as the first instant of its day in `calendar`.
  public func created(in calendar: Calendar = .current) -> Date? { creationDate?.date(in: calendar) }

  /// ``completionDate`` as the first instant of its day in `calendar`.
  public func completed(in calendar: Calendar = .current) -> Date? { completionDate?.date(in: calendar) }
}
