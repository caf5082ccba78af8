import Dispatch
import TodoTxt

/// The lines a listing keeps, as indices into the file's lines, with todo.sh's line numbers
/// in front (`  7 text`, or `007 text` once zero-filled).
///
/// The numbered text is made when a line is matched against a search term or written out:
/// holding it would hold the file a second time, and a listing of a million tasks would spend
/// a good part of its time copying.
struct NumberedLines {
  /// The file's lines; a listing that owns them may rewrite their text (listall's awk step).
  var source: Lines
  /// Indices into `source`, in listing order.
  var indices: [Int32]
  /// The width numbers are right-aligned to.
  let padding: Int
  /// Whether up to five leading blanks of a number are zeros (todo.sh's third step).
  var zeroFilled: Bool
  /// Lines from this index on show the number 0 (done.txt's in `listall`); `Int.max` for a
  /// listing numbered by line throughout. A bound, not a ``ListingRows/Numbering``: each
  /// number a listing writes is one comparison, not a switch.
  private(set) var zeroFrom = Int.max

  /// How the lines are numbered.
  var numbering: ListingRows.Numbering {
    get { zeroFrom == Int.max ? .byLine : .doneAsZero(from: zeroFrom) }
    set {
      switch newValue {
      case .byLine: zeroFrom = Int.max
      case .doneAsZero(let from): zeroFrom = from
      }
    }
  }

  /// The first number that has more digits than `padding`: numbers below it take exactly
  /// `padding` places, so the width of most prefixes needs no counting of digits.
  private let widerFrom: Int

  init(source: Lines, indices: [Int32], padding: Int, zeroFilled: Bool) {
    self.source = source
    self.indices = indices
    self.padding = padding
    self.zeroFilled = zeroFilled
    var limit = 1
    for _ in 0..<min(max(padding, 0), 18) { limit *= 10 }
    // No width: every number (0 too) is wider.
    widerFrom = padding > 0 ? limit : 0
  }

  /// How the numbers are written.
  var numberLayout: ListingRows.NumberLayout {
    ListingRows.NumberLayout(padding: padding, numbering: numbering, zeroFilled: zeroFilled)
  }

  /// The number line `index` (0-based) shows.
  @inline(__always)
  func number(_ index: Int) -> Int { index < zeroFrom ? index + 1 : 0 }

  var count: Int { indices.count }

