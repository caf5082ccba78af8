import TodoTxt

/// The journal's fourth version of a line patch: where each run of lines was replaced, the
/// lines taken as hashes, and the lines brought as no more than their places in the new
/// version of the file.
///
/// A journal is only ever replayed while the new version it names is staged beside the file
/// (``TodoStore/recover(_:)``), so the lines a change brings can be read from there instead
/// of being written a second time; the lines it takes are needed only to find them again in
/// a file another program edited before the replay, for which a hash does. An archive of a
/// million-line file records about a megabyte instead of 27 (each taken line, both its
/// neighbours and every line added to done.txt, whole), and sealing it costs as little.
///
/// Anchors (the unchanged line before a run) are kept only for runs that take no line: a run
/// that takes lines is found by them.
struct HashedPatch: Equatable, Sendable {
  struct Run: Equatable, Sendable {
    /// Where the run starts in the file before and in the file after (0-based).
    var oldStart: Int
    var newStart: Int
    /// How many lines it takes, as their hashes (``ContentHash/ofLine(_:)``).
    var old: [UInt64]
    /// How many lines it brings: lines `newStart..<newStart + newCount` of the new version.
    var newCount: Int
    /// The hash of the unchanged line before a run that takes nothing, when there is one and
    /// the run is not at the file's end.
    var anchor: UInt64?
  }

  /// Line counts of the files before and after.
  var oldCount: Int
  var newCount: Int
  var runs: [Run]

  /// Whether a run at `oldStart` that takes no line records its anchor.
  static func hasAnchor(oldStart: Int, taking: Int, oldCount: Int) -> Bool {
    taking == 0 && oldStart > 0 && oldStart < oldCount
  }
}

extension ByteWriter {
  /// `patch` in the journal's fourth version (see ``HashedPatch``): per run, the unchanged
  /// lines before it, the lines it takes and brings, then the hashes.
  mutating func hashedPatch(_ patch: Patch) {
    int(patch.oldCount)
    int(patch.newCount)
    int(patch.hunkCount)
    var oldEnd = 0
    var newEnd = 0
    patch.forEachHunkView { hunk in
      // Between two runs the unchanged lines are the same in both files, so one count says
      // where the run starts in both.
      precondition(
        hunk.oldStart - oldEnd == hunk.newStart - newEnd && hunk.oldStart >= oldEnd,
        "runs out of order")
      int(hunk.oldStart - oldEnd)
      int(hunk.oldCount)
      int(hunk.newCount)
      if HashedPatch.hasAnchor(
        oldStart: hunk.oldStart, taking: hunk.oldCount, oldCount: patch.oldCount)
      {
        fixed64(ContentHash.ofLine(hunk.anchor ?? []))
      }
      hunk.forEachOld { line, _ in fixed64(ContentHash.ofLine(line)) }
      oldEnd = hunk.oldStart + hunk.oldCount
      newEnd = hunk.newStart + hunk.newCount
    }
  }
}

extension ByteWriter {
  /// A patch as read back, written again the same way.
  mutating func hashedPatch(_ patch: HashedPatch) {
    int(patch.oldCount)
    int(patch.newCount)
    int(patch.runs.count)
    var oldEnd = 0
    for run in patch.runs {
      int(run.oldStart - oldEnd)
      int(run.old.count)
      int(run.newCount)
      if let anchor = run.anchor { fixed64(anchor) }
      for hash in run.old { fixed64(hash) }
      oldEnd = run.oldStart + run.old.count
    }
  }
}

extension ByteReader {
  /// A patch ``ByteWriter/hashedPatch(_:)`` wrote; runs that overlap, leave the files' line
  /// counts or do not add up to them are damage.
  mutating func hashedPatch() throws(CorruptRecord) -> HashedPatch {
    let oldCount = try lineNumber()
    let newCount = try lineNumber()
    var runs: [HashedPatch.Run] = []
    var oldEnd = 0
    var newEnd = 0
    for _ in 0..<(try count()) {
      let gap = try lineNumber()
      let taking = try lineNumber()
      let bringing = try lineNumber()
      let oldStart = oldEnd + gap
      let newStart = newEnd + gap
      guard oldStart + taking <= oldCount, newStart + bringing <= newCount else {
        throw CorruptRecord()
      }
      let anchor =
        HashedPatch.hasAnchor(oldStart: oldStart, taking: taking, oldCount: oldCount)
        ? try fixed64() : nil
      guard taking <= remaining / 8 else { throw CorruptRecord() }
      var old: [UInt64] = []
      old.reserveCapacity(taking)
      for _ in 0..<taking { old.append(try fixed64()) }
      runs.append(
        HashedPatch.Run(
          oldStart: oldStart, newStart: newStart, old: old, newCount: bringing, anchor: anchor))
      oldEnd = oldStart + taking
      newEnd = newStart + bringing
    }
    guard oldCount - oldEnd == newCount - newEnd else { throw CorruptRecord() }
    return HashedPatch(oldCount: oldCount, newCount: newCount, runs: runs)
  }
}

extension HashedPatch {
  /// Applies the patch to `bytes` (the file now, which another program may have edited since
  /// the patch was made) with the lines it brings read from `newVersion`, the file's new
  /// version as the change staged it; each run's lines are looked up nearest to where they
  /// were, as ``Patch/apply(to:)`` does.
  func apply(to bytes: [UInt8], newVersion: [UInt8]) throws(PatchConflict) -> [UInt8] {
    let file = TodoList(bytes: bytes)
    let source = TodoList(bytes: newVersion)
    guard source.count == newCount else { throw PatchConflict(line: 1, was: [], now: nil) }
    var keys: [UInt64] = []
    keys.reserveCapacity(file.count)
    for index in file.indices { keys.append(ContentHash.ofLine(file.lineBytes(at: index))) }
    var out: [(list: Int, index: Int)] = []
    out.reserveCapacity(file.count + newCount)
    var cursor = 0
    var shift = 0
    for run in runs {
      let expected = min(max(cursor, run.oldStart + shift), keys.count)
      let at: Int
      if !run.old.isEmpty {
        guard
          let found = Patch.nearest(
            from: cursor, last: keys.count - run.old.count, near: expected,
            { start in
              for (offset, key) in run.old.enumerated() where keys[start + offset] != key {
                return false
              }
              return true
            })
        else { throw PatchConflict(line: run.oldStart + 1, was: [], now: nil) }
        at = found
      } else if run.oldStart == 0 {
        at = cursor
      } else if run.oldStart >= oldCount {
        at = keys.count
      } else if let anchor = run.anchor,
        let found = Patch.nearest(
          from: max(cursor - 1, 0), last: keys.count - 1, near: expected - 1, { keys[$0] == anchor }
        )
      {
        at = max(found + 1, cursor)
      } else {
        at = expected
      }
      for index in cursor..<at { out.append((0, index)) }
      for index in run.newStart..<(run.newStart + run.newCount) { out.append((1, index)) }
      cursor = at + run.old.count
      shift = at - run.oldStart
    }
    for index in cursor..<keys.count { out.append((0, index)) }
    var result: [UInt8] = file.hasByteOrderMark ? TodoList.byteOrderMark : []
    result.reserveCapacity(bytes.count + newVersion.count / 8)
    for (position, line) in out.enumerated() {
      let list = line.list == 0 ? file : source
      result += list.lineBytes(at: line.index)
      var ending = list.lineEnding(at: line.index)
      // Every line but the last ends with a newline, whatever the runs brought along.
      if ending == .none, position < out.count - 1 { ending = file.preferredLineEnding }
      result += ending.bytes
    }
    return result
  }
}
