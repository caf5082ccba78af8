import Testing
import TodoTestSupport
import TodoTxt

/// `Agenda` made from picked lines (a reader of a file's lines) against the agenda of the whole
/// list.
@Suite struct AgendaTests {
  let today = TaskDate(year: 2026, month: 12, day: 3)!

  @Test(arguments: [UInt64(1), 2, 3])
  func candidatesGiveTheListsAgenda(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var lines: [String] = []
    for index in 0..<500 {
      var words: [String] = []
      if Int.random(in: 0..<6, using: &random) == 0 { words.append("x 2026-11-30") }
      if Bool.random(using: &random) { words.append("(\(["A", "B", "C"].randomElement(using: &random)!))") }
      words.append("task \(index)")
      switch Int.random(in: 0..<5, using: &random) {
      case 0: words.append("due:2026-12-0\(1 + Int.random(in: 0..<9, using: &random))")
      case 1: words.append("due:2026-12-0\(1 + Int.random(in: 0..<9, using: &random)) h:1")
      case 2: words.append("due:soon")
      case 3: words.append("overdue:2026-12-01")
      default: break
      }
      lines.append(words.joined(separator: " "))
    }
    let list = TodoList(parsing: lines.joined(separator: "\n") + "\n")
    let whole = Agenda(list, today: today, days: 4)
    // Every line a `due:` token could be in, as a reader picks them, in file order.
    let candidates = list.indices.filter { lines[$0].contains("due:") }
    let picked = Agenda(candidates: candidates, today: today, days: 4) { list[$0] }
    #expect(picked.entries == whole.entries)
    #expect(picked.last == whole.last)
    #expect(!whole.entries.isEmpty)
    // The order spelled out: by day, then priority (A first, none last), then line.
    let reference = whole.entries.sorted { left, right in
      if left.due != right.due { return left.due < right.due }
      let (l, r) = (left.task.priority?.byte ?? 0xFF, right.task.priority?.byte ?? 0xFF)
      return l != r ? l < r : left.index < right.index
    }
    #expect(whole.entries == reference)
    // Candidates out of line order give the same agenda.
    #expect(Agenda(candidates: candidates.reversed(), today: today, days: 4) { list[$0] }.entries == whole.entries)
    // Lines that cannot be due are never asked for.
    var asked: [Int] = []
    _ = Agenda(candidates: [3, 1], today: today) { index in
      asked.append(index)
      return list[index]
    }
    #expect(asked == [3, 1])
  }
}
