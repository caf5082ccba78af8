#if canImport(Glibc)
  import Glibc
#endif

/// Everything that can go wrong while reading or writing a todo file, raised as a value where
/// it happens and worded in one place (``description``).
///
/// Every message is one line that names the file and the problem, so the command layer can
/// print it as is.
public struct StoreError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong, as a value an app can switch on; ``description`` words it.
  public enum Kind: Equatable, Sendable {
    case notFound
    case isDirectory
    /// Something other than a regular file or a character device (a socket, a FIFO).
    case notAFile
    /// A symbolic link whose target does not exist.
    case danglingSymlink(target: String)
    case permissionDenied
    case readOnlyFileSystem
    case noSpace
    /// The file system has room but no free inodes: no new file can be made.
    case noFreeInodes
    /// A folder of the list's (notes, attachments, `.todo-conflicts`) that is a symbolic
    /// link: never followed (see ``ConfinedFolder``).
    case folderIsALink(target: String)
    /// A file in a folder of the list's that is a symbolic link where a file must be.
    case symbolicLink(target: String)
    case notADirectory
    /// Another process held the lock for longer than the store waits.
    case lockTimeout(seconds: Double)
    /// A line the change touches was changed by another program meanwhile; `now` is `nil`
    /// when the line is gone. `line` is the 1-based line number in the file as it was read.
    case conflict(line: Int, was: String, now: String?)
    /// There is no change left to undo or redo for these files.
    case nothingToUndo
    case nothingToRedo
    /// The change was too large to keep in the undo log.
    case notRecorded
    /// An interrupted change could not be completed; the journal is kept for inspection.
    case unfinishedChange(journal: String)
    /// A journal this user's store did not seal (planted by another writer of a shared
    /// directory, left by an earlier release, or naming files outside the list's own): it is
    /// never replayed, and left in place.
    case untrustedJournal(journal: String)
    /// The journal key (or the state directory holding it) is not exactly what the store
    /// writes (see ``TodoStore/journalKey(creating:)``): it is never used; `movedTo` is where
    /// it was moved aside, `nil` when it could not be.
    case refusedJournalKey(reason: String, movedTo: String?)
    /// An undo log entry that cannot be read back (torn or truncated); nothing is undone
    /// past it.
    case damagedUndoEntry
    /// A symbolic link the store will not write through, and why (see
    /// ``TodoStore/linkRefusal(_:to:)``).
    case untrustedLink(target: String, reason: String)
    /// The file still holds a merge conflict's marker lines (`<<<<<<<` … `>>>>>>>`): until
    /// they are gone, no line of it can be taken for a task.
    case unresolvedMerge
    /// A new line would read as a merge conflict's marker (see
    /// ``TodoStore/refuseMarkers(_:path:)``): nothing was written.
    case wouldWriteMarker(line: String)
    /// A line to write holds a line feed: it would be read back as two lines (the second
    /// perhaps a done or another task). Nothing was written.
    case lineBreakInLine(line: String)
    /// Another program (one that takes no lock) kept the file open for writing, or kept
    /// changing it, for longer than the store waits (see ``TodoStore/snapshot(_:)``): nothing
    /// was written.
    case beingWritten
    /// A leftover temporary file (the path) that cannot be removed: another user's (`owner`)
    /// in a folder whose sticky bit keeps it, or one this user may not remove.
    case inTheWay(owner: UInt32?)
    /// Any other failed system call, with its `errno`.
    case io(Int32)
  }

  /// What the store was doing when the error happened.
  public enum Operation: Equatable, Sendable {
    case read
    case write
    case create
    case lock
    case undo(label: String)
    case redo(label: String)
    case recover
  }

  /// What went wrong.
  public var kind: Kind
  /// The file it went wrong with, as the caller named it.
  public var path: String
  /// What was being done to the file.
  public var operation: Operation

  /// An error of this kind with this file.
  public init(_ kind: Kind, path: String, operation: Operation) {
    self.kind = kind
    self.path = path
    self.operation = operation
  }

  /// Maps a failed system call's `errno` to a kind.
  init(errno code: Int32, path: String, operation: Operation) {
    let kind: Kind =
      switch code {
      case ENOENT: .notFound
      case EISDIR: .isDirectory
      case EACCES, EPERM: .permissionDenied
      case EROFS: .readOnlyFileSystem
      case ENOSPC: StoreError.hasNoFreeInodes(near: path) ? .noFreeInodes : .noSpace
      case EDQUOT: .noSpace
      case ENOTDIR: .notADirectory
      default: .io(code)
      }
    self.init(kind, path: path, operation: operation)
  }

  public var description: String {
    switch kind {
    case .nothingToUndo: return "nothing to undo in '\(path)'"
    case .nothingToRedo: return "nothing to redo in '\(path)'"
    case .refusedJournalKey(let reason, let aside?):
      return "journal key '\(StoreError.oneLine(path))' refused: \(reason); moved to '\(StoreError.oneLine(aside))' "
        + "and a new key made; journals sealed with the old key are left in place, unreplayed"
    case .refusedJournalKey(let reason, nil):
      return "journal key '\(StoreError.oneLine(path))' refused: \(reason); no journal is replayed or trusted until it is fixed"
    default: break
    }
    let action =
      switch operation {
      case .read: "cannot read '\(path)'"
      case .write: "cannot write '\(path)'"
      case .create: "cannot create '\(path)'"
      case .lock: "cannot lock '\(path)'"
      case .undo(let label): "cannot undo '\(StoreError.oneLine(label))' in '\(path)'"
      case .redo(let label): "cannot redo '\(StoreError.oneLine(label))' in '\(path)'"
      case .recover: "cannot finish an interrupted change to '\(path)'"
      }
    let reason =
      switch kind {
      case .notFound: "no such file or directory"
      case .isDirectory: "it is a directory"
      case .notAFile: "it is not a regular file"
      case .danglingSymlink(let target):
        "it is a symbolic link to '\(target)', which does not exist"
      case .permissionDenied: "permission denied"
      case .readOnlyFileSystem: "read-only file system"
      case .noSpace: "no space left on device"
      case .noFreeInodes: "no free inodes left on the file system (it has room, but no new file can be made)"
      case .folderIsALink(let target):
        "it is a symbolic link to '\(StoreError.oneLine(target))'; a folder of the list is never followed elsewhere"
      case .symbolicLink(let target):
        "it is a symbolic link to '\(StoreError.oneLine(target))'; not followed"
      case .notADirectory: "it is not a directory"
      case .lockTimeout(let seconds):
        "it is locked by another process (waited \(StoreError.seconds(seconds)) s)"
      case .conflict(let line, let was, let now?):
        "line \(line) changed meanwhile: was '\(StoreError.oneLine(was))', now '\(StoreError.oneLine(now))'"
      case .conflict(let line, let was, nil):
        "line \(line) was removed meanwhile: was '\(StoreError.oneLine(was))'"
      case .nothingToUndo: "nothing to undo"
      case .nothingToRedo: "nothing to redo"
      case .refusedJournalKey(let reason, _): reason
      case .notRecorded: "the change was too large to keep in the undo log"
      case .unfinishedChange(let journal):
        "the files changed meanwhile; see the journal '\(journal)'"
      case .damagedUndoEntry:
        "the undo log entry is damaged; nothing was undone or redone (remove it to reach older changes)"
      case .untrustedJournal(let journal):
        "the journal '\(StoreError.oneLine(journal))' was not written by this user's todo or names files outside the list; it is left in place, unreplayed"
      case .untrustedLink(let target, let reason):
        "it is a symbolic link to '\(StoreError.oneLine(target))' and \(reason); not written through"
      case .unresolvedMerge:
        "it holds both sides of a merge conflict between <<<<<<< and >>>>>>> lines; "
          + "keep the right lines and remove the marker lines first ('resolve' shows and settles them)"
      case .wouldWriteMarker(let line):
        "the line '\(StoreError.oneLine(line))' would read as a merge conflict marker and lock the list; "
          + "nothing was changed (put a word before it)"
      case .lineBreakInLine(let line):
        "the line '\(StoreError.oneLine(line))' holds a line break and would be read back as two tasks; nothing was changed"
      case .beingWritten:
        "another program is writing it (it kept it open or kept changing it); nothing was changed, try again"
      case .inTheWay(let owner?):
        "a leftover of another user's (uid \(owner)) that this folder does not let you remove is in the way; "
          + "nothing was changed (that user or an administrator can remove it)"
      case .inTheWay(nil): "a leftover that cannot be removed is in the way; nothing was changed"
      case .io(let code): StoreError.errnoText(code)
      }
    return "\(action): \(reason)"
  }

  /// Whether ENOSPC at `path` means the inodes ran out rather than the room: the file
  /// system of the nearest existing folder on the way up has none free.
  static func hasNoFreeInodes(near path: String) -> Bool {
    var directory = path
    var info = statvfs()
    for _ in 0..<64 {
      if statvfs(directory.isEmpty ? "." : directory, &info) == 0 {
        return info.f_files > 0 && info.f_favail == 0
      }
      guard let slash = directory.lastIndex(of: "/") else {
        if directory.isEmpty || directory == "." { return false }
        directory = "."
        continue
      }
      if slash == directory.startIndex {
        if directory == "/" { return false }
        directory = "/"
      } else {
        directory = String(directory[..<slash])
      }
    }
    return false
  }

  /// `strerror(3)` in lower case, as the rest of the messages are worded.
  static func errnoText(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    var words = String(cString: text)
    if let first = words.first, first.isUppercase, words.dropFirst().first?.isLowercase ?? true {
      words = first.lowercased() + words.dropFirst()
    }
    return words
  }

  /// Control characters (a stray CR, an escape sequence) shown as `^X`, so a message stays one
  /// line and cannot change the terminal.
  static func oneLine(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      if scalar.value < 0x20 || scalar.value == 0x7F {
        out += "^" + String(UnicodeScalar(UInt8(scalar.value ^ 0x40)))
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  static func seconds(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }
}
