import TodoTxt

/// One line of a patch: its bytes without the line ending, and the ending.
struct PatchLine: Equatable, Sendable {
  var bytes: [UInt8]
  var ending: LineEnding
}

/// A run of lines replaced by another run (either may be empty).
struct Hunk: Equatable, Sendable {
  /// Where the run starts in the file before (0-based).
  var oldStart: Int
  /// Where the replacement starts in the file after.
  var newStart: Int
  var old: [PatchLine]
  var new: [PatchLine]
  /// The unchanged line just before the run (`nil` at the start of the file): where a pure
  /// insertion goes when the file changed meanwhile.
  var anchor: [UInt8]?
  /// The unchanged line just after the run (`nil` at the end): tells a line that vanished
  /// from one that changed.
  var following: [UInt8]?
}

/// A line taken by a change had changed or vanished in the file the change is applied to.
struct PatchConflict: Error, Equatable {
  /// 1-based line number in the file the patch was made from.
  var line: Int
  var was: [UInt8]
  /// `nil` when the line is gone.
  var now: [UInt8]?
}

/// The line-level difference between two versions of a file.
///
/// A patch applies by content, not by position: each run of lines it replaces is looked up
/// in the file it is applied to, nearest to where it was. So a change re-applies to a file
/// another program edited meanwhile, and an undo still works after edits to other lines;
/// when a line the patch replaces is no longer there, applying it fails with a
/// ``PatchConflict`` instead of guessing.
struct Patch: Equatable, Sendable {
  /// The hunks, made when first asked for (see ``Storage``).
  var hunks: [Hunk] {
    get {
      switch storage {
      case .hunks(let hunks): return hunks
      case .list:
        var hunks: [Hunk] = []
        forEachHunk { hunks.append($0) }
        return hunks
      }
    }
    set { storage = .hunks(newValue) }
  }
  /// Line counts of the files before and after.
  var oldCount: Int
  var newCount: Int
  private var storage: Storage

  /// A patch made from an edited list keeps the list (which shares the file's bytes) instead
  /// of copies of every line it takes and brings: a change to a million-line file (archive
  /// takes a tenth of its lines) would otherwise hold tens of megabytes of hunks that are
  /// only ever encoded, a hunk at a time, into the journal and the undo log. The lines it
  /// took are read from the file's bytes between the list's kept lines
  /// (``TodoList/forEachOriginalLine(ofStretch:new:_:)``), so the list as read is not kept
  /// either.
  private enum Storage: Sendable {
    case hunks([Hunk])
    case list(TodoList, hunkCount: Int)
  }

  init(hunks: [Hunk], oldCount: Int, newCount: Int) {
    self.storage = .hunks(hunks)
    self.oldCount = oldCount
    self.newCount = newCount
  }

  /// The patch from the file an edited list was read from to the list, from the list's own
  /// record of its edits (``TodoList/forEachChangedStretch(_:)``).
  ///
  /// A patch of a few lines (an edit of some tasks) is made at once, so that encoding it
  /// twice (the undo log measures, then writes) walks the list's lines once; a larger one
  /// keeps the list and makes its hunks as they are encoded.
  init(edits edited: TodoList) {
    oldCount = edited.originalCount
    newCount = edited.count
    var hunks: [Hunk] = []
    var count = 0
    var lines = 0
    edited.forEachChangedStretch { old, new in
      guard !old.isEmpty || !new.isEmpty else { return }
      count += 1
      lines += old.count + new.count
      if lines <= Patch.linesMadeAtOnce { hunks.append(Patch.hunk(old, new, in: edited)) }
    }
    storage = lines <= Patch.linesMadeAtOnce ? .hunks(hunks) : .list(edited, hunkCount: count)
  }

  /// The most lines a patch made from a list holds as hunks (see ``init(edits:)``).
  static let linesMadeAtOnce = 256

  /// The hunk that takes lines `old` of the file `edited` was read from to its lines `new`.
  static func hunk(_ old: Range<Int>, _ new: Range<Int>, in edited: TodoList) -> Hunk {
    var taken: [PatchLine] = []
    taken.reserveCapacity(old.count)
    edited.forEachOriginalLine(ofStretch: old, new: new) { bytes, ending in
      taken.append(PatchLine(bytes: Array(bytes), ending: ending))
    }
    return Hunk(
      oldStart: old.lowerBound, newStart: new.lowerBound, old: taken,
      new: Patch.lines(of: edited, new),
      // The kept lines around the stretch are the list's own, where the stretch begins and ends.
      anchor: old.lowerBound > 0 ? Array(edited.lineBytes(at: new.lowerBound - 1)) : nil,
      following: old.upperBound < edited.originalCount ? Array(edited.lineBytes(at: new.upperBound)) : nil)
  }

  static func == (lhs: Patch, rhs: Patch) -> Bool {
    lhs.oldCount == rhs.oldCount && lhs.newCount == rhs.newCount && lhs.hunks == rhs.hunks
  }

  /// How many hunks ``hunks`` holds, without making them.
  var hunkCount: Int {
    switch storage {
    case .hunks(let hunks): return hunks.count
    case .list(_, let count): return count
    }
  }

