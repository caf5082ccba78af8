#if canImport(Glibc)
  import Glibc
#endif

/// How a line is recognised in another version of its file, for the lines that the positional
/// pass leaves unpaired (few, unless most of the file was edited).
struct LineKey: Sendable {
  /// The whole line: a view into its list's buffer (a copy for a line of a ``LineBuffer``).
  var bytes: ArraySlice<UInt8>
  /// Nothing but spaces and tabs.
  var isBlank: Bool
  /// The body's words that are not `key:value` tags, joined by single spaces: what is left
  /// of a task once its completion mark, dates, priority and tags are taken away.
  var core: [UInt8]
  /// The same words, sorted, for measuring how alike two lines are.
  var words: [ArraySlice<UInt8>]
  /// ``core`` with each `+project` and `@context` written as its sign alone, or empty when no
  /// plain word is left: the same for a task whose project or context was renamed.
  var named: [UInt8]
  /// The creation date as written.
  var creationDate: TaskDate?

  init(_ task: Task) {
    bytes = task.bytes
    isBlank = task.isBlank
    creationDate = task.creationDate
    var core: [UInt8] = []
    var words: [ArraySlice<UInt8>] = []
    var named: [UInt8] = []
    var plain = false
    task.forEachToken { token in
      if case .tag = token.kind { return }
      let word = task.bytes[token.range]
      if !core.isEmpty {
        core.append(.space)
        named.append(.space)
      }
      core += word
      words.append(word)
      if token.kind == .word {
        named += word
        plain = true
      } else {
        named.append(word[word.startIndex])
      }
    }
    self.core = core
    self.named = plain ? named : []
    self.words = words.sorted { $0.lexicographicallyPrecedes($1) }
  }

  /// Whether `new` may be this line edited in place: it has the same creation date and
  /// every word of this one (an edit that adds words keeps the old).
  func isKept(by new: LineKey) -> Bool {
    if creationDate != new.creationDate { return false }
    var j = 0
    for word in words {
      while j < new.words.count, new.words[j].lexicographicallyPrecedes(word) { j += 1 }
      guard j < new.words.count, new.words[j] == word else { return false }
      j += 1
    }
    return true
  }

  /// Dice's coefficient of the two lines' word multisets: 1 for the same words, 0 for none
  /// in common.
  func similarity(to other: LineKey) -> Double {
    let total = words.count + other.words.count
    guard total > 0 else { return 0 }
    var i = 0
    var j = 0
    var common = 0
    while i < words.count, j < other.words.count {
      if words[i] == other.words[j] {
        common += 1
        i += 1
        j += 1
      } else if words[i].lexicographicallyPrecedes(other.words[j]) {
        i += 1
      } else {
        j += 1
      }
    }
    return Double(2 * common) / Double(total)
  }
}

/// The lines of one version of a file, as the pairing reads them: bytes without parsing, and
/// a parsed task only for the lines that need one.
///
/// Bytes are lent to a closure, not returned, so that a version may keep them outside the
/// Swift heap (``LineBuffer``) and a version in an array (``TodoList``) is not copied.
protocol PairedLines {
  var count: Int { get }
  func withLineBytes<R>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R
  subscript(index: Int) -> Task { get }
  /// Lets the bytes read so far leave memory until they are read again (``LineBuffer``); a
  /// version in an array keeps them.
  func letGo()
}

extension PairedLines {
  func letGo() {}

  /// Whether line `index` has the same bytes as line `otherIndex` of `other`.
  @inline(__always)
  func line(_ index: Int, equals other: some PairedLines, _ otherIndex: Int) -> Bool {
    withLineBytes(at: index) { a in
      other.withLineBytes(at: otherIndex) { b in
        guard a.count == b.count else { return false }
        #if canImport(Glibc)
          guard let x = a.baseAddress, let y = b.baseAddress else { return true }
          return memcmp(x, y, a.count) == 0
        #else
          return a.elementsEqual(b)
        #endif
      }
    }
  }

  /// Whether line `index` has the same bytes as `bytes`.
  func line(_ index: Int, equals bytes: some Collection<UInt8>) -> Bool {
    withLineBytes(at: index) { $0.elementsEqual(bytes) }
  }

  /// A copy of line `index`'s bytes, for a dictionary key.
  func copyOfLine(_ index: Int) -> [UInt8] { withLineBytes(at: index) { Array($0) } }

