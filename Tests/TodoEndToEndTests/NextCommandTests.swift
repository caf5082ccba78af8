import Foundation
import Testing

/// `todo next` and `ls --sort urgency`: the order worked out by hand from the formula in
/// man/todo.1 (today 2009-02-13).
@Suite struct NextCommandTests {
  /// Each line's urgency, by hand:
  /// 1: due today 9.0 + C 2.0 + 43 days old 0.2 = 11.2
  /// 2: A 6.0
  /// 3: 3 days overdue 10.0 + 1.5 = 11.5
  /// 4: done (left out)
  /// 5: B 4.0 + task 6 waits for it 2.0 = 6.0
  /// 6: waits for 5 (left out)
  /// 7: h:1 (left out); 8: t: ahead (left out)
  /// 9: 100 days old 0.5
  /// 10: due in 7 days 8.0 − 3.5 = 4.5
  /// 11: A 6.0 (its t: date is past)
  static let tasks = """
    (C) 2009-01-01 write report due:2009-02-13
    (A) call bank
    pay rent due:2009-02-10
    x 2009-02-12 filed taxes due:2009-02-01
    (B) buy parts p:1
    assemble shelf id:1
    (A) secret h:1
    (A) later t:2009-03-01
    2008-11-05 tidy garage
    read book due:2009-02-20
    (A) t:2009-02-01 started

    """

  static let line: [Int: String] = [
    1: "01 (C) 2009-01-01 write report due:2009-02-13", 2: "02 (A) call bank", 3: "03 pay rent due:2009-02-10",
    4: "04 x 2009-02-12 filed taxes due:2009-02-01", 5: "05 (B) buy parts p:1", 6: "06 assemble shelf id:1",
    9: "09 2008-11-05 tidy garage", 10: "10 read book due:2009-02-20", 11: "11 (A) t:2009-02-01 started",
  ]

  static func sandbox() throws -> Sandbox {
    let box = try Sandbox()
    try box.write("todo.txt", tasks)
    return box
  }

  /// The listing of these lines, with todo.sh's summary (which a pipe gets on standard
  /// error: the tests that compare with it merge the two).
  static func listing(_ numbers: [Int], total: Int = 11) -> String {
    numbers.map { (line[$0] ?? "?") + "\n" }.joined() + "--\nTODO: \(numbers.count) of \(total) tasks shown\n"
  }

  @Test func ordersByUrgencyAndLeavesOutDoneWaitingAndHidden() throws {
    let box = try NextCommandTests.sandbox()
    let run = try box.todo("next")
    #expect(run.status == 0)
    // Piped, the summary is on standard error.
    #expect(run.stderr == "--\nTODO: 7 of 11 tasks shown\n")
    // 11.5, 11.2, then three of 6.0 in file order, 4.5, 0.5.
    #expect(run.stdout + run.stderr == NextCommandTests.listing([3, 1, 2, 5, 11, 10, 9]))
  }

  @Test func limitKeepsTheMostUrgentWithTiesByLine() throws {
    let box = try NextCommandTests.sandbox()
    #expect(try box.todo("next", "-n", "2", merged: true).stdout == NextCommandTests.listing([3, 1]))
    // The third place is shared by 2, 5 and 11: the first line wins.
    #expect(try box.todo("next", "--limit", "3", merged: true).stdout == NextCommandTests.listing([3, 1, 2]))
    #expect(try box.todo("next", "--limit=4", merged: true).stdout == NextCommandTests.listing([3, 1, 2, 5]))
    #expect(try box.todo("next", "--limit", "50", merged: true).stdout == NextCommandTests.listing([3, 1, 2, 5, 11, 10, 9]))
  }

  @Test func termsFilterAsWithLs() throws {
    let box = try NextCommandTests.sandbox()
    #expect(try box.todo("next", "-rent", merged: true).stdout == NextCommandTests.listing([1, 2, 5, 11, 10, 9]))
    #expect(try box.todo("next", "due:", merged: true).stdout == NextCommandTests.listing([3, 1, 10]))
    #expect(try box.todo("next", "due:", "-n", "1", merged: true).stdout == NextCommandTests.listing([3]))
  }

  @Test func aTaskNoLongerWaitingComesBack() throws {
    let box = try NextCommandTests.sandbox()
    #expect(try box.todo("do", "5").status == 0)
    let run = try box.todo("next", merged: true)
    // Task 6 scores 0.0, below the 0.5 of task 9.
    #expect(run.stdout == NextCommandTests.listing([3, 1, 2, 11, 10, 9, 6]))
  }

