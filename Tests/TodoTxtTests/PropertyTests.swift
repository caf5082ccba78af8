import Testing
import TodoTxt
import TodoTestSupport

/// Generated files and edits. Every case comes from a fixed seed, so a failure names the
/// seed that reproduces it.
@Suite("Properties")
struct PropertyTests {
  static let seeds: [UInt64] = Array(1...3_000)

  /// Pieces of real lines, valid and invalid, to be strung together at random.
  static let tokens = [
    "x", "X", "x ", "2026-01-05", "2024-02-29", "2023-02-29", "2026-13-01", "(A)", "(B) ", "(b)", "(Z)",
    "+p", "+Проект", "++pp", "+", "@c", "@@d", "@首都", "k:v", "due:2026-01-09", "due:2026-02-30",
    "t:2026-01-01", "pri:B", "rec:+1w", "h:1", "a:b:c", "http://x.y/z", "https://e.com:80/p", "12:30",
    ":x", "y:", "word", "é", "😜", "\u{00A0}", "\u{FEFF}", "#", "(A)x",
  ]
  static let separators = [" ", " ", " ", "  ", "\t", " \t ", "\r", ""]

  static func randomLine(_ g: inout SplitMix64) -> [UInt8] {
    if g.next() % 8 == 0 {
      // Raw bytes, any value but a line feed.
      return (0..<Int(g.next() % 40)).map { _ in
        let byte = UInt8(truncatingIfNeeded: g.next())
        return byte == 0x0A ? 0x0D : byte
      }
    }
    var line: [UInt8] = []
    for _ in 0..<Int(g.next() % 9) {
      line += utf8(tokens[Int(g.next() % UInt64(tokens.count))])
      line += utf8(separators[Int(g.next() % UInt64(separators.count))])
    }
    return line
  }

  /// A file of random lines with random endings, maybe a mark, maybe no final newline.
  static func randomFile(_ g: inout SplitMix64) -> [UInt8] {
    var file: [UInt8] = g.next() % 6 == 0 ? TodoList.byteOrderMark : []
    let count = Int(g.next() % 7)
    for i in 0..<count {
      file += randomLine(&g)
      let last = i == count - 1
      switch g.next() % 5 {
      case 0: file += [0x0D, 0x0A]
      case 1 where last: break
      default: file += [0x0A]
      }
    }
    return file
  }

  @Test("any bytes read and write back unchanged")
  func randomBytesRoundTrip() {
    var g = SplitMix64(seed: 0xB17E5)
    for seed in Self.seeds {
      let alphabet: [UInt8] = [0x0A, 0x0D, 0x20, 0x09, 0xEF, 0xBB, 0xBF, 0x78, 0x28, 0x41, 0x29, 0xFF]
      let file: [UInt8] = (0..<Int(g.next() % 64)).map { _ in
        g.next() % 2 == 0 ? alphabet[Int(g.next() % UInt64(alphabet.count))] : UInt8(truncatingIfNeeded: g.next())
      }
      let list = TodoList(bytes: file)
      #expect(list.serialized() == file, "case \(seed)")
      #expect(Split(list) == Split(file), "case \(seed)")
    }
  }

  @Test("generated files of real tokens read and write back unchanged")
  func tokenFilesRoundTrip() {
    for seed in Self.seeds {
      var g = SplitMix64(seed: seed)
      let file = Self.randomFile(&g)
      let list = TodoList(bytes: file)
      #expect(list.serialized() == file, "seed \(seed)")
      #expect(Split(list) == Split(file), "seed \(seed)")
    }
  }

  @Test("a task's head and tokens cover its line without overlap")
  func tokensCoverBody() {
    for seed in Self.seeds {
      var g = SplitMix64(seed: seed)
      let task = Task(bytes: Self.randomLine(&g))
      let bytes = Array(task.bytes)
      #expect(task.bodyBytes.elementsEqual(bytes[task.bodyOffset...]), "seed \(seed)")
      var position = task.bytes.startIndex + task.bodyOffset
      var rebuilt: [UInt8] = []
      for token in task.tokens {
        let gap = task.bytes[position..<token.range.lowerBound]
        #expect(gap.allSatisfy { [0x20, 0x09, 0x0D].contains($0) }, "seed \(seed)")
        #expect(!task.bytes[token.range].contains { [0x20, 0x09, 0x0D].contains($0) }, "seed \(seed)")
        rebuilt += gap + task.bytes[token.range]
        position = token.range.upperBound
      }
      rebuilt += task.bytes[position...]
      #expect(rebuilt == Array(task.bodyBytes), "seed \(seed)")
    }
  }

