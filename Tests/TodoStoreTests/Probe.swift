import Foundation

/// The `todo-store-probe` executable built beside the test bundle: store operations in
/// separate processes.
enum Probe {
  static var executable: URL {
    URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
      .appendingPathComponent("todo-store-probe")
  }

  static func start(_ arguments: [String], state: String) throws -> Process {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = ["TODO_PROBE_STATE": state, "PATH": "/usr/bin:/bin"]
    process.standardError = FileHandle.standardError
    try process.run()
    return process
  }

  /// Runs the probe to its end and returns how it ended.
  static func run(_ arguments: [String], state: String) throws -> (
    status: Int32, reason: Process.TerminationReason
  ) {
    let process = try start(arguments, state: state)
    process.waitUntilExit()
    return (process.terminationStatus, process.terminationReason)
  }
}