  /// Appends the number of line `index` (0-based) and the blank after it.
  func appendPrefix(_ index: Int, to text: inout [UInt8]) {
    let width = prefixWidth(index)
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: width) { prefix in
      guard let base = prefix.baseAddress else { return }
      writePrefix(index, to: base)
      text.append(contentsOf: UnsafeBufferPointer(start: base, count: width))
    }
  }

  /// How many bytes the number of line `index` and its blank take.
  @inline(__always)
  func prefixWidth(_ index: Int) -> Int {
    let number = number(index)
    return (number < widerFrom ? padding : max(padding, NumberedLines.digitCount(number))) + 1
  }

  /// Writes the number of line `index` and its blank at `out` (``prefixWidth(_:)`` bytes).
  ///
  /// The digits are written from the right, then the places left of them are filled: a
  /// listing writes a million of these, and counting the digits first cost as much again.
  @inline(__always)
  func writePrefix(_ index: Int, to out: UnsafeMutablePointer<UInt8>) {
    var number = number(index)
    let width = prefixWidth(index) - 1
    var position = width
    repeat {
      position -= 1
      let (quotient, digit) = number.quotientAndRemainder(dividingBy: 10)
      out[position] = UInt8(truncatingIfNeeded: 48 &+ digit)
      number = quotient
    } while number > 0
    // `position` places are left of the digits.
    let zeros = zeroFilled ? min(position, 5) : 0
    for offset in 0..<zeros { out[offset] = 0x30 }
    for offset in zeros..<position { out[offset] = 0x20 }
    out[width] = 0x20
  }

  static func digitCount(_ number: Int) -> Int {
    var count = 1
    var rest = number / 10
    while rest > 0 {
      count += 1
      rest /= 10
    }
    return count
  }

  /// Appends the numbered line at `position` of the listing, without a line ending.
  func appendLine(at position: Int, to text: inout [UInt8]) {
    let index = Int(indices[position])
    appendPrefix(index, to: &text)
    source.buffer.withUnsafeBufferPointer { b in
      text.append(contentsOf: UnsafeBufferPointer(rebasing: b[source.starts[index]..<source.ends[index]]))
    }
  }

  /// Passes the numbered lines to `emit`, each with a newline, in blocks of about a megabyte
  /// (a longer line alone). The blocks are buffers filled again after each `emit`, so the
  /// listing touches a few megabytes of fresh memory, not the size of its output.
  ///
  /// A listing of several blocks is filled on two cores, a block each, the second block's
  /// lines starting where the first's end: copying lines from all over the file, in sorted
  /// order, is bound by the wait for memory, not by the copying.
  func write(_ emit: (UnsafeBufferPointer<UInt8>) -> Void) {
    // A small listing's block is no larger than its output can be (a number is at most
    // twenty places): a megabyte would be a huge page to clear for a few lines.
    let blockSize = min(1 << 20, source.buffer.count + count * (max(padding, 20) + 2))
    let twoCores = KeySort.cores > 1 && count >= NumberedLines.twoCoresFrom
    let scratch = HugePages.reusableScratch(bytes: twoCores ? 2 * blockSize : blockSize)
    defer { scratch.recycle() }
    guard let memory = scratch.memory.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
    let blocks = Blocks(first: memory, second: memory + blockSize)
    source.buffer.withUnsafeBufferPointer { bytes in
      guard let base = bytes.baseAddress else { return }
      let source = Source(lines: self, bytes: base)
      var position = 0
      while position < count {
        let firstEnd = source.blockEnd(from: position, size: blockSize)
        if firstEnd == position {
          // A line longer than a block goes out alone.
          var line: [UInt8] = []
          appendLine(at: position, to: &line)
          line.append(0x0A)
          line.withUnsafeBufferPointer { emit($0) }
          position += 1
          continue
        }
        let secondEnd = twoCores ? source.blockEnd(from: firstEnd, size: blockSize) : firstEnd
        guard secondEnd > firstEnd else {
          emit(UnsafeBufferPointer(start: blocks.first, count: source.fill(blocks.first, position..<firstEnd)))
          position = firstEnd
          continue
        }
        let group = DispatchGroup()
        let filling = SecondBlock(source: source, into: blocks.second, lines: firstEnd..<secondEnd)
        DispatchQueue.global().async(group: group) { filling.run() }
        let firstUsed = source.fill(blocks.first, position..<firstEnd)
        emit(UnsafeBufferPointer(start: blocks.first, count: firstUsed))
        group.wait()
        emit(UnsafeBufferPointer(start: blocks.second, count: filling.used))
        position = secondEnd
      }
    }
  }

  /// Listings of at least this many lines are written on two cores.
  static let twoCoresFrom = 20_000

  /// The two blocks' memory.
  private struct Blocks {
    let first: UnsafeMutablePointer<UInt8>
    let second: UnsafeMutablePointer<UInt8>
  }

  /// What filling a block reads: the listing and the file's bytes. Only read, so a second
  /// thread may use it.
  private struct Source: @unchecked Sendable {
    let lines: NumberedLines
    let bytes: UnsafePointer<UInt8>

    /// How many bytes the numbered line at listing position `position` takes, newline included.
    @inline(__always)
    func size(_ position: Int) -> Int {
      let index = Int(lines.indices[position])
      return lines.prefixWidth(index) + lines.source.ends[index] - lines.source.starts[index] + 1
    }

    /// Where a block of `size` bytes filled from `start` ends (`start` itself when its first
    /// line does not fit).
    func blockEnd(from start: Int, size: Int) -> Int {
      var position = start
      var used = 0
      while position < lines.count {
        let next = used + self.size(position)
        guard next <= size else { break }
        used = next
        position += 1
      }
      return position
    }

    /// Writes the numbered lines of `positions` at `out`; returns how many bytes.
    func fill(_ out: UnsafeMutablePointer<UInt8>, _ positions: Range<Int>) -> Int {
      var used = 0
      for position in positions {
        let index = Int(lines.indices[position])
        let lineStart = lines.source.starts[index]
        let length = lines.source.ends[index] - lineStart
        let width = lines.prefixWidth(index)
        lines.writePrefix(index, to: out + used)
        (out + used + width).update(from: bytes + lineStart, count: length)
        used += width + length
        out[used] = 0x0A
        used += 1
      }
      return used
    }
  }

  /// The second block of a pair, filled on another thread; `used` is read after the group's
  /// wait.
  private final class SecondBlock: @unchecked Sendable {
    let source: Source
    let out: UnsafeMutablePointer<UInt8>
    let lines: Range<Int>
    var used = 0

    init(source: Source, into out: UnsafeMutablePointer<UInt8>, lines: Range<Int>) {
      self.source = source
      self.out = out
      self.lines = lines
    }

    func run() { used = source.fill(out, lines) }
  }

  /// The numbered lines, made.
  var lines: Lines {
    var result = Lines()
    var text: [UInt8] = []
    for position in 0..<count {
      text.removeAll(keepingCapacity: true)
      appendLine(at: position, to: &text)
      result.append(text)
    }
    return result
  }

  /// The listing in todo.sh's default order (`sort -f -k2`, see ``KeySort``).
  func sorted() -> NumberedLines {
    let order = indices.withUnsafeBufferPointer { indices in
      source.starts.withUnsafeBufferPointer { starts in
        source.ends.withUnsafeBufferPointer { ends in
          source.buffer.withUnsafeBufferPointer { bytes in
            KeySort.sorted(Keys(lines: self, indices: indices, starts: starts, ends: ends, bytes: bytes))
          }
        }
      }
    }
    var result = self
    result.indices = order.map { indices[Int($0)] }
    return result
  }

  /// The key `sort -k2` sees in a numbered line: from the blank after the number's first run
  /// of non-blanks (a number zero-filled to seven places may keep a blank inside) to the end.
  private struct Keys: SortKeys {
    let indices: UnsafeBufferPointer<Int32>
    let starts: UnsafeBufferPointer<Int>
    let ends: UnsafeBufferPointer<Int>
    let bytes: UnsafeBufferPointer<UInt8>
    /// Heads that are not a lone blank (lines 1–9 of a file of a million lines). Lines are
    /// kept in file order, so they are the first few items.
    let unusualHeads: [(UInt64, Int)]
    /// Lines from this index on show the number 0 (``NumberedLines/numbering``).
    let zeroFrom: Int
    /// The head of those lines' key, when it is not a lone blank (a zero-filled 0 of seven
    /// places or more: `00000 0`).
    let zeroHead: (UInt64, Int)?

    init(
      lines: NumberedLines, indices: UnsafeBufferPointer<Int32>, starts: UnsafeBufferPointer<Int>,
      ends: UnsafeBufferPointer<Int>, bytes: UnsafeBufferPointer<UInt8>
    ) {
      self.indices = indices
      self.starts = starts
      self.ends = ends
      self.bytes = bytes
      zeroFrom = lines.zeroFrom
      var unusual: [(UInt64, Int)] = []
      var zeroHead: (UInt64, Int)? = nil
      if lines.zeroFilled, lines.padding > 5 {
        for index in indices {
          guard Int(index) < lines.zeroFrom, NumberedLines.digitCount(Int(index) + 1) < lines.padding - 5 else { break }
          unusual.append(Keys.head(of: Int(index), in: lines))
        }
        if lines.zeroFrom < Int.max, 1 < lines.padding - 5 { zeroHead = Keys.head(of: lines.zeroFrom, in: lines) }
      }
      unusualHeads = unusual
      self.zeroHead = zeroHead
    }

    /// The start of `sort -k2`'s key in the prefix of line `index`: from the blank after the
    /// number's first run of non-blanks, up to eight bytes.
    private static func head(of index: Int, in lines: NumberedLines) -> (UInt64, Int) {
      var prefix: [UInt8] = []
      lines.appendPrefix(index, to: &prefix)
      var start = 0
      while start < prefix.count, prefix[start] == 0x20 || prefix[start] == 0x09 { start += 1 }
      while start < prefix.count, prefix[start] != 0x20, prefix[start] != 0x09 { start += 1 }
      var head: UInt64 = 0
      for (offset, byte) in prefix[start...].prefix(8).enumerated() {
        head |= UInt64(byte) << UInt64(offset * 8)
      }
      return (head, min(prefix.count - start, 8))
    }

    var count: Int { indices.count }

    func head(_ item: Int) -> (bytes: UInt64, count: Int) {
      if item < unusualHeads.count { return unusualHeads[item] }
      if let zeroHead, Int(indices[item]) >= zeroFrom { return zeroHead }
      return (0x20, 1)
    }

    func rest(_ item: Int) -> UnsafeBufferPointer<UInt8> {
      let index = Int(indices[item])
      return UnsafeBufferPointer(rebasing: bytes[starts[index]..<ends[index]])
    }

    /// Equal keys (equal but for case): the whole lines decide, byte for byte. Their numbers,
    /// right-aligned to one width, come first; two lines that both show 0 (done.txt's in
    /// `listall`) go by their text, and equal lines stay in file order.
    func tieBreak(_ left: Int, _ right: Int) -> Bool {
      let (x, y) = (Int(indices[left]), Int(indices[right]))
      let (numberX, numberY) = (x < zeroFrom ? x + 1 : 0, y < zeroFrom ? y + 1 : 0)
      if numberX != numberY { return numberX < numberY }
      let (textX, textY) = (rest(left), rest(right))
      return textX.elementsEqual(textY) ? x < y : textX.lexicographicallyPrecedes(textY)
    }
  }
}
