import Dispatch
import TodoTxt

#if canImport(Glibc)
  import Glibc
#endif

/// The keys a listing is sorted by: for each item, a few leading bytes (`head`, up to eight)
/// followed by a stretch of bytes in a buffer.
///
/// todo.sh sorts numbered lines with `sort -f -k2`: the key starts at the blank after the
/// number. A listing that has not built its numbered lines yet gives that blank as the head
/// and the line's text as the rest, so the sort needs no copy of the lines.
protocol SortKeys: SendableMetatype {
  /// How many items there are; they are sorted as 0..<count.
  var count: Int { get }
  /// Item `item`'s head bytes, first byte in the low eight bits, and how many there are.
  func head(_ item: Int) -> (bytes: UInt64, count: Int)
  /// The rest of item `item`'s key.
  func rest(_ item: Int) -> UnsafeBufferPointer<UInt8>
  /// The order of two items whose keys are equal once folded (`sort`'s last-resort comparison).
  func tieBreak(_ left: Int, _ right: Int) -> Bool
}

/// `sort -f` order in the C locale: keys compared byte by byte with `a`–`z` folded to `A`–`Z`,
/// a key that is a prefix of another first, and equal keys by ``SortKeys/tieBreak(_:_:)``.
///
/// A radix sort of eight folded key bytes at a time: the items are ordered by their first
/// eight bytes, each run of items that agree on them by the next eight, and so on, so a
/// million lines that share long beginnings (the same date, the same priority) cost a few
/// passes over an array of words rather than a comparison of their text per pair. Small runs
/// are sorted by insertion on the same words.
enum KeySort {
  /// Runs of fewer than this many are sorted by insertion on their eight-byte words: a radix
  /// pass costs its histograms whatever the run's size.
  private static let mediumRun = 96

  /// The items in key order.
  static func sorted<Keys: SortKeys>(_ keys: Keys) -> [Int32] {
    let count = keys.count
    var items = [Int32](unsafeUninitializedCapacity: count) { buffer, initialized in
      for item in 0..<count { buffer[item] = Int32(truncatingIfNeeded: item) }
      initialized = count
    }
    guard count > 1 else { return items }
    // The words and the key table in one scratch mapping (on huge pages when large: the
    // rounds after the first read and write them far from in order).
    let tableWords = KeySort.tableStride * count
    let scratch = HugePages.scratch(bytes: 8 * count + 8 * tableWords)
    defer { scratch.release() }
    let memory = scratch.memory
    func words(at offset: Int, _ size: Int) -> UnsafeMutableBufferPointer<UInt64> {
      UnsafeMutableBufferPointer(rebasing: UnsafeMutableRawBufferPointer(rebasing: memory[offset...])
        .bindMemory(to: UInt64.self).prefix(size))
    }
    let table = words(at: 0, tableWords)
    items.withUnsafeMutableBufferPointer { items in
      var sorter = Sorter(keys: keys, items: items, words: words(at: 8 * tableWords, count), table: table)
      // The table, in the items' own order: the one pass over the keys that reads the lines
      // in the order they lie in memory.
      if count >= KeySort.parallelFrom, KeySort.cores > 1 {
        let shared = Shared(sorter: sorter)
        DispatchQueue.concurrentPerform(iterations: 2) { half in
          shared.sorter.fillTable(half == 0 ? 0..<count / 2 : count / 2..<count)
        }
      } else {
        sorter.fillTable(0..<count)
      }
      sorter.pending.append((0, count, 0))
      guard count >= KeySort.parallelFrom, KeySort.cores > 1 else {
        sorter.run()
        return
      }
      // The first round splits the items into runs that share their first eight bytes;
      // the runs are then sorted on two cores, each taking about half of the items.
      sorter.runOnce()
      let halves = KeySort.halves(sorter.pending)
      let shared = Shared(sorter: sorter)
      DispatchQueue.concurrentPerform(iterations: 2) { half in
        var own = shared.sorter
        own.pending = halves[half]
        own.run()
      }
    }
    return items
  }

  /// A sorter handed to the two threads. Each sorts its own ranges of the shared arrays
  /// (the halves never overlap) and only reads the keys, so sharing them is safe.
  private struct Shared<Keys: SortKeys>: @unchecked Sendable {
    let sorter: Sorter<Keys>
  }

  private struct Sorter<Keys: SortKeys> {
    let keys: Keys
    let items: UnsafeMutableBufferPointer<Int32>
    let words: UnsafeMutableBufferPointer<UInt64>
    /// For each item, its key's words after the first, ``KeySort/tableStride`` an item. The
    /// rounds after the first visit the items in key order, which is not the order their
    /// lines lie in: a word from the table is one read, from the line three that wait on
    /// each other (the item's index, its bounds, its bytes), each far from the last item's.
    let table: UnsafeMutableBufferPointer<UInt64>
    /// Ranges still to sort and the key offset their items agree up to (an explicit stack:
    /// a megabyte-long line would otherwise nest a hundred thousand calls).
    var pending: [(start: Int, end: Int, depth: Int)] = []
    /// Each byte level's bucket heads and ends (``flagSort``): 8 levels of 2 × 256.
    var counts = [Int](repeating: 0, count: 8 * 512)