  enum Edit: CaseIterable {
    case setPriority, complete, reopen, setTag, removeTag, appendText, replaceLine
  }

  /// The first `key:` token of `line` that is a tag under the format's rule (one colon, both
  /// sides non-empty, a value not starting with `//`), found without the library's tokenizer.
  static func firstTagValue(_ key: String, in line: [UInt8], from start: Int) -> Range<Int>? {
    var i = start
    while i < line.count {
      while i < line.count, [0x20, 0x09, 0x0D].contains(line[i]) { i += 1 }
      let begin = i
      while i < line.count, ![0x20, 0x09, 0x0D].contains(line[i]) { i += 1 }
      let token = line[begin..<i]
      let prefix = utf8(key + ":")
      guard token.starts(with: prefix), token.count > prefix.count else { continue }
      let value = token.dropFirst(prefix.count)
      if value.contains(0x3A) || value.starts(with: [0x2F, 0x2F]) { continue }
      return value.startIndex..<value.endIndex
    }
    return nil
  }

  @Test("one edit changes one line, and only the edited part of it")
  func singleEdits() {
    let today = day("2026-03-04")
    let stamp = utf8("x 2026-03-04 ")
    for seed in Self.seeds {
      var g = SplitMix64(seed: seed)
      let file = Self.randomFile(&g) + utf8("last line\n")
      let before = Split(file)
      var list = TodoList(bytes: file)
      let index = Int(g.next() % UInt64(list.count))
      var task = list[index]
      let old = Array(task.bytes)
      let edit = Edit.allCases[Int(g.next() % UInt64(Edit.allCases.count))]
      let letter = Priority(UInt8(ascii: "A") + UInt8(g.next() % 26))
      var expected: [UInt8]?
      /// `text` added after one space, or none when the line is empty or ends in whitespace.
      func appended(_ line: [UInt8], _ text: String) -> [UInt8] {
        line + (line.isEmpty || [0x20, 0x09, 0x0D].contains(line.last) ? [] : [0x20]) + utf8(text)
      }

      switch edit {
      case .setPriority:
        task.setPriority(letter)
        if !task.isCompleted, let letter {
          let hadPriority = old.count >= 4 && old[0] == 0x28 && (0x41...0x5A).contains(old[1]) && old[2] == 0x29
            && old[3] == 0x20
          expected = hadPriority ? [old[0], letter.byte] + old[2...] : utf8("(\(letter)) ") + old
        }
      case .complete:
        let wasOpen = !task.isCompleted
        let priority = task.headPriority
        task.complete(on: today)
        if wasOpen {
          #expect(task.isCompleted && task.completionDate == today, "seed \(seed)")
          // ` pri:X` with a space of its own, after any whitespace or older `pri:`, so that
          // reopen can take exactly those bytes back.
          if let priority {
            expected = stamp + old[4...] + utf8(" pri:\(priority)")
          } else {
            expected = stamp + old
          }
        } else {
          expected = old
        }
      case .reopen:
        task.reopen()
        if !Task(bytes: old).isCompleted { expected = old }
      case .setTag:
        let value = "2026-0\(g.next() % 9 + 1)-1\(g.next() % 9)"
        task.setTag("due", value)
        if let range = Self.firstTagValue("due", in: old, from: Task(bytes: old).bodyOffset) {
          expected = Array(old[..<range.lowerBound]) + utf8(value) + old[range.upperBound...]
        } else {
          expected = appended(old, "due:" + value)
        }
      case .removeTag:
        task.removeTag("due")
        #expect(task.tagValue("due") == nil, "seed \(seed)")
      case .appendText:
        task.appendText("more @text")
        expected = appended(old, "more @text")
      case .replaceLine:
        task = Task(bytes: Self.randomLine(&g))
      }

      if let expected { #expect(Array(task.bytes) == expected, "seed \(seed) \(edit)") }
      list.replace(at: index, with: task)
      #expect(list.serialized() == before.serialized(replacing: index, with: Array(task.bytes)), "seed \(seed) \(edit)")
      #expect(list.count == before.lines.count, "seed \(seed)")
    }
  }
}
