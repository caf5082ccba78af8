import Testing
import TodoTestSupport

@testable import TodoCalendar

@Suite struct ManualOrderTests {
  @Test func numbersInOrderAreKeptAsTheyAre() {
    #expect(ManualOrder.numbers(keeping: [3, 10, 11, 500]) == [3, 10, 11, 500])
  }

  @Test func aListNeverSyncedIsNumberedWithGaps() {
    let gap = ManualOrder.gap
    #expect(ManualOrder.numbers(keeping: [nil, nil, nil]) == [gap, 2 * gap, 3 * gap])
  }

  @Test func aTaskMovedUpIsTheOneRenumbered() {
    // `reorder 4 1`: the fourth task (40) now stands first; the others keep theirs.
    let numbers = ManualOrder.numbers(keeping: [40, 10, 20, 30])
    #expect(numbers[1...] == [10, 20, 30])
    #expect(numbers[0] < 10)
  }

  @Test func aTaskPutBetweenTwoTakesANumberBetweenThem() {
    let numbers = ManualOrder.numbers(keeping: [100, nil, 200])
    #expect(numbers[0] == 100 && numbers[2] == 200)
    #expect(numbers[1] > 100 && numbers[1] < 200)
  }

  @Test func denseNumbersMoveOnlyAsFarAsTheyMust() {
    // A phone numbering 1, 2, 3 and a task put after the first: there is no number between
    // 1 and 2, so two tasks take new numbers: the first and the new one go below 2.
    let numbers = ManualOrder.numbers(keeping: [1, nil, 2, 3, 10])
    #expect(numbers[2...] == [2, 3, 10])
    #expect(numbers[0] < numbers[1] && numbers[1] < 2)
    // With room, the run 2, 3 stays and the new task goes below it.
    let roomy = ManualOrder.numbers(keeping: [1, nil, 5, 6, 10])
    #expect(roomy[0] == 1 && roomy[2...] == [5, 6, 10])
    #expect(roomy[1] > 1 && roomy[1] < 5)
  }

  @Test func numbersAtTheEndsOfIntStillIncrease() {
    let extremes: [[Int?]] = [
      [Int.max, nil], [nil, Int.min], [Int.min, nil, Int.min + 1], [Int.max - 1, nil, Int.max],
      [Int.min, Int.max, nil, 0], [nil, nil, Int.min, Int.min],
    ]
    for known in extremes {
      let numbers = ManualOrder.numbers(keeping: known)
      #expect(numbers.count == known.count)
      #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 }, "\(known) → \(numbers)")
    }
  }

  @Test func randomListsAlwaysIncreaseAndKeepTheLongestRun() {
    var random = SplitMix64(seed: 73)
    for _ in 0..<500 {
      let count = Int.random(in: 0...40, using: &random)
      let range = [3, 50, 100_000][Int.random(in: 0..<3, using: &random)]
      let known: [Int?] = (0..<count).map { _ in
        Int.random(in: 0..<4, using: &random) == 0 ? nil : Int.random(in: -range...range, using: &random)
      }
      let numbers = ManualOrder.numbers(keeping: known)
      #expect(numbers.count == count)
      #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 }, "\(known) → \(numbers)")
      // As many tasks keep their numbers as can: a longest run that increases with room
      // between for the tasks in between.
      let keptCount = zip(known, numbers).filter { $0.0 == $0.1 }.count
      #expect(keptCount >= longestRun(known), "\(known) → \(numbers)")
    }
  }

  @Test func aMovedTaskGoesAfterTheLastSmallerNumber() {
    #expect(ManualOrder.place(of: 15, among: [10, nil, 20, 30]) == 1)
    #expect(ManualOrder.place(of: 5, among: [nil, 10, 20]) == 1)
    #expect(ManualOrder.place(of: 99, among: [10, 20, nil]) == 2)
    #expect(ManualOrder.place(of: 1, among: [nil, nil]) == 2)
  }

  /// The length of a longest run of numbers that can stay (increasing, and room for the
  /// tasks between each two), by the plain quadratic way.
  func longestRun(_ values: [Int?]) -> Int {
    var best = Array(repeating: 0, count: values.count)
    for index in values.indices {
      guard let value = values[index] else { continue }
      best[index] = 1
      for before in 0..<index {
        if let earlier = values[before], value - earlier >= index - before {
          best[index] = max(best[index], best[before] + 1)
        }
      }
    }
    return best.max() ?? 0
  }
}

@Suite struct NoteTextTests {
  @Test func aFileAndADescriptionThatOnlySpellTheTextDifferentlyAreOneText() {
    let file = NoteText.normalized(file: Array("Bring the receipt\r\nand the box\n\n".utf8))
    let description = NoteText.normalized("Bring the receipt\nand the box")
    #expect(file == "Bring the receipt\nand the box")
    #expect(file == description)
  }

  @Test func controlCharactersBecomeReplacementsAndBlankTextIsNoNote() {
    #expect(NoteText.normalized("a\u{1B}[31mb\u{0}\u{85}\tc") == "a\u{FFFD}[31mb\u{FFFD}\u{FFFD}\tc")
    #expect(NoteText.normalized(" \n\t\r\n") == nil)
    #expect(NoteText.normalized(file: [0x61, 0xFF, 0x0A]) == "a\u{FFFD}")
    #expect(NoteText.fileBytes("a\nb") == Array("a\nb\n".utf8))
  }

  @Test func theQuickReadingOfPlainTextSaysWhatTheLongOneSays() {
    var random = SplitMix64(seed: 91)
    let pieces = ["a", " ", "\t", "\n", "\r", "é", "中", "\u{1B}", "\u{85}", "\u{7F}", "\u{C2}", "x\n\n", "  "]
    for _ in 0..<2000 {
      let count = Int.random(in: 0...12, using: &random)
      let text = (0..<count).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }.joined()
      #expect(NoteText.normalized(text) == NoteText.normalizedScalarByScalar(text), "\(Array(text.unicodeScalars))")
    }
  }
}