    /// Sorts every pending range.
    mutating func run() {
      while !pending.isEmpty { runOnce() }
    }

    /// Sorts the last pending range by its next eight bytes; the runs that still agree on
    /// them become pending ranges.
    mutating func runOnce() {
      guard let (start, end, depth) = pending.popLast(), end - start > 1 else { return }
      for position in start..<end { words[position] = word(Int(items[position]), depth) }
      // By their words: a small range by insertion, a larger one by radix (``flagSort``).
      sortByWord(start, end)
      var run = start
      while run < end {
        var next = run + 1
        while next < end, words[next] == words[run] { next += 1 }
        if next - run > 1 { splitRun(run, next, depth: depth, word: words[run]) }
        run = next
      }
    }

    /// Items `start..<end` agree on the eight key bytes at `depth` (`word`): those whose key
    /// ends there come first, shorter before longer; the rest are sorted on from `depth + 8`.
    ///
    /// A key that ends before the word's last byte leaves that byte zero, so a word whose
    /// last byte is not zero ended no key early: the run goes on whole without a look at any
    /// key's length. A key that ends exactly at the word's end is found a round later, where
    /// its word is all zeros and it sorts first, as a prefix of the others.
    mutating func splitRun(_ start: Int, _ end: Int, depth: Int, word: UInt64) {
      let limit = depth + 8
      if word & 0xFF != 0 {
        pending.append((start, end, limit))
        return
      }
      var ended: [Int32] = []
      var write = start
      for position in start..<end {
        let item = items[position]
        if length(Int(item)) <= limit {
          ended.append(item)
        } else {
          items[write] = item
          write += 1
        }
      }
      guard !ended.isEmpty else {
        pending.append((start, end, limit))
        return
      }
      // Keep the continuing items after the ended ones.
      let continuing = write - start
      var position = end
      while write > start {
        write -= 1
        position -= 1
        items[position] = items[write]
      }
      ended.sort { left, right in
        let leftLength = length(Int(left))
        let rightLength = length(Int(right))
        if leftLength != rightLength { return leftLength < rightLength }
        return keys.tieBreak(Int(left), Int(right))
      }
      for (offset, item) in ended.enumerated() { items[start + offset] = item }
      if continuing > 1 { pending.append((end - continuing, end, limit)) }
    }

    /// Sorts `start..<end` by their words, in place: no spare arrays of the items' size (12
    /// bytes a line, a fifth of a million-line listing's peak), see ``flagSort``. Equal words
    /// are told apart in the next round. (Not stable, and nothing relies on it: items with
    /// equal keys are put in order by the tie-break.)
    mutating func sortByWord(_ start: Int, _ end: Int) {
      let (items, words) = (self.items, self.words)
      counts.withUnsafeMutableBufferPointer { counts in
        KeySort.flagSort(items: items, words: words, start, end, shift: 56, counts: counts, level: 0)
      }
    }

    /// Fills the table's rows of `items`.
    func fillTable(_ items: Range<Int>) {
      let stride = KeySort.tableStride
      for item in items {
        let row = stride * item
        for column in 0..<stride { table[row + column] = keyWord(item, 8 * (column + 1)) }
      }
    }

    @inline(__always)
    func length(_ item: Int) -> Int { keys.head(item).count + keys.rest(item).count }

    /// Key bytes `depth..<depth + 8` of `item`, folded, the first in the high byte (zero past
    /// the end of the key): from the table while it holds them.
    @inline(__always)
    func word(_ item: Int, _ depth: Int) -> UInt64 {
      let column = (depth >> 3) &- 1
      if column >= 0, column < KeySort.tableStride { return table[KeySort.tableStride * item + column] }
      return keyWord(item, depth)
    }

    /// Key bytes `depth..<depth + 8` of `item`, read from the key.
    @inline(__always)
    func keyWord(_ item: Int, _ depth: Int) -> UInt64 {
      let (head, headCount) = keys.head(item)
      let rest = keys.rest(item)
      if depth >= headCount {
        let offset = depth - headCount
        if offset + 8 <= rest.count, let base = rest.baseAddress {
          let raw = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
          return KeySort.folded(UInt64(littleEndian: raw)).byteSwapped
        }
      } else if rest.count >= 8, let base = rest.baseAddress {
        // The head's last bytes, then the rest's first: every item of a listing starts so
        // (the blank after its number), so the first round takes this way for each.
        let headBytes = headCount - depth
        let valid: UInt64 = headCount >= 8 ? ~0 : (1 << UInt64(headCount * 8)) - 1
        let fromHead = KeySort.folded((head & valid) >> UInt64(depth * 8)).byteSwapped
        let raw = UnsafeRawPointer(base).loadUnaligned(as: UInt64.self)
        return fromHead | KeySort.folded(UInt64(littleEndian: raw)).byteSwapped >> UInt64(headBytes * 8)
      }
      var value: UInt64 = 0
      for position in depth..<(depth + 8) {
        var byte: UInt8 = 0
        if position < headCount {
          byte = UInt8(truncatingIfNeeded: head >> UInt64(position * 8))
        } else if position - headCount < rest.count {
          byte = rest[position - headCount]
        }
        if byte >= 0x61, byte <= 0x7A { byte -= 0x20 }
        value = value << 8 | UInt64(byte)
      }
      return value
    }
  }

