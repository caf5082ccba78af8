extension Task {
  /// Whether this task comes before `other` in a listing ordered by meaning.
  ///
  /// Raw byte order does not give a sensible list: `xylophone` sorts after `x 2026-01-05 …`,
  /// and `"quoted"` before `(A) urgent`. So the order is: open tasks before completed ones,
  /// then by priority (`A` first, no priority last; a completed task's `pri:` counts), then by
  /// the body text without case. Tasks equal by all three are not ordered here; callers break
  /// the tie by task number so that equal tasks keep their file order.
  public func precedes(_ other: Task) -> Bool {
    if isCompleted != other.isCompleted { return !isCompleted }
    switch (priority, other.priority) {
    case (let lhs?, let rhs?) where lhs != rhs: return lhs < rhs
    case (.some, nil): return true
    case (nil, .some): return false
    default: break
    }
    return text.lowercased() < other.text.lowercased()
  }
}
