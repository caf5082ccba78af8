/// The conflicts a merge left in a file, written between marker lines as git writes them:
///
///     <<<<<<< ours-label
///     our lines
///     ||||||| base-label        (only in git's diff3 style)
///     the common version's lines
///     =======
///     their lines
///     >>>>>>> their-label
///
/// `resolve` reads them here so that a person can keep one side, the other, or both, without
/// editing marker lines by hand; every other native command refuses a file holding them.
/// Markers are recognised as ``ListCheck`` and the store's check recognise them (seven marker
/// characters, alone or followed by a space and a label, a CR before the line break ignored).
package struct ConflictBlocks: Sendable {
  /// One conflict, as line indices of the list.
  package struct Block: Sendable, Equatable {
    /// The `<<<<<<<` line.
    package var start: Int
    /// Our lines.
    package var ours: Range<Int>
    /// The common version's lines (diff3 style), `nil` when the markers have none.
    package var base: Range<Int>?
    /// Their lines.
    package var theirs: Range<Int>
    /// The `>>>>>>>` line.
    package var end: Int
    /// The labels after the opening and closing markers (empty when there are none).
    package var oursLabel: String
    package var theirsLabel: String
    /// Where our side moved the task, as the opening marker's label names it.
    package var oursMove: Move? = nil
    /// Where their side moved the task, as the closing marker's label names it.
    package var theirsMove: Move? = nil
  }

  /// A side of a conflict that moved its task to the other list file (archived it, or moved
  /// it back), named after the side's label by the merge (``TodoMerge``):
  /// `>>>>>>> theirs, moved to done.txt: x 2026-12-01 File taxes`. The line there is part
  /// of the conflict: keeping that side keeps it, keeping the other side removes it, so
  /// that the task is left once, where the chosen side put it.
  package struct Move: Sendable, Equatable {
    package var file: TodoMerge.ListFile
    /// The task's line in that file.
    package var line: [UInt8]

    package init(file: TodoMerge.ListFile, line: [UInt8]) {
      self.file = file
      self.line = line
    }
  }

  /// The words between a side's label and the line its task moved to.
  private static func phrase(_ file: TodoMerge.ListFile) -> [UInt8] {
    Array(", moved to \(file == .todo ? "todo.txt" : "done.txt"): ".utf8)
  }

  /// A marker's label for a side that moved its task to `file` as `line`.
  static func label(_ label: String, movedTo file: TodoMerge.ListFile, line: some Collection<UInt8>)
    -> [UInt8]
  {
    Array(label.utf8) + phrase(file) + line
  }

  /// The move a marker's label names, if any: the first phrase in it, the rest the line.
  static func move(inLabel label: some Collection<UInt8>) -> Move? {
    let label = Array(label)
    var first: (start: Int, file: TodoMerge.ListFile, length: Int)?
    for file in [TodoMerge.ListFile.todo, .done] {
      let phrase = phrase(file)
      guard phrase.count <= label.count,
        let start = (0...(label.count - phrase.count)).first(where: {
          label[$0..<($0 + phrase.count)].elementsEqual(phrase)
        }),
        start < first?.start ?? Int.max
      else { continue }
      first = (start, file, phrase.count)
    }
    return first.map { Move(file: $0.file, line: Array(label[($0.start + $0.length)...])) }
  }

  /// Which lines of a conflict to keep.
  package enum Side: String, Sendable, CaseIterable {
    case ours, theirs, both
  }

  /// A marker line out of place: an opening one never closed, a closing one never opened, a
  /// block without its `=======`. Such a file is not settled here; it needs an editor.
  package struct Malformed: Error, Sendable, Equatable {
    /// The line number (1 for the first line).
    package var line: Int
  }

  package private(set) var blocks: [Block]

  /// Finds the conflicts of `list`; throws when a marker line is out of place.
  package init(_ list: TodoList) throws(Malformed) {
    blocks = []
    enum State { case outside, ours, base, theirs }
    var state = State.outside
    var current = Block(start: 0, ours: 0..<0, base: nil, theirs: 0..<0, end: 0, oursLabel: "", theirsLabel: "")
    var sectionStart = 0
    for index in list.indices {
      var line = list.lineBytes(at: index)
      if line.last == 0x0D { line = line.dropLast() }
      guard let marker = ListCheck.conflictMarker(line) else { continue }
      let label = String(decoding: line.dropFirst(8), as: UTF8.self)
      switch (marker, state) {
      case (UInt8(ascii: "<"), .outside):
        current = Block(
          start: index, ours: 0..<0, base: nil, theirs: 0..<0, end: 0, oursLabel: label,
          theirsLabel: "", oursMove: ConflictBlocks.move(inLabel: line.dropFirst(8)))
        sectionStart = index + 1
        state = .ours
      case (UInt8(ascii: "|"), .ours):
        current.ours = sectionStart..<index
        sectionStart = index + 1
        state = .base
      case (UInt8(ascii: "="), .ours), (UInt8(ascii: "="), .base):
        if state == .ours { current.ours = sectionStart..<index } else { current.base = sectionStart..<index }
        sectionStart = index + 1
        state = .theirs
      case (UInt8(ascii: ">"), .theirs):
        current.theirs = sectionStart..<index
        current.end = index
        current.theirsLabel = label
        current.theirsMove = ConflictBlocks.move(inLabel: line.dropFirst(8))
        blocks.append(current)
        state = .outside
      case (UInt8(ascii: "="), .outside):
        // A line of seven '=' outside a conflict is a task's text (a heading some people use).
        continue
      default:
        throw Malformed(line: index + 1)
      }
    }
    if state != .outside { throw Malformed(line: current.start + 1) }
  }

  /// The indices of the lines that settling `chosen` (block index → side) removes: the marker
  /// lines and common-version lines of each chosen block, and the side not kept.
  package func linesRemoved(settling chosen: [Int: Side]) -> Set<Int> {
    var removed: Set<Int> = []
    for (index, side) in chosen {
      let block = blocks[index]
      removed.insert(block.start)
      removed.insert(block.end)
      removed.insert(block.base.map { $0.lowerBound - 1 } ?? block.ours.upperBound)
      removed.insert(block.theirs.lowerBound - 1)
      if let base = block.base { removed.formUnion(base) }
      switch side {
      case .ours: removed.formUnion(block.theirs)
      case .theirs: removed.formUnion(block.ours)
      case .both: break
      }
    }
    return removed
  }
}

