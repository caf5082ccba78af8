/// A process exit status, named where the numbers are chosen.
public struct ExitStatus: RawRepresentable, Hashable, Sendable {
  public var rawValue: Int32
  public init(rawValue: Int32) { self.rawValue = rawValue }

  public static let success = ExitStatus(rawValue: 0)
  /// Any failure, usage errors included: todo.sh uses 1 for both, and scripts test for it.
  public static let failure = ExitStatus(rawValue: 1)
}
