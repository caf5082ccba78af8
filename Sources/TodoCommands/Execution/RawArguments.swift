#if canImport(Glibc)
  import Glibc
#endif

/// The command line's arguments as the bytes the process was given, for those that are not
/// UTF-8.
///
/// `CommandLine.arguments` repairs such an argument, each bad byte becoming U+FFFD, so a
/// search term `$'\xff'` would look for the replacement character. A search term looks here
/// for the bytes it stood for (``WordMatcher``) and finds the line that holds them.
package enum RawArguments {
  /// The repaired text of each argument that is not UTF-8 (and of it without a leading `-`,
  /// as an excluding term is read), with its bytes. Written by ``record(_:)`` before a command
  /// runs (once for the process's arguments, and for each line of the shell that is not
  /// UTF-8) and only read after, on the one thread that runs commands.
  nonisolated(unsafe) private static var byText: [String: [UInt8]] = [:]

  /// Keeps the bytes of the arguments in `argv` that are not UTF-8.
  ///
  /// Two different byte strings that repair to the same text cannot be told apart by their
  /// text; the first one given is kept.
  ///
  /// - Parameter replacing: forget what earlier calls kept (each line of the shell is a
  ///   command line of its own: a word of an earlier line must not lend its bytes to a later
  ///   word that repairs to the same text).
  package static func record(_ argv: [[UInt8]], replacing: Bool = false) {
    if replacing { byText.removeAll() }
    for bytes in argv {
      let text = String(decoding: bytes, as: UTF8.self)
      guard Array(text.utf8) != bytes else { continue }
      if byText[text] == nil { byText[text] = bytes }
      if bytes.first == UInt8(ascii: "-") {
        let rest = Array(bytes.dropFirst())
        let restText = String(decoding: rest, as: UTF8.self)
        if byText[restText] == nil { byText[restText] = rest }
      }
    }
  }

  /// The bytes of the process's own arguments (`argv`), unrepaired.
  /// The corresponding C value is `argv`, read through `CommandLine.unsafeArgv`.
  package static func processArguments() -> [[UInt8]] {
    (0..<Int(CommandLine.argc)).map { index in
      guard let pointer = CommandLine.unsafeArgv[index] else { return [] }
      let start = UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self)
      return Array(UnsafeBufferPointer(start: start, count: strlen(pointer)))
    }
  }

  /// Words joined by single spaces, each as the bytes it was given as: task text typed with
  /// bytes that are not UTF-8 is stored as typed, as todo.sh stores it, not repaired.
  package static func joined(_ words: some Sequence<String>) -> [UInt8] {
    var result: [UInt8] = []
    for (offset, word) in words.enumerated() {
      if offset > 0 { result.append(UInt8(ascii: " ")) }
      result += bytes(of: word) ?? Array(word.utf8)
    }
    return result
  }

  /// The bytes an argument that is not UTF-8 was given as, or `nil` for any other text.
  static func bytes(of text: String) -> [UInt8]? {
    guard !byText.isEmpty, text.unicodeScalars.contains("\u{FFFD}") else { return nil }
    return byText[text]
  }
}
