#if canImport(Glibc)
  import Glibc
#endif

extension TodoList {
  /// What changed from `old` to this list, line by line: a change set for a screen that shows
  /// a list and must update what it shows when the file changes (a reload, another program's
  /// save, a sync), without drawing every row again.
  ///
  /// Lines are compared by their bytes (the line ending does not count: it shows nowhere).
  /// The lines both versions share, in order, are kept (``LineChange/keep(original:current:)``,
  /// with `original` the index in `old`); between two kept lines, removed and added lines are
  /// paired in order as replaced (a task edited in place), and the rest are inserted or
  /// deleted. Entries come in this list's order, the deletions last.
  ///
  /// The shared lines are the longest run in common (Myers' difference) when the two versions
  /// differ by at most ``exactDifferenceLimit`` lines, as edits do; beyond that (a file
  /// replaced wholesale) lines are matched greedily by content: still a true description of
  /// the change, not always the shortest.
  public func changes(from old: TodoList) -> [LineChange] {
    var result: [LineChange] = []
    result.reserveCapacity(count)
    var deleted: [LineChange] = []
    var oldNext = 0
    var newNext = 0
    func keepUpTo(oldIndex: Int, newIndex: Int) {
      while oldNext < oldIndex, newNext < newIndex {
        result.append(.replace(original: oldNext, current: newNext))
        oldNext += 1
        newNext += 1
      }
      while newNext < newIndex {
        result.append(.insert(current: newNext))
        newNext += 1
      }
      while oldNext < oldIndex {
        deleted.append(.delete(original: oldNext))
        oldNext += 1
      }
    }
    for (oldIndex, newIndex) in TodoList.sharedLines(old, self) {
      keepUpTo(oldIndex: oldIndex, newIndex: newIndex)
      result.append(.keep(original: oldIndex, current: newIndex))
      oldNext = oldIndex + 1
      newNext = newIndex + 1
    }
    keepUpTo(oldIndex: old.count, newIndex: count)
    return result + deleted
  }

  /// Makes this list hold exactly the lines of `other` (bytes, line endings, byte order mark
  /// and final newline), changing only the lines that differ.
  ///
  /// For a list whose new content was worked out elsewhere (a merge, an app's model): the
  /// list's own record of its edits then names just the lines that changed, so a store writes
  /// a patch of those lines, an undo takes back only them, and a change made meanwhile by
  /// another program to any other line is kept.
  public mutating func replaceContents(with other: TodoList) {
    let shared = TodoList.sharedLines(self, other)
    // From the end, so that the indices still to come stay valid.
    var oldEnd = count
    var newEnd = other.count
    for (oldIndex, newIndex) in shared.reversed() {
      replaceStretch(oldIndex + 1..<oldEnd, with: other, newIndex + 1..<newEnd)
      oldEnd = oldIndex
      newEnd = newIndex
    }
    replaceStretch(0..<oldEnd, with: other, 0..<newEnd)
    precondition(count == other.count, "every line of the other list has its place")
    for index in 0..<count where slots[index].ending != other.slots[index].ending {
      slots[index].ending = other.slots[index].ending
      slots[index].edited = true
    }
    hasByteOrderMark = other.hasByteOrderMark
  }

  /// Lines `old` of this list become lines `new` of `other`: paired lines are replaced in
  /// place, the rest removed or inserted.
  private mutating func replaceStretch(_ old: Range<Int>, with other: TodoList, _ new: Range<Int>) {
    let paired = Swift.min(old.count, new.count)
    for offset in 0..<paired {
      replace(at: old.lowerBound + offset, with: Task(bytes: other.lineBytes(at: new.lowerBound + offset)))
    }
    if old.count > paired {
      slots.removeSubrange(old.lowerBound + paired..<old.upperBound)
    }
    if new.count > paired {
      for offset in paired..<new.count {
        // Its ending is set with every other line's once the lines are in place.
        insert(Task(bytes: other.lineBytes(at: new.lowerBound + offset)), at: old.lowerBound + offset)
      }
    }
  }

  /// How many lines two versions may differ by for ``changes(from:)`` to find the longest run
  /// of lines they share; past it the memory of the search (the square of the difference)
  /// would outgrow a reasonable bound (some 16 MB here).
  public static let exactDifferenceLimit = 2000

  /// The pairs of indices (in `a`, in `b`) of the lines the two lists share, both increasing.
  ///
  /// The common start and end are found by comparing the lines' bytes directly (one `memcmp`
  /// a line): most changes are a few lines in a long file, and hashing every line of both
  /// first made a one-line save of a 200,000-line list take seconds. Only the lines between
  /// are hashed.
  static func sharedLines(_ a: TodoList, _ b: TodoList) -> [(Int, Int)] {
    var pairs: [(Int, Int)] = []
    var start = 0
    var aEnd = a.count
    var bEnd = b.count
    a.withStorage { aFile, aAdded, aSlots in
      b.withStorage { bFile, bAdded, bSlots in
        func same(_ i: Int, _ j: Int) -> Bool {
          TodoList.equalLines(aSlots[i], aFile, aAdded, bSlots[j], bFile, bAdded)
        }
        while start < aEnd, start < bEnd, same(start, start) { start += 1 }
        while aEnd > start, bEnd > start, same(aEnd - 1, bEnd - 1) {
          aEnd -= 1
          bEnd -= 1
        }
      }
    }
    pairs.reserveCapacity(start + a.count - aEnd)
    for index in 0..<start { pairs.append((index, index)) }
    if start < aEnd, start < bEnd {
      let aHashes = a.lineHashes(in: start..<aEnd)
      let bHashes = b.lineHashes(in: start..<bEnd)
      let from = start
      a.withStorage { aFile, aAdded, aSlots in
        b.withStorage { bFile, bAdded, bSlots in
          func same(_ i: Int, _ j: Int) -> Bool {
            aHashes[i - from] == bHashes[j - from]
              && TodoList.equalLines(aSlots[i], aFile, aAdded, bSlots[j], bFile, bAdded)
          }
          pairs += middle(
            aRange: from..<aEnd, bRange: from..<bEnd, same: same,
            aHash: { aHashes[$0 - from] }, bHash: { bHashes[$0 - from] })
        }
      }
    }
    for offset in 0..<(a.count - aEnd) { pairs.append((aEnd + offset, bEnd + offset)) }
    return pairs
  }

