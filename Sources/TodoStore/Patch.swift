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
    let (list, applied) = try applied(to: bytes, restoring: restoring)
    return (list.serialized(), applied)
  }

  /// ``apply(to:restoring:)``, its result a list of the file's lines and the patch's (see
  /// ``TodoList/assembled(_:)``): the file's lines are read where they lie in its bytes and
  /// the result holds none of them again (a copy of each line of a million-line file, to undo
  /// one added task, took twice the file again), so it is written a block at a time.
  func applied(to bytes: [UInt8], restoring: Bool = false) throws(PatchConflict) -> (list: TodoList, applied: Patch) {
    let file = TodoList(bytes: bytes)
    func line(_ index: Int) -> PatchLine { PatchLine(bytes: Array(file.lineBytes(at: index)), ending: file.lineEnding(at: index)) }
    var applied: [Hunk] = []
    let list = try file.assembled { (result: inout TodoList.Assembly) throws(PatchConflict) in
      var cursor = 0
      var shift = 0
      for given in hunks {
        let hunk = Patch.withoutVanishedLastLine(given, oldCount: oldCount)
        let expected = min(max(cursor, hunk.oldStart + shift), file.count)
        let at: Int
        if !hunk.old.isEmpty {
          guard let found = Patch.find(hunk.old.map(\.bytes), in: file, from: cursor, near: expected) else {
            throw Patch.conflict(hunk, in: file, at: Patch.locate(hunk, in: file, from: cursor, near: expected))
          }
          at = found
        } else if hunk.anchor == nil {
          at = cursor
        } else if hunk.oldStart >= oldCount,
          !restoring || file.isEmpty || hunk.anchor.map({ file.lineBytes(at: file.count - 1).elementsEqual($0) }) == true
        {
          at = file.count
        } else if let anchor = hunk.anchor,
          let found = Patch.find([anchor], in: file, from: max(cursor - 1, 0), near: expected - 1)
        {
          at = max(found + 1, cursor)
        } else {
          at = hunk.oldStart >= oldCount ? file.count : expected
        }
        result.keep(cursor..<at)
        applied.append(
          Hunk(
            oldStart: at, newStart: result.count, old: (at..<(at + hunk.old.count)).map(line), new: hunk.new,
            anchor: at > 0 ? Array(file.lineBytes(at: at - 1)) : nil,
            following: at + hunk.old.count < file.count ? Array(file.lineBytes(at: at + hunk.old.count)) : nil))
        for new in hunk.new { result.add(new.bytes, ending: new.ending) }
        cursor = at + hunk.old.count
        shift = at - hunk.oldStart
      }
      result.keep(cursor..<file.count)
    }
    return (list, Patch(hunks: applied, oldCount: file.count, newCount: list.count))
  }

  /// `hunk` without an empty last line that has no line ending at the end of the file it
  /// takes lines from: such a line is no bytes at all, so no file read again has it (`a⏎⏎`
  /// is two lines), and looking for it found another empty line instead. It is a line of a
  /// file a change made by emptying the last line of a file without a final newline (todo.sh's
  /// `del` keeps an empty line in place); undoing that change looked for it, took the empty
  /// line before it, and lost that line.
  static func withoutVanishedLastLine(_ hunk: Hunk, oldCount: Int) -> Hunk {
    guard let last = hunk.old.last, last.bytes.isEmpty, last.ending == .none, hunk.oldStart + hunk.old.count == oldCount
    else { return hunk }
    var trimmed = hunk
    trimmed.old.removeLast()
    return trimmed
  }

  /// The start of the run `block` (lines' bytes) in `file` at or after `from`, nearest to `near`.
  static func find(_ block: [[UInt8]], in file: TodoList, from: Int, near: Int) -> Int? {
    nearest(from: from, last: file.count - block.count, near: near) { start in
      for (offset, line) in block.enumerated() where !file.lineBytes(at: start + offset).elementsEqual(line) {
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
  static func locate(_ hunk: Hunk, in file: TodoList, from: Int, near expected: Int) -> Int {
    if let anchor = hunk.anchor, let found = find([anchor], in: file, from: max(from - 1, 0), near: expected - 1) {
      return found + 1
    }
    if let following = hunk.following,
      let found = find([following], in: file, from: from, near: expected + hunk.old.count),
      found - hunk.old.count >= from
    {
      return found - hunk.old.count
    }
    // Both neighbours changed too: the nearby line most like the first line of the run.
    guard let first = hunk.old.first?.bytes else { return expected }
    func shared(_ index: Int) -> Int { zip(file.lineBytes(at: index), first).prefix { $0 == $1 }.count }
    let nearby = max(from, expected - 3)...max(from, min(expected + 3, file.count - 1))
    let best = nearby.filter { $0 < file.count }.max { shared($0) < shared($1) }
    if let best, shared(best) > 0 { return best }
    return expected
  }

  /// The first line of the hunk's run that is not where it was, as it was and as it is.
  static func conflict(_ hunk: Hunk, in file: TodoList, at expected: Int) -> PatchConflict {
    for (offset, line) in hunk.old.enumerated() {
      let position = expected + offset
      let next = offset + 1 < hunk.old.count ? hunk.old[offset + 1].bytes : hunk.following
      guard position < file.count, !file.lineBytes(at: position).elementsEqual(line.bytes) else {
        if position < file.count { continue }
        return PatchConflict(line: hunk.oldStart + offset + 1, was: line.bytes, now: nil)
      }
      let now = Array(file.lineBytes(at: position))
      return PatchConflict(
        line: hunk.oldStart + offset + 1, was: line.bytes, now: now == next ? nil : now)
    }
    return PatchConflict(line: hunk.oldStart + 1, was: hunk.old.first?.bytes ?? [], now: nil)
  }
}
