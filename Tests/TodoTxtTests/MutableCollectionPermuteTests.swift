import Testing
import TodoTestSupport

@testable import TodoTxt

/// `permute`, cycle by cycle in place, against the new array a map of the positions makes.
@Suite struct MutableCollectionPermuteTests {
  @Test(arguments: [UInt64(1), 2, 3])
  func matchesTheMappedArray(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    for count in [0, 1, 2, 3, 17, 500] {
      let values = (0..<count).map { "value \($0)" }
      let order = Array(0..<count).shuffled(using: &random)
      var permuted = values
      permuted.permute { order[$0] }
      #expect(permuted == order.map { values[$0] }, "count \(count), seed \(seed)")
    }
  }

  /// A slice keeps its own indices: positions count from its start.
  @Test func aSliceIsPermutedByPosition() {
    var numbers = Array(0..<10)
    numbers[3..<7].permute { [3, 2, 1, 0][$0] }
    #expect(numbers == [0, 1, 2, 6, 5, 4, 3, 7, 8, 9])
  }
}
