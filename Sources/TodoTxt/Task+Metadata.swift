#if canImport(Glibc)
  import Glibc
#endif

/// A `key:value` token of a task body.
public struct Tag: Hashable, Sendable {
  /// The key, before the first colon.
  public var key: String
  /// The value, after the first colon.
  public var value: String

  /// A tag with this key and value.
  public init(key: String, value: String) {
    self.key = key
    self.value = value
  }
}

/// One whitespace-separated word of a task body, with what it means.
public struct Token: Sendable {
  /// What a word of the body is.
  public enum Kind: Sendable, Equatable {
    /// Plain text.
    case word
    /// `+name`: the name is everything after the first `+`.
    case project
    /// `@name`: the name is everything after the first `@`.
    case context
    /// `key:value`; `colon` is the index of the separating colon.
    case tag(colon: Int)
  }

  /// What the token is.
  public var kind: Kind
  /// The token's bytes, as indices of ``Task/bytes``.
  public var range: Range<Int>
}

extension Token.Kind {
  /// Classifies a token (no whitespace inside) by its first bytes and its colons.
  ///
  /// - `+x`, `@x` (at least one byte after the sigil): project, context, even with a colon.
  /// - `key:value` with exactly one colon, both sides non-empty, and a value that does not
  ///   start with `//`: a tag. So `a:b:c`, `:x`, `x:`, `due:` and `http://host/path` are text;
  ///   `12:30` is a tag with no meaning to this tool and is always shown as written.
  static func classify(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Token.Kind {
    let first = b[start]
    if end - start >= 2 {
      if first == .plus { return .project }
      if first == .at { return .context }
    }
    var colon = -1
    var i = start
    while i < end {
      if b[i] == .colon {
        if colon >= 0 { return .word }
        colon = i
      }
      i += 1
    }
    guard colon > start, colon < end - 1 else { return .word }
    if colon + 2 < end, b[colon + 1] == .slash, b[colon + 2] == .slash { return .word }
    return .tag(colon: colon)
  }
}

extension Task {
  /// Calls `body` for each token of the task body, in order.
  ///
  /// Tokens are separated by runs of spaces and tabs; the head (completion mark, dates,
  /// priority) is not part of the body.
  public func forEachToken(_ body: (Token) throws -> Void) rethrows {
    let base = bytes.startIndex
    try bytes.withUnsafeBufferPointer { b in
      var i = bodyOffset
      let n = b.count
      while i < n {
        while i < n, b[i].isTaskWhitespace { i += 1 }
        guard i < n else { break }
        let start = i
        while i < n, !b[i].isTaskWhitespace { i += 1 }
        var kind = Token.Kind.classify(b, start, i)
        // `classify` counts from the buffer's start; a token's indices are those of `bytes`,
        // which for a line of a list start where the line sits in the file.
        if case .tag(let colon) = kind { kind = .tag(colon: base + colon) }
        try body(Token(kind: kind, range: (base + start)..<(base + i)))
      }
    }
  }

  /// The tokens of the body, in order.
  public var tokens: [Token] {
    var result: [Token] = []
    forEachToken { result.append($0) }
    return result
  }

  private func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

  /// `+project` names in order of first appearance, each once, with their case and any
  /// trailing punctuation kept (`+home.` is the project `home.`).
  public var projects: [String] { names(of: .project) }

  /// `@context` names, as ``projects``.
  public var contexts: [String] { names(of: .context) }

  private func names(of kind: Token.Kind) -> [String] {
    var result: [String] = []
    forEachToken { token in
      guard token.kind == kind else { return }
      let name = string((token.range.lowerBound + 1)..<token.range.upperBound)
      if !result.contains(name) { result.append(name) }
    }
    return result
  }

  /// Every `key:value` tag of the body, in order, repeats included.
  public var tags: [Tag] {
    var result: [Tag] = []
    forEachToken { token in
      guard case .tag(let colon) = token.kind else { return }
      result.append(
        Tag(key: string(token.range.lowerBound..<colon), value: string((colon + 1)..<token.range.upperBound)))
    }
    return result
  }

