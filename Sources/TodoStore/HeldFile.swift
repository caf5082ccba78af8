import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// The open file a change's snapshot was read from, kept open until the change is in place,
/// with a read lease on it, where the system grants one, while it is read and while the new
/// version is put in its place.
///
/// Programs other than this tool write without its lock. One that saves by renaming is seen
/// by the file's identity changing. One that writes in place (truncates, then writes, maybe in
/// pieces with pauses between) is the dangerous kind: a snapshot taken in a pause holds only
/// part of the file, and a rename made before the writer's last write sends that write into
/// the replaced file, where it is lost. The lease catches such a writer without guessing from
/// times: it cannot be taken while any process has the file open for writing, and once taken,
/// a later open for writing waits for it and marks it broken. So the store reads only a file
/// nobody has open for writing, and puts a new version in place only while it holds the lease
/// again, checking right after that nobody began to open the file meanwhile.
///
/// The lease is not held in between: the edit may take long (``TodoStore/update(_:label:_:)``
/// runs `todo edit`'s editor), and a writer's open would wait for it all that time. A writer
/// that opens, writes and closes in between changes the stamp; one still holding the file
/// open keeps the lease from being taken again.
///
/// Without a lease (another user's file, a network file system, leases turned off) only the
/// stamp, taken before the read and compared after it and again before the rename, shows a
/// writer.
final class HeldFile: @unchecked Sendable {
  /// -1 once closed (see ``closeInBackground()``).
  private(set) var fd: Int32
  /// The file's stamp when it was read.
  let stamp: FileStamp
  /// A read lease is held (see ``Posix/takeReadLease(_:)``).
  private(set) var leased: Bool
  private let posix: Posix

  init(fd: Int32, stamp: FileStamp, leased: Bool, posix: Posix) {
    self.fd = fd
    self.stamp = stamp
    self.leased = leased
    self.posix = posix
  }

  // Closing drops the lease, and a writer waiting for it goes on.
  deinit { if fd >= 0 { posix.close(fd) } }

  /// Closes the file on another thread, once the new version is in its place and the old
  /// one has no name left: the file system frees a file as its last descriptor closes, and
  /// for a version of a million lines that is about ten milliseconds, which then overlap the
  /// rest of the command instead of adding to it. After this the file reads as changed.
  func closeInBackground() {
    guard fd >= 0 else { return }
    let (fd, posix) = (self.fd, self.posix)
    self.fd = -1
    leased = false
    DispatchQueue.global().async { posix.close(fd) }
  }

  /// Whether the file read is still as it was read: the same stamp, and, with a lease, no
  /// process has begun to open it for writing since.
  var isUnchanged: Bool { isUnchanged(afterRename: false) }

  /// ``isUnchanged``, for the file just renamed (or swapped) away from its name: a rename sets
  /// its change time, so only its size and modification time are compared then.
  func isUnchanged(afterRename: Bool) -> Bool {
    guard let info = try? posix.fstat(fd) else { return false }
    var now = FileStamp(info)
    if afterRename {
      now.changeSeconds = stamp.changeSeconds
      now.changeNanoseconds = stamp.changeNanoseconds
    }
    return now == stamp && (!leased || posix.leaseIsIntact(fd))
  }

  /// Takes the lease again for putting the new version in place; `false` when a writer has
  /// the file open or the file changed since it was read.
  func holdForRename() -> Bool {
    if !leased {
      switch posix.takeReadLease(fd) {
      case .held: leased = true
      case .writerOpen: return false
      case .unavailable: break
      }
    }
    return isUnchanged
  }

  /// Lets a writer waiting for the lease go on: after the read, and before the file is read
  /// again.
  func release() {
    guard leased else { return }
    posix.releaseLease(fd)
    leased = false
  }
}