extension ConflictBlocks {
  /// The lines to remove from todo.txt and done.txt to settle the chosen conflicts of each:
  /// the lines ``linesRemoved(settling:)`` names, and for a side that moved its task to the
  /// other file (``Block/oursMove``) and is not kept, its line there (the first copy outside
  /// that file's conflicts), so that the task is left once, where the chosen side put it.
  ///
  /// - Parameters:
  ///   - chosen: for each list, block index → side.
  ///   - lists: each list, its conflicts, and which of the two files it is.
  /// - Returns: for each list, the indices of the lines to remove.
  package static func linesRemoved(
    settling chosen: [[Int: Side]],
    in lists: [(list: TodoList, conflicts: ConflictBlocks, file: TodoMerge.ListFile)]
  ) -> [Set<Int>] {
    var removed = lists.indices.map { lists[$0].conflicts.linesRemoved(settling: chosen[$0]) }
    for index in lists.indices {
      for (block, side) in chosen[index] where side != .both {
        let block = lists[index].conflicts.blocks[block]
        for (move, keptBy) in [(block.oursMove, Side.ours), (block.theirsMove, .theirs)] {
          guard let move, side != keptBy,
            let other = lists.firstIndex(where: { $0.file == move.file }), other != index
          else { continue }
          let (list, conflicts) = (lists[other].list, lists[other].conflicts)
          let inside = conflicts.blocks.reduce(into: Set<Int>()) { $0.formUnion($1.start...$1.end) }
          let line = list.indices.first { line in
            guard !inside.contains(line), !removed[other].contains(line) else { return false }
            var bytes = list.lineBytes(at: line)
            if bytes.last == 0x0D { bytes = bytes.dropLast() }
            return bytes.elementsEqual(move.line)
          }
          if let line { removed[other].insert(line) }
        }
      }
    }
    return removed
  }
}
