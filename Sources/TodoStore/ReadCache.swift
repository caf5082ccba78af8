import TodoTxt

#if canImport(Glibc)
  import Glibc
#endif

/// The files a long-lived process (the shell) has read, kept between its command lines so
/// that a file nobody changed is not read and parsed again for every line.
///
/// An entry is used only while its file's ``FileStamp`` (device, inode, size, modification
/// and change time to the nanosecond) is still the one seen when it was read, so an editor's
/// save, a rename over the file, an append or another process's change is seen by the next
/// read. A version read (or written) within ``FileStamp/settleWindow`` of its last change is
/// not trusted on its stamp alone: two writes in one tick of a coarse file-system clock can
/// leave the same stamp, so such an entry is compared with the file byte for byte each time
/// it is used, until a comparison finds the file's stamp settled.
///
/// Only reads use it. A change still reads the file under the lock (see
/// ``TodoStore/snapshot(_:)``); what it writes replaces the entry.
package final class ReadCache: @unchecked Sendable {
  struct Entry {
    var stamp: FileStamp
    var bytes: [UInt8]
    /// The bytes parsed, once a reader needed them.
    var list: TodoList?
    /// Whether the bytes hold merge conflict markers, once a reader asked.
    var hasConflictMarkers: Bool?
    /// The stamp was settled when the bytes were last known to be the file's.
    var settled: Bool
    var lastUse: UInt64
    /// What readers worked out from these bytes; it goes with them.
    let derived = DerivedFacts()
  }

  private var mutex = pthread_mutex_t()
  private var entries: [String: Entry] = [:]
  /// See ``handedOut(_:)``.
  private var handedOut: [String: (stamp: FileStamp, bytes: [UInt8])] = [:]
  private var uses: UInt64 = 0
  /// How many files are kept (todo.txt, done.txt, report.txt and one more).
  let capacity: Int
  let window: Double
  let clock: () -> timespec

  /// - Parameters:
  ///   - capacity: how many files are kept; the one unused longest goes first.
  ///   - window: see ``FileStamp/isSettled(now:window:)``.
  ///   - clock: the wall clock (tests move it).
  package init(
    capacity: Int = 4, window: Double = FileStamp.settleWindow,
    clock: @escaping () -> timespec = FileStamp.wallClock
  ) {
    self.capacity = capacity
    self.window = window
    self.clock = clock
    pthread_mutex_init(&mutex, nil)
  }

  deinit { pthread_mutex_destroy(&mutex) }

  private func locked<R>(_ body: () -> R) -> R {
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    return body()
  }

  /// The kept version of `path`, if the file open as `fd`, whose stamp is `stamp`, still is
  /// that version.
  func lookup(_ path: String, stamp: FileStamp, fd: Int32) -> Entry? {
    guard var entry = locked({ entries[path] }), entry.stamp == stamp else { return nil }
    if !entry.settled {
      guard ReadCache.file(fd, holds: entry.bytes) else {
        forget(path)
        return nil
      }
      // The comparison stands for a read made now.
      entry.settled = stamp.isSettled(now: clock(), window: window)
    }
    return locked {
      uses += 1
      entry.lastUse = uses
      entries[path] = entry
      handedOut[path] = (stamp, entry.bytes)
      return entry
    }
  }

  /// Keeps the bytes just read (or written) of `path`; `stamp` was taken before they were
  /// read (after they were written).
  @discardableResult
  func remember(_ path: String, stamp: FileStamp, bytes: [UInt8], list: TodoList? = nil) -> DerivedFacts {
    let settled = stamp.isSettled(now: clock(), window: window)
    return locked {
      uses += 1
      let entry = Entry(
        stamp: stamp, bytes: bytes, list: list, hasConflictMarkers: nil, settled: settled, lastUse: uses)
      entries[path] = entry
      handedOut[path] = (stamp, bytes)
      while entries.count > capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
        entries[oldest.key] = nil
      }
      return entry.derived
    }
  }

  /// Adds what a reader worked out from an entry's bytes, if the entry is still that version.
  func update(_ path: String, stamp: FileStamp, list: TodoList? = nil, hasConflictMarkers: Bool? = nil) {
    locked {
      guard var entry = entries[path], entry.stamp == stamp else { return }
      if let list { entry.list = list }
      if let hasConflictMarkers { entry.hasConflictMarkers = hasConflictMarkers }
      entries[path] = entry
    }
  }

  /// Drops what is kept of `path`.
  func forget(_ path: String) {
    locked {
      entries[path] = nil
      handedOut[path] = nil
    }
  }

  /// Starts a new round of ``handedOut(_:)`` (the shell: a new line).
  package func beginRound() { locked { handedOut = [:] } }

  /// The version of `path` last read or written through this cache since ``beginRound()``:
  /// what a listing of the round showed, which the file may no longer be (another program
  /// can replace it right after). `nil` when the round did not read it (or it grew in place).
  package func handedOut(_ path: String) -> (stamp: FileStamp, bytes: [UInt8])? {
    locked { handedOut[path] }
  }

  /// Drops everything kept.
  package func removeAll() { locked { entries = [:] } }

  /// How many files are kept (tests).
  package var count: Int { locked { entries.count } }
}

/// What readers worked out from one version of a file's bytes (its line bounds, which lines a
/// search term matches), kept with that version in a ``ReadCache`` and dropped with it: a
/// later version of the file comes with a new, empty one.
///
/// Only facts that depend on nothing but the bytes belong here.
package final class DerivedFacts: @unchecked Sendable {
  private var values: [AnyHashable: AnyObject] = [:]

  init() {}

  /// The fact kept under `key`, if one is.
  package func value<Key: FactKey>(_ key: Key) -> Key.Fact? { values[AnyHashable(key)] as? Key.Fact }

  /// Keeps a fact under `key`.
  package func set<Key: FactKey>(_ key: Key, _ fact: Key.Fact) { values[AnyHashable(key)] = fact }

  /// The fact kept under `key`, made by `make` the first time it is asked for.
  package func value<Key: FactKey>(_ key: Key, make: () throws -> Key.Fact) rethrows -> Key.Fact {
    if let fact = values[AnyHashable(key)] as? Key.Fact { return fact }
    let fact = try make()
    values[AnyHashable(key)] = fact
    return fact
  }
}

/// The key of a fact derived from one version of a file, and the fact's type: the layers
/// above the store declare their keys as types (two keys of different types never meet),
/// and the store keeps what they derived for as long as that version is the file's.
package protocol FactKey: Hashable, Sendable {
  associatedtype Fact: AnyObject
}

extension ReadCache {
  /// Whether the file open as `fd` holds exactly `bytes`: file times are coarse (a few
  /// milliseconds), so a kept version whose stamp still matches is compared byte for byte, a
  /// megabyte at a time into one buffer.
  static func file(_ fd: Int32, holds bytes: [UInt8]) -> Bool {
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    var offset = 0
    return bytes.withUnsafeBytes { expected in
      chunk.withUnsafeMutableBytes { chunk in
        while true {
          let read = pread(fd, chunk.baseAddress, chunk.count, off_t(offset))
          if read < 0, errno == EINTR { continue }
          if read < 0 { return false }
          if read == 0 { return offset == expected.count }
          guard offset + read <= expected.count, let got = chunk.baseAddress, let want = expected.baseAddress,
            memcmp(got, want + offset, read) == 0
          else { return false }
          offset += read
        }
      }
    }
  }
}