  /// Line `index` is nothing but spaces and tabs (or empty): no task.
  func isBlankLine(_ index: Int) -> Bool {
    withLineBytes(at: index) { $0.allSatisfy(\.isTaskWhitespace) }
  }
}

extension TodoList: PairedLines {}

extension Array: PairedLines where Element == Task {
  func withLineBytes<R>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    try self[index].bytes.withUnsafeBufferPointer(body)
  }
}

/// For each line of one version, the line of the other version it is paired with, if any:
/// a collection of `Int?` kept as 32-bit numbers (a large file has hundreds of thousands).
struct LineMap: RandomAccessCollection, Sendable {
  private var storage: [Int32]

  init(count: Int) { storage = Array(repeating: -1, count: count) }

  var startIndex: Int { 0 }
  var endIndex: Int { storage.count }

  subscript(index: Int) -> Int? {
    get {
      let value = storage[index]
      return value < 0 ? nil : Int(value)
    }
    set { storage[index] = newValue.map { Int32(truncatingIfNeeded: $0) } ?? -1 }
  }

  func isPaired(_ index: Int) -> Bool { storage[index] >= 0 }
}

/// Which line of one version of a file is which line of another.
///
/// First, as a line diff does, lines that are the same bytes are paired by their place: the
/// lines both versions start and end with, then the lines found exactly once in each version
/// (wherever they moved), then, between those of them that kept their order, again the lines
/// at either end of each stretch, the n-th copy of a line with its n-th copy there, and the
/// n-th line of a body with its n-th there (see round 2). So of two tasks with the same text,
/// each is paired with the copy at its own place, and an edit lands on the copy it was made
/// to. Then, over the lines still unpaired anywhere in the file:
///
/// 1. the same bytes (the n-th copy of a line with the n-th copy);
/// 2. the same body once the completion mark and date, the priority, the creation date and
///    every `key:value` tag are taken away (so completing a task, changing its priority or
///    a tag keeps it the same task); then, with `similar`, the same body once the names of
///    its projects and contexts are taken away too, each `+` and `@` kept in its place (so renaming a project
///    or a context, over many tasks at once, keeps each the same task, for sure: a rename
///    changes no other word, where a new task written like an old one would);
/// 3. with `similar`, the most alike pairs first, when more than half of their words are
///    shared (Dice's coefficient of the non-tag words above 0.5), so that an edited text is
///    still the same task.
///
/// Blank lines pair only by their bytes.
struct LinePairing: Sendable {
  /// For each line of the old version, the new line it became.
  var newForOld: LineMap
  /// For each line of the new version, the old line it came from.
  var oldForNew: LineMap
  /// The new lines paired in round 3, by resemblance only: the same task edited, or perhaps
  /// a new task written like a deleted one.
  var resembling: Set<Int> = []
  /// Old lines whose fate cannot be told from a copy of theirs: the new version lost one of
  /// two copies of a line with nothing kept between them, and either may be the one it lost.
  var ambiguous: Set<Int> = []

  /// Above this many candidate pairs, round 3 compares each old line only with the new
  /// lines near its place in the order, about this many pairs in all.
  static let similarityLimit = 250_000

  /// Whether projects and contexts may have been renamed: only between a version and one made
  /// from it (two tasks added on two sides that differ in a project are two tasks).
  private var renames = false

  init(old: some PairedLines, new: some PairedLines, similar: Bool) {
    newForOld = LineMap(count: old.count)
    oldForNew = LineMap(count: new.count)
    renames = similar
    var keys = Keys()
    pairByPlace(old, new, keys: &keys)
    let olds = (0..<old.count).filter { !newForOld.isPaired($0) }
    let news = (0..<new.count).filter { !oldForNew.isPaired($0) }
    pairSame(old, olds, new, news)
    pairCores(old, olds, new, news, keys: &keys)
    if renames { pairNames(old, olds, new, news, keys: &keys) }
    if similar { pairSimilar(old, olds, new, news, keys: &keys) }
    findAmbiguous(old)
  }

  /// Parsed keys of the lines that need one, made once.
  private struct Keys {
    var old: [Int: LineKey] = [:]
    var new: [Int: LineKey] = [:]

