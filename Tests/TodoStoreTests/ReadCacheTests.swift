import Foundation
import Testing
import TodoTxt

@testable import TodoStore

#if canImport(Glibc)
  import Glibc
#endif

/// The shell's cache of files read (``ReadCache``) on a file system whose clock is coarse: two
/// writes in one tick leave the same stamp, which the tests stand for by handing the cache
/// the stamp from before the second write.
@Suite struct ReadCacheTests {
  /// A clock the test moves.
  final class Clock: @unchecked Sendable {
    var now = FileStamp.wallClock()
    func advance(_ seconds: Int) { now.tv_sec += seconds }
  }

  static func stamp(_ path: String) throws -> FileStamp {
    try #require(FileStamp(path: path))
  }

  /// Overwrites the file's bytes in place (same inode, same size).
  static func rewrite(_ path: String, _ text: String) {
    let fd = open(path, O_WRONLY)
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    close(fd)
  }

  /// `lookup` on the file as it is now, under the stamp given.
  static func lookup(_ cache: ReadCache, _ path: String, as stamp: FileStamp) -> [UInt8]? {
    let fd = open(path, O_RDONLY)
    defer { close(fd) }
    return cache.lookup(path, stamp: stamp, fd: fd)?.bytes
  }

  @Test func aRecentVersionWhoseBytesChangedUnderTheSameStampIsNotUsed() throws {
    let scratch = Scratch()
    scratch.write("todo.txt", "aaa\n")
    let path = scratch.file("todo.txt")
    let clock = Clock()
    let cache = ReadCache { clock.now }
    let stamp = try Self.stamp(path)
    cache.remember(path, stamp: stamp, bytes: Array("aaa\n".utf8))
    #expect(Self.lookup(cache, path, as: stamp) == Array("aaa\n".utf8))
    Self.rewrite(path, "bbb\n")
    // Even long after: the version was seen too soon after its change to trust its stamp.
    clock.advance(3600)
    #expect(Self.lookup(cache, path, as: stamp) == nil)
    #expect(cache.count == 0)
  }

  @Test func aVersionComparedOnceSettledIsTrustedOnItsStamp() throws {
    let scratch = Scratch()
    scratch.write("todo.txt", "aaa\n")
    let path = scratch.file("todo.txt")
    let clock = Clock()
    let cache = ReadCache { clock.now }
    let stamp = try Self.stamp(path)
    cache.remember(path, stamp: stamp, bytes: Array("aaa\n".utf8))
    clock.advance(3)
    // Compared byte for byte, the file found settled: from now on the stamp is enough.
    #expect(Self.lookup(cache, path, as: stamp) == Array("aaa\n".utf8))
    Self.rewrite(path, "bbb\n")
    #expect(Self.lookup(cache, path, as: stamp) == Array("aaa\n".utf8))
  }

  @Test func aFileWhoseChangeTimeIsAheadOfTheClockIsNeverSettled() throws {
    let scratch = Scratch()
    scratch.write("todo.txt", "aaa\n")
    let stamp = try Self.stamp(scratch.file("todo.txt"))
    var past = FileStamp.wallClock()
    past.tv_sec -= 60
    #expect(!stamp.isSettled(now: past))
    var later = FileStamp.wallClock()
    later.tv_sec += 3
    #expect(stamp.isSettled(now: later))
  }

  @Test func aStoreReadsTheFileAgainAfterEveryKindOfChange() throws {
    let scratch = Scratch()
    scratch.write("todo.txt", "aaa\nbbb\n")
    let path = scratch.file("todo.txt")
    let store = TodoStore(stateDirectory: scratch.file("state"))
    store.readCache = ReadCache()
    #expect(try store.read(path).serialized() == Array("aaa\nbbb\n".utf8))
    Self.rewrite(path, "ccc\nddd\n")
    #expect(try store.read(path).serialized() == Array("ccc\nddd\n".utf8))
    scratch.write("todo.txt", "eee\n")
    #expect(try store.readBytes(path) == Array("eee\n".utf8))
    try store.update(path, label: "edit") { list in list.append(TodoTxt.Task(bytes: Array("fff".utf8))) }
    #expect(try store.read(path).serialized() == Array("eee\nfff\n".utf8))
    try store.append([Array("ggg".utf8)], to: path, label: "add")
    #expect(try store.readBytes(path) == Array("eee\nfff\nggg\n".utf8))
    // A store without the cache, as another process, then this one.
    try TodoStore(stateDirectory: scratch.file("state")).update(path, label: "edit") { list in
      list.append(TodoTxt.Task(bytes: Array("hhh".utf8)))
    }
    #expect(try store.read(path).serialized() == Array("eee\nfff\nggg\nhhh\n".utf8))
  }
}
