import Foundation
import Testing

/// One server of each kind for a whole suite: started when a test of the suite first asks for
/// it, stopped when the suite ends. Starting a server costs a second or two here; a suite whose tests each make a calendar of their own
/// (``CalendarServer/makeTaskCalendar()``) pays that once instead of once a test.
///
/// A suite gets them with the trait `.sharedCalendarServers`; its tests then call
/// ``SharedCalendarServers/server(_:)``.
public struct SharedCalendarServers: SuiteTrait, TestScoping {
  public var isRecursive: Bool { false }

  @TaskLocal static var current: Pool?

  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    let pool = Pool()
    defer { pool.stopAll() }
    try await SharedCalendarServers.$current.withValue(pool) { try await function() }
  }

  /// The suite's server of this kind, started now if no test asked for it before.
  public static func server(_ kind: CalendarServer.Kind) throws -> CalendarServer {
    guard let pool = current else {
      throw CalendarServer.MissingServer(
        description: "a shared server is asked for outside a suite with the trait .sharedCalendarServers")
    }
    return try pool.server(kind)
  }

  final class Pool: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var servers: [CalendarServer.Kind: CalendarServer] = [:]

    func server(_ kind: CalendarServer.Kind) throws -> CalendarServer {
      try lock.withLock {
        if let server = servers[kind], server.isRunning { return server }
        let server = try CalendarServer(kind)
        servers[kind] = server
        return server
      }
    }

    func stopAll() {
      let all = lock.withLock { Array(servers.values) }
      for server in all { server.stop() }
    }
  }
}

extension Trait where Self == SharedCalendarServers {
  /// One server of each kind for the suite, started on first use (``SharedCalendarServers``).
  public static var sharedCalendarServers: Self { SharedCalendarServers() }
}
