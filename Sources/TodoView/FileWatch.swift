@preconcurrency import Glibc
import CLinux

/// Tells the view when todo.txt or done.txt may have changed: an inotify watch on their
/// folder (an editor that saves by rename, a sync client, `todo` in another window all show
/// up there), with the descriptor polled beside the keyboard. Where inotify is missing or
/// full, the loop falls back on reading the files' status every half second.
final class FileWatch {
  /// The descriptor to poll; -1 without inotify.
  let descriptor: Int32

  init(folders: [String]) {
    let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    var watching = false
    if descriptor >= 0 {
      let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_MODIFY)
      for folder in Set(folders) where inotify_add_watch(descriptor, folder, mask) >= 0 { watching = true }
    }
    if !watching, descriptor >= 0 { close(descriptor) }
    self.descriptor = watching ? descriptor : -1
  }

  deinit { if descriptor >= 0 { close(descriptor) } }

  /// Reads the events waiting (their content does not matter: the document compares the
  /// file's status itself).
  func drain() {
    guard descriptor >= 0 else { return }
    var buffer = [UInt8](repeating: 0, count: 8192)
    while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
  }
}
