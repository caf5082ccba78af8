import CalDAVSync
import Foundation
import Testing
import TodoCalendar
import TodoTxt

#if canImport(Glibc)
  import Glibc
#endif

/// When a sync writes its state: only when the state changed (a sync with nothing to do
/// writes nothing), and always when the file on disk is not the state the sync would leave.
@Suite struct SyncStateWriteTests {
  /// The state file's inode and modification time: a write replaces the file (a new inode).
  func stateFileIdentity(_ bench: SyncBench) throws -> (inode: UInt, modified: Int) {
    let folder = bench.folder + "/state/caldav"
    let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".state") }
    let name = try #require(names.count == 1 ? names.first : nil)
    var info = stat()
    try #require(stat(folder + "/" + name, &info) == 0)
    return (UInt(info.st_ino), Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec))
  }

  @Test func aSyncWithNothingToDoLeavesTheStateFileAlone() throws {
    let bench = SyncBench()
    bench.write((1...30).map { "Task \($0) +p\($0 % 4)" }.joined(separator: "\n") + "\n")
    _ = try bench.sync(confirmed: true)
    // The second sync takes the token that covers the first one's own writes.
    _ = try bench.sync()
    let before = try stateFileIdentity(bench)
    let result = try bench.sync()
    #expect(result.plan.isEmpty)
    let after = try stateFileIdentity(bench)
    #expect(after.inode == before.inode)
    #expect(after.modified == before.modified)
  }

  @Test func aSyncThatChangesTheStateWritesIt() throws {
    let bench = SyncBench()
    bench.write("Buy milk\nCall Mum\n")
    _ = try bench.sync()
    _ = try bench.sync()
    let before = try stateFileIdentity(bench)
    bench.server.put("uid-2.ics", vtodo("uid-2", "SUMMARY:Call Mum today"))
    _ = try bench.sync()
    #expect(try stateFileIdentity(bench).inode != before.inode)
    #expect(bench.listTasks["uid-2"]?.title == "Call Mum today")
    // The state written holds the phone's edit as the base: a further sync does nothing,
    // and once it has the token past the sync's own writes (the list's manual order sent
    // back), it writes nothing either.
    #expect(try bench.sync().plan.isEmpty)
    let settled = try stateFileIdentity(bench)
    #expect(try bench.sync().plan.isEmpty)
    #expect(try stateFileIdentity(bench).inode == settled.inode)
  }

  @Test func aDamagedStateIsWrittenAgainEvenWhenTheSyncFindsNothingToDo() throws {
    let bench = SyncBench()
    bench.write("Buy milk\nCall Mum\n")
    _ = try bench.sync()
    _ = try bench.sync()
    let folder = bench.folder + "/state/caldav"
    let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first)
    let path = folder + "/" + name
    var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    bytes[bytes.count / 2] ^= 0x20
    try bytes.write(to: URL(fileURLWithPath: path))
    let result = try bench.sync()
    #expect(result.stateProblem == .damaged)
    // Rewritten whole: the next sync reads it without a problem and does nothing.
    let again = try bench.sync()
    #expect(again.stateProblem == nil)
    #expect(again.plan.isEmpty)
    bench.expectConsistent()
  }
}
