import TodoStore
@preconcurrency import Glibc

/// The process's standard input, read a byte at a time so that nothing is consumed beyond what
/// a question needs (a script may pipe several answers).
package final class StandardInput: InputSource {
  package let isTerminal = Posix.isTerminal(STDIN_FILENO)

  package init() {}

  private func readByte() -> UInt8? {
    var byte: UInt8 = 0
    while true {
      if isTerminal {
        // On a terminal Ctrl-C (which the shell catches) cancels the question: no answer,
        // which is no. The input is polled, so a Ctrl-C that comes just before the read is
        // seen too (a signal between a check and a blocking read would be lost).
        if Interruption.take() { return nil }
        var waiting = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        let ready = poll(&waiting, 1, 100)
        if ready == 0 || (ready < 0 && errno == EINTR) { continue }
      }
      let count = read(STDIN_FILENO, &byte, 1)
      if count == 1 { return byte }
      if count < 0, errno == EINTR { continue }
      return nil
    }
  }

  package func readLine() -> [UInt8]? {
    var line: [UInt8] = []
    while let byte = readByte() {
      if byte == 0x0A { return line }
      line.append(byte)
    }
    return line.isEmpty ? nil : line
  }

  package func readCharacter() -> [UInt8]? {
    guard let first = readByte() else { return nil }
    var bytes = [first]
    // A UTF-8 lead byte announces its continuation bytes.
    let extra = first >= 0xF0 ? 3 : first >= 0xE0 ? 2 : first >= 0xC0 ? 1 : 0
    for _ in 0..<extra {
      guard let next = readByte() else { break }
      bytes.append(next)
    }
    // A terminal hands over a whole line (`y` and Enter): the answer is its first character,
    // and the rest of the line goes with it, so that nothing typed at the question is read
    // as the next command.
    if isTerminal, first != 0x0A {
      while let next = readByte(), next != 0x0A {}
    }
    return bytes
  }
}

/// Input given as a fixed script of bytes, for tests and batch use.
package final class ScriptedInput: InputSource {
  private var bytes: [UInt8]
  package let isTerminal: Bool

  package init(_ text: String = "", isTerminal: Bool = false) {
    bytes = Array(text.utf8)
    self.isTerminal = isTerminal
  }

  package func readLine() -> [UInt8]? {
    guard !bytes.isEmpty else { return nil }
    if let newline = bytes.firstIndex(of: 0x0A) {
      let line = Array(bytes[..<newline])
      bytes.removeSubrange(...newline)
      return line
    }
    defer { bytes = [] }
    return bytes
  }

  package func readCharacter() -> [UInt8]? {
    guard !bytes.isEmpty else { return nil }
    return [bytes.removeFirst()]
  }
}

/// A Ctrl-C the interactive shell caught while a command ran (its handler calls
/// ``note()``): a question on the terminal then ends with no answer.
package enum Interruption {
  nonisolated(unsafe) private static var pending: sig_atomic_t = 0

  /// Records an interruption; safe in a signal handler.
  package static func note() { pending = 1 }

  /// Forgets an interruption from before (the shell calls it for each new line).
  package static func clear() { pending = 0 }

  /// Whether an interruption came, forgetting it.
  static func take() -> Bool {
    guard pending != 0 else { return false }
    pending = 0
    return true
  }
}
