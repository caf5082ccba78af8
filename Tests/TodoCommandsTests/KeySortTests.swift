import Testing

@testable import TodoCommands

/// ``KeySort`` against the plainest statement of `sort -f` order: compare folded bytes, a
/// prefix first, then the tie-break.
@Suite struct KeySortTests {
  /// Keys held as arrays, with an optional head per item.
  struct ArrayKeys: SortKeys {
    let heads: [[UInt8]]
    let rests: [[UInt8]]
    /// Storage for `rest(_:)` to point into; kept alive by the test for the sort's duration.
    let storage: UnsafeMutableBufferPointer<UInt8>
    let offsets: [Int]

    init(heads: [[UInt8]], rests: [[UInt8]]) {
      self.heads = heads
      self.rests = rests
      let total = rests.reduce(0) { $0 + $1.count }
      storage = .allocate(capacity: max(total, 1))
      var offsets: [Int] = []
      var position = 0
      for rest in rests {
        offsets.append(position)
        for byte in rest {
          storage[position] = byte
          position += 1
        }
      }
      self.offsets = offsets
    }

    var count: Int { rests.count }

    func head(_ item: Int) -> (bytes: UInt64, count: Int) {
      var bytes: UInt64 = 0
      for (offset, byte) in heads[item].enumerated() { bytes |= UInt64(byte) << UInt64(offset * 8) }
      return (bytes, heads[item].count)
    }

    func rest(_ item: Int) -> UnsafeBufferPointer<UInt8> {
      UnsafeBufferPointer(rebasing: storage[offsets[item]..<(offsets[item] + rests[item].count)])
    }

    func tieBreak(_ left: Int, _ right: Int) -> Bool { left < right }

