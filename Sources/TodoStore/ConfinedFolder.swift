import CLinux

#if canImport(Glibc)
  import Glibc
#endif

/// A folder of the list's own (the todo directory, its `notes`, `attachments`,
/// `.todo-conflicts`) that the store reads and writes without ever following a link out of it.
///
/// A todo directory is shared with sync peers and other programs, so anything in it may have
/// been put there by someone else: a folder that is a link to `~/.bashrc.d`, a conflicted copy
/// that is a link to `~/.ssh/id_rsa`. The folder is opened once, refused when it is a link,
/// and every file in it is then reached relative to that open folder with `O_NOFOLLOW`: a
/// name that is a link is refused, never read or written through, and a link swapped in for
/// the folder after it was opened changes nothing.
public final class ConfinedFolder: @unchecked Sendable {
  /// The folder as named (for messages and for programs given a file in it).
  public let path: String
  let fd: Int32
  let posix: Posix

  /// Opens the folder at `path`, making it first (with the parent's usual permissions) when
  /// `creating` and it is missing.
  ///
  /// Throws `.folderIsALink` for a link, `.notADirectory` for anything but a directory,
  /// `.notFound` when missing and not `creating`, and the system's error otherwise (a full
  /// disk, no free inodes, no permission).
  public convenience init(_ path: String, creating: Bool = false) throws(StoreError) {
    try self.init(path, creating: creating, posix: Posix(faults: nil))
  }

  init(_ path: String, creating: Bool, posix: Posix) throws(StoreError) {
    self.path = path
    self.posix = posix
    let operation: StoreError.Operation = creating ? .create : .read
    var found = posix.lstat(path)
    if found == nil {
      guard creating else { throw StoreError(.notFound, path: path, operation: operation) }
      do throws(SystemError) { try posix.mkdir(path, 0o777) } catch where error.code == EEXIST {
        // Made meanwhile by another process: checked below as any folder found.
      } catch {
        throw StoreError(errno: error.code, path: path, operation: operation)
      }
      found = posix.lstat(path)
    }
    guard let found else { throw StoreError(.notFound, path: path, operation: operation) }
    if found.isSymbolicLink {
      throw StoreError(.folderIsALink(target: posix.readlink(path) ?? ""), path: path, operation: operation)
    }
    guard found.isDirectory else { throw StoreError(.notADirectory, path: path, operation: operation) }
    do throws(SystemError) {
      fd = try posix.open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
    } catch where error.code == ELOOP {
      throw StoreError(.folderIsALink(target: posix.readlink(path) ?? ""), path: path, operation: operation)
    } catch {
      throw StoreError(errno: error.code, path: path, operation: operation)
    }
  }

  deinit { posix.close(fd) }

  /// The path of a file in the folder.
  public func path(of name: String) -> String { path.hasSuffix("/") ? path + name : path + "/" + name }

  /// Whether `name` is a plain name of a file in this folder (not empty, `.`, `..`, nor a
  /// path): the only names the folder's methods accept.
  public static func isPlainName(_ name: String) -> Bool {
    !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.utf8.contains(0)
  }

  /// What `name` is, without following it: `nil` when there is nothing of that name.
  public func kind(of name: String) -> Kind? {
    guard ConfinedFolder.isPlainName(name) else { return nil }
    var info = Glibc.stat()
    guard fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
    if info.isSymbolicLink { return .link }
    if info.isDirectory { return .folder }
    return info.isRegularFile ? .file : .other
  }

  /// What a name in a folder can be.
  public enum Kind: Sendable, Equatable {
    case file, folder, link, other
  }

  /// The names in the folder, sorted by bytes, without `.` and `..`.
  public func names() -> [String] {
    let copy = dup(fd)
    guard copy >= 0, let dir = fdopendir(copy) else {
      if copy >= 0 { posix.close(copy) }
      return []
    }
    defer { closedir(dir) }
    rewinddir(dir)
    return ConfinedFolder.names(dir)
  }

