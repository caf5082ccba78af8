#if canImport(Glibc)
  import Glibc
#endif
import TodoTxt

// The queries and small calls the command layer makes (file status, whole-file reads, paths,
// the terminal, the environment), beside the store's own calls: one system layer for the
// whole tool, so the commands make no system call of their own. Foundation is not used: the
// tool must start in a few milliseconds.
extension Posix {
  /// `stat(2)`, following symbolic links; `nil` when nothing is there.
  package static func fileStatus(_ path: String) -> Glibc.stat? {
    var info = Glibc.stat()
    return Posix.statCall(path, &info) == 0 ? info : nil
  }

  /// `lstat(2)`: the link itself.
  package static func linkStatus(_ path: String) -> Glibc.stat? {
    var info = Glibc.stat()
    return Glibc.lstat(path, &info) == 0 ? info : nil
  }

  package static func isRegularFile(_ path: String) -> Bool {
    fileStatus(path).map { $0.st_mode & S_IFMT == S_IFREG } ?? false
  }

  package static func isDirectory(_ path: String) -> Bool {
    fileStatus(path).map { $0.st_mode & S_IFMT == S_IFDIR } ?? false
  }

  package static func isCharacterDevice(_ path: String) -> Bool {
    fileStatus(path).map { $0.st_mode & S_IFMT == S_IFCHR } ?? false
  }

  package static func exists(_ path: String) -> Bool { fileStatus(path) != nil }

  package static func isSymbolicLink(_ path: String) -> Bool {
    linkStatus(path).map { $0.st_mode & S_IFMT == S_IFLNK } ?? false
  }

