extension TodoList {
  /// Calls `body` with each line's 0-based index and bytes (without the line ending), without
  /// making a ``Task``: for passes over a whole file that must not allocate per line.
  public func forEachLineBytes(_ body: (Int, UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
    try forEachLine(body)
  }
}
