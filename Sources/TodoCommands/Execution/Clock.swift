@preconcurrency import Glibc
import TodoTxt

/// The current moment, as the tool sees it.
///
/// `TODO_TEST_TIME` (seconds since the epoch) pins it, as todo.sh's own test suite does, so
/// scripts and tests get reproducible dates. Local time follows `TZ`.
package struct Clock: Sendable {
  /// Seconds since the epoch.
  package var seconds: Int
  /// Offset of local time from UTC, in seconds.
  package var utcOffset: Int

  package init(seconds: Int, utcOffset: Int) {
    self.seconds = seconds
    self.utcOffset = utcOffset
  }

  /// The clock of this process: `TODO_TEST_TIME` when set, else the system time.
  package static func current(environment: [String: String]) -> Clock {
    var seconds = time(nil)
    if let pinned = environment["TODO_TEST_TIME"].flatMap({ Int($0) }) { seconds = time_t(pinned) }
    var parts = tm()
    localtime_r(&seconds, &parts)
    return Clock(seconds: Int(seconds), utcOffset: Int(parts.tm_gmtoff))
  }

  /// Today's local date.
  package var today: TaskDate {
    TaskDate(secondsSinceEpoch: seconds, utcOffset: utcOffset) ?? .earliest
  }

  /// Local date and time as `YYYY-MM-DDTHH:MM:SS` (the `report` time stamp).
  package var timestamp: String {
    let local = seconds + utcOffset
    let secondsOfDay = ((local % 86_400) + 86_400) % 86_400
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return today.description + "T" + two(secondsOfDay / 3600) + ":" + two(secondsOfDay / 60 % 60) + ":"
      + two(secondsOfDay % 60)
  }
}