    mutating func old(_ index: Int, in lines: some PairedLines) -> LineKey {
      if let key = old[index] { return key }
      let key = LineKey(lines[index])
      old[index] = key
      return key
    }

    mutating func new(_ index: Int, in lines: some PairedLines) -> LineKey {
      if let key = new[index] { return key }
      let key = LineKey(lines[index])
      new[index] = key
      return key
    }
  }

  private mutating func link(_ old: Int, _ new: Int) {
    newForOld[old] = new
    oldForNew[new] = old
  }

  // MARK: By place

  /// The positional pass: common ends, unique lines, then each stretch between the unique
  /// lines that kept their order.
  private mutating func pairByPlace(
    _ old: some PairedLines, _ new: some PairedLines, keys: inout Keys
  ) {
    var start = 0
    while start < old.count, start < new.count, old.line(start, equals: new, start) {
      link(start, start)
      start += 1
    }
    var oldEnd = old.count
    var newEnd = new.count
    while oldEnd > start, newEnd > start, old.line(oldEnd - 1, equals: new, newEnd - 1) {
      oldEnd -= 1
      newEnd -= 1
      link(oldEnd, newEnd)
    }
    guard start < oldEnd, start < newEnd else { return }
    var run: [(Int32, Int32)]
    do {
      let unique = LinePairing.uniqueCommonLines(old, start..<oldEnd, new, start..<newEnd)
      for (o, n) in unique { link(Int(o), Int(n)) }
      run = LinePairing.inOrder(unique)
    }
    run.append((Int32(oldEnd), Int32(newEnd)))
    var previous = (old: start, new: start)
    for (o, n) in run {
      pairStretch(old, previous.old..<Int(o), new, previous.new..<Int(n), keys: &keys)
      previous = (Int(o) + 1, Int(n) + 1)
    }
  }

  /// The lines that are found exactly once in `oldRange` and once in `newRange`, with the same
  /// bytes, as (old, new) pairs in the new order.
  ///
  /// An open-addressing table of 32-bit hashes and line numbers, not a dictionary of copied
  /// lines: it is made for every line of a large file. Twelve bytes a slot, a quarter of the
  /// slots left empty (a slot is picked by multiplying the hash, so any size will do).
  private static func uniqueCommonLines(
    _ old: some PairedLines, _ oldRange: Range<Int>, _ new: some PairedLines,
    _ newRange: Range<Int>
  ) -> [(Int32, Int32)] {
    let capacity = oldRange.count + oldRange.count / 3 + 16
    // Per slot: the line's hash, its first old line (-1: empty) and its new line (-1: none
    // yet, -2: more than one line on either side).
    var hashes = [UInt32](repeating: 0, count: capacity)
    var olds = [Int32](repeating: -1, count: capacity)
    var news = [Int32](repeating: -1, count: capacity)
    @inline(__always) func home(_ hash: UInt32) -> Int { Int((UInt64(hash) &* UInt64(capacity)) >> 32) }
    for index in oldRange {
      let hash = old.withLineBytes(at: index, lineHash)
      var slot = home(hash)
      while olds[slot] != -1 {
        if hashes[slot] == hash, old.line(Int(olds[slot]), equals: old, index) { break }
        slot = slot + 1 == capacity ? 0 : slot + 1
      }
      if olds[slot] == -1 {
        hashes[slot] = hash
        olds[slot] = Int32(index)
      } else {
        news[slot] = -2
      }
    }
    var count = 0
    for index in newRange {
      let hash = new.withLineBytes(at: index, lineHash)
      var slot = home(hash)
      while olds[slot] != -1 {
        if hashes[slot] == hash, old.line(Int(olds[slot]), equals: new, index) {
          switch news[slot] {
          case -1:
            news[slot] = Int32(index)
            count += 1
          case -2: break
          default:
            news[slot] = -2
            count -= 1
          }
          break
        }
        slot = slot + 1 == capacity ? 0 : slot + 1
      }
    }
    hashes = []
    var pairs: [(Int32, Int32)] = []
    pairs.reserveCapacity(count)
    for slot in 0..<capacity where news[slot] >= 0 { pairs.append((olds[slot], news[slot])) }
    pairs.sort { $0.1 < $1.1 }
    return pairs
  }