  /// The names in the folder at `path` (following a link to it, as any reader may), sorted
  /// by bytes, without `.` and `..`; `nil` when it cannot be opened.
  public static func names(at path: String) -> [String]? {
    guard let dir = opendir(path) else { return nil }
    defer { closedir(dir) }
    return names(dir)
  }

  private static func names(_ dir: OpaquePointer) -> [String] {
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
  }

  /// The bytes of the regular file `name`; a link is refused (`.symbolicLink`), as is a FIFO,
  /// a device or a folder (`.notAFile`), without waiting on it.
  public func read(_ name: String) throws(StoreError) -> [UInt8] {
    let shown = path(of: name)
    guard ConfinedFolder.isPlainName(name) else { throw StoreError(.notFound, path: shown, operation: .read) }
    let file = openat(fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard file >= 0 else {
      let code = errno
      if code == ELOOP { throw StoreError(.symbolicLink(target: linkTarget(name)), path: shown, operation: .read) }
      throw StoreError(errno: code, path: shown, operation: .read)
    }
    defer { posix.close(file) }
    let info: Glibc.stat
    do { info = try posix.fstat(file) } catch { throw StoreError(errno: error.code, path: shown, operation: .read) }
    if info.isDirectory { throw StoreError(.isDirectory, path: shown, operation: .read) }
    guard info.isRegularFile else { throw StoreError(.notAFile, path: shown, operation: .read) }
    do {
      return try posix.readAll(file, path: shown, sizeHint: Int(info.st_size))
    } catch {
      throw StoreError(errno: error.code, path: shown, operation: .read)
    }
  }

  /// Creates a new file holding `contents`, named `name` or, when taken, `STEM-2.EXT`,
  /// `STEM-3.EXT` … (created exclusively, so two processes never pick the same name, and never
  /// through a link). The file is on disk, every byte, before its name is returned: a full
  /// disk or quota leaves no truncated file behind.
  public func create(preferring name: String, contents: [UInt8]) throws(StoreError) -> String {
    try create(name, contents: contents) { ConfinedFolder.candidate($0, for: name) }
  }

  /// Creates a new file holding `contents`, named `STEM-XXXX.EXT`, where `XXXX` are four
  /// random base32 characters (`call-mom-k3xq.txt`), drawn again while the name is taken.
  ///
  /// A name made from a task's words alone is made the same on every machine: two machines
  /// writing a note for two different tasks of the same words would each make `call-mom.txt`,
  /// and after a sync both tasks would link to one file. A random part makes that a chance of
  /// about one in a million for each such pair.
  public func create(uniqueNameFrom stem: String, extension ext: String, contents: [UInt8]) throws(StoreError)
    -> String
  {
    var generator = SystemRandomNumberGenerator()
    return try create(stem + ext, contents: contents) { _ in
      stem + "-" + ConfinedFolder.randomSuffix(using: &generator) + ext
    }
  }

  /// Four characters of RFC 4648's base32 alphabet in lower case: no character a file system,
  /// a shell or a todo.txt tag treats specially, and none that only differs in case.
  static func randomSuffix(using generator: inout some RandomNumberGenerator) -> String {
    let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")
    return String((0..<4).map { _ in alphabet[Int(generator.next(upperBound: UInt8(alphabet.count)))] })
  }

  /// Creates the first of the names `candidate` gives for 1, 2, 3 … that is free.
  private func create(_ name: String, contents: [UInt8], candidate: (Int) -> String) throws(StoreError) -> String {
    guard ConfinedFolder.isPlainName(name) else { throw StoreError(.notFound, path: path(of: name), operation: .create) }
    for attempt in 1...10_000 {
      let candidate = candidate(attempt)
      guard ConfinedFolder.isPlainName(candidate) else { throw StoreError(.notFound, path: path(of: candidate), operation: .create) }
      try posix.injectFault(.open, path(of: candidate))
      let file = openat(fd, candidate, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
      if file < 0 {
        if errno == EEXIST { continue }
        throw StoreError(errno: errno, path: path(of: candidate), operation: .create)
      }
      do throws(SystemError) {
        defer { posix.close(file) }
        try posix.writeAll(file, contents, path: path(of: candidate))
        try posix.fsync(file, path: path(of: candidate))
      } catch {
        _ = unlinkat(fd, candidate, 0)
        throw StoreError(errno: error.code, path: path(of: candidate), operation: .write)
      }
      _ = fsync(fd)
      return candidate
    }
    throw StoreError(errno: EEXIST, path: path(of: name), operation: .create)
  }

  /// Writes `contents` to the open file `file` and makes them durable, then closes it; on a
  /// failure `undo` runs (taking away a file made for the write) and the error names `shown`.
  private func writeDurably(
    _ contents: [UInt8], to file: Int32, shown: String, undo: () -> Void = {}
  ) throws(StoreError) {
    do throws(SystemError) {
      defer { posix.close(file) }
      try posix.writeAll(file, contents, path: shown)
      try posix.fsync(file, path: shown)
    } catch {
      undo()
      throw StoreError(errno: error.code, path: shown, operation: .write)
    }
  }

  /// Puts `contents` in place of the file `name` in one step: written to a new file of this
  /// process's own beside it, made durable, then renamed over the name (a link there is
  /// replaced as a link, never followed). A reader sees the old contents or the new.
  public func replace(_ name: String, contents: [UInt8]) throws(StoreError) {
    let shown = path(of: name)
    guard ConfinedFolder.isPlainName(name) else { throw StoreError(.notFound, path: shown, operation: .write) }
    let temporary = ".\(name).new-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try posix.injectFault(.open, path(of: temporary))
    let file = openat(fd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard file >= 0 else { throw StoreError(errno: errno, path: shown, operation: .write) }
    try writeDurably(contents, to: file, shown: shown) { _ = unlinkat(fd, temporary, 0) }
    try posix.injectFault(.rename, shown)
    guard renameat(fd, temporary, fd, name) == 0 else {
      let code = errno
      _ = unlinkat(fd, temporary, 0)
      throw StoreError(errno: code, path: shown, operation: .write)
    }
    _ = fsync(fd)
  }

  /// Adds `contents` at the end of the regular file `name` (made, private to the user, when
  /// missing), in place: its owner and permissions stay, and no link is followed. For a
  /// file other programs keep (the configuration), where a replace would change its mode.
  public func append(_ name: String, contents: [UInt8]) throws(StoreError) {
    let shown = path(of: name)
    guard ConfinedFolder.isPlainName(name) else { throw StoreError(.notFound, path: shown, operation: .write) }
    switch kind(of: name) {
    case .link?: throw StoreError(.symbolicLink(target: linkTarget(name)), path: shown, operation: .write)
    case .folder?, .other?: throw StoreError(.notAFile, path: shown, operation: .write)
    case .file?, nil: break
    }
    try posix.injectFault(.open, shown)
    let file = openat(fd, name, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
    guard file >= 0 else { throw StoreError(errno: errno, path: shown, operation: .write) }
    try writeDurably(contents, to: file, shown: shown)
  }

  /// Moves the regular file `name` of `source` into this folder under `name`, or `2-NAME`,
  /// `3-NAME` … when taken; never over another file, never a link (a link is refused with
  /// `.symbolicLink` and stays where it is). Returns the name it has here.
  public func moveIn(_ name: String, from source: ConfinedFolder) throws(StoreError) -> String {
    let shown = source.path(of: name)
    switch source.kind(of: name) {
    case .file?: break
    case .link?: throw StoreError(.symbolicLink(target: source.linkTarget(name)), path: shown, operation: .write)
    case nil: throw StoreError(.notFound, path: shown, operation: .write)
    case .folder?: throw StoreError(.isDirectory, path: shown, operation: .write)
    case .other?: throw StoreError(.notAFile, path: shown, operation: .write)
    }
    for attempt in 1...10_000 {
      let candidate = attempt == 1 ? name : "\(attempt)-\(name)"
      guard kind(of: candidate) == nil else { continue }
      try posix.injectFault(.rename, path(of: candidate))
      if clinux_move_noreplace(source.fd, name, fd, candidate) == 0 {
        _ = fsync(fd)
        _ = fsync(source.fd)
        return candidate
      }
      switch errno {
      case EEXIST: continue
      case EINVAL, ENOSYS, ENOTSUP:
        // A file system that cannot refuse to replace: the check above is all there is.
        guard renameat(source.fd, name, fd, candidate) == 0 else {
          throw StoreError(errno: errno, path: path(of: candidate), operation: .write)
        }
        _ = fsync(fd)
        _ = fsync(source.fd)
        return candidate
      case let code:
        throw StoreError(errno: code, path: path(of: candidate), operation: .write)
      }
    }
    throw StoreError(errno: EEXIST, path: path(of: name), operation: .write)
  }

  /// Removes the file `name` (a link is removed as a link, never followed).
  public func remove(_ name: String) {
    guard ConfinedFolder.isPlainName(name) else { return }
    _ = unlinkat(fd, name, 0)
  }

  /// Where the link `name` points, for messages.
  public func linkTarget(_ name: String) -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlinkat(fd, name, &buffer, buffer.count - 1)
    guard count > 0 else { return "" }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The `attempt`th name to try for `name`: `name` itself, then `STEM-2.EXT`, `STEM-3.EXT`
  /// … (the extension from the last dot that is not the first character).
  static func candidate(_ attempt: Int, for name: String) -> String {
    guard attempt > 1 else { return name }
    let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
    let stem = dot.map { String(name[..<$0]) } ?? name
    let suffix = dot.map { String(name[$0...]) } ?? ""
    return "\(stem)-\(attempt)\(suffix)"
  }
}

extension TodoStore {
  /// A folder of the list's (see ``ConfinedFolder``), reached with this store's system calls
  /// (and so its injected faults).
  public func folder(_ path: String, creating: Bool = false) throws(StoreError) -> ConfinedFolder {
    try ConfinedFolder(path, creating: creating, posix: posix)
  }

  /// A new folder of this process's alone in `base` (`mkdtemp(3)`: mode 0700, a name no
  /// other folder had), for a file a person edits in another program (the editor's copy).
  /// ``removePrivateFolder(_:)`` takes it away again.
  public func makePrivateFolder(in base: String, prefix: String) throws(StoreError) -> ConfinedFolder {
    let pattern = base + "/" + prefix + "-XXXXXX"
    try posix.injectFault(.mkdir, pattern)
    var template = Array(pattern.utf8CString)
    let made: String? = template.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress, let path = mkdtemp(base) else { return nil }
      return String(cString: path)
    }
    guard let made else { throw StoreError(errno: errno, path: pattern, operation: .create) }
    return try folder(made)
  }

  /// Removes a folder ``makePrivateFolder(in:prefix:)`` made, with the file `name` in it; a
  /// folder holding anything else stays (nothing a person may still need is removed).
  public func removePrivateFolder(_ folder: ConfinedFolder, with name: String?) {
    if let name { folder.remove(name) }
    _ = rmdir(folder.path)
  }

  /// The folder `name` of the state directory (``stateDirectory``), made with the state
  /// directory when missing and reached as a ``ConfinedFolder`` (never through a link);
  /// `nil` when the store keeps no state directory.
  public func stateFolder(_ name: String) throws(StoreError) -> ConfinedFolder? {
    guard let stateDirectory else { return nil }
    do throws(SystemError) {
      try UndoLog(directory: stateDirectory, limit: 0, byteLimit: 0).create(posix: posix)
    } catch {
      throw StoreError(errno: error.code, path: stateDirectory, operation: .create)
    }
    return try folder(Paths.join(stateDirectory, name), creating: true)
  }
}