  /// Whether two lines (each a slot and its list's storage) hold the same bytes.
  @inline(__always)
  private static func equalLines(
    _ x: Slot, _ xFile: UnsafeBufferPointer<UInt8>, _ xAdded: UnsafeBufferPointer<UInt8>,
    _ y: Slot, _ yFile: UnsafeBufferPointer<UInt8>, _ yAdded: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    let count = x.end - x.start
    guard count == y.end - y.start else { return false }
    guard count > 0 else { return true }
    func base(_ slot: Slot, _ file: UnsafeBufferPointer<UInt8>, _ added: UnsafeBufferPointer<UInt8>)
      -> UnsafePointer<UInt8>?
    {
      slot.start >= file.count ? added.baseAddress.map { $0 + (slot.start - file.count) } : file.baseAddress.map { $0 + slot.start }
    }
    guard let p = base(x, xFile, xAdded), let q = base(y, yFile, yAdded) else { return false }
    return memcmp(p, q, count) == 0
  }

  /// The shared lines of two stretches that differ from the first line to the last.
  private static func middle(
    aRange: Range<Int>, bRange: Range<Int>, same: (Int, Int) -> Bool, aHash: (Int) -> UInt64,
    bHash: (Int) -> UInt64
  ) -> [(Int, Int)] {
    if let exact = myers(aRange: aRange, bRange: bRange, limit: exactDifferenceLimit, same: same) {
      return exact
    }
    // Greedy: each line of `b` takes the first unused equal line of `a` after the last taken.
    var positions: [UInt64: [Int]] = [:]
    for index in aRange.reversed() { positions[aHash(index), default: []].append(index) }
    var pairs: [(Int, Int)] = []
    var last = aRange.lowerBound - 1
    for j in bRange {
      guard var candidates = positions[bHash(j)] else { continue }
      // Candidates are held last-first: the nearest unused one is at the end.
      while let index = candidates.last, index <= last { candidates.removeLast() }
      if let index = candidates.last, same(index, j) {
        candidates.removeLast()
        pairs.append((index, j))
        last = index
      }
      positions[bHash(j)] = candidates
    }
    return pairs
  }

  /// Myers' shortest edit script over the two stretches, as the shared lines; `nil` when the
  /// two differ by more than `limit` lines.
  private static func myers(
    aRange: Range<Int>, bRange: Range<Int>, limit: Int, same: (Int, Int) -> Bool
  ) -> [(Int, Int)]? {
    let n = aRange.count
    let m = bRange.count
    let maxD = Swift.min(n + m, limit)
    let offset = maxD + 1
    var v = [Int32](repeating: 0, count: 2 * maxD + 3)
    // The furthest reach on each diagonal after each round: what the walk back reads.
    var trace: [[Int32]] = []
    var found: Int?
    search: for d in 0...maxD {
      trace.append(Array(v[(offset - d - 1)...(offset + d + 1)]))
      for k in stride(from: -d, through: d, by: 2) {
        var x: Int
        if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
          x = Int(v[offset + k + 1])
        } else {
          x = Int(v[offset + k - 1]) + 1
        }
        var y = x - k
        while x < n, y < m, same(aRange.lowerBound + x, bRange.lowerBound + y) {
          x += 1
          y += 1
        }
        v[offset + k] = Int32(x)
        if x >= n, y >= m {
          found = d
          break search
        }
      }
    }
    guard let depth = found else { return nil }
    // Walk back from the end through each round's reach.
    var pairs: [(Int, Int)] = []
    var x = n
    var y = m
    for d in stride(from: depth, through: 0, by: -1) {
      let before = trace[d]
      // `before[i]` is the reach on diagonal `i - d - 1` before round `d`.
      func reach(_ k: Int) -> Int { Int(before[k + d + 1]) }
      let k = x - y
      let previousK: Int
      if k == -d || (k != d && reach(k - 1) < reach(k + 1)) {
        previousK = k + 1
      } else {
        previousK = k - 1
      }
      let previousX = d == 0 ? 0 : reach(previousK)
      let previousY = previousX - previousK
      while x > previousX, y > previousY {
        x -= 1
        y -= 1
        pairs.append((aRange.lowerBound + x, bRange.lowerBound + y))
      }
      if d > 0 {
        x = previousX
        y = previousY
      }
    }
    return pairs.reversed()
  }

  /// A 64-bit hash of the bytes of each line in `range` (FNV-1a), to rule out most unequal
  /// pairs at once; element 0 is the line at `range.lowerBound`.
  func lineHashes(in range: Range<Int>) -> [UInt64] {
    var hashes = [UInt64](repeating: 0, count: range.count)
    forEachLine(in: range) { index, storage, start, end in
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      for position in start..<end {
        hash = (hash ^ UInt64(storage[position])) &* 0x100_0000_01b3
      }
      hashes[index - range.lowerBound] = hash
    }
    return hashes
  }
}