  /// The value of the first tag with this key (keys are case-sensitive); later repeats are
  /// kept in the line but do not count.
  public func tagValue(_ key: String) -> String? {
    tagValueRange(key).map(string)
  }

  /// Byte range of the value of the first tag with `key`.
  ///
  /// Colons are few, and every tag has one: each colon of the body is found (`memchr`), a key
  /// compared as bytes before it, and only such a token classified (``Token/Kind/classify``),
  /// so that the dates of a listing's tasks are read without a pass over every token and
  /// without a string per tag.
  func tagValueRange(_ key: String) -> Range<Int>? {
    var key = key
    let offset = bytes.startIndex
    let from = bodyOffset
    return key.withUTF8 { keyBytes in
      bytes.withUnsafeBufferPointer { b -> Range<Int>? in
        let n = b.count
        guard let base = b.baseAddress else { return nil }
        var colon = from + keyBytes.count
        while colon < n, let hit = memchr(base + colon, 0x3A, n - colon) {
          colon = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
          defer { colon += 1 }
          let start = colon - keyBytes.count
          guard start == from || b[start - 1].isTaskWhitespace,
            UnsafeBufferPointer(rebasing: b[start..<colon]).elementsEqual(keyBytes)
          else { continue }
          var end = colon + 1
          while end < n, !b[end].isTaskWhitespace { end += 1 }
          if case .tag = Token.Kind.classify(b, start, end) { return (offset + colon + 1)..<(offset + end) }
        }
        return nil
      }
    }
  }

  /// The date a tag's value holds (exactly `YYYY-MM-DD`), read from the line's bytes.
  private func date(_ value: Range<Int>) -> TaskDate? {
    guard value.count == 10 else { return nil }
    return bytes.withUnsafeBufferPointer { TaskDate.parse($0, at: value.lowerBound - bytes.startIndex) }
  }

  // MARK: Tags with meaning

  /// `due:YYYY-MM-DD`; `nil` when absent or not a real date (the tag stays as text).
  public var dueDate: TaskDate? { tagValueRange(TagMeaning.due.key).flatMap(date) }

  /// `t:YYYY-MM-DD`, the threshold: the task is not meant to be seen before that day.
  public var thresholdDate: TaskDate? { tagValueRange(TagMeaning.threshold.key).flatMap(date) }

  /// `rec:[+]N<d|w|m|y|b>`.
  public var recurrence: Recurrence? { tagValue(TagMeaning.recurrence.key).flatMap { Recurrence($0) } }

  /// `h:1` hides a task from listings; any other value (`h:0`) does not.
  public var isHidden: Bool { tagValueRange(TagMeaning.hidden.key).map { bytes[$0].elementsEqual(CollectionOfOne(0x31)) } ?? false }

  /// `pri:X`: the priority a completed task had (the spec's recommended way to keep it).
  ///
  /// The last one counts: `complete` appends its own, so a `pri:` the task already had (text
  /// of the user's) neither wins over it nor is lost.
  public var keptPriority: Priority? { lastTagRange(TagMeaning.keptPriority.key).flatMap { Priority(string($0.value)) } }

  /// The token and value ranges of the last tag with `key`.
  func lastTagRange(_ key: String) -> (token: Range<Int>, value: Range<Int>)? {
    let keyBytes = Array(key.utf8)
    var found: (Range<Int>, Range<Int>)?
    forEachToken { token in
      guard case .tag(let colon) = token.kind, bytes[token.range.lowerBound..<colon].elementsEqual(keyBytes) else {
        return
      }
      found = (token.range, (colon + 1)..<token.range.upperBound)
    }
    return found
  }

  /// `id:X`, the name other tasks use to depend on this one.
  public var dependencyID: String? { tagValue(TagMeaning.id.key) }

  /// Every `p:X`: the ids of the tasks this one belongs to or waits for.
  ///
  /// Only the values of `p:` tags become strings (most lines have none).
  public var parentIDs: [String] {
    var result: [String] = []
    forEachToken { token in
      guard case .tag(let colon) = token.kind, colon - token.range.lowerBound == 1,
        bytes[token.range.lowerBound] == UInt8(ascii: "p")
      else { return }
      result.append(string((colon + 1)..<token.range.upperBound))
    }
    return result
  }
}