  /// `access(2)` with `X_OK`.
  package static func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }

  /// `access(2)` with `R_OK`.
  package static func isReadable(_ path: String) -> Bool { access(path, R_OK) == 0 }

  /// The whole file, or `nil` when it cannot be read.
  package static func readFile(_ path: String) -> [UInt8]? {
    let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { _ = Glibc.close(fd) }
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    if let info = fileStatus(path), info.st_mode & S_IFMT == S_IFREG { result.reserveCapacity(Int(info.st_size)) }
    while true {
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        return nil
      }
      if count == 0 { break }
      result.append(contentsOf: chunk[0..<count])
    }
    return result
  }

  /// A file's bytes for ``TodoMerge``, mapped into memory (`mmap(2)`, read-only, private)
  /// rather than read, with what `fstat(2)` said of the file when it was opened: the merge
  /// drops the pages it is done with (`madvise(2)`, `MADV_DONTNEED`), and they come back from
  /// the page cache when read again. A file that cannot be mapped (empty, not a regular file)
  /// is read into memory instead. `nil` when it cannot be read, or is 4 GiB or more.
  package static func mapLines(_ path: String) -> (lines: LineBuffer, status: Glibc.stat)? {
    let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { _ = Glibc.close(fd) }
    var info = Glibc.stat()
    guard Glibc.fstat(fd, &info) == 0 else { return nil }
    let size = Int(info.st_size)
    if info.st_mode & S_IFMT == S_IFREG, size > 0,
      let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED
    {
      let bytes = UnsafeRawBufferPointer(start: address, count: size)
      guard
        let lines = LineBuffer(
          bytes: bytes,
          forget: { madvise(UnsafeMutableRawPointer(mutating: $0.baseAddress), $0.count, MADV_DONTNEED) },
          release: { munmap(UnsafeMutableRawPointer(mutating: $0.baseAddress), $0.count) })
      else {
        munmap(address, size)
        return nil
      }
      return (lines, info)
    }
    guard let read = readFile(path) else { return nil }
    let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: read.count, alignment: 16)
    copy.copyBytes(from: read)
    guard
      let lines = LineBuffer(
        bytes: UnsafeRawBufferPointer(copy), forget: nil, release: { $0.deallocate() })
    else {
      copy.deallocate()
      return nil
    }
    return (lines, info)
  }

  /// Whether `fstat(2)` of `before` and `stat(2)` of `path` now tell of the same file with
  /// the same contents: the same inode, size, and modification and change times.
  package static func isUnchanged(_ path: String, since before: Glibc.stat) -> Bool {
    guard let now = fileStatus(path) else { return false }
    return now.st_dev == before.st_dev && now.st_ino == before.st_ino
      && now.st_size == before.st_size && now.st_mtim.tv_sec == before.st_mtim.tv_sec
      && now.st_mtim.tv_nsec == before.st_mtim.tv_nsec && now.st_ctim.tv_sec == before.st_ctim.tv_sec
      && now.st_ctim.tv_nsec == before.st_ctim.tv_nsec
  }

  /// Names in a directory (without `.` and `..`), sorted by bytes as the C locale's glob does.
  package static func listDirectory(_ path: String) -> [String]? { ConfinedFolder.names(at: path) }

  /// `mkdir -p`.
  package static func makeDirectories(_ path: String) -> Bool {
    if isDirectory(path) { return true }
    let parent = dirname(path)
    if parent != path, !isDirectory(parent), !makeDirectories(parent) { return false }
    return Glibc.mkdir(path, 0o777) == 0 || isDirectory(path)
  }

  /// The last path component, as `basename(1)`.
  package static func basename(_ path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
    if trimmed == "/" { return "/" }
    if let slash = trimmed.lastIndex(of: "/") { return String(trimmed[trimmed.index(after: slash)...]) }
    return String(trimmed)
  }

  /// Everything before the last component, as `dirname(1)`.
  package static func dirname(_ path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
    guard let slash = trimmed.lastIndex(of: "/") else { return "." }
    var parent = trimmed[..<slash]
    while parent.count > 1, parent.hasSuffix("/") { parent.removeLast() }
    return parent.isEmpty ? "/" : String(parent)
  }

  package static func currentDirectory() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return "." }
    return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The process environment as a dictionary.
  package static func environment() -> [String: String] {
    var result: [String: String] = [:]
    var pointer = environ
    while let entry = pointer.pointee {
      let text = String(cString: entry)
      if let equals = text.firstIndex(of: "=") {
        result[String(text[..<equals])] = String(text[text.index(after: equals)...])
      }
      pointer += 1
    }
    return result
  }

  /// `isatty(3)`.
  package static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

  /// The width of the terminal on `fd` (`ioctl(2)` `TIOCGWINSZ`), or `nil` when it is none or
  /// does not say.
  package static func terminalColumns(_ fd: Int32) -> Int? {
    var size = winsize()
    guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }

  /// The height of the terminal on `fd`, as ``terminalColumns(_:)`` its width.
  package static func terminalRows(_ fd: Int32) -> Int? {
    var size = winsize()
    guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return nil }
    return Int(size.ws_row)
  }

  /// Writes all of `bytes`; returns the `errno` of a failed write (0 when all went out), so
  /// that output into a full disk or a closed pipe is not mistaken for success.
  @discardableResult
  package static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32 {
    bytes.withUnsafeBufferPointer { writeAll(fd, $0) }
  }

  /// `write(2)` until every byte is written; the `errno` of a failure, or 0.
  package static func writeAll(_ fd: Int32, _ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
    guard let base = bytes.baseAddress else { return 0 }
    var offset = 0
    while offset < bytes.count {
      let count = Glibc.write(fd, base + offset, bytes.count - offset)
      if count < 0 {
        if errno == EINTR { continue }
        return errno
      }
      if count == 0 { return EIO }
      offset += count
    }
    return 0
  }

  /// The path of the running program, for git to call back (`/proc/self/exe`).
  package static func ownExecutable(fallback: String) -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = Glibc.readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return fallback }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// `realpath(3)` of a path (links resolved), or the path as given when it does not resolve.
  package static func realPath(_ path: String) -> String {
    guard let resolved = Glibc.realpath(path, nil) else { return path }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
