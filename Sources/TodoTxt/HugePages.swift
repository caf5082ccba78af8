#if canImport(Glibc)
  import Glibc
#endif

/// Large buffers (a whole todo.txt read or about to be written, a listing's sort arrays)
/// backed by 2 MiB pages where the system allows it.
///
/// A short-lived command pays for memory by the page: every 4 KiB page it touches first costs
/// a fault (about 2–3 µs here, a third of a 100k-task `ls`), and the listing's sort and writing
/// read the file's lines in an order far from the file's, missing the TLB on nearly every line.
/// A 2 MiB page takes one fault and one TLB entry for 512 small ones. The kernel gives them
/// only to memory that asks (`madvise(2)`), and only whole and aligned: an anonymous mapping
/// whose length is a whole number of huge pages is placed on a huge-page boundary, so buffers
/// are sized to make their mapping so.
package enum HugePages {
  /// The huge page size on x86-64 and arm64 (with 4 KiB base pages).
  package static let size = 2 << 20

  /// Buffers smaller than this stay on small pages: rounding them up to a huge page would
  /// more than double them.
  package static let threshold = size / 2

  /// A capacity of at least `count` bytes for a `[UInt8]`, rounded so that the array's whole
  /// allocation (its header and the allocator's) fills a whole number of huge pages, and so
  /// starts on a huge-page boundary. Below ``threshold`` it is `count` itself.
  package static func byteCapacity(atLeast count: Int) -> Int { capacity(atLeast: count, of: UInt8.self) }

  /// ``byteCapacity(atLeast:)`` for an array of `count` elements of type `T`.
  package static func capacity<T>(atLeast count: Int, of _: T.Type) -> Int {
    let stride = MemoryLayout<T>.stride
    guard count * stride >= threshold else { return count }
    // 32 bytes of array header, 16 of allocator header and rounding: see ``advise(_:)``.
    let overhead = 64
    return ((count * stride + overhead + size - 1) / size * size - overhead) / stride
  }

  /// Asks for huge pages behind the whole 2 MiB pages of `buffer` (a hint, so its failure is
  /// ignored). A boundary less than a small page before the buffer's start or after its end
  /// counts as the buffer's own: those few bytes are the headers and padding of the same
  /// allocation (``byteCapacity(atLeast:)`` makes it so), so its first and last huge pages
  /// are asked for too. Buffers under ``threshold`` are left alone.
  package static func advise(_ buffer: UnsafeMutableRawBufferPointer) {
    #if canImport(Glibc)
      guard buffer.count >= threshold, let base = buffer.baseAddress else { return }
      let address = Int(bitPattern: base)
      let below = address & ~(size - 1)
      let start = address - below < 4096 ? below : below + size
      let last = address + buffer.count
      let above = (last + size - 1) & ~(size - 1)
      let end = above - last < 4096 ? above : above - size
      guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
      _ = madvise(aligned, end - start, MADV_HUGEPAGE)
      if start == below {
        // The allocator wrote its header before the advice, so the first huge page already
        // holds one small page and a fault there would go on with small pages: it is made
        // huge now (MADV_COLLAPSE, Linux 6.1; older kernels refuse it, which changes nothing).
        _ = madvise(aligned, size, HugePages.collapse)
      }
    #endif
  }

  /// `MADV_COLLAPSE`, which the C library's headers may not name yet.
  private static let collapse: Int32 = 25

  /// Scratch memory of at least `bytes` bytes, zeroed: a mapping of its own on huge pages
  /// when it is at least ``threshold``, plain `malloc` memory otherwise (or when the mapping
  /// fails). Freed with ``Scratch/release()``.
  package static func scratch(bytes: Int) -> Scratch {
    #if canImport(Glibc)
      if bytes >= threshold {
        let length = (bytes + size - 1) / size * size
        if let mapped = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
          mapped != MAP_FAILED
        {
          _ = madvise(mapped, length, MADV_HUGEPAGE)
          return Scratch(memory: UnsafeMutableRawBufferPointer(start: mapped, count: length), mapped: true)
        }
      }
    #endif
    let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes, 1), alignment: 16)
    memory.initializeMemory(as: UInt8.self, repeating: 0)
    return Scratch(memory: memory, mapped: false)
  }

  /// Scratch memory of at least `bytes` bytes whose contents are not to be relied on: the
  /// mapping the last ``Scratch/recycle()`` gave back when it is large enough, else new
  /// memory. The shell lists again and again in one process, and clearing fresh pages for each
  /// listing's output blocks was a tenth of a later line's time.
  package static func reusableScratch(bytes: Int) -> Scratch { reusableScratch(bytes: bytes, from: .shared) }

  static func reusableScratch(bytes: Int, from spare: Spare) -> Scratch {
    spare.take(atLeast: bytes) ?? scratch(bytes: bytes)
  }

  /// The one mapping kept for ``reusableScratch(bytes:)`` (``shared``; others for tests).
  final class Spare: @unchecked Sendable {
    static let shared = Spare()
    /// Mappings larger than this are returned to the system: a few megabytes are worth
    /// keeping, the size of a whole file is not.
    static let largest = 4 * size
    private var kept: Scratch?
    private var mutex = pthread_mutex_t()

    init() { pthread_mutex_init(&mutex, nil) }

    func take(atLeast bytes: Int) -> Scratch? {
      pthread_mutex_lock(&mutex)
      defer { pthread_mutex_unlock(&mutex) }
      guard let spare = kept, spare.memory.count >= bytes else { return nil }
      kept = nil
      return spare
    }

    /// Keeps `scratch`, or returns it to the system when it is too large or one is kept.
    func give(_ scratch: Scratch) {
      pthread_mutex_lock(&mutex)
      let keeps = scratch.mapped && scratch.memory.count <= Spare.largest && kept == nil
      if keeps { kept = scratch }
      pthread_mutex_unlock(&mutex)
      if !keeps { scratch.release() }
    }
  }

  /// Memory from ``scratch(bytes:)``.
  package struct Scratch {
    package let memory: UnsafeMutableRawBufferPointer
    let mapped: Bool

    /// Returns the memory; it must not be used after.
    package func release() {
      #if canImport(Glibc)
        if mapped, let base = memory.baseAddress {
          munmap(base, memory.count)
          return
        }
      #endif
      memory.deallocate()
    }

    /// Gives the memory back for ``HugePages/reusableScratch(bytes:)``; it must not be used
    /// after.
    package func recycle() { recycle(into: .shared) }

    func recycle(into spare: Spare) { spare.give(self) }
  }
}