  /// Calls `body` with each hunk in order, made one at a time.
  func forEachHunk(_ body: (Hunk) throws -> Void) rethrows {
    switch storage {
    case .hunks(let hunks):
      for hunk in hunks { try body(hunk) }
    case .list(let edited, _):
      try edited.forEachChangedStretch { old, new in
        guard !old.isEmpty || !new.isEmpty else { return }
        try body(Patch.hunk(old, new, in: edited))
      }
    }
  }

  /// A hunk as the places of its runs, its lines read where they lie: what an encoder needs,
  /// without a copy of each line (see ``forEachHunkView(_:)``).
  struct HunkView {
    var oldStart: Int
    var newStart: Int
    var oldCount: Int
    var newCount: Int
    fileprivate var source: Source

    fileprivate enum Source {
      case hunk(Hunk)
      case list(TodoList, old: Range<Int>, new: Range<Int>)
    }

    /// The lines the hunk takes, in order, with their endings.
    func forEachOld(_ body: (ArraySlice<UInt8>, LineEnding) throws -> Void) rethrows {
      switch source {
      case .hunk(let hunk):
        for line in hunk.old { try body(line.bytes[...], line.ending) }
      case .list(let edited, let old, let new):
        try edited.forEachOriginalLine(ofStretch: old, new: new, body)
      }
    }

    /// The lines the hunk brings, in order, with their endings.
    func forEachNew(_ body: (ArraySlice<UInt8>, LineEnding) throws -> Void) rethrows {
      switch source {
      case .hunk(let hunk):
        for line in hunk.new { try body(line.bytes[...], line.ending) }
      case .list(let edited, _, let new):
        for index in new { try body(edited.lineBytes(at: index), edited.lineEnding(at: index)) }
      }
    }

    /// The unchanged line just before the run (see ``Hunk/anchor``).
    var anchor: ArraySlice<UInt8>? {
      switch source {
      case .hunk(let hunk): return hunk.anchor?[...]
      case .list(let edited, let old, let new):
        return old.lowerBound > 0 ? edited.lineBytes(at: new.lowerBound - 1) : nil
      }
    }

    /// The unchanged line just after the run (see ``Hunk/following``).
    var following: ArraySlice<UInt8>? {
      switch source {
      case .hunk(let hunk): return hunk.following?[...]
      case .list(let edited, let old, let new):
        return old.upperBound < edited.originalCount ? edited.lineBytes(at: new.upperBound) : nil
      }
    }
  }

  /// Calls `body` with each hunk in order as a ``HunkView``: a patch kept as a list makes no
  /// hunk, and no copy of a line, for it.
  func forEachHunkView(_ body: (HunkView) throws -> Void) rethrows {
    switch storage {
    case .hunks(let hunks):
      for hunk in hunks {
        try body(
          HunkView(
            oldStart: hunk.oldStart, newStart: hunk.newStart, oldCount: hunk.old.count,
            newCount: hunk.new.count, source: .hunk(hunk)))
      }
    case .list(let edited, _):
      try edited.forEachChangedStretch { old, new in
        guard !old.isEmpty || !new.isEmpty else { return }
        try body(
          HunkView(
            oldStart: old.lowerBound, newStart: new.lowerBound, oldCount: old.count, newCount: new.count,
            source: .list(edited, old: old, new: new)))
      }
    }
  }

  static func lines(of list: TodoList, _ range: Range<Int>) -> [PatchLine] {
    range.map { PatchLine(bytes: Array(list.lineBytes(at: $0)), ending: list.lineEnding(at: $0)) }
  }

  /// The patch that takes the file after back to the file before.
  var inverted: Patch {
    Patch(
      hunks: hunks.map {
        Hunk(
          oldStart: $0.newStart, newStart: $0.oldStart, old: $0.new, new: $0.old, anchor: $0.anchor,
          following: $0.following)
      },
      oldCount: newCount, newCount: oldCount)
  }

  /// Lines added and removed.
  var addedCount: Int {
    var count = 0
    forEachHunkView { count += $0.newCount }
    return count
  }
  var removedCount: Int {
    var count = 0
    forEachHunkView { count += $0.oldCount }
    return count
  }

