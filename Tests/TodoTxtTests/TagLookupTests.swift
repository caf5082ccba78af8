import Testing
import TodoTxt
import TodoTestSupport

/// A tag's value is found from the line's colons, not by walking its tokens: these check it
/// against the tokens (``Task/tags``), which say what a tag is.
@Suite struct TagLookupTests {
  /// Pieces that make tags, near-tags and words around them.
  static let pieces = [
    "due:2025-06-13", "due:2025-02-30", "due:", ":due", "xdue:2025-01-01", "+due:2025-01-01", "@due:x",
    "due:a:b", "due://host", "Due:2025-01-01", "t:2025-07-01", "t:", "p:a1", "p:b2", "p::", "id:7", "h:1",
    "note:n", "a:b", "word", "+proj", "@ctx", "12:30", "(A)", "2025-01-01", "x", "\t", " ", "  ", "\r",
  ]
  static let heads = ["", "x ", "(B) ", "2024-12-01 ", "x 2025-06-01 2025-01-01 ", "(A) 2024-01-01 "]

  @Test(arguments: [1, 2, 3] as [UInt64]) func valuesAreThoseOfTheFirstTagWithTheKey(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    for _ in 0..<2_000 {
      var line = TagLookupTests.heads[random.below(TagLookupTests.heads.count)]
      for index in 0..<random.below(7) {
        if index > 0 { line += random.below(4) == 0 ? "\t" : " " }
        line += TagLookupTests.pieces[random.below(TagLookupTests.pieces.count)]
      }
      let task = Task(parsing: line)
      let tags = task.tags
      for key in ["due", "t", "p", "id", "h", "note", "a", "12"] {
        #expect(task.tagValue(key) == tags.first { $0.key == key }?.value, "seed \(seed): \(line.debugDescription)")
      }
      #expect(task.dueDate == tags.first { $0.key == "due" }.flatMap { TaskDate($0.value) }, "seed \(seed)")
      #expect(task.thresholdDate == tags.first { $0.key == "t" }.flatMap { TaskDate($0.value) }, "seed \(seed)")
      #expect(task.parentIDs == tags.filter { $0.key == "p" }.map(\.value), "seed \(seed)")
    }
  }

  @Test func aKeyInsideAWordOrAfterASigilIsNoTag() {
    let task = Task(parsing: "(A) 2024-01-01 xdue:2025-01-01 +due:2025-01-02 due:a:b due:2025-01-03 due:2025-01-04")
    #expect(task.dueDate == TaskDate(year: 2025, month: 1, day: 3))
    #expect(Task(parsing: "due:2025-01-05").dueDate == TaskDate(year: 2025, month: 1, day: 5))
    #expect(Task(parsing: "pay\tdue:2025-01-06").dueDate == TaskDate(year: 2025, month: 1, day: 6))
    #expect(Task(parsing: "pay due:2025-02-30").dueDate == nil)
  }
}
