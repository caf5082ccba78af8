/// How a line is recognised in another version of its file.
struct LineKey: Sendable {
  /// The whole line.
  var bytes: [UInt8]
  /// Nothing but spaces and tabs.
  var isBlank: Bool
  /// The body's words that are not `key:value` tags, joined by single spaces: what is left
  /// of a task once its completion mark, dates, priority and tags are taken away.
  var core: [UInt8]
  /// The same words, sorted, for measuring how alike two lines are.
  var words: [ArraySlice<UInt8>]
  /// The creation date as written.
  var creationDate: TaskDate?

  init(_ task: Task) {
    bytes = Array(task.bytes)
    isBlank = task.isBlank
    creationDate = task.creationDate
    var core: [UInt8] = []
    var words: [ArraySlice<UInt8>] = []
    task.forEachToken { token in
      if case .tag = token.kind { return }
      let word = task.bytes[token.range]
      if !core.isEmpty { core.append(.space) }
      core += word
      words.append(word)
    }
    self.core = core
    self.words = words.sorted { $0.lexicographicallyPrecedes($1) }
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

/// Which line of one version of a file is which line of another.
///
/// Lines are paired in three rounds, each over the lines still unpaired:
///
/// 1. the same bytes (the n-th copy of a line with the n-th copy);
/// 2. the same body once the completion mark and date, the priority, the creation date and
///    every `key:value` tag are taken away (so completing a task, changing its priority or
///    a tag keeps it the same task);
/// 3. with `similar`, the most alike pairs first, when more than half of their words are
///    shared (Dice's coefficient of the non-tag words above 0.5), so that an edited text is
///    still the same task.
///
/// Blank lines pair only in the first round.
struct LinePairing: Sendable {
  /// For each line of the old version, the new line it became.
  var newForOld: [Int?]
  /// For each line of the new version, the old line it came from.
  var oldForNew: [Int?]
  /// The new lines paired in round 3, by resemblance only: the same task edited, or perhaps
  /// a new task written like a deleted one.
  var resembling: Set<Int> = []

  /// Above this many candidate pairs, round 3 compares each old line only with the new
  /// lines near its place in the order, about this many pairs in all.
  static let similarityLimit = 250_000

  init(old: [LineKey], new: [LineKey], similar: Bool) {
    newForOld = Array(repeating: nil, count: old.count)
    oldForNew = Array(repeating: nil, count: new.count)
    pair(old, new, by: \.bytes, skipBlank: false)
    pair(old, new, by: \.core, skipBlank: true)
    if similar { pairSimilar(old, new) }
  }

  private mutating func pair(
    _ old: [LineKey], _ new: [LineKey], by key: KeyPath<LineKey, [UInt8]>, skipBlank: Bool
  ) {
    var waiting: [[UInt8]: [Int]] = [:]
    for index in old.indices.reversed() where newForOld[index] == nil {
      if skipBlank, old[index].isBlank || old[index][keyPath: key].isEmpty { continue }
      waiting[old[index][keyPath: key], default: []].append(index)
    }
    for index in new.indices where oldForNew[index] == nil {
      if skipBlank, new[index].isBlank || new[index][keyPath: key].isEmpty { continue }
      let value = new[index][keyPath: key]
      guard let match = waiting[value]?.popLast() else { continue }
      newForOld[match] = index
      oldForNew[index] = match
    }
  }

  private mutating func pairSimilar(_ old: [LineKey], _ new: [LineKey]) {
    let olds = old.indices.filter {
      newForOld[$0] == nil && !old[$0].isBlank && !old[$0].words.isEmpty
    }
    let news = new.indices.filter {
      oldForNew[$0] == nil && !new[$0].isBlank && !new[$0].words.isEmpty
    }
    guard !olds.isEmpty, !news.isEmpty else { return }
    // Every pair while that is affordable; beyond, each old line against the new lines near
    // its place in the order (a bulk edit keeps the order), so that a large edit still pairs.
    let window =
      olds.count * news.count <= LinePairing.similarityLimit
      ? news.count : max(LinePairing.similarityLimit / olds.count, 8)
    var candidates: [(score: Double, distance: Int, old: Int, new: Int)] = []
    for (rank, i) in olds.enumerated() {
      let center = rank * news.count / olds.count
      let low = window >= news.count ? 0 : max(center - window / 2, 0)
      let high = window >= news.count ? news.count : min(center + window / 2 + 1, news.count)
      for j in news[low..<high] {
        let score = old[i].similarity(to: new[j])
        if score > 0.5 { candidates.append((score, abs(i - j), i, j)) }
      }
    }
    candidates.sort {
      ($0.score, -$0.distance, -$0.old, -$0.new) > ($1.score, -$1.distance, -$1.old, -$1.new)
    }
    for candidate in candidates
    where newForOld[candidate.old] == nil && oldForNew[candidate.new] == nil {
      newForOld[candidate.old] = candidate.new
      oldForNew[candidate.new] = candidate.old
      resembling.insert(candidate.new)
    }
  }

  /// Whether new line `index` may not be old line `old` at all: it was paired by resemblance
  /// and lost some of the old words or has another creation date, as a new task written
  /// like the old one would (an edit in place keeps the date; adding words keeps the old).
  func isUncertain(_ index: Int, old: LineKey, new: LineKey) -> Bool {
    guard resembling.contains(index) else { return false }
    if old.creationDate != new.creationDate { return true }
    var j = 0
    for word in old.words {
      while j < new.words.count, new.words[j].lexicographicallyPrecedes(word) { j += 1 }
      guard j < new.words.count, new.words[j] == word else { return true }
      j += 1
    }
    return false
  }
}
