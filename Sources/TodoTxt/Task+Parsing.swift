extension Task {
  /// Reads the head of the line: completion mark, dates and priority.
  ///
  /// Grammar (each field followed by exactly one space, as the format and todo.sh write it):
  /// ```
  /// complete   = "x" SP [pri SP] [date SP [pri SP] [date SP]] body
  /// incomplete = [pri SP] [date SP] body
  /// ```
  /// A date may also end the line (`(A) 2026-01-02` is a task with an empty body), a priority
  /// may not (`(A)` alone is text). A date that is not a real day is text (`2011-02-30`).
  mutating func parseHead() {
    let head = bytes.withUnsafeBufferPointer { Task.scanHead($0) }
    isCompleted = head.isCompleted
    completionDate = head.completionDate
    creationDate = head.creationDate
    headPriority = head.priority
    priorityPlacement = head.placement
    bodyOffset = head.bodyOffset
  }

  struct Head {
    var isCompleted = false
    var completionDate: TaskDate?
    var creationDate: TaskDate?
    var priority: Priority?
    var placement = PriorityPlacement.none
    var bodyOffset = 0
  }

  /// The head of a line, read from its bytes without allocating.
  static func scanHead(_ b: UnsafeBufferPointer<UInt8>) -> Head {
    var head = Head()
    var i = 0
    let n = b.count

    /// A priority `(X)` followed by a space at `i`.
    @inline(__always) func priority(at i: Int) -> Priority? {
      guard i + 4 <= n, b[i] == .openParen, b[i + 2] == .closeParen, b[i + 3] == .space else {
        return nil
      }
      return Priority(b[i + 1])
    }
    /// A date at `i` followed by a space or the end of the line; returns the offset after it.
    @inline(__always) func date(at i: Int) -> (TaskDate, Int)? {
      guard i + 10 <= n, i + 10 == n || b[i + 10] == .space, let date = TaskDate.parse(b, at: i) else {
        return nil
      }
      return (date, min(i + 11, n))
    }

    if n >= 2, b[0] == .lowercaseX, b[1] == .space {
      head.isCompleted = true
      i = 2
      if let p = priority(at: i) {
        head.priority = p
        head.placement = .afterMark
        i += 4
      }
      if let (completed, next) = date(at: i) {
        head.completionDate = completed
        i = next
        if head.priority == nil, let p = priority(at: i) {
          head.priority = p
          head.placement = .afterCompletionDate
          i += 4
        }
        if let (created, next) = date(at: i) {
          head.creationDate = created
          i = next
        }
      }
    } else {
      if let p = priority(at: 0) {
        head.priority = p
        head.placement = .leading
        i = 4
      }
      if let (created, next) = date(at: i) {
        head.creationDate = created
        i = next
      }
    }
    head.bodyOffset = i
    return head
  }
}
