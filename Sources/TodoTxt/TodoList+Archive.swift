extension TodoList {
  /// How ``archiveCompleted(into:rules:)`` treats line endings and blank lines.
  public enum ArchiveRules: Sendable {
    /// todo.txt's: every moved line ends as `done`'s lines do (as this list's, when `done` has
    /// none yet), and every blank line goes.
    case todoTxt
    /// The drop-in `todo.sh`'s: each moved line keeps its own ending, and a blank line ending
    /// in CR LF stays (the CR is a character to a line tool).
    case lineTool
  }

  /// Moves every done task (a line starting with `x `) to the end of `done` and removes blank
  /// lines; returns the index in `done` of the first moved line (`done.count` before).
  ///
  /// Done tasks are found by their first bytes, without parsing any other line, and the
  /// moved lines are stored once, in `done`: a million-line list is archived in little more
  /// than the memory of the two lists. The remaining tasks close up, so their numbers change.
  @discardableResult
  public mutating func archiveCompleted(into done: inout TodoList, rules: ArchiveRules = .todoTxt) -> Int {
    let firstMoved = done.count
    let ending = done.isEmpty ? preferredLineEnding : done.preferredLineEnding
    // At most every line moves: room for them all, once.
    done.reserveCapacity(lines: count, bytes: heldByteCount)
    var removes = [Bool](repeating: false, count: count)
    forEachLineBytes { index, line in
      let own = lineEnding(at: index)
      if line.count >= 2, line[0] == UInt8(ascii: "x"), line[1] == UInt8(ascii: " ") {
        let moved = Task(bytes: lineBytes(at: index))
        switch rules {
        case .todoTxt: done.append(moved, ending: ending)
        case .lineTool: done.append(moved, ending: own == .none ? .lf : own)
        }
        removes[index] = true
      } else if line.isEmpty {
        removes[index] = rules == .todoTxt || own != .crlf
      }
    }
    removeLines(marked: removes)
    return firstMoved
  }
}
