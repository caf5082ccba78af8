/// Where a command's output goes: the console the command line was given, or, while a change
/// is being written or output is being captured, a holder put in front of it.
///
/// The sink is what lets ``CommandContext`` stay immutable: holding output back is a state
/// of the output, not of the context, so `storing` and `capturingOutput` put a holder in front
/// for the time of their body instead of swapping the context's console, and every context
/// made from this one (other settings, a command run by another) writes through the same sink.
package final class OutputSink: Console {
  /// The console the sink was made for: what a person sees.
  private let base: Console
  /// The holders in front of `base`, innermost last.
  private var holders: [Console] = []

  package init(_ base: Console) {
    self.base = base
  }

  /// The sink for `console`: itself when it already is one, so that a context made from
  /// another shares its holders.
  static func over(_ console: Console) -> OutputSink {
    (console as? OutputSink) ?? OutputSink(console)
  }

  /// Where output goes at this moment: the innermost holder, else the console itself. A
  /// command that asks a person inside a change takes it before the change starts, so that
  /// the question is not held back with the change's own output.
  package var destination: Console { holders.last ?? base }

  package var isTerminal: Bool { base.isTerminal }
  package var columns: Int? { base.columns }

  package func write(_ bytes: [UInt8]) { destination.write(bytes) }
  package func write(contentsOf bytes: UnsafeBufferPointer<UInt8>) { destination.write(contentsOf: bytes) }
  package func writeError(_ bytes: [UInt8]) { destination.writeError(bytes) }
  package func flush() { destination.flush() }

  /// Runs `body` with `holder` in front of the current destination, and takes it away after
  /// (thrown or not).
  func holding<R, Failure: Error>(_ holder: Console, _ body: () throws(Failure) -> R) throws(Failure) -> R {
    holders.append(holder)
    defer { holders.removeLast() }
    return try body()
  }
}
