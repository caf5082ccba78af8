/// How a completed task keeps the priority it had.
public enum CompletedPriorityStyle: Sendable {
  /// Move it to a `pri:X` tag at the end of the line, as the format recommends; ``Task/reopen()``
  /// puts it back.
  case tag
  /// Drop it, as todo.sh does.
  case drop
}

extension Task {
  /// Replaces `range` (indices of ``bytes``) with `replacement` and parses the line again.
  ///
  /// Every edit goes through here, so each one touches only the bytes it names.
  mutating func replaceBytes(_ range: Range<Int>, with replacement: some Collection<UInt8>) {
    var line = Array(bytes)
    let base = bytes.startIndex
    line.replaceSubrange((range.lowerBound - base)..<(range.upperBound - base), with: replacement)
    self = Task(bytes: line)
  }

  private var start: Int { bytes.startIndex }
  private var end: Int { bytes.endIndex }
  private var bodyStart: Int { bytes.startIndex + bodyOffset }

  /// Replaces the whole line.
  public mutating func setLine(_ newBytes: some Collection<UInt8>) {
    self = Task(bytes: Array(newBytes))
  }

  // MARK: Priority

  /// Sets or removes the priority.
  ///
  /// On an open task the `(X) ` at the start of the line is replaced, inserted or removed.
  /// On a completed task a priority in the head is replaced or removed where it stands;
  /// otherwise the `pri:` tag is set or removed.
  public mutating func setPriority(_ priority: Priority?) {
    if let location = headPriorityRange {
      if let priority {
        replaceBytes((location.lowerBound + 1)..<(location.lowerBound + 2), with: [priority.byte])
      } else {
        replaceBytes(location, with: [])
      }
      return
    }
    if isCompleted {
      if let priority { setTag(TagMeaning.keptPriority.key, priority.description) } else { removeTag(TagMeaning.keptPriority.key) }
    } else if let priority {
      replaceBytes(start..<start, with: [.openParen, priority.byte, .closeParen, .space])
    }
  }

  /// The bytes of `(X) ` in the head, when there is a head priority.
  private var headPriorityRange: Range<Int>? {
    switch priorityPlacement {
    case .none: return nil
    case .leading: return start..<(start + 4)
    case .afterMark: return (start + 2)..<(start + 6)
    case .afterCompletionDate: return (start + 13)..<(start + 17)
    }
  }

  // MARK: Completion

  /// Marks the task done on `date`: `x DATE ` goes in front, an open task's priority moves
  /// to a ` pri:X` appended at the end (or is dropped), and nothing else in the line changes.
  ///
  /// The tag is always appended with one space of its own, even after trailing whitespace or
  /// an older `pri:`, so that ``reopen()`` can take exactly those bytes away again.
  /// A task that is already completed is left as it is.
  public mutating func complete(on date: TaskDate, priorityStyle: CompletedPriorityStyle = .tag) {
    guard !isCompleted else { return }
    let priority = headPriority
    if priority != nil { replaceBytes(start..<(start + 4), with: []) }
    replaceBytes(start..<start, with: [.lowercaseX, .space] + date.utf8 + [.space])
    if let priority, priorityStyle == .tag {
      replaceBytes(end..<end, with: [.space] + Array((TagMeaning.keptPriority.key + ":").utf8) + [priority.byte])
    }
  }

