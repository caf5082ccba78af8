extension Task {
  /// Removes the `key:value` tags with exactly this value (and the whitespace before each),
  /// leaving other tags with the same key. Returns whether there was one.
  ///
  /// Dependencies need it: a task can belong to several parents (`p:1 p:4`), and unlinking
  /// one parent must keep the others where they are.
  @discardableResult
  public mutating func removeTag(_ key: String, value: String) -> Bool {
    let keyBytes = Array(key.utf8)
    let valueBytes = Array(value.utf8)
    var ranges: [Range<Int>] = []
    forEachToken { token in
      if case .tag(let colon) = token.kind, bytes[token.range.lowerBound..<colon].elementsEqual(keyBytes),
        bytes[(colon + 1)..<token.range.upperBound].elementsEqual(valueBytes)
      {
        ranges.append(token.range)
      }
    }
    for range in ranges.reversed() { removeToken(range) }
    return !ranges.isEmpty
  }
}
