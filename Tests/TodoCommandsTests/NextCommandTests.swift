import Testing
import TodoTestSupport

/// `next`: the open tasks to do next, most urgent first.
@Suite struct NextCommandTests {
  static let todo = "(A) Plan\nPay rent due:2009-02-10\nCall mom due:2009-02-13\n(C) Read\nLater t:2009-03-01\nShip id:1\nFix p:1\nx 2009-02-12 Done due:2009-02-01\n"

  @Test func overdueThenDueTodayThenPriorityAndWaitingOnesLeftOut() throws {
    let list = try CommandFixture(todo: NextCommandTests.todo)
    let run = list.todo("next")
    #expect(run.status == 0)
    let numbers = run.stdout.split(separator: "\n").map { $0.prefix { $0 != " " } }
    #expect(numbers.prefix(3) == ["2", "3", "1"])
    #expect(Set(numbers) == ["1", "2", "3", "4", "7"])
    #expect(run.stderr == "--\nTODO: 5 of 8 tasks shown\n")
  }

  /// `--limit N` keeps the N most urgent, equal scores by line: the listing's first N rows,
  /// on generated lists where many tasks tie, with `--explain` too.
  @Test(arguments: [UInt64(7), 8])
  func aLimitIsTheFirstRowsOfTheUrgentOrder(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let lines = (0..<60).map { index -> String in
      var words: [String] = []
      if Bool.random(using: &random) { words.append("(\(["A", "B"].randomElement(using: &random)!))") }
      words.append("task \(index)")
      if Bool.random(using: &random) { words.append("due:2009-02-1\(Int.random(in: 0..<4, using: &random))") }
      if Int.random(in: 0..<8, using: &random) == 0 { words.append("id:\(index)") }
      if Int.random(in: 0..<8, using: &random) == 0 { words.append("p:\(Int.random(in: 0..<60, using: &random))") }
      return words.joined(separator: " ")
    }
    let list = try CommandFixture(todo: lines.joined(separator: "\n") + "\n")
    let all = list.todo("next").stdout.split(separator: "\n")
    #expect(all.count > 20)
    for limit in [1, 2, 7, 20, all.count, all.count + 5] {
      #expect(list.todo("next", "--limit", String(limit)).stdout.split(separator: "\n") == Array(all.prefix(limit)))
    }
    let explained = list.todo("next", "--explain").stdout.split(separator: "\n")
    #expect(list.todo("next", "--explain", "--limit", "3").stdout.split(separator: "\n") == Array(explained.prefix(6)))
  }

  @Test func aLimitAndTerms() throws {
    let list = try CommandFixture(todo: NextCommandTests.todo)
    #expect(list.todo("next", "-n", "2").stdout == "2 Pay rent due:2009-02-10\n3 Call mom due:2009-02-13\n")
    #expect(list.todo("next", "rent").stdout == "2 Pay rent due:2009-02-10\n")
  }

  @Test func refusesBadLimitsAndTodoShHasNone() throws {
    let list = try CommandFixture(todo: NextCommandTests.todo)
    list.todo("next", "--limit", "0").expectOneLineError(containing: "option '--limit' does not take '0'")
    list.todo("next", "--limit", "many").expectOneLineError(containing: "--limit")
    list.todo("next", "\u{1B}").expectOneLineError(containing: "control character U+001B")
    #expect(list.sh("next").status == 1)
  }
}