  /// Makes a completed task open again: removes `x `, the completion date and a priority in
  /// the head, and restores the priority from the head or from the last `pri:` tag (which is
  /// then removed: the ` pri:X` that ``complete(on:priorityStyle:)`` appended, byte for byte,
  /// so that done then reopened is the line it was). The creation date and the body stay.
  public mutating func reopen() {
    guard isCompleted else { return }
    let priority = priority
    // Offsets from the line's start, as in `removeTag`.
    let keptTag = headPriority == nil && keptPriority != nil
      ? lastTagRange(TagMeaning.keptPriority.key).map { (token: $0.token.lowerBound - start, upper: $0.token.upperBound - start) } : nil
    if let keptTag, keptTag.upper == bytes.count, keptTag.token >= bodyOffset,
      bytes[start + keptTag.token - 1] == .space
    {
      // The appended ` pri:X`: exactly its bytes go.
      replaceBytes((start + keptTag.token - 1)..<end, with: [])
    } else if let keptTag {
      removeToken((start + keptTag.token)..<(start + keptTag.upper))
    }
    var head: [UInt8] = []
    if let priority { head += [.openParen, priority.byte, .closeParen, .space] }
    if let creationDate {
      head += creationDate.utf8
      // The head's last field is followed by a space unless it ends the line.
      if bodyStart < end || bytes.last == .space { head.append(.space) }
    }
    replaceBytes(start..<bodyStart, with: head)
  }

  // MARK: Tags

  /// Sets the first `key:` tag's value in place, or appends ` key:value` to the line.
  public mutating func setTag(_ key: String, _ value: String) {
    if let range = tagValueRange(key) {
      replaceBytes(range, with: Array(value.utf8))
    } else {
      appendTag(key: key, value: value)
    }
  }

  private mutating func appendTag(key: String, value: String) {
    appendText(key + ":" + value)
  }

  /// Removes every `key:` tag, with the whitespace before it (or after it, for a tag that
  /// starts the body). Returns whether there was one.
  @discardableResult
  public mutating func removeTag(_ key: String) -> Bool {
    let keyBytes = Array(key.utf8)
    // Offsets from the line's start: after the first removal the line is a new array whose
    // indices start at zero, while a line read from a list starts where it sits in the file.
    var offsets: [Range<Int>] = []
    forEachToken { token in
      if case .tag(let colon) = token.kind, bytes[token.range.lowerBound..<colon].elementsEqual(keyBytes) {
        offsets.append((token.range.lowerBound - start)..<(token.range.upperBound - start))
      }
    }
    // From the last one back, so that the offsets still to do stay valid.
    for offset in offsets.reversed() { removeToken((start + offset.lowerBound)..<(start + offset.upperBound)) }
    return !offsets.isEmpty
  }

  /// Removes the token at `range` and one adjoining run of whitespace.
  mutating func removeToken(_ range: Range<Int>) {
    var lower = range.lowerBound
    var upper = range.upperBound
    while lower > bodyStart, bytes[lower - 1].isTaskWhitespace { lower -= 1 }
    if lower == range.lowerBound {
      while upper < end, bytes[upper].isTaskWhitespace { upper += 1 }
    }
    replaceBytes(lower..<upper, with: [])
  }

  // MARK: Text

  /// Appends text at the end of the line, after a space unless the line is empty or already
  /// ends with whitespace.
  public mutating func appendText(_ text: String) {
    let needsSpace = !(bytes.last?.isTaskWhitespace ?? true)
    replaceBytes(end..<end, with: (needsSpace ? [.space] : []) + Array(text.utf8))
  }

  /// Inserts `text` at the start of the body, after the completion mark, dates and priority,
  /// with a space between it and the body (none when the body is empty).
  public mutating func prependText(_ text: String) { prependText(bytes: Array(text.utf8)) }

  /// ``prependText(_:)`` with bytes as typed (which need not be UTF-8).
  public mutating func prependText(bytes text: [UInt8]) {
    var inserted = separatedFromHead(text)
    if bodyStart < end { inserted.append(.space) }
    replaceBytes(bodyStart..<bodyStart, with: inserted)
  }

  /// Replaces the body, keeping the head (completion, dates, priority).
  public mutating func replaceBody(_ text: String) {
    replaceBytes(bodyStart..<end, with: separatedFromHead(Array(text.utf8)))
  }

  /// `text` with a space in front when the head ends the line without one (`(A) 2026-01-02`
  /// has an empty body and no space after the date), so the text does not run into the date.
  private func separatedFromHead(_ text: [UInt8]) -> [UInt8] {
    guard !text.isEmpty, bodyStart > start, !bytes[bodyStart - 1].isTaskWhitespace else { return text }
    return [.space] + text
  }
}