    /// The order the sort must give, by a comparison of whole keys.
    var expected: [Int] {
      let folded = (0..<count).map { item in
        (heads[item] + rests[item]).map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 }
      }
      return (0..<count).sorted { left, right in
        if folded[left] != folded[right] { return folded[left].lexicographicallyPrecedes(folded[right]) }
        return left < right
      }
    }
  }

  /// A small generator, so that a failure can be reproduced from its seed.
  struct Generator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
  }

  /// Keys from a few letters in both cases, blanks, a NUL, a byte above ASCII and the bytes
  /// around the letters, built on shared beginnings so that runs of equal words are common.
  static func randomKeys(seed: UInt64, count: Int, withHeads: Bool, stemLength: Int = 20) -> ArrayKeys {
    var random = Generator(state: seed)
    let alphabet: [UInt8] = [0x61, 0x41, 0x62, 0x42, 0x7A, 0x5A, 0x20, 0x09, 0x00, 0xC3, 0x60, 0x7B, 0x40, 0x5B, 0x30]
    let stems = (0..<4).map { _ in (0..<(random.below(stemLength))).map { _ in alphabet[random.below(alphabet.count)] } }
    var heads: [[UInt8]] = []
    var rests: [[UInt8]] = []
    for _ in 0..<count {
      var rest = stems[random.below(stems.count)]
      rest += (0..<random.below(12)).map { _ in alphabet[random.below(alphabet.count)] }
      if random.below(5) == 0, let previous = rests.last { rest = previous }  // duplicates
      rests.append(rest)
      heads.append(withHeads ? (random.below(10) == 0 ? [0x20, 0x31, 0x20] : [0x20]) : [])
    }
    return ArrayKeys(heads: heads, rests: rests)
  }

  @Test(arguments: [1, 2, 5, 30, 95, 96, 97, 400, 3000])
  func matchesTheReferenceOrder(count: Int) {
    for seed in UInt64(1)...40 {
      for withHeads in [false, true] {
        let keys = KeySortTests.randomKeys(seed: seed &* 7919 &+ UInt64(count), count: count, withHeads: withHeads)
        defer { keys.storage.deallocate() }
        let sorted = KeySort.sorted(keys).map { Int($0) }
        #expect(sorted == keys.expected, "seed \(seed), \(count) keys, heads: \(withHeads)")
      }
    }
  }

  /// Keys of every byte value at every place of their words, some after a shared beginning:
  /// every bucket of each byte level holds items, and the in-place moves between buckets
  /// (``KeySort/flagSort``, one cycle after another) cross all of them.
  @Test(arguments: [200, 5_000, KeySort.parallelFrom + 1_000])
  func everyByteValueInEveryPlaceMatchesTheReferenceOrder(count: Int) {
    var random = Generator(state: 99 &+ UInt64(count))
    let rests = (0..<count).map { _ in
      let shared: [UInt8] = random.below(3) == 0 ? Array("2026-12-0".utf8) : []
      return shared + (0..<(1 + random.below(18))).map { _ in UInt8(random.below(256)) }
    }
    let keys = ArrayKeys(heads: Array(repeating: [], count: count), rests: rests)
    defer { keys.storage.deallocate() }
    #expect(KeySort.sorted(keys).map { Int($0) } == keys.expected, "\(count) keys")
  }

  /// Enough keys for the two-core path (``KeySort/parallelFrom``).
  @Test func largeSortsOnTwoCoresMatchTheReferenceOrder() {
    for seed in UInt64(1)...2 {
      let keys = KeySortTests.randomKeys(seed: seed, count: KeySort.parallelFrom + 10_000, withHeads: seed == 2)
      defer { keys.storage.deallocate() }
      #expect(KeySort.sorted(keys).map { Int($0) } == keys.expected, "seed \(seed)")
    }
  }

  /// Shared beginnings of up to 60 bytes: runs still tied after the words the sort's table
  /// holds (``KeySort/tableStride``) go on from the keys themselves, on one core and on two.
  @Test(arguments: [400, 3000, KeySort.parallelFrom + 5_000])
  func keysTiedPastTheTableMatchTheReferenceOrder(count: Int) {
    for seed in UInt64(1)...(count > 10_000 ? 1 : 20) {
      let keys = KeySortTests.randomKeys(seed: seed &+ 101, count: count, withHeads: seed % 2 == 0, stemLength: 60)
      defer { keys.storage.deallocate() }
      #expect(KeySort.sorted(keys).map { Int($0) } == keys.expected, "seed \(seed), \(count) keys")
    }
  }

  /// Keys that end exactly at a word's end, before real NUL bytes, or one byte short of it:
  /// the sort tells them apart without reading a length unless a word ends in a zero byte.
  @Test func keysEndingAtWordBoundariesSortAsPrefixes() {
    let eight = Array("abcdefgh".utf8)
    let rests: [[UInt8]] = [
      eight + [0], eight, eight + [0, 0, 0, 0, 0, 0, 0, 0, 0x78], eight, Array("ABCDEFGH".utf8), Array("abcdefg".utf8),
      eight + eight, eight + eight + [0], eight + [0, 0, 0, 0, 0, 0, 0, 0], eight + Array("ABCDEFGH".utf8), [],
      [0, 0, 0, 0, 0, 0, 0, 0], [0],
    ]
    for withHeads in [false, true] {
      let heads = rests.map { _ in withHeads ? [UInt8(0x20)] : [] }
      let keys = ArrayKeys(heads: heads, rests: rests)
      defer { keys.storage.deallocate() }
      #expect(KeySort.sorted(keys).map { Int($0) } == keys.expected, "heads: \(withHeads)")
    }
  }

  @Test func longEqualKeysEndInTieBreakOrder() {
    // Keys longer than many eight-byte rounds, equal but for case and length.
    let long = [UInt8](repeating: 0x61, count: 1000)
    let rests = [long + [0x62], long, long.map { _ in 0x41 }, long + [0x42], long, [0x41]]
    let keys = ArrayKeys(heads: Array(repeating: [], count: rests.count), rests: rests)
    defer { keys.storage.deallocate() }
    // 1, 2 and 4 are the same folded key (a thousand A): line order. Then A...AB twice.
    #expect(KeySort.sorted(keys).map { Int($0) } == [5, 1, 2, 4, 0, 3])
  }

  @Test func foldsOnlyASCIILetters() {
    let inputs: [UInt64] = [0x6162_637A_7B60_4041, 0xE1E2_F3C3_A9DF_0061]
    let expected: [UInt64] = [0x4142_435A_7B60_4041, 0xE1E2_F3C3_A9DF_0041]
    #expect(inputs.map(KeySort.folded) == expected)
  }
}
