extension Task {
  /// The task that follows this `rec:` task once it is completed on `today`, or `nil` when it
  /// does not recur.
  ///
  /// - Normal (`rec:1w`): the new due date is `today` plus the interval.
  /// - Strict (`rec:+1w`): the new due date is the old due date plus the interval, even when
  ///   that is still in the past, unless `catchUp` is set: then the interval is added until the
  ///   date is today or later.
  /// - A threshold (`t:`) keeps its distance to the due date. A task with only `t:` moves its
  ///   threshold the same way and gets no `due:`; a task with neither gets a `due:`.
  /// - The new task is open, keeps its priority (also one kept in `pri:`), and its creation
  ///   date, when it had one, becomes `today`. Everything else is copied as written.
  public func nextOccurrence(completedOn today: TaskDate, catchUp: Bool = false) -> Task? {
    guard let recurrence else { return nil }
    var next = self
    next.reopen()
    let due = dueDate
    let threshold = thresholdDate

    func advance(from anchor: TaskDate) -> TaskDate {
      var date = recurrence.advance(anchor)
      if catchUp, recurrence.isStrict {
        var guardCount = 0
        while date < today, guardCount < 100_000 {
          date = recurrence.advance(date)
          guardCount += 1
        }
      }
      return date
    }

    if let due {
      let newDue = advance(from: recurrence.isStrict ? due : today)
      next.setTag(TagMeaning.due.key, newDue.description)
      if let threshold {
        next.setTag(TagMeaning.threshold.key, newDue.adding(days: -threshold.days(until: due)).description)
      }
    } else if let threshold {
      next.setTag(TagMeaning.threshold.key, advance(from: recurrence.isStrict ? threshold : today).description)
    } else {
      next.setTag(TagMeaning.due.key, advance(from: today).description)
    }
    if next.creationDate != nil { next.setCreationDate(today) }
    return next
  }
}

extension Task {
  /// Sets or replaces the creation date in the head (after the priority on an open task).
  ///
  /// A completed task without a completion date is left as it is: a lone date after `x ` is
  /// read as the completion date, so it has no place for a creation date.
  public mutating func setCreationDate(_ date: TaskDate?) {
    let bodyStart = bytes.startIndex + bodyOffset
    if creationDate != nil {
      // The creation date is always the last field of the head.
      let atEnd = bodyStart == bytes.endIndex && bytes.last != .space
      let lower = atEnd ? bodyStart - 10 : bodyStart - 11
      if let date {
        replaceBytes(lower..<(lower + 10), with: date.utf8)
      } else {
        replaceBytes(lower..<(atEnd ? lower + 10 : lower + 11), with: [])
      }
    } else if let date {
      if isCompleted, completionDate == nil { return }
      let lower: Int
      switch priorityPlacement {
      case .leading: lower = bytes.startIndex + 4
      case .none, .afterMark, .afterCompletionDate:
        // On a completed task the creation date follows the completion date (and a priority
        // written after it).
        lower = bytes.startIndex + bodyOffset
      }
      // A space separates the date from what follows, and from a completion date that ends
      // the line (`x 2026-01-05` has no space after it); a date may itself end the line.
      var inserted = date.utf8
      if lower > bytes.startIndex, !bytes[lower - 1].isTaskWhitespace { inserted.insert(.space, at: 0) }
      if lower < bytes.endIndex { inserted.append(.space) }
      replaceBytes(lower..<lower, with: inserted)
    }
  }
}