  /// Sorts `start..<end` by their words, most significant byte first, in place (an American
  /// flag sort): the items are counted into 256 buckets by the byte at `shift`, each is moved
  /// to its bucket by following the cycle it starts, and each bucket is then sorted by the
  /// next byte. A byte every item shares is skipped; a small bucket is sorted by insertion.
  static func flagSort(
    items: UnsafeMutableBufferPointer<Int32>, words: UnsafeMutableBufferPointer<UInt64>, _ start: Int, _ end: Int,
    shift: UInt64, counts: UnsafeMutableBufferPointer<Int>, level: Int
  ) {
    var shift = shift
    let heads = level * 512
    let ends = heads + 256
    while true {
      guard end - start >= mediumRun else {
        insertionSort(items: items, words: words, start, end)
        return
      }
      for bucket in 0..<256 { counts[heads + bucket] = 0 }
      for position in start..<end { counts[heads + Int(truncatingIfNeeded: words[position] >> shift) & 0xFF] += 1 }
      var shared = false
      var total = start
      for bucket in 0..<256 {
        let size = counts[heads + bucket]
        if size == end - start {
          shared = true
          break
        }
        counts[heads + bucket] = total
        total += size
        counts[ends + bucket] = total
      }
      if shared {
        guard shift > 0 else { return }
        shift -= 8
        continue
      }
      for bucket in 0..<256 {
        while counts[heads + bucket] < counts[ends + bucket] {
          let position = counts[heads + bucket]
          var word = words[position]
          var item = items[position]
          var home = Int(truncatingIfNeeded: word >> shift) & 0xFF
          while home != bucket {
            let target = counts[heads + home]
            counts[heads + home] += 1
            swap(&word, &words[target])
            swap(&item, &items[target])
            home = Int(truncatingIfNeeded: word >> shift) & 0xFF
          }
          words[position] = word
          items[position] = item
          counts[heads + bucket] += 1
        }
      }
      guard shift > 0 else { return }
      var from = start
      for bucket in 0..<256 {
        let to = counts[ends + bucket]
        if to - from > 1 {
          flagSort(items: items, words: words, from, to, shift: shift - 8, counts: counts, level: level + 1)
        }
        from = to
      }
      return
    }
  }

  /// Sorts `start..<end` by their words by insertion.
  static func insertionSort(
    items: UnsafeMutableBufferPointer<Int32>, words: UnsafeMutableBufferPointer<UInt64>, _ start: Int, _ end: Int
  ) {
    guard end - start > 1 else { return }
    for position in (start + 1)..<end {
      let item = items[position]
      let word = words[position]
      var hole = position
      while hole > start, word < words[hole - 1] {
        items[hole] = items[hole - 1]
        words[hole] = words[hole - 1]
        hole -= 1
      }
      items[hole] = item
      words[hole] = word
    }
  }

  /// Words a table row holds: the key's second word (the first is read by the first round,
  /// which visits the items in their own order). Measured at 100k tasks, a second word in the
  /// table gained nothing more, and costs 8 bytes a line (1M `ls`: 1.91× the file's size
  /// at its peak with one, 2.01× with two).
  static let tableStride = 1

  /// Listings of at least this many items are sorted on two cores.
  static let parallelFrom = 50_000
  static let cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))

  /// Two groups of ranges holding about as many items each.
  static func halves(_ ranges: [(start: Int, end: Int, depth: Int)]) -> [[(start: Int, end: Int, depth: Int)]] {
    let total = ranges.reduce(0) { $0 + $1.end - $1.start }
    var result: [[(start: Int, end: Int, depth: Int)]] = [[], []]
    var first = 0
    for range in ranges {
      if first < total / 2 {
        result[0].append(range)
        first += range.end - range.start
      } else {
        result[1].append(range)
      }
    }
    return result
  }

  /// `a`–`z` turned into `A`–`Z` in each of eight bytes at once.
  @inline(__always)
  static func folded(_ word: UInt64) -> UInt64 {
    let high: UInt64 = 0x8080_8080_8080_8080
    let ones: UInt64 = 0x0101_0101_0101_0101
    let low = word & ~high
    // Adding to the low seven bits never carries into the next byte.
    let atLeastA = (low &+ ones &* (0x80 - 0x61)) & high
    let beyondZ = (low &+ ones &* (0x80 - 0x7B)) & high
    let lowercase = atLeastA & ~beyondZ & ~word & high
    return word &- (lowercase >> 2)
  }
}
