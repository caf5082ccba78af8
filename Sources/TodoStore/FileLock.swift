#if canImport(Glibc)
  import Glibc
#endif

/// An advisory `flock(2)` on a hidden lock file beside a data file, held while the store reads,
/// changes and writes it.
///
/// The lock file (`.todo.txt.lock` for `todo.txt`) is never removed: removing it while
/// another process waits on it would let two processes hold "the" lock at once. Its name does
/// not end in `.txt`, so listings of `*.txt` never show it.
struct FileLock {
  let fd: Int32

  /// The lock file that guards `resolvedPath`.
  static func lockPath(for resolvedPath: String) -> String {
    let (directory, name) = Paths.split(resolvedPath)
    return Paths.join(directory, ".\(name).lock")
  }

  /// Takes the lock of `resolvedPath`, waiting up to `timeout` seconds; `nil` when there is
  /// nothing to lock (a read-only directory without a lock file and without the data file,
  /// where no write can happen anyway).
  ///
  /// In a directory where the lock file cannot be created, the data file itself is locked:
  /// every process falls back the same way, so they still exclude each other.
  static func acquire(
    _ resolvedPath: String, shownAs path: String, timeout: Double, posix: Posix
  ) throws(StoreError) -> FileLock? {
    let lockPath = lockPath(for: resolvedPath)
    let fd: Int32
    do {
      // Never through a link: a planted `.todo.txt.lock -> ~/x` must not create `~/x`.
      fd = try posix.open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK, 0o666)
    } catch let error where error.code == EACCES || error.code == EROFS || error.code == EPERM {
      do {
        fd = try posix.open(resolvedPath, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
      } catch {
        return nil
      }
    } catch {
      throw StoreError(errno: error.code, path: path, operation: .lock)
    }
    let deadline = SystemClock.monotonic() + timeout
    var pause = 0.002
    while true {
      do {
        if try posix.tryLock(fd, path: lockPath) { return FileLock(fd: fd) }
      } catch {
        posix.close(fd)
        throw StoreError(errno: error.code, path: path, operation: .lock)
      }
      let now = SystemClock.monotonic()
      if now >= deadline {
        posix.close(fd)
        throw StoreError(.lockTimeout(seconds: timeout), path: path, operation: .lock)
      }
      SystemClock.sleep(min(pause, deadline - now))
      pause = min(pause * 1.5, 0.05)
    }
  }

  /// Releases the lock (closing the file releases a `flock`).
  func release(posix: Posix) { posix.close(fd) }
}

/// Time, read from the C library.
enum SystemClock {
  /// Seconds on the monotonic clock (`clock_gettime(2)`), for timeouts.
  static func monotonic() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }

  /// Seconds since 1970 (`time(2)`), for the undo log.
  static func wall() -> Int64 { Int64(time(nil)) }

  /// `nanosleep(2)`.
  static func sleep(_ seconds: Double) {
    guard seconds > 0 else { return }
    var request = timespec(
      tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
  }
}

/// Path arithmetic on strings (no Foundation).
enum Paths {
  /// The directory and the last component; the directory of `todo.txt` is `.`.
  static func split(_ path: String) -> (directory: String, name: String) {
    let bytes = Array(path.utf8)
    var end = bytes.count
    while end > 1, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
    guard let slash = bytes[..<end].lastIndex(of: UInt8(ascii: "/")) else {
      return (".", String(decoding: bytes[..<end], as: UTF8.self))
    }
    let name = String(decoding: bytes[(slash + 1)..<end], as: UTF8.self)
    let directory = slash == 0 ? "/" : String(decoding: bytes[..<slash], as: UTF8.self)
    return (directory, name)
  }

  static func join(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }
}
