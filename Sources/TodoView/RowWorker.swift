import Dispatch
@preconcurrency import Glibc

/// Makes the view's rows on another thread: filtering a million tasks as a person types, or
/// sorting them, takes longer than a key may wait, so the loop hands the request here, keeps
/// answering keys (the prompt echoes at once), and takes the rows when they are made.
///
/// Only the newest request is worked on: requests that were overtaken while waiting are
/// dropped, and the session drops an answer to an older one. The loop is woken through a
/// descriptor it polls.
package final class RowWorker: @unchecked Sendable {
  private let work = DispatchQueue(label: "todo.view.rows", qos: .userInitiated)
  /// Guards `waiting` and `done`.
  private let state = DispatchQueue(label: "todo.view.rows.state")
  private var waiting: ViewSession.RowRequest?
  private var done: (ViewSession.RowRequest, [Int])?
  private let wakeUp: Int32

  /// - Parameter wakeUp: a descriptor to write a byte to when rows are made.
  package init(wakeUp: Int32) { self.wakeUp = wakeUp }

  package func submit(_ request: ViewSession.RowRequest) {
    state.sync { waiting = request }
    work.async { [self] in
      guard let next = state.sync(execute: { () -> ViewSession.RowRequest? in
        defer { waiting = nil }
        return waiting
      }) else { return }
      let rows = ViewSession.rows(for: next)
      state.sync { done = (next, rows) }
      var byte: UInt8 = 2
      _ = write(wakeUp, &byte, 1)
    }
  }

  /// The rows made since the last call, if any.
  package func take() -> (ViewSession.RowRequest, [Int])? {
    state.sync {
      defer { done = nil }
      return done
    }
  }
}
