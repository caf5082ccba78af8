@preconcurrency import Glibc

/// A POSIX basic regular expression, compiled by glibc's `regcomp`: the same engine and
/// dialect as GNU grep and sed (`\|`, `\+`, `\{n,m\}`, bracket expressions), so todo.sh's
/// search terms and substitution patterns mean exactly what they meant there.
final class BasicRegex: @unchecked Sendable {
  private var compiled = regex_t()
  /// The locale the pattern was compiled in and is matched in; `nil`: the process's (C).
  private let locale: SystemLocale?

  /// Why glibc rejected a pattern: its `regcomp` code and `regerror` text.
  struct Failure: Error {
    var code: Int32
    var message: String
  }

  /// Compiles `pattern`; `nil` when glibc rejects it.
  convenience init?(_ pattern: String, ignoringCase: Bool = false, extended: Bool = false, locale: SystemLocale? = nil) {
    do {
      try self.init(compiling: Array(pattern.utf8), ignoringCase: ignoringCase, extended: extended, locale: locale)
    } catch {
      return nil
    }
  }

  /// Compiles the bytes of `pattern` (which need not be UTF-8), in `locale` when given: its
  /// character set decides what a character is and how case folds.
  init(compiling pattern: [UInt8], ignoringCase: Bool = false, extended: Bool = false, locale: SystemLocale? = nil)
    throws(Failure)
  {
    self.locale = locale
    var flags: Int32 = 0
    if ignoringCase { flags |= REG_ICASE }
    if extended { flags |= REG_EXTENDED }
    var text = pattern
    if let nul = text.firstIndex(of: 0) { text.removeSubrange(nul...) }
    text.append(0)
    let status = within {
      text.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { regcomp(&compiled, $0.baseAddress!, flags) }
      }
    }
    guard status == 0 else {
      var message = [UInt8](repeating: 0, count: 256)
      message.withUnsafeMutableBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { _ = regerror(status, &compiled, $0.baseAddress, $0.count) }
      }
      throw Failure(code: status, message: String(decoding: message.prefix { $0 != 0 }, as: UTF8.self))
    }
  }

  /// Runs `body` in the pattern's locale.
  private func within<T>(_ body: () -> T) -> T { locale?.apply(body) ?? body() }

  deinit { regfree(&compiled) }

  /// The byte range of the first match in `bytes[from...]`, or `nil`.
  ///
  /// - Parameter notAtLineStart: `^` must not match at `from` (later matches of a global
  ///   substitution).
  func firstMatch(in bytes: [UInt8], from: Int = 0, notAtLineStart: Bool = false) -> Range<Int>? {
    // regexec needs a NUL-terminated string; a NUL inside a line ends the text it sees.
    var text = Array(bytes[from...])
    if let nul = text.firstIndex(of: 0) { text.removeSubrange(nul...) }
    text.append(0)
    var match = [regmatch_t](repeating: regmatch_t(), count: 1)
    let status = text.withUnsafeBufferPointer { buffer in
      buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { pointer in
        within { regexec(&compiled, pointer, 1, &match, notAtLineStart ? REG_NOTBOL : 0) }
      }
    }
    guard status == 0 else { return nil }
    return (from + Int(match[0].rm_so))..<(from + Int(match[0].rm_eo))
  }

  func matches(_ bytes: [UInt8]) -> Bool { firstMatch(in: bytes) != nil }

  /// Sub-match ranges (index 0 is the whole match) of the first match, as `sed` sees them.
  func groups(in bytes: [UInt8], count: Int) -> [Range<Int>?]? {
    var text = bytes
    if let nul = text.firstIndex(of: 0) { text.removeSubrange(nul...) }
    text.append(0)
    var match = [regmatch_t](repeating: regmatch_t(), count: count)
    let status = text.withUnsafeBufferPointer { buffer in
      buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { pointer in
        within { regexec(&compiled, pointer, count, &match, 0) }
      }
    }
    guard status == 0 else { return nil }
    return match.map { $0.rm_so < 0 ? nil : Int($0.rm_so)..<Int($0.rm_eo) }
  }

  /// `sed 's/PATTERN/REPLACEMENT/g'` on one line. The replacement may use `\1`…`\9` and `&`.
  func replacingAll(in bytes: [UInt8], with replacement: [UInt8], global: Bool = true) -> [UInt8] {
    var result: [UInt8] = []
    var position = 0
    var first = true
    while position <= bytes.count {
      var text = Array(bytes[position...])
      text.append(0)
      var match = [regmatch_t](repeating: regmatch_t(), count: 10)
      let status = text.withUnsafeBufferPointer { buffer in
        buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { pointer in
          within { regexec(&compiled, pointer, 10, &match, first ? 0 : REG_NOTBOL) }
        }
      }
      guard status == 0 else { break }
      let start = position + Int(match[0].rm_so)
      let end = position + Int(match[0].rm_eo)
      result += bytes[position..<start]
      var index = 0
      while index < replacement.count {
        let byte = replacement[index]
        if byte == UInt8(ascii: "\\"), index + 1 < replacement.count {
          let next = replacement[index + 1]
          if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) {
            let group = match[Int(next - UInt8(ascii: "0"))]
            if group.rm_so >= 0 { result += bytes[(position + Int(group.rm_so))..<(position + Int(group.rm_eo))] }
          } else if next == UInt8(ascii: "n") {
            result.append(0x0A)
          } else {
            result.append(next)
          }
          index += 2
          continue
        }
        if byte == UInt8(ascii: "&") {
          result += bytes[start..<end]
        } else {
          result.append(byte)
        }
        index += 1
      }
      first = false
      if end == start {
        // An empty match: copy one byte and go on, as sed does.
        if end < bytes.count { result.append(bytes[end]) }
        position = end + 1
      } else {
        position = end
      }
      if !global { break }
    }
    if position < bytes.count { result += bytes[position...] }
    return result
  }
}
