#if canImport(Glibc)
  import Glibc
#endif

/// One version of a file for ``TodoMerge``, its bytes outside the Swift heap (a mapped file),
/// handed back a part at a time as the merge reads on.
///
/// A merge compares every line of three versions of a file. Read into arrays, the three files
/// alone take three times the file's size for the whole merge. Through a mapping, the pages
/// the merge has read are dropped from the process every quarter megabyte or so (`forget`, which
/// for a mapping is `madvise(MADV_DONTNEED)`): they stay in the kernel's page cache, and a
/// line read again is mapped back from there, without a disk read. What the process holds
/// per line is one 32-bit offset.
///
/// The lines are split exactly as ``TodoList/init(bytes:)`` splits them (see
/// ``list()``): at LF, a CR before it ending the line too, a byte order mark before the
/// first line.
///
/// The bytes must not change while the buffer lives: the owner (the command that mapped the
/// file) checks that the file was left alone before it trusts the merge.
package final class LineBuffer {
  private let bytes: UnsafeBufferPointer<UInt8>
  /// Where each line starts, and one past the last line's end: line `i` is the bytes from
  /// `starts[i]` to `starts[i + 1]`, less its line ending.
  private let starts: [UInt32]
  private let forget: (UnsafeRawBufferPointer) -> Void
  private let release: (UnsafeRawBufferPointer) -> Void
  /// The 64 KiB block of the last line read, and how many block changes since the last
  /// `forget`: the kernel maps a file's pages back up to 64 KiB at a time, so each block read
  /// may hold that much again.
  private var lastBlock = -1
  private var blocksRead = 0

  /// Blocks read between two `forget`s: about a quarter megabyte of the file held at most.
  static let blocksHeld = 4

  /// Wraps `bytes`, which stay valid until `release` is called with them (when the buffer
  /// goes away). `forget`, called with all of `bytes`, tells the owner that they may leave
  /// memory until they are read again; `nil` when they cannot (a file read into memory).
  ///
  /// `nil` for a buffer of 4 GiB or more, whose offsets would not fit in 32 bits.
  package init?(
    bytes: UnsafeRawBufferPointer, forget: ((UnsafeRawBufferPointer) -> Void)?,
    release: @escaping (UnsafeRawBufferPointer) -> Void
  ) {
    guard bytes.count < Int(UInt32.max) else { return nil }
    self.bytes = bytes.bindMemory(to: UInt8.self)
    self.forget = forget ?? { _ in }
    self.release = release
    starts = LineBuffer.lineStarts(self.bytes, forget: self.forget)
  }

  deinit { release(UnsafeRawBufferPointer(bytes)) }

  /// Line starts as ``TodoList/init(bytes:)`` finds them, with the end of the last line after;
  /// the bytes are let go a megabyte at a time as the search goes.
  private static func lineStarts(
    _ b: UnsafeBufferPointer<UInt8>, forget: (UnsafeRawBufferPointer) -> Void
  ) -> [UInt32] {
    var starts: [UInt32] = []
    guard let base = b.baseAddress else { return [0] }
    let n = b.count
    starts.reserveCapacity(n / 48 + 2)
    var start = b.starts(with: TodoList.byteOrderMark) ? TodoList.byteOrderMark.count : 0
    var held = 0
    while start < n {
      if start - held >= 1 << 20 {
        forget(UnsafeRawBufferPointer(b))
        held = start
      }
      starts.append(UInt32(start))
      #if canImport(Glibc)
        let newline =
          memchr(base + start, Int32(UInt8.lf), n - start).map {
            UnsafeRawPointer($0) - UnsafeRawPointer(base)
          } ?? n
      #else
        var newline = start
        while newline < n, b[newline] != .lf { newline += 1 }
      #endif
      start = Swift.min(newline + 1, n)
    }
    starts.append(UInt32(n))
    forget(UnsafeRawBufferPointer(b))
    return starts
  }

  /// The number of lines.
  package var count: Int { starts.count - 1 }

  /// The bounds of line `index` in ``bytes``, without its line ending.
  @inline(__always)
  private func bounds(_ index: Int) -> (start: Int, end: Int) {
    let start = Int(starts[index])
    var end = Int(starts[index + 1])
    if end > start, bytes[end - 1] == .lf {
      end -= 1
      if end > start, bytes[end - 1] == .cr { end -= 1 }
    }
    return (start, end)
  }

  /// Counts the block that `offset` is in, and lets the bytes go when enough were read.
  @inline(__always)
  private func read(at offset: Int) {
    let block = offset >> 16
    guard block != lastBlock else { return }
    lastBlock = block
    blocksRead += 1
    if blocksRead > LineBuffer.blocksHeld { letGo() }
  }

  /// Lets every byte read so far leave memory (they come back when read again).
  package func letGo() {
    blocksRead = 0
    lastBlock = -1
    forget(UnsafeRawBufferPointer(bytes))
  }

  /// The whole file as a ``TodoList`` (its bytes copied, a megabyte at a time, so that the
  /// mapping is not held whole beside the copy).
  package func list() -> TodoList {
    let chunk = 1 << 20
    let copy = [UInt8](unsafeUninitializedCapacity: HugePages.byteCapacity(atLeast: bytes.count)) { out, count in
      count = 0
      guard let target = out.baseAddress, let source = bytes.baseAddress else { return }
      HugePages.advise(UnsafeMutableRawBufferPointer(out))
      while count < bytes.count {
        let take = Swift.min(chunk, bytes.count - count)
        (target + count).update(from: source + count, count: take)
        count += take
        letGo()
      }
    }
    return TodoList(bytes: copy)
  }
}

extension LineBuffer: PairedLines {
  @inline(__always)
  func withLineBytes<R>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows
    -> R
  {
    let (start, end) = bounds(index)
    read(at: start)
    return try body(UnsafeBufferPointer(rebasing: bytes[start..<end]))
  }

  /// The line parsed, its bytes copied (only the few lines the merge must look into).
  subscript(index: Int) -> Task { withLineBytes(at: index) { Task(bytes: Array($0)) } }
}
