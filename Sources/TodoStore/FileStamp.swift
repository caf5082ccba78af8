#if canImport(Glibc)
  import Glibc
#endif

/// Identifies one version of a file without reading it: device, inode, size, modification
/// time and change time, both to the nanosecond.
///
/// A program that saves by renaming a new file over the old one changes the inode; one that
/// rewrites in place changes the change time, which no program can set back (`touch -d` and
/// `utimensat(2)` set the modification time only, and that sets the change time to now).
/// What a stamp cannot show is two writes within one tick of the file system's clock (a few
/// milliseconds on Linux, a second or two on some network and FAT file systems) that leave
/// the size as it was: see ``isSettled(now:window:)`` for how a reader copes with that.
package struct FileStamp: Equatable, Sendable {
  package var device: UInt64
  package var inode: UInt64
  package var size: Int64
  package var modificationSeconds: Int
  package var modificationNanoseconds: Int
  package var changeSeconds: Int
  package var changeNanoseconds: Int

  package init(_ info: Glibc.stat) {
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
    size = Int64(info.st_size)
    modificationSeconds = info.st_mtim.tv_sec
    modificationNanoseconds = info.st_mtim.tv_nsec
    changeSeconds = info.st_ctim.tv_sec
    changeNanoseconds = info.st_ctim.tv_nsec
  }

  /// The stamp of what `path` names now (following symbolic links), or `nil` when nothing is
  /// there. The C function is `stat`.
  package init?(path: String) {
    var info = Glibc.stat()
    guard FileStamp.statCall(path, &info) == 0 else { return nil }
    self.init(info)
  }

  // The C function whose name Swift also gives to `struct stat`.
  private static let statCall:
    @Sendable (UnsafePointer<CChar>, UnsafeMutablePointer<Glibc.stat>) -> Int32 = Glibc.stat(_:_:)

  /// How long after its last change a file's stamp is trusted to show the next change.
  package static let settleWindow = 2.0

  /// Whether the file's last change is at least `window` seconds before `now` (wall clock),
  /// so that any later write gets a later modification or change time than this stamp holds.
  ///
  /// A stamp taken closer to its file's last change than that may be shared by a second write
  /// in the same tick of a coarse clock: a version seen then is compared byte for byte before
  /// it is trusted again. A change time ahead of `now` (another machine's clock, on a network
  /// file system) is never settled.
  package func isSettled(now: timespec, window: Double = FileStamp.settleWindow) -> Bool {
    func seconds(_ s: Int, _ ns: Int) -> Double { Double(s) + Double(ns) / 1e9 }
    let latest = max(
      seconds(modificationSeconds, modificationNanoseconds), seconds(changeSeconds, changeNanoseconds))
    return seconds(now.tv_sec, now.tv_nsec) - latest >= window
  }

  /// The wall clock now (`clock_gettime(2)`, `CLOCK_REALTIME`): the clock file times come from,
  /// never the tool's own (which tests stop at a fixed date).
  package static func wallClock() -> timespec {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return now
  }
}
