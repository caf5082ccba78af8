@preconcurrency import Glibc

/// The character set and the collation of the user's locale, from glibc's tables, as
/// todo.sh's `grep` and `sort` run in it: the first set of `LC_ALL`, `LC_CTYPE` (or
/// `LC_COLLATE`) and `LANG` names it.
///
/// The process itself stays in the C locale (output, numbers and the native listing do not
/// depend on it); the locale is applied to one thread only around the C calls that need it
/// (`uselocale`), so `regcomp` folds `É` to `é` in a UTF-8 locale and bytes in the C locale,
/// as grep does.
final class SystemLocale: @unchecked Sendable {
  private let handle: locale_t
  /// Whether a character may take several bytes (UTF-8): then text with an encoding error
  /// is what grep calls a binary file.
  let isMultibyte: Bool
  /// Whether the character set is UTF-8 (then which characters map to ASCII letters is known).
  let isUTF8: Bool
  /// Whether collation is by bytes (the C and POSIX locales), so no `strcoll` is needed.
  let collatesBytes: Bool

  /// The locale `settings` name. A name glibc does not know leaves every category in the C
  /// locale, as a program's `setlocale(LC_ALL, "")` does when it fails.
  init(_ settings: Settings) {
    func name(_ category: String) -> String {
      for variable in ["LC_ALL", category, "LANG"] {
        let value = settings.value(variable)
        if !value.isEmpty { return value }
      }
      return "C"
    }
    let ctype = name("LC_CTYPE")
    let collate = name("LC_COLLATE")
    var made: locale_t?
    if let base = newlocale(LC_CTYPE_MASK, ctype, nil) {
      made = newlocale(LC_COLLATE_MASK, collate, base)
      if made == nil { freelocale(base) }
    }
    let inC = made == nil
    // glibc always has the C locale.
    handle = made ?? newlocale(LC_CTYPE_MASK | LC_COLLATE_MASK, "C", nil)!
    let previous = uselocale(handle)
    isMultibyte = __ctype_get_mb_cur_max() > 1
    uselocale(previous)
    isUTF8 = nl_langinfo_l(nl_item(CODESET), handle).map { String(cString: $0) } == "UTF-8"
    collatesBytes = inC || collate == "C" || collate == "POSIX"
  }

  deinit { freelocale(handle) }

  /// Runs `body` with this locale in force on the calling thread.
  func apply<T>(_ body: () -> T) -> T {
    let previous = uselocale(handle)
    defer { uselocale(previous) }
    return body()
  }

  /// `strcoll` of two strings in this locale's collation (`sort`'s comparison); a NUL ends a
  /// string, as it does for `sort`'s lines in C.
  func collate(_ left: [UInt8], _ right: [UInt8]) -> Int32 {
    if collatesBytes {
      return left.lexicographicallyPrecedes(right) ? -1 : (left == right ? 0 : 1)
    }
    var left = left
    var right = right
    left.append(0)
    right.append(0)
    return left.withUnsafeBufferPointer { x in
      right.withUnsafeBufferPointer { y in
        x.withMemoryRebound(to: CChar.self) { x in
          y.withMemoryRebound(to: CChar.self) { y in strcoll_l(x.baseAddress!, y.baseAddress!, handle) }
        }
      }
    }
  }

  /// The byte ranges of `bytes` that are whole characters of this locale, split where a
  /// byte sequence is not one (grep's `[^ ]` matches no such byte). One range, all of it,
  /// in a single-byte locale or for ASCII.
  func validRuns(_ bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
    var runs: [Range<Int>] = []
    var start = 0
    scan(bytes) { bad in
      if start < bad { runs.append(start..<bad) }
      start = bad + 1
      return true
    }
    if start < bytes.count || runs.isEmpty { runs.append(start..<bytes.count) }
    return runs
  }

  /// Whether `bytes` hold a sequence that is no character of this locale: never in a
  /// single-byte locale.
  func hasEncodingError(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var found = false
    scan(bytes) { _ in
      found = true
      return false
    }
    return found
  }

  /// Calls `invalid` with the offset of each byte that starts no character, while it
  /// returns true. ASCII is passed over without asking glibc.
  private func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ invalid: (Int) -> Bool) {
    guard isMultibyte, let base = bytes.baseAddress else { return }
    var position = 0
    while position < bytes.count, bytes[position] < 0x80 { position += 1 }
    guard position < bytes.count else { return }
    let previous = uselocale(handle)
    defer { uselocale(previous) }
    // mbtowc keeps a shift state only for encodings that have one; it is reset first.
    mbtowc(nil, nil, 0)
    base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { pointer in
      while position < bytes.count {
        if bytes[position] < 0x80 {
          position += 1
          continue
        }
        var character: wchar_t = 0
        // -1: an invalid sequence, or one cut short by the end.
        let length = Int(mbtowc(&character, pointer + position, bytes.count - position))
        if length < 0 {
          guard invalid(position) else { return }
          mbtowc(nil, nil, 0)
          position += 1
        } else {
          position += max(length, 1)
        }
      }
    }
  }
}