  @Test func explainShowsTermsThatAddUpToTheTotal() throws {
    let box = try NextCommandTests.sandbox()
    let run = try box.todo("next", "--explain", merged: true)
    #expect(run.status == 0)
    let lines = run.stdout.split(separator: "\n").map(String.init)
    let expected = [
      NextCommandTests.line[3] ?? "",
      "   urgency 11.5 = due 11.5 (3d overdue) + pri 0.0 (none) + age 0.0 (no date) + blocks 0.0 (0 waiting)",
      NextCommandTests.line[1] ?? "",
      "   urgency 11.2 = due 9.0 (today) + pri 2.0 (C) + age 0.2 (43d) + blocks 0.0 (0 waiting)",
      NextCommandTests.line[2] ?? "",
      "   urgency 6.0 = due 0.0 (none) + pri 6.0 (A) + age 0.0 (no date) + blocks 0.0 (0 waiting)",
      NextCommandTests.line[5] ?? "",
      "   urgency 6.0 = due 0.0 (none) + pri 4.0 (B) + age 0.0 (no date) + blocks 2.0 (1 waiting)",
    ]
    #expect(Array(lines.prefix(expected.count)) == expected)
    #expect(lines.suffix(2) == ["--", "TODO: 7 of 11 tasks shown"])
    // Every explanation: the total equals the sum of the four terms.
    let explanations = lines.filter { $0.hasPrefix("   urgency ") }
    #expect(explanations.count == 7)
    for explanation in explanations {
      // "urgency T = name V (reason) + name V (reason) ...", values in tenths.
      func tenths(_ text: Substring) -> Int { Int(text.replacingOccurrences(of: ".", with: "")) ?? -1000 }
      let sides = explanation.dropFirst("   urgency ".count).components(separatedBy: " = ")
      let total = tenths(Substring(sides[0]))
      let terms = sides[1].components(separatedBy: " + ").map { tenths($0.split(separator: " ")[1]) }
      #expect(terms.count == 4)
      #expect(terms.reduce(0, +) == total, "\(explanation)")
    }
    #expect(try box.todo("next", "--explain", "-n", "1", merged: true).stdout.split(separator: "\n").count == 4)
  }

  @Test func lsSortsByUrgencyBothWays() throws {
    let box = try NextCommandTests.sandbox()
    // ls hides what ls hides (the done task 4 too).
    #expect(try box.todo("ls", "--sort", "urgency", merged: true).stdout == NextCommandTests.listing([3, 1, 2, 5, 11, 10, 9]))
    // Reversed, equal scores still in file order.
    #expect(try box.todo("ls", "--sort", "-urgency", merged: true).stdout == NextCommandTests.listing([9, 10, 2, 5, 11, 1, 3]))
    #expect(
      try box.todo("ls", "--sort", "priority,urgency", merged: true).stdout == NextCommandTests.listing([2, 11, 5, 1, 3, 10, 9]))
  }

  @Test func badValuesAreRefused() throws {
    let box = try NextCommandTests.sandbox()
    for arguments in [["next", "--limit", "0"], ["next", "-n", "x"], ["next", "--limit"], ["next", "--bogus"]] {
      let run = try box.run("todo", arguments)
      #expect(run.status != 0, "\(arguments)")
      #expect(run.stdout == "", "\(arguments)")
      #expect(run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run.stderr)")
    }
    let unknownKey = try box.todo("ls", "--sort", "urgent")
    #expect(unknownKey.status != 0)
    #expect(unknownKey.stderr.contains("urgency"))
    #expect(box.read("todo.txt") == NextCommandTests.tasks)
    // Under the name todo.sh there is no such action.
    #expect(try box.sh("next").status != 0)
  }

  @Test func mistypedNamesSuggestTheNewCommands() throws {
    let box = try NextCommandTests.sandbox()
    let cases = [("nxt", "next"), ("project", "projects"), ("context", "contexts")]
    for (typed, meant) in cases {
      let run = try box.todo(typed)
      #expect(run.status != 0)
      #expect(run.stderr.contains("'\(meant)'"), "\(typed): \(run.stderr)")
    }
  }

  @Test func completionOffersTheCommandsAndTheSortKey() throws {
    let box = try NextCommandTests.sandbox()
    func words(_ arguments: String...) throws -> [String] {
      try box.run("todo", ["__complete"] + arguments).stdout.split(separator: "\n").map {
        String($0.prefix { $0 != "\t" })
      }
    }
    #expect(try words("ne").contains("next"))
    #expect(try words("proj").contains("projects"))
    #expect(try words("cont").contains("contexts"))
    #expect(try words("ls", "--sort", "").contains("urgency"))
    #expect(try words("ls", "--sort", "ur") == ["urgency"])
    #expect(try words("next", "--").contains("--explain"))
    #expect(try words("next", "--").contains("--limit"))
    #expect(try words("projects", "--sort", "") == ["name", "open", "overdue", "done"])
    #expect(try words("contexts", "--format", "") == ["text", "json"])
  }
}
