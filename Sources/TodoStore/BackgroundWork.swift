import Dispatch

/// Work started on another thread and waited for where its result is needed.
///
/// A change to several files has work that needs none of the new files' bytes (the hashes of
/// the old versions, the journal's record of the patches); done on a second core it costs
/// nothing while the first writes the new versions. The work must only read what it captures:
/// the values it shares with the caller (a list, a snapshot's bytes) are not changed while it
/// runs.
package final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
  /// Set once by the work, read only after ``done`` was signalled.
  private var value: Value?
  private let done = DispatchSemaphore(value: 0)

  package init(_ work: @escaping @Sendable () -> Value) {
    DispatchQueue.global().async {
      self.value = work()
      self.done.signal()
    }
  }

  /// The work's result, once it is done.
  package func wait() -> Value {
    done.wait()
    // Signalled again, so that a second wait returns at once.
    done.signal()
    guard let value else { preconditionFailure("background work signalled without a result") }
    return value
  }

}
