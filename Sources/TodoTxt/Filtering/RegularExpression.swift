#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A POSIX extended regular expression compiled once by the C library's `regcomp`, for the
/// `/expression/` form of a query.
///
/// Matching does not change the compiled expression (`regexec` only reads it), so one value
/// may be shared between threads.
public final class RegularExpression: @unchecked Sendable, Equatable, CustomStringConvertible {
  /// The pattern as written (POSIX extended syntax).
  public let pattern: String
  /// Whether letters match in either case.
  public let ignoresCase: Bool
  private var compiled = regex_t()

  /// Compiles `pattern`; throws the C library's description of what is wrong with it.
  public init(_ pattern: String, ignoringCase: Bool = false) throws(RegularExpressionError) {
    self.pattern = pattern
    self.ignoresCase = ignoringCase
    let flags = REG_EXTENDED | REG_NOSUB | (ignoringCase ? REG_ICASE : 0)
    let status = regcomp(&compiled, pattern, flags)
    guard status == 0 else {
      var buffer = [CChar](repeating: 0, count: 256)
      _ = regerror(status, &compiled, &buffer, buffer.count)
      let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      regfree(&compiled)
      throw RegularExpressionError(message: message.isEmpty ? "invalid regular expression" : message)
    }
  }

  deinit { regfree(&compiled) }

  /// Whether the expression matches somewhere in `bytes` (a NUL byte ends the text it sees).
  public func matches(_ bytes: some Collection<UInt8>) -> Bool {
    var text = [CChar]()
    text.reserveCapacity(bytes.count + 1)
    for byte in bytes {
      if byte == 0 { break }
      text.append(CChar(bitPattern: byte))
    }
    text.append(0)
    return regexec(&compiled, text, 0, nil, 0) == 0
  }

  public static func == (lhs: RegularExpression, rhs: RegularExpression) -> Bool {
    lhs.pattern == rhs.pattern && lhs.ignoresCase == rhs.ignoresCase
  }

  public var description: String {
    "/" + pattern.replacingSlashes() + "/" + (ignoresCase ? "i" : "")
  }
}

/// Why `regcomp` refused a pattern, in the C library's words.
public struct RegularExpressionError: Error, Sendable, Equatable {
  /// The C library's message.
  public var message: String
}

extension String {
  fileprivate func replacingSlashes() -> String {
    var result = ""
    for character in self {
      if character == "/" { result += "\\" }
      result.append(character)
    }
    return result
  }
}
