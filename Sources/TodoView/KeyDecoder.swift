/// Turns the bytes a terminal sends into keys: characters (UTF-8), control keys, the escape
/// sequences of arrows and paging keys (both the `ESC [` and the `ESC O` forms), and SGR mouse
/// reports (`ESC [ < b ; x ; y M`).
///
/// A lone ESC is ambiguous until the next bytes arrive (it starts every sequence): it stays
/// pending, and the reader calls ``flushPendingEscape()`` when nothing followed within a
/// moment. Bytes that make no key (invalid UTF-8, sequences of keys the view has no use for,
/// other control characters) are dropped: a stray byte must never act as a command.
package struct KeyDecoder {
  private var pending: [UInt8] = []

  package init() {}

  /// Whether an ESC (or the start of a sequence) waits for more bytes.
  package var hasPendingInput: Bool { !pending.isEmpty }

  /// The keys in `bytes`, after what was pending.
  package mutating func feed(_ bytes: some Sequence<UInt8>) -> [Key] {
    pending.append(contentsOf: bytes)
    var keys: [Key] = []
    var index = 0
    while index < pending.count {
      guard let (key, length) = decode(at: index) else { break }
      if let key { keys.append(key) }
      index += length
    }
    pending.removeFirst(index)
    // A sequence that can never end (no final byte in a long run) is dropped, not kept; a
    // paste waits for its end marker up to a megabyte.
    let pasting = pending.starts(with: [0x1B, UInt8(ascii: "["), UInt8(ascii: "2"), UInt8(ascii: "0"), UInt8(ascii: "0")])
    if pending.count > (pasting ? 1 << 20 : 64) { pending.removeAll() }
    return keys
  }

  /// The pending ESC as the Escape key (nothing followed it), and any partial sequence
  /// after it dropped.
  package mutating func flushPendingEscape() -> [Key] {
    defer { pending.removeAll() }
    return pending.first == 0x1B ? [.escape] : []
  }

  /// The key at `index` and the bytes it takes (`nil` key: bytes to drop), or `nil` when
  /// the bytes there are not complete yet.
  private func decode(at index: Int) -> (Key?, Int)? {
    let byte = pending[index]
    switch byte {
    case 0x1B: return escape(at: index)
    case 0x0D, 0x0A: return (.enter, 1)
    case 0x09: return (.tab, 1)
    case 0x7F, 0x08: return (.backspace, 1)
    case 0x01...0x1A: return (.control(Character(UnicodeScalar(byte + 0x60))), 1)
    case 0x00..<0x20: return (nil, 1)
    case 0x20..<0x7F: return (.character(Character(UnicodeScalar(byte))), 1)
    default: return utf8(at: index)
    }
  }

  private func utf8(at index: Int) -> (Key?, Int)? {
    let byte = pending[index]
    let length = byte >= 0xF0 && byte < 0xF8 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC2 && byte < 0xE0 ? 2 : 0
    guard length > 0 else { return (nil, 1) }
    guard index + length <= pending.count else { return nil }
    guard let text = String(validating: pending[index..<(index + length)], as: UTF8.self), let character = text.first,
      let scalar = text.unicodeScalars.first, !(0x80...0x9F).contains(scalar.value)
    else { return (nil, 1) }
    return (.character(character), length)
  }

  private func escape(at index: Int) -> (Key?, Int)? {
    guard index + 1 < pending.count else { return nil }
    let next = pending[index + 1]
    if next == UInt8(ascii: "O") {
      guard index + 2 < pending.count else { return nil }
      let keys: [UInt8: Key] = [
        UInt8(ascii: "A"): .up, UInt8(ascii: "B"): .down, UInt8(ascii: "C"): .right, UInt8(ascii: "D"): .left,
        UInt8(ascii: "H"): .home, UInt8(ascii: "F"): .end,
      ]
      return (keys[pending[index + 2]], 3)
    }
    guard next == UInt8(ascii: "[") else {
      // ESC then a character is Alt with it (what terminals send for Alt-x): a key of its
      // own, bound to nothing, so a slip on Alt in a prompt neither leaves the prompt nor
      // runs the character as a command. ESC then another control is the Escape key.
      if (0x20..<0x7F).contains(next) { return (.alt(Character(UnicodeScalar(next))), 2) }
      return (.escape, 1)
    }
    var end = index + 2
    while end < pending.count, !(0x40...0x7E).contains(pending[end]) { end += 1 }
    guard end < pending.count else { return nil }
    let parameters = Array(pending[(index + 2)..<end])
    let final = pending[end]
    let length = end - index + 1
    if final == UInt8(ascii: "~"), parameters == Array("200".utf8) { return pasted(from: end + 1, start: index) }
    if parameters.first == UInt8(ascii: "<"), final == UInt8(ascii: "M") || final == UInt8(ascii: "m") {
      return (mouse(parameters.dropFirst(), released: final == UInt8(ascii: "m")), length)
    }
    switch final {
    case UInt8(ascii: "A"): return (.up, length)
    case UInt8(ascii: "B"): return (.down, length)
    case UInt8(ascii: "C"): return (.right, length)
    case UInt8(ascii: "D"): return (.left, length)
    case UInt8(ascii: "H"): return (.home, length)
    case UInt8(ascii: "F"): return (.end, length)
    case UInt8(ascii: "Z"): return (.backTab, length)
    case UInt8(ascii: "~"):
      let number = Int(String(decoding: parameters.prefix { $0 != UInt8(ascii: ";") }, as: UTF8.self))
      let keys: [Int: Key] = [1: .home, 7: .home, 4: .end, 8: .end, 5: .pageUp, 6: .pageDown, 3: .delete]
      return (number.flatMap { keys[$0] }, length)
    default: return (nil, length)
    }
  }

  /// The text between `ESC [ 200 ~` and `ESC [ 201 ~`, or `nil` until the end marker came.
  private func pasted(from start: Int, start marker: Int) -> (Key?, Int)? {
    let end: [UInt8] = [0x1B, UInt8(ascii: "["), UInt8(ascii: "2"), UInt8(ascii: "0"), UInt8(ascii: "1"), UInt8(ascii: "~")]
    var index = start
    while index + end.count <= pending.count {
      if pending[index] == 0x1B, pending[index..<(index + end.count)].elementsEqual(end) {
        let text = String(decoding: pending[start..<index], as: UTF8.self)
        return (.paste(text), index + end.count - marker)
      }
      index += 1
    }
    return nil
  }

  private func mouse(_ parameters: ArraySlice<UInt8>, released: Bool) -> Key? {
    let fields = parameters.split(separator: UInt8(ascii: ";")).map { Int(String(decoding: $0, as: UTF8.self)) }
    guard fields.count == 3, let button = fields[0], let column = fields[1], let row = fields[2] else { return nil }
    let kind: MouseEvent.Kind
    switch button & ~(4 | 8 | 16) {
    case 64: kind = .wheelUp
    case 65: kind = .wheelDown
    case 0: kind = released ? .release : .press
    default: return nil
    }
    // Motion reports (button | 32) are not asked for; drop any that arrive.
    guard button & 32 == 0 else { return nil }
    return .mouse(MouseEvent(kind: kind, row: row, column: column))
  }
}
