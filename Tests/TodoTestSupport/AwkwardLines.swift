/// Lines of a todo.txt file that are hard to carry through JSON, from a seed: every control
/// character a line can hold (CR, NUL, ESC, DEL, the C1 controls), the two line separators
/// JavaScript breaks lines at, quotes and backslashes, invalid UTF-8 of every kind, and
/// texts of a megabyte. The JSON round-trip tests of the library and of its Foundation bridge
/// read the same lines.
public enum AwkwardLines {
  /// Pieces of lines, strung together at random with the separators.
  static let pieces: [[UInt8]] = [
    "x ", "(A) ", "(b) ", "2026-01-05 ", "2023-02-29 ", "+p", "+Проект", "@c", "@首都", "due:2026-01-09",
    "due:fri", "t:2026-01-01", "pri:C", "k:v", "12:30", "http://x.y/z", "word", "é", "e\u{301}", "😜", "\u{FEFF}",
    "\"quoted\"", "back\\slash", "a/b", "</script>", "\u{2028}", "\u{2029}", "\u{7F}", "\u{1B}[31m", "\u{08}",
    "\u{0C}", "\u{0B}", "\u{01}", "\u{1F}", "\u{85}", "\u{9B}2J", "\u{A0}",
  ].map { Array($0.utf8) } + [
    [0x00], [0x0D], [0xFF], [0xFE], [0xC3], [0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
    [0xE2, 0x80], [0xF0, 0x9F, 0x98],
  ]
  static let separators: [[UInt8]] = [[0x20], [0x20], [0x20, 0x20], [0x09], [0x0D], []]

  /// One line (no line feed in it).
  public static func line(_ generator: inout SplitMix64) -> [UInt8] {
    if generator.below(8) == 0 {
      // Any bytes but a line feed.
      return (0..<generator.below(48)).map { _ in
        let byte = UInt8(truncatingIfNeeded: generator.next())
        return byte == 0x0A ? 0x0D : byte
      }
    }
    var line: [UInt8] = []
    for _ in 0..<generator.below(12) {
      line += pieces[generator.below(pieces.count)]
      line += separators[generator.below(separators.count)]
    }
    return line
  }

  /// A line of about `megabytes` MB, pieces repeated: what a pasted file or a runaway script
  /// makes of a task.
  public static func hugeLine(_ generator: inout SplitMix64, megabytes: Int = 1) -> [UInt8] {
    var line: [UInt8] = Array("(A) 2026-01-05 huge +p @c k:v ".utf8)
    line.reserveCapacity(megabytes << 20 + 64)
    while line.count < megabytes << 20 {
      line += pieces[generator.below(pieces.count)]
      line += separators[generator.below(separators.count)]
    }
    return line
  }

  /// `count` lines from `seed`, the first `huge` of them a megabyte long.
  public static func corpus(seed: UInt64, count: Int, huge: Int = 1) -> [[UInt8]] {
    var generator = SplitMix64(seed: seed)
    return (0..<count).map { index in index < huge ? hugeLine(&generator) : line(&generator) }
  }
}
