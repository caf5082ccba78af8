import Foundation
import Testing
import TodoTestSupport

/// The server going away in the middle of a sync (killed while items are being written), then
/// coming back: the next sync finishes the work with nothing doubled. Each test has a server
/// of its own, since it is killed.
@Suite struct CalDAVServerStopTests {
  @Test(arguments: CalendarServer.Kind.allCases)
  func aServerStoppedMidSyncIsFinishedByTheNextSync(kind: CalendarServer.Kind) throws {
    let server = try CalendarServer(kind)
    defer { server.stop() }
    let calendar = try server.makeTaskCalendar()
    let box = try Sandbox()
    box.environment["TODO_CALDAV_PASSWORD_COMMAND"] = "echo '\(server.password)'"
    #expect(try box.todo("caldav", "setup", calendar, "--user", server.user).status == 0)
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
    while server.storedCount(calendar) < 20, ContinuousClock.now < deadline { usleep(10_000) }
    server.kill()
    done.wait()
    let cut = try #require(first)
    #expect(cut.status == 3, "\(cut.stdout)\(cut.stderr)")
    #expect(cut.stderr.split(separator: "\n").count == 1, "one line: \(cut.stderr)")
    let written = server.storedCount(calendar)
    #expect(written > 0 && written < tasks, "killed after \(written) of \(tasks)")

    if kind == .xandikos {
      // Killed while writing, Xandikos leaves git's lock files in its storage and answers
      // every write with 500 until they are gone: its administrator removes them.
      let enumerator = FileManager.default.enumerator(atPath: server.folder.path)
      while let path = enumerator?.nextObject() as? String {
        guard path.hasSuffix(".lock") else { continue }
        try? FileManager.default.removeItem(atPath: server.folder.appendingPathComponent(path).path)
      }
    }
    try server.restart()
    let second = try box.todo("caldav", "sync")
    #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
    // Every task once on each side, under one UID each.
    let lines = box.read("todo.txt").split(separator: "\n")
    let uids = Set(lines.map { CalDAVCommandTests.uid($0) })
    #expect(lines.count == tasks)
    #expect(uids.count == tasks && !uids.contains(""))
    let items = try server.dump(calendar)
    #expect(items.count == tasks)
    #expect(Set(items.map(\.uid)) == uids)
    let third = try box.todo("caldav", "sync")
    #expect(third.stdout.contains("the list +0 ~0 -0, the server +0 ~0 -0"), "\(third.stdout)")
  }
}
