#if canImport(Glibc)
  import Glibc
#endif
import CLinux
import TodoTxt

/// The C calls the store makes, named so that tests can make any of them fail.
package enum SystemCall: String, Sendable, CaseIterable {
  case open, read, write, fsync, rename, unlink, flock, ftruncate, fchmod, mkdir
}

/// Decides, before each system call, whether it fails and with which `errno`.
///
/// Tests use it to reproduce a full disk, a failing rename or fsync, or a process killed at a
/// chosen instant (the closure may end the process), without needing a special file system.
package struct FaultInjection: Sendable {
  let decide: @Sendable (SystemCall, String) -> Int32?

  /// `decide` gets the call and the path it acts on and returns an `errno`, or `nil` to let
  /// the call run.
  package init(_ decide: @escaping @Sendable (SystemCall, String) -> Int32?) { self.decide = decide }
}

/// A failed system call: which one and its `errno`.
struct SystemError: Error {
  var call: SystemCall
  var code: Int32
}

/// Thin wrappers over the C calls, each named after its C function; -1 and `errno` become a
/// thrown ``SystemError``, and EINTR is retried.
package struct Posix: Sendable {
  var faults: FaultInjection?

  // The C functions whose names Swift also gives to a struct (`struct flock`, `struct stat`).
  private static let flockCall: @Sendable (Int32, Int32) -> Int32 = Glibc.flock(_:_:)
  static let statCall:
    @Sendable (UnsafePointer<CChar>, UnsafeMutablePointer<Glibc.stat>) -> Int32 = Glibc.stat(_:_:)

  private func inject(_ call: SystemCall, _ path: String) throws(SystemError) {
    if let code = faults?.decide(call, path) { throw SystemError(call: call, code: code) }
  }

  /// The injected failure of `call` on `path`, for calls made outside these wrappers (the
  /// `*at` calls of ``ConfinedFolder``), as the store's error.
  func injectFault(_ call: SystemCall, _ path: String) throws(StoreError) {
    if let code = faults?.decide(call, path) {
      throw StoreError(errno: code, path: path, operation: call == .open ? .create : .write)
    }
  }

  /// `open(2)`; always with `O_CLOEXEC`, so add-ons never inherit a lock or a temporary file.
  func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0o666) throws(SystemError) -> Int32 {
    try inject(.open, path)
    while true {
      let fd = Glibc.open(path, flags | O_CLOEXEC, mode)
      if fd >= 0 { return fd }
      if errno != EINTR { throw SystemError(call: .open, code: errno) }
    }
  }

  /// `close(2)`; its error is ignored, because every file written is fsync'd before closing.
  func close(_ fd: Int32) { _ = Glibc.close(fd) }

  /// `read(2)` until end of file.
  ///
  /// With the file's size as `sizeHint`, the bytes are read straight into the array (backed
  /// by huge pages when large, see ``HugePages``).
  func readAll(_ fd: Int32, path: String, sizeHint: Int = 0) throws(SystemError) -> [UInt8] {
    try inject(.read, path)
    var failure: Int32 = 0
    var atEnd = false
    let capacity = HugePages.byteCapacity(atLeast: sizeHint + 1)
    var result = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
      count = 0
      guard let base = buffer.baseAddress else { return }
      HugePages.advise(UnsafeMutableRawBufferPointer(buffer))
      while count < capacity {
        let got = Glibc.read(fd, base + count, capacity - count)
        if got < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        if got == 0 {
          atEnd = true
          return
        }
        count += got
      }
    }
    if failure != 0 { throw SystemError(call: .read, code: failure) }
    // The file was larger than its size said (it grows, or is not a regular file).
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while !atEnd {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw SystemError(call: .read, code: errno)
      }
      if count == 0 { break }
      result.append(contentsOf: chunk[0..<count])
    }
    return result
  }

  /// `write(2)` until every byte is written.
  func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(SystemError) {
    try bytes.withUnsafeBufferPointer { (bytes) throws(SystemError) in try writeAll(fd, bytes, path: path) }
  }

  /// `write(2)` until every byte is written.
  func writeAll(_ fd: Int32, _ bytes: UnsafeBufferPointer<UInt8>, path: String) throws(SystemError) {
    try inject(.write, path)
    var offset = 0
    while offset < bytes.count {
      let count = Glibc.write(fd, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
      if count < 0 {
        if errno == EINTR { continue }
        throw SystemError(call: .write, code: errno)
      }
      offset += count
    }
  }

  /// `fsync(2)`. A device such as /dev/null answers EINVAL, which means there is nothing to
  /// make durable.
  func fsync(_ fd: Int32, path: String) throws(SystemError) {
    try inject(.fsync, path)
    while Glibc.fsync(fd) != 0 {
      if errno == EINTR { continue }
      if errno == EINVAL || errno == EROFS { return }
      throw SystemError(call: .fsync, code: errno)
    }
  }

  /// `fsync(2)` on a directory, so that a rename in it survives a power cut.
  func fsyncDirectory(_ path: String) throws(SystemError) {
    let fd = try open(path, O_RDONLY | O_DIRECTORY)
    defer { close(fd) }
    try fsync(fd, path: path)
  }

  /// `rename(2)`.
  func rename(_ from: String, _ to: String) throws(SystemError) {
    try inject(.rename, to)
    if Glibc.rename(from, to) != 0 { throw SystemError(call: .rename, code: errno) }
  }

  /// Whether `path` is on a FUSE file system (`statfs(2)`'s magic number 0x65735546), where
  /// the kernel cannot swap files and a lease does not see writers behind the mount.
  func isFUSE(_ path: String) -> Bool {
    clinux_fs_type(path) == 0x6573_5546
  }

  /// `renameat2(2)` with `RENAME_EXCHANGE`: swaps what the two paths name, in one step, so
  /// that whatever `to` named at the instant of the swap is kept (at `from`) rather than
  /// unlinked; `false` when the file system or the kernel cannot swap (then nothing
  /// happened). Made through ``CLinux`` (Swift's Glibc module does not export the call, and
  /// a static executable cannot look it up at run time).
  func exchange(_ from: String, _ to: String) throws(SystemError) -> Bool {
    try inject(.rename, to)
    if clinux_exchange(from, to) == 0 { return true }
    if errno == EINVAL || errno == ENOSYS || errno == ENOTSUP { return false }
    throw SystemError(call: .rename, code: errno)
  }

  /// Linux's lease commands for `fcntl(2)`, which Swift's Glibc module does not export
  /// (`F_SETLEASE`, `F_GETLEASE` from <fcntl.h>).
  private static let setLeaseCommand: Int32 = 1024
  private static let getLeaseCommand: Int32 = 1025
  /// `F_SETSIG` from <fcntl.h>.
  private static let setSignalCommand: Int32 = 10

  /// What asking for a read lease on an open file found.
  enum Lease: Equatable {
    /// Held: any other process's open of the file for writing (or truncate) now waits until
    /// it is released, and ``leaseIsIntact(_:)`` says that such an open began.
    case held
    /// Some process has the file open for writing right now (`EAGAIN`).
    case writerOpen
    /// Not available here (another user's file, a network file system, leases off).
    case unavailable
  }

  /// `fcntl(fd, F_SETLEASE, F_RDLCK)` on a file open read-only.
  ///
  /// The kernel tells a lease holder that a writer is waiting with a signal, by default
  /// SIGIO, which would end the process: the file's signal is set first to SIGURG, which is
  /// ignored unless handled (`F_SETSIG`), and the store asks ``leaseIsIntact(_:)`` instead.
  func takeReadLease(_ fd: Int32) -> Lease {
    guard Glibc.fcntl(fd, Posix.setSignalCommand, SIGURG) == 0 else { return .unavailable }
    if Glibc.fcntl(fd, Posix.setLeaseCommand, Int32(F_RDLCK)) == 0 { return .held }
    return errno == EAGAIN ? .writerOpen : .unavailable
  }

  /// Whether a read lease taken on `fd` is still whole: `false` once another process began
  /// to open the file for writing (it waits in `open(2)` until the lease is released).
  func leaseIsIntact(_ fd: Int32) -> Bool {
    Glibc.fcntl(fd, Posix.getLeaseCommand) == Int32(F_RDLCK)
  }

  /// Releases a lease (`F_UNLCK`), letting a waiting writer's open go on.
  func releaseLease(_ fd: Int32) { _ = Glibc.fcntl(fd, Posix.setLeaseCommand, Int32(F_UNLCK)) }

  /// `unlink(2)`; a missing file is not an error.
  func unlink(_ path: String) throws(SystemError) {
    try inject(.unlink, path)
    if Glibc.unlink(path) != 0, errno != ENOENT { throw SystemError(call: .unlink, code: errno) }
  }

  /// `flock(2)` with `LOCK_NB`; `false` when another open file holds the lock.
  func tryLock(_ fd: Int32, path: String) throws(SystemError) -> Bool {
    try inject(.flock, path)
    while Posix.flockCall(fd, LOCK_EX | LOCK_NB) != 0 {
      if errno == EINTR { continue }
      if errno == EWOULDBLOCK { return false }
      throw SystemError(call: .flock, code: errno)
    }
    return true
  }

  /// `ftruncate(2)`.
  func ftruncate(_ fd: Int32, _ size: Int, path: String) throws(SystemError) {
    try inject(.ftruncate, path)
    if Glibc.ftruncate(fd, off_t(size)) != 0 { throw SystemError(call: .ftruncate, code: errno) }
  }

  /// `fchmod(2)`.
  func fchmod(_ fd: Int32, _ mode: mode_t, path: String) throws(SystemError) {
    try inject(.fchmod, path)
    if Glibc.fchmod(fd, mode) != 0 { throw SystemError(call: .fchmod, code: errno) }
  }

  /// `fchown(2)`; only root or the owner can give a file away, so the caller decides whether
  /// a failure matters.
  func fchown(_ fd: Int32, _ owner: uid_t, _ group: gid_t) -> Bool {
    Glibc.fchown(fd, owner, group) == 0
  }

  /// `mkdir(2)`; an existing directory is not an error.
  func mkdir(_ path: String, _ mode: mode_t = 0o700) throws(SystemError) {
    try inject(.mkdir, path)
    if Glibc.mkdir(path, mode) != 0, errno != EEXIST {
      throw SystemError(call: .mkdir, code: errno)
    }
  }

  /// `stat(2)`, following symbolic links; `nil` when nothing is there.
  func stat(_ path: String) -> Glibc.stat? {
    var info = Glibc.stat()
    return Posix.statCall(path, &info) == 0 ? info : nil
  }

  /// `stat(2)` with the reason it failed.
  func statOrError(_ path: String) -> Result<Glibc.stat, SystemError> {
    var info = Glibc.stat()
    if Posix.statCall(path, &info) == 0 { return .success(info) }
    return .failure(SystemError(call: .open, code: errno))
  }

  /// `lstat(2)`: the link itself.
  func lstat(_ path: String) -> Glibc.stat? {
    var info = Glibc.stat()
    return Glibc.lstat(path, &info) == 0 ? info : nil
  }

  /// `fstat(2)`.
  func fstat(_ fd: Int32) throws(SystemError) -> Glibc.stat {
    var info = Glibc.stat()
    if Glibc.fstat(fd, &info) != 0 { throw SystemError(call: .open, code: errno) }
    return info
  }

  /// `realpath(3)`.
  func realpath(_ path: String) throws(SystemError) -> String {
    guard let resolved = Glibc.realpath(path, nil) else {
      throw SystemError(call: .open, code: errno)
    }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// `readlink(2)`.
  func readlink(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = Glibc.readlink(path, &buffer, buffer.count - 1)
    guard count >= 0 else { return nil }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The names in a directory (`opendir(3)`/`readdir(3)`), without `.` and `..`; empty when
  /// it cannot be read.
  func directoryEntries(_ path: String) -> [String] {
    guard let dir = opendir(path) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != ".", name != ".." { names.append(name) }
    }
    return names
  }
}

extension Glibc.stat {
  var isRegularFile: Bool { st_mode & S_IFMT == S_IFREG }
  var isDirectory: Bool { st_mode & S_IFMT == S_IFDIR }
  var isCharacterDevice: Bool { st_mode & S_IFMT == S_IFCHR }
  var isSymbolicLink: Bool { st_mode & S_IFMT == S_IFLNK }
}
