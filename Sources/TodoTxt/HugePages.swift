#if canImport(Glibc)
  import Glibc
#endif

/// Large buffers (a whole todo.txt read or about to be written) backed by huge pages where
/// the system allows it: a 60 MB buffer would otherwise take some 15,000 page faults.
public enum HugePages {
  /// Asks for huge pages behind the whole 2 MiB pages of `buffer` (`madvise(2)`; a hint, so
  /// its failure is ignored). Buffers under 8 MiB are left alone.
  public static func advise(_ buffer: UnsafeMutableRawBufferPointer) {
    #if canImport(Glibc)
      let huge = 2 << 20
      guard buffer.count >= 4 * huge, let base = buffer.baseAddress else { return }
      let address = Int(bitPattern: base)
      let start = (address + huge - 1) & ~(huge - 1)
      let end = (address + buffer.count) & ~(huge - 1)
      guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
      _ = madvise(aligned, end - start, MADV_HUGEPAGE)
    #endif
  }
}
