import Foundation
import Testing

/// The server going away in the middle of a sync (killed while items are being written), then
/// coming back: the next sync finishes the work with nothing doubled.
@Suite(.serialized) struct CalDAVServerStopTests {
  /// The items the server has written so far, counted on its disk.
  func storedCount(_ server: RadicaleFixture) -> Int {
    let enumerator = FileManager.default.enumerator(atPath: server.folder.path)
    var count = 0
    while let path = enumerator?.nextObject() as? String {
      if path.hasSuffix(".ics"), !path.contains(".Radicale.cache") { count += 1 }
    }
    return count
  }

  /// Starts Radicale again on the fixture's port and storage.
  func restart(_ server: RadicaleFixture) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: RadicaleFixture.python)
    process.arguments = [
      "-m", "radicale", "--server-hosts", "127.0.0.1:\(server.port)", "--auth-type", "none",
      "--storage-filesystem-folder", server.folder.appendingPathComponent("storage").path, "--logging-level", "warning",
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let deadline = ContinuousClock.now + .seconds(20)
    while !RadicaleFixture.accepts(server.port), ContinuousClock.now < deadline { usleep(30_000) }
    return process
  }

  @Test func aServerStoppedMidSyncIsFinishedByTheNextSync() throws {
    let (box, server, calendar) = try CalDAVCommandTests().setUp()
    let tasks = 120
    try box.write("todo.txt", (1...tasks).map { "Task number \($0) +bench\n" }.joined())
    // The sync runs on a thread of its own (not the test pool's, which this test blocks); this
    // one kills the server once some items are written.
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var first: Sandbox.Run?
    Thread.detachNewThread {
      first = try? box.todo("caldav", "sync")
      done.signal()
    }
    let deadline = ContinuousClock.now + .seconds(120)
    while storedCount(server) < 20, ContinuousClock.now < deadline { usleep(20_000) }
    let killed = try RadicaleFixture.run("/usr/bin/pkill", ["-KILL", "-f", "radicale --server-hosts 127.0.0.1:\(server.port) "])
    #expect(killed.status == 0, "the server was not found to stop")
    done.wait()
    let cut = try #require(first)
    #expect(cut.status == 3, "\(cut.stdout)\(cut.stderr)")
    #expect(cut.stderr.split(separator: "\n").count == 1, "one line: \(cut.stderr)")
    let written = storedCount(server)
    #expect(written > 0 && written < tasks, "killed after \(written) of \(tasks)")

    let again = try restart(server)
    defer {
      again.terminate()
      again.waitUntilExit()
    }
    let second = try box.todo("caldav", "sync")
    #expect(second.status == 0, "\(second.stderr)")
    // Every task once on each side, under one UID each.
    let lines = box.read("todo.txt").split(separator: "\n")
    let uids = lines.compactMap { $0.split(separator: " ").first { $0.hasPrefix("uid:") } }
    #expect(lines.count == tasks)
    #expect(Set(uids).count == tasks)
    let items = try server.dump(calendar)
    #expect(items.count == tasks)
    #expect(Set(items.map(\.uid)).count == tasks)
    #expect(Set(items.map(\.uid)) == Set(uids.map { String($0.dropFirst(4)) }))
    let third = try box.todo("caldav", "sync")
    #expect(third.stdout.contains("the list +0 ~0 -0, the server +0 ~0 -0"), "\(third.stdout)")
  }
}
