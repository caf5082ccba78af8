#if canImport(Glibc)
  import Glibc
#endif
import TodoTxt

// Files the tool writes whole that are not lists: what git's merge driver leaves for git,
// `.gitattributes`, the sync's record of an unfinished merge. They go through the store's
// system calls like the lists, so fault injection reaches them and the commands make no
// file-system call of their own.
extension TodoStore {
  /// Replaces `path`'s contents with `bytes` through a temporary file beside it, fsync and a
  /// rename (so a reader sees the old file or the new one, never half of it), keeping its
  /// permissions. Not locked: git holds its index lock while a merge driver runs, and a list
  /// written this way is one git is merging, not one the tool is editing.
  package func replaceWhole(_ path: String, with bytes: [UInt8]) throws(StoreError) {
    try replaceWhole(path) { (fd, temporary) throws(SystemError) in try posix.writeAll(fd, bytes, path: temporary) }
  }

  /// The same with a list's bytes, a block at a time: a large merged file is never held whole
  /// a second time.
  package func replaceWhole(_ path: String, with list: TodoList) throws(StoreError) {
    try replaceWhole(path) { (fd, temporary) throws(SystemError) in
      var failure: SystemError?
      list.serialize(blockSize: 1 << 18) { block in
        guard failure == nil else { return }
        do throws(SystemError) { try posix.writeAll(fd, block, path: temporary) } catch { failure = error }
      }
      if let failure { throw failure }
    }
  }

  /// Removes `path` if it is there (a link is removed, never followed).
  package func removeWhole(_ path: String) throws(StoreError) {
    do throws(SystemError) { try posix.unlink(path) } catch where error.code == ENOENT {
    } catch {
      throw StoreError(errno: error.code, path: path, operation: .write)
    }
  }

  private func replaceWhole(
    _ path: String, fill: (Int32, String) throws(SystemError) -> Void
  ) throws(StoreError) {
    let temporary = Posix.dirname(path) + "/." + Posix.basename(path) + ".merge-\(getpid())"
    let mode = posix.stat(path).map { $0.st_mode & 0o7777 } ?? 0o666
    do throws(SystemError) {
      let fd = try posix.open(temporary, O_WRONLY | O_CREAT | O_TRUNC, mode)
      let written: SystemError?
      do throws(SystemError) {
        try fill(fd, temporary)
        try posix.fsync(fd, path: temporary)
        written = nil
      } catch {
        written = error
      }
      posix.close(fd)
      do throws(SystemError) {
        if let written { throw written }
        try posix.rename(temporary, path)
      } catch {
        try? posix.unlink(temporary)
        throw error
      }
    } catch {
      throw StoreError(errno: error.code, path: path, operation: .write)
    }
  }
}