  /// FNV-1a over the line's bytes, folded to 32 bits.
  private static func lineHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return UInt32(truncatingIfNeeded: hash ^ hash >> 32)
  }

  /// The longest run of `pairs` (in new order) whose old lines are in order too: the lines
  /// that stayed in place, around which the rest is placed.
  private static func inOrder(_ pairs: [(Int32, Int32)]) -> [(Int32, Int32)] {
    guard !pairs.isEmpty else { return [] }
    // Patience: the last pair of the best run of each length, and each pair's predecessor.
    var tails: [Int32] = []
    var before = [Int32](repeating: -1, count: pairs.count)
    for (index, pair) in pairs.enumerated() {
      var low = 0
      var high = tails.count
      while low < high {
        let middle = (low + high) / 2
        if pairs[Int(tails[middle])].0 < pair.0 { low = middle + 1 } else { high = middle }
      }
      if low > 0 { before[index] = tails[low - 1] }
      if low == tails.count { tails.append(Int32(index)) } else { tails[low] = Int32(index) }
    }
    var run: [(Int32, Int32)] = []
    var index = tails.last.map(Int.init) ?? -1
    while index >= 0 {
      run.append(pairs[index])
      index = Int(before[index])
    }
    return run.reversed()
  }

  /// Pairs the unpaired lines of one stretch between two lines that stayed in place: the same
  /// bytes at either end, then the n-th copy of a line with its n-th copy, then the n-th line
  /// of a body with the n-th one.
  private mutating func pairStretch(
    _ old: some PairedLines, _ oldRange: Range<Int>, _ new: some PairedLines,
    _ newRange: Range<Int>, keys: inout Keys
  ) {
    var olds = oldRange.filter { !newForOld.isPaired($0) }[...]
    var news = newRange.filter { !oldForNew.isPaired($0) }[...]
    while let o = olds.first, let n = news.first, old.line(o, equals: new, n) {
      link(o, n)
      olds.removeFirst()
      news.removeFirst()
    }
    while let o = olds.last, let n = news.last, old.line(o, equals: new, n) {
      link(o, n)
      olds.removeLast()
      news.removeLast()
    }
    guard !olds.isEmpty, !news.isEmpty else { return }
    pairSame(old, Array(olds), new, Array(news))
    pairCores(old, Array(olds), new, Array(news), keys: &keys)
    if renames { pairNames(old, Array(olds), new, Array(news), keys: &keys) }
  }

  // MARK: Rounds

  /// Round 1 over the given lines that are still unpaired: the n-th copy of a line with the
  /// n-th copy.
  private mutating func pairSame(
    _ old: some PairedLines, _ olds: [Int], _ new: some PairedLines, _ news: [Int]
  ) {
    var waiting: [[UInt8]: [Int]] = [:]
    for index in olds.reversed() where !newForOld.isPaired(index) {
      waiting[old.copyOfLine(index), default: []].append(index)
    }
    guard !waiting.isEmpty else { return }
    for index in news where !oldForNew.isPaired(index) {
      guard let match = waiting[new.copyOfLine(index)]?.popLast() else { continue }
      link(match, index)
    }
  }

  /// Round 2 over the given lines that are still unpaired: the n-th line of a body with the
  /// n-th line of the same body.
  private mutating func pairCores(
    _ old: some PairedLines, _ olds: [Int], _ new: some PairedLines, _ news: [Int],
    keys: inout Keys
  ) {
    pairSameKey(\.core, old, olds, new, news, keys: &keys)
  }

  /// Round 2, second part, over the given lines that are still unpaired: the n-th line of a
  /// body with the n-th line of the same body, project and context names left out.
  private mutating func pairNames(
    _ old: some PairedLines, _ olds: [Int], _ new: some PairedLines, _ news: [Int],
    keys: inout Keys
  ) {
    pairSameKey(\.named, old, olds, new, news, keys: &keys)
  }

  /// The n-th unpaired line of one key with the n-th of the same key; blank lines and lines
  /// whose key is empty are left alone.
  private mutating func pairSameKey(
    _ key: KeyPath<LineKey, [UInt8]>, _ old: some PairedLines, _ olds: [Int], _ new: some PairedLines,
    _ news: [Int], keys: inout Keys
  ) {
    var waiting: [[UInt8]: [Int]] = [:]
    for index in olds.reversed() where !newForOld.isPaired(index) {
      let line = keys.old(index, in: old)
      if line.isBlank || line[keyPath: key].isEmpty { continue }
      waiting[line[keyPath: key], default: []].append(index)
    }
    guard !waiting.isEmpty else { return }
    for index in news where !oldForNew.isPaired(index) {
      let line = keys.new(index, in: new)
      if line.isBlank || line[keyPath: key].isEmpty { continue }
      guard let match = waiting[line[keyPath: key]]?.popLast() else { continue }
      link(match, index)
    }
  }

  private mutating func pairSimilar(
    _ old: some PairedLines, _ oldLines: [Int], _ new: some PairedLines, _ newLines: [Int],
    keys: inout Keys
  ) {
    let olds = oldLines.filter {
      guard !newForOld.isPaired($0) else { return false }
      let key = keys.old($0, in: old)
      return !key.isBlank && !key.words.isEmpty
    }
    let news = newLines.filter {
      guard !oldForNew.isPaired($0) else { return false }
      let key = keys.new($0, in: new)
      return !key.isBlank && !key.words.isEmpty
    }
    guard !olds.isEmpty, !news.isEmpty else { return }
    let oldKeys = olds.map { keys.old($0, in: old) }
    let newKeys = news.map { keys.new($0, in: new) }
    // Every pair while that is affordable; beyond, each old line against the new lines near
    // its place in the order (a bulk edit keeps the order), so that a large edit still pairs.
    let window =
      olds.count * news.count <= LinePairing.similarityLimit
      ? news.count : max(LinePairing.similarityLimit / olds.count, 8)
    // An edit in place keeps the task's words and creation date: such a pair goes before
    // any that lost some (a new task written like the old one may resemble it more).
    var candidates: [(keeps: Int, score: Double, distance: Int, old: Int, new: Int)] = []
    for (rank, i) in olds.enumerated() {
      let center = rank * news.count / olds.count
      let low = window >= news.count ? 0 : max(center - window / 2, 0)
      let high = window >= news.count ? news.count : min(center + window / 2 + 1, news.count)
      for position in low..<high {
        let score = oldKeys[rank].similarity(to: newKeys[position])
        let j = news[position]
        if score > 0.5 {
          let keeps = oldKeys[rank].isKept(by: newKeys[position]) ? 1 : 0
          candidates.append((keeps, score, abs(i - j), i, j))
        }
      }
    }
    candidates.sort {
      ($0.keeps, $0.score, -$0.distance, -$0.old, -$0.new)
        > ($1.keeps, $1.score, -$1.distance, -$1.old, -$1.new)
    }
    for candidate in candidates
    where !newForOld.isPaired(candidate.old) && !oldForNew.isPaired(candidate.new) {
      link(candidate.old, candidate.new)
      resembling.insert(candidate.new)
    }
  }

  /// Marks the old lines that the new version may have lost in place of a copy: an unpaired
  /// line, and the nearest paired line on either side of it when that is the same bytes
  /// (lines lost in between do not count). Blank lines are never tasks and do not count.
  private mutating func findAmbiguous(_ old: some PairedLines) {
    var lastPaired: Int?
    var lost: [Int] = []
    for index in 0..<old.count {
      guard newForOld.isPaired(index) else {
        if !old.isBlankLine(index) { lost.append(index) }
        continue
      }
      // The lines lost since the last paired line, between it and this one.
      if !lost.isEmpty {
        for gone in lost where old.line(gone, equals: old, index) {
          ambiguous.insert(gone)
          ambiguous.insert(index)
        }
        if let lastPaired {
          for gone in lost where old.line(gone, equals: old, lastPaired) {
            ambiguous.insert(gone)
            ambiguous.insert(lastPaired)
          }
        }
        lost.removeAll()
      }
      lastPaired = index
    }
    if let lastPaired, !lost.isEmpty {
      for gone in lost where old.line(gone, equals: old, lastPaired) {
        ambiguous.insert(gone)
        ambiguous.insert(lastPaired)
      }
    }
  }

  /// Whether new line `index` may not be old line `old` at all: it was paired by resemblance
  /// and lost some of the old words or has another creation date, as a new task written
  /// like the old one would (an edit in place keeps the date; adding words keeps the old).
  func isUncertain(_ index: Int, old: Task, new: Task) -> Bool {
    guard resembling.contains(index) else { return false }
    return !LineKey(old).isKept(by: LineKey(new))
  }
}
