/// A process exit status, named where the numbers are chosen.
package struct ExitStatus: RawRepresentable, Hashable, Sendable {
  package var rawValue: Int32
  package init(rawValue: Int32) { self.rawValue = rawValue }

  package static let success = ExitStatus(rawValue: 0)
  /// Any failure, usage errors included: todo.sh uses 1 for both, and scripts test for it.
  package static let failure = ExitStatus(rawValue: 1)
}
