import Testing
import TodoTestSupport
import TodoTxt

/// `TaskOrder` over generated lists, against an order written out here term by term: dates
/// held as one integer each and positions sorted in place must order exactly as the dates and
/// priorities themselves do.
@Suite struct TaskOrderTests {
  let today = TaskDate(year: 2026, month: 12, day: 3)!

  /// A list of `count` tasks, each with or without a priority, a creation date, a due date or
  /// a completion, drawn from few values so that ties are common.
  static func generated(_ count: Int, seed: UInt64) -> TodoList {
    var random = SplitMix64(seed: seed)
    var lines: [String] = []
    for index in 0..<count {
      var words: [String] = []
      let done = Int.random(in: 0..<5, using: &random) == 0
      if done { words.append("x 2026-11-\(10 + Int.random(in: 0..<3, using: &random))") }
      if !done, Bool.random(using: &random) { words.append("(\(["A", "B", "C"].randomElement(using: &random)!))") }
      if Bool.random(using: &random) { words.append("2025-0\(1 + Int.random(in: 0..<3, using: &random))-01") }
      words.append("task \(index % 7)")
      if Bool.random(using: &random) { words.append("due:2026-12-0\(1 + Int.random(in: 0..<4, using: &random))") }
      lines.append(words.joined(separator: " "))
    }
    return TodoList(parsing: lines.joined(separator: "\n") + "\n")
  }

  /// The reference: each term compared on the task's own values, a missing value last in
  /// either direction, then the line.
  static func precedes(_ x: Int, _ y: Int, _ order: TaskOrder, _ list: TodoList) -> Bool {
    for term in order.terms {
      let (a, b) = (list[x], list[y])
      let values: (Int?, Int?)
      switch term.key {
      case .due: values = (a.dueDate.map(day), b.dueDate.map(day))
      case .created: values = (a.creationDate.map(day), b.creationDate.map(day))
      case .completed: values = (a.completionDate.map(day), b.completionDate.map(day))
      case .priority: values = (a.priority.map { Int($0.description.unicodeScalars.first!.value) }, b.priority.map { Int($0.description.unicodeScalars.first!.value) })
      case .line: values = (x, y)
      default: continue
      }
      switch values {
      case (nil, nil): continue
      case (_?, nil): return true
      case (nil, _?): return false
      case (let l?, let r?):
        if l != r { return term.descending ? l > r : l < r }
      }
    }
    return x < y
  }

  static func day(_ date: TaskDate) -> Int { date.year * 10_000 + date.month * 100 + date.day }

  @Test(arguments: ["due", "-due", "due,-priority", "-priority,created", "created,due", "completed,-due", "-line"])
  func ordersAsTheTermsSay(_ text: String) throws {
    let order = try TaskOrder(text)
    for seed: UInt64 in [1, 2, 3] {
      let list = TaskOrderTests.generated(400, seed: seed)
      let indices = Array(stride(from: 0, to: list.count, by: 2))
      let expected = indices.sorted { TaskOrderTests.precedes($0, $1, order, list) }
      #expect(order.sorted(indices, task: { list[$0] }, today: today) == expected, "seed \(seed)")
      // The same order when the indices are held in 32 bits.
      #expect(order.sorted(indices.map { Int32($0) }, task: { list[$0] }, today: today) == expected.map { Int32($0) })
    }
  }

  /// `next`'s one key takes a path of its own (one integer a task): ties stay in line order,
  /// and indices given out of line order are still ordered by line within a tie.
  @Test func urgencyTiesKeepLineOrder() throws {
    let order = try TaskOrder("urgency")  // the most pressing first
    let list = TaskOrderTests.generated(300, seed: 9)
    let ascending = Array(0..<list.count)
    let sorted = order.sorted(ascending, task: { list[$0] }, today: today)
    let scores = { (index: Int) in list[index].isCompleted ? Int.min : Urgency(list[index], today: self.today, waiting: 0).tenths }
    for (earlier, later) in zip(sorted, sorted.dropFirst()) {
      #expect(scores(earlier) > scores(later) || (scores(earlier) == scores(later) && earlier < later))
    }
    #expect(order.sorted(ascending.reversed(), task: { list[$0] }, today: today) == sorted)
  }

  /// The text order by ranks (keys read eight bytes at a time, only where still tied) is the
  /// order of the whole keys, then of the lower-cased texts: checked against those, held
  /// whole, on texts sharing long beginnings, with accents, case, ß, combining marks, NUL and
  /// empty texts.
  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func textRanksOrderAsWholeKeysDo(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let stems = ["", "call the plumber about", "Call the plumber about", "call the plumber", "ÇALL THE", "straße", "strasse",
                 "Strasse", "e\u{301}te", "\u{E9}te", "ete", "a\u{0}b", "a", "A", "ab", "zz", "ﬁle", "file", "İstanbul", "istanbul"]
    let tails = ["", " x", " X", " today", "\u{0}", " é", " e", "12345678", "123456789"]
    let texts = (0..<600).map { _ in stems.randomElement(using: &random)! + tails.randomElement(using: &random)! + (Bool.random(using: &random) ? tails.randomElement(using: &random)! : "") }
    let ranks = TextOrder.ranks(texts.count) { texts[$0] }
    let keys = texts.map(TextOrder.key)
    func reference(_ x: Int, _ y: Int) -> Int {
      let primary = TextOrder.compare(keys[x], keys[y])
      if primary != 0 { return primary }
      let (a, b) = (texts[x].lowercased(), texts[y].lowercased())
      return a < b ? -1 : (b < a ? 1 : 0)
    }
    for _ in 0..<4000 {
      let (x, y) = (Int.random(in: 0..<texts.count, using: &random), Int.random(in: 0..<texts.count, using: &random))
      let byRank = ranks[x] < ranks[y] ? -1 : (ranks[y] < ranks[x] ? 1 : 0)
      #expect(byRank == reference(x, y), "\(texts[x].debugDescription) against \(texts[y].debugDescription)")
    }
    // And through a sort: by text, then by line for texts that tie.
    let list = TodoList(parsing: texts.map { "t " + $0.replacingOccurrences(of: "\u{0}", with: "") }.joined(separator: "\n") + "\n")
    let order = try TaskOrder("text")
    let sorted = order.sorted(Array(0..<list.count), task: { list[$0] }, today: today)
    let listKeys = (0..<list.count).map { TextOrder.key(list[$0].text) }
    let expected = (0..<list.count).sorted { x, y in
      let primary = TextOrder.compare(listKeys[x], listKeys[y])
      if primary != 0 { return primary < 0 }
      let (a, b) = (list[x].text.lowercased(), list[y].text.lowercased())
      return a != b ? a < b : x < y
    }
    #expect(sorted == expected)
  }
}
