/// The manual order of todo.txt (the order of its lines, which `reorder` changes and other
/// todo.txt apps show) as X-APPLE-SORT-ORDER numbers, the order phones share.
///
/// The numbers are kept stable: a task keeps the number it had at the last sync for as long
/// as its place among the others agrees with it, so adding, removing or moving one task
/// sends one task to the server, never the whole list renumbered. A phone's numbers can be
/// any integers, dense (1, 2, 3) or sparse; a task put between two with no number free
/// between them takes the next numbers and moves only as many of the following as it must.
public enum ManualOrder {
  /// The distance between numbers given to tasks past either end of the numbered ones.
  public static let gap = 1024

  /// Numbers for tasks in line order, strictly increasing along it. `known[i]` is the number
  /// the task had at the last sync (nil for a task never synced, or a number that did not
  /// read): the longest run of known numbers that already increase is kept, and the other
  /// tasks get numbers fitted between their neighbours.
  public static func numbers(keeping known: [Int?]) -> [Int] {
    let count = known.count
    guard count > 0 else { return [] }
    var kept = Array(repeating: false, count: count)
    for index in longestIncreasingRun(known) { kept[index] = true }
    var numbers = Array(repeating: 0, count: count)
    var last: Int? = nil
    var index = 0
    while index < count {
      if kept[index], let value = known[index], last.map({ value > $0 }) ?? true {
        numbers[index] = value
        last = value
        index += 1
        continue
      }
      // The next kept number with room below it for the tasks from here to it.
      var next = index + 1
      var bound: Int? = nil
      while next < count {
        if kept[next], let value = known[next], fits(next - index, above: last, below: value) {
          bound = value
          break
        }
        next += 1
      }
      let run = next - index
      guard let values = fitted(run, above: last, below: bound) else { return renumbered(count) }
      for offset in 0..<run { numbers[index + offset] = values[offset] }
      last = values.last
      index = next
    }
    return numbers
  }

  /// Whether `count` numbers fit strictly between `low` (open when nil) and `high`.
  static func fits(_ count: Int, above low: Int?, below high: Int) -> Bool {
    guard let low else { return !high.subtractingReportingOverflow(count).overflow }
    guard high > low else { return false }
    let (span, overflow) = high.subtractingReportingOverflow(low)
    return overflow || span > count
  }

  /// `count` increasing numbers strictly between `low` and `high` (either may be open),
  /// spread evenly; nil when they do not fit in an `Int`.
  static func fitted(_ count: Int, above low: Int?, below high: Int?) -> [Int]? {
    switch (low, high) {
    case (nil, nil):
      return (0..<count).map { ($0 + 1) * gap }
    case (let low?, nil):
      var values: [Int] = []
      var value = low
      for _ in 0..<count {
        let (next, overflow) = value.addingReportingOverflow(gap)
        if overflow {
          let (plusOne, stillOver) = value.addingReportingOverflow(1)
          if stillOver { return nil }
          value = plusOne
        } else {
          value = next
        }
        values.append(value)
      }
      return values
    case (nil, let high?):
      var values: [Int] = []
      var value = high
      for _ in 0..<count {
        let (next, overflow) = value.subtractingReportingOverflow(gap)
        if overflow {
          let (minusOne, stillOver) = value.subtractingReportingOverflow(1)
          if stillOver { return nil }
          value = minusOne
        } else {
          value = next
        }
        values.append(value)
      }
      return values.reversed()
    case (let low?, let high?):
      // Room for count numbers strictly between: high - low > count, computed without overflow.
      let (span, overflow) = high.subtractingReportingOverflow(low)
      let room = overflow ? UInt(bitPattern: high) &- UInt(bitPattern: low) : UInt(span)
      guard room > UInt(count) else { return nil }
      let step = room / UInt(count + 1)
      return (1...count).map { Int(bitPattern: UInt(bitPattern: low) &+ step * UInt($0)) }
    }
  }

  /// The number for a task put after the one numbered `last` (after nothing when nil), nil
  /// when no number is left above it.
  public static func number(after last: Int?) -> Int? { fitted(1, above: last, below: nil)?.first }

  /// Every task numbered afresh: the last resort when the known numbers leave no room.
  static func renumbered(_ count: Int) -> [Int] { (0..<count).map { ($0 + 1) * gap } }

  /// The indices of a longest run of known numbers that can all stay: increasing, with room
  /// between each two for the tasks between them (`known[j] - known[i] >= j - i`, which is
  /// `known[i] - i` never decreasing along the run), in O(n log n).
  static func longestIncreasingRun(_ values: [Int?]) -> [Int] {
    let keys: [Int?] = values.enumerated().map { index, value in
      guard let value else { return nil }
      let (key, overflow) = value.subtractingReportingOverflow(index)
      return overflow ? nil : key
    }
    var tails: [Int] = []  // indices: tails[k] ends the best run of length k + 1
    var previous = Array(repeating: -1, count: values.count)
    for (index, key) in keys.enumerated() {
      guard let key else { continue }
      var low = 0
      var high = tails.count
      while low < high {
        let middle = (low + high) / 2
        if keys[tails[middle]]! <= key { low = middle + 1 } else { high = middle }
      }
      if low > 0 { previous[index] = tails[low - 1] }
      if low == tails.count { tails.append(index) } else { tails[low] = index }
    }
    var run: [Int] = []
    var index = tails.last ?? -1
    while index >= 0 {
      run.append(index)
      index = previous[index]
    }
    return run.reversed()
  }

  /// Where a task numbered `number` goes among tasks in line order numbered `numbers` (nil
  /// for a line without one, a blank line or a task never synced): after the last task with a
  /// smaller number, or before the first numbered task when none is smaller.
  public static func place(of number: Int, among numbers: [Int?]) -> Int {
    if let after = numbers.lastIndex(where: { $0.map { $0 < number } ?? false }) { return after + 1 }
    return numbers.firstIndex(where: { $0 != nil }) ?? numbers.count
  }
}