  /// Applies the patch to `bytes` (a file that may differ from the one the patch was made
  /// from) and returns the result with the patch as it was actually applied to `bytes`.
  ///
  /// - Parameter restoring: the patch puts back lines a change removed (an undo). Lines
  ///   that ended the file then go back after their line before when lines were added at the
  ///   end since, so a run (a conflict's markers around their side) is restored whole; else
  ///   lines inserted at the end go after any added since, as tasks appended.
  func apply(to bytes: [UInt8], restoring: Bool = false) throws(PatchConflict) -> (bytes: [UInt8], applied: Patch) {
    let file = TodoList(bytes: bytes)
    let lines = Patch.lines(of: file, 0..<file.count)
    var out: [PatchLine] = []
    out.reserveCapacity(lines.count + addedCount)
    var applied: [Hunk] = []
    var cursor = 0
    var shift = 0
    for hunk in hunks {
      let expected = min(max(cursor, hunk.oldStart + shift), lines.count)
      let at: Int
      if !hunk.old.isEmpty {
        guard let found = Patch.find(hunk.old, in: lines, from: cursor, near: expected) else {
          throw Patch.conflict(
            hunk, lines: lines, at: Patch.locate(hunk, in: lines, from: cursor, near: expected))
        }
        at = found
      } else if hunk.anchor == nil {
        at = cursor
      } else if hunk.oldStart >= oldCount, !restoring || lines.last?.bytes == hunk.anchor || lines.isEmpty {
        at = lines.count
      } else if let anchor = hunk.anchor,
        let found = Patch.find(
          [PatchLine(bytes: anchor, ending: .lf)], in: lines, from: max(cursor - 1, 0),
          near: expected - 1)
      {
        at = max(found + 1, cursor)
      } else {
        at = hunk.oldStart >= oldCount ? lines.count : expected
      }
      out += lines[cursor..<at]
      applied.append(
        Hunk(
          oldStart: at, newStart: out.count, old: Array(lines[at..<(at + hunk.old.count)]),
          new: hunk.new,
          anchor: at > 0 ? lines[at - 1].bytes : nil,
          following: at + hunk.old.count < lines.count ? lines[at + hunk.old.count].bytes : nil))
      out += hunk.new
      cursor = at + hunk.old.count
      shift = at - hunk.oldStart
    }
    out += lines[cursor...]
    // Every line but the last ends with a newline, whatever the hunks brought along.
    if out.count > 1 {
      for index in 0..<(out.count - 1) where out[index].ending == .none {
        out[index].ending = file.preferredLineEnding
      }
    }
    var result: [UInt8] = file.hasByteOrderMark ? TodoList.byteOrderMark : []
    result.reserveCapacity(bytes.count + 64)
    for line in out { result += line.bytes + line.ending.bytes }
    return (result, Patch(hunks: applied, oldCount: lines.count, newCount: out.count))
  }

  /// The start of the run `block` in `lines` at or after `from`, nearest to `near`.
  static func find(_ block: [PatchLine], in lines: [PatchLine], from: Int, near: Int) -> Int? {
    nearest(from: from, last: lines.count - block.count, near: near) { start in
      for (offset, line) in block.enumerated() where lines[start + offset].bytes != line.bytes {
        return false
      }
      return true
    }
  }

  /// The start in `from...last` nearest to `near` for which `matches` holds (the later of
  /// two as near): how every patch finds a run of lines in a file that may have changed.
  static func nearest(from: Int, last: Int, near: Int, _ matches: (Int) -> Bool) -> Int? {
    guard last >= from else { return nil }
    let center = min(max(near, from), last)
    var distance = 0
    while center - distance >= from || center + distance <= last {
      if center + distance <= last, matches(center + distance) { return center + distance }
      if distance > 0, center - distance >= from, matches(center - distance) {
        return center - distance
      }
      distance += 1
    }
    return nil
  }

  /// Where the run of a hunk that is no longer there would stand: after its unchanged line
  /// before, or before its unchanged line after, when either is still there.
  static func locate(_ hunk: Hunk, in lines: [PatchLine], from: Int, near expected: Int) -> Int {
    if let anchor = hunk.anchor,
      let found = find(
        [PatchLine(bytes: anchor, ending: .lf)], in: lines, from: max(from - 1, 0),
        near: expected - 1)
    {
      return found + 1
    }
    if let following = hunk.following,
      let found = find(
        [PatchLine(bytes: following, ending: .lf)], in: lines, from: from,
        near: expected + hunk.old.count),
      found - hunk.old.count >= from
    {
      return found - hunk.old.count
    }
    // Both neighbours changed too: the nearby line most like the first line of the run.
    guard let first = hunk.old.first?.bytes else { return expected }
    func shared(_ line: [UInt8]) -> Int { zip(line, first).prefix { $0 == $1 }.count }
    let nearby = max(from, expected - 3)...max(from, min(expected + 3, lines.count - 1))
    let best = nearby.filter { $0 < lines.count }.max {
      shared(lines[$0].bytes) < shared(lines[$1].bytes)
    }
    if let best, shared(lines[best].bytes) > 0 { return best }
    return expected
  }

  /// The first line of the hunk's run that is not where it was, as it was and as it is.
  static func conflict(_ hunk: Hunk, lines: [PatchLine], at expected: Int) -> PatchConflict {
    for (offset, line) in hunk.old.enumerated() {
      let position = expected + offset
      let next = offset + 1 < hunk.old.count ? hunk.old[offset + 1].bytes : hunk.following
      guard position < lines.count, lines[position].bytes != line.bytes else {
        if position < lines.count { continue }
        return PatchConflict(line: hunk.oldStart + offset + 1, was: line.bytes, now: nil)
      }
      let now = lines[position].bytes
      return PatchConflict(
        line: hunk.oldStart + offset + 1, was: line.bytes, now: now == next ? nil : now)
    }
    return PatchConflict(line: hunk.oldStart + 1, was: hunk.old.first?.bytes ?? [], now: nil)
  }
}
