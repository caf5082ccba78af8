/// The rows of a listing once their todo.sh lines are made (an action's filter, `listall`'s
/// renumbering, a user's sort command need the text): each made line travels with the index
/// of the file's line it shows and where its task text starts, so no later stage (colours, the
/// terminal layout, `--group`, `next --explain`) reads a number back out of the text.
///
/// A listing that needs no made line stays ``NumberedLines``, which makes each line only as
/// it is written.
struct ListingRows {
  /// The 0-based index of each row's line in the listed file; ``foreign`` for a line a user's
  /// sort command wrote that is none of the lines it was given.
  var indices: [Int32]
  /// Each row's line: its number, a blank and its task text (`012 (A) call mum`).
  var lines: Lines
  /// Where each line's task text starts (0 for a foreign line, shown as it is).
  var textStarts: [Int]
  /// How the rows' numbers were written, so that where a number ends is known without
  /// reading the line; `nil` for rows made some other way (they give no number's extent).
  var numberLayout: NumberLayout?

  /// The index of a row that shows no line of the file.
  static let foreign: Int32 = -1

  init(numberLayout: NumberLayout? = nil) {
    indices = []
    lines = Lines()
    textStarts = []
    self.numberLayout = numberLayout
  }

  /// Rows rendered as `rendered` (drawn or coloured), one line each: their task text is no
  /// longer told apart from the rest of the line.
  init(indices: [Int32], rendered: Lines) {
    self.indices = indices
    lines = rendered
    textStarts = [Int](repeating: 0, count: indices.count)
  }

  /// The rows of `numbered`, each line made with the number its numbering gives it,
  /// right-aligned to the listing's padding (zero-filled when `numbered` is).
  init(_ numbered: NumberedLines) {
    self.init(numberLayout: numbered.numberLayout)
    let source = numbered.source
    // The whole size at once (each line's text, a number of at least the padding and a
    // blank): a buffer that grows by doubling is copied, and holds up to twice its size.
    var textBytes = 0
    for index in numbered.indices { textBytes += source.ends[Int(index)] - source.starts[Int(index)] }
    reserve(rows: numbered.count, bytes: textBytes + numbered.count * (numbered.padding + 2))
    var prefix: [UInt8] = []
    for index32 in numbered.indices {
      let index = Int(index32)
      prefix.removeAll(keepingCapacity: true)
      numbered.appendPrefix(index, to: &prefix)
      // The number and the text go straight into the one buffer, with no line made between.
      indices.append(index32)
      textStarts.append(prefix.count)
      lines.starts.append(lines.buffer.count)
      lines.buffer += prefix
      lines.buffer += source.buffer[source.starts[index]..<source.ends[index]]
      lines.ends.append(lines.buffer.count)
    }
  }

  var count: Int { indices.count }

  /// Room for `rows` rows of `bytes` bytes in all, so that a long listing is not copied as
  /// its buffer grows.
  mutating func reserve(rows: Int, bytes: Int) {
    lines.reserve(lines: rows, bytes: bytes)
    indices.reserveCapacity(rows)
    textStarts.reserveCapacity(rows)
  }

  mutating func append(_ index: Int32, _ line: some Collection<UInt8>, textStart: Int) {
    indices.append(index)
    lines.append(line)
    textStarts.append(textStart)
  }

  /// The row's line.
  func line(_ row: Int) -> [UInt8] { lines.line(row) }

  /// The row's task text (without its number).
  func text(_ row: Int) -> ArraySlice<UInt8> { lines.buffer[lines.starts[row] + textStarts[row]..<lines.ends[row]] }

  /// The rows for which `keep` (given the row's position) is true.
  func filter(_ keep: (Int) -> Bool) -> ListingRows { reordered((0..<count).filter(keep)) }

  /// The rows in the order of `order` (positions in these rows).
  func reordered(_ order: [Int]) -> ListingRows {
    var result = ListingRows(numberLayout: numberLayout)
    result.indices = order.map { indices[$0] }
    result.lines = lines.reordered(order)
    result.textStarts = order.map { textStarts[$0] }
    return result
  }

  /// todo.sh's awk step in `listall` (`$1 = …; print`): each row is its number, then each
  /// word of its text after one blank, so runs of blanks and tabs in the text become one
  /// space and blanks at its ends go. A rebuilt line is never longer than the line it was
  /// made from, so the rows are rewritten in place, front to back, each moved no later than
  /// where it was: no second copy of a listing that holds every line of both files.
  mutating func joinFields() {
    let count = count
    // Rewriting in place needs the rows in the buffer's order, apart (as they are made);
    // rows put in another order first get a buffer of their own.
    if !(1..<max(count, 1)).allSatisfy({ lines.starts[$0] >= lines.ends[$0 - 1] }) {
      var apart = ListingRows(numberLayout: numberLayout)
      for row in 0..<count { apart.append(indices[row], line(row), textStart: textStarts[row]) }
      self = apart
    }
    let kept = lines.buffer.withUnsafeMutableBufferPointer { b in
      var write = 0
      for row in 0..<count {
        let start = lines.starts[row]
        let end = lines.ends[row]
        let textStart = start + textStarts[row]
        lines.starts[row] = write
        // The number, without the blank after it (a foreign row has none: it is all text).
        let numberEnd = textStarts[row] > 0 ? textStart - 1 : start
        for position in start..<numberEnd {
          b[write] = b[position]
          write += 1
        }
        let numberLength = write - lines.starts[row]
        let joined = ListingRows.joinWords(b, from: textStart, to: end, writingAt: write, blankFirst: true)
        write = joined.end
        lines.ends[row] = write
        textStarts[row] = joined.words == 0 ? numberLength : numberLength + 1
      }
      return write
    }
    lines.buffer.removeLast(lines.buffer.count - kept)
  }

  /// Writes the words of `b[start..<end]` (runs of anything but blanks and tabs) at `write`,
  /// each after one blank (the first too when `blankFirst`), and returns where they end and how
  /// many there were. `write` may be `start` or before it: no byte is written before it is read.
  static func joinWords(
    _ b: UnsafeMutableBufferPointer<UInt8>, from start: Int, to end: Int, writingAt write: Int, blankFirst: Bool
  ) -> (end: Int, words: Int) {
    var write = write
    var position = start
    var words = 0
    while position < end {
      while position < end, b[position] == 0x20 || b[position] == 0x09 { position += 1 }
      guard position < end else { break }
      if blankFirst || words > 0 {
        b[write] = 0x20
        write += 1
      }
      while position < end, b[position] != 0x20, b[position] != 0x09 {
        b[write] = b[position]
        write += 1
        position += 1
      }
      words += 1
    }
    return (write, words)
  }

  /// Puts the rows in the order of `order` (each position of these rows once), in place:
  /// one cycle of the permutation at a time, so that no second set of the rows' tables is
  /// made (``reordered(_:)`` makes one).
  mutating func reorder(_ order: [Int32]) {
    precondition(order.count == count, "an order of every row")
    let source = { (position: Int) in Int(order[position]) }
    indices.permute(source)
    lines.starts.permute(source)
    lines.ends.permute(source)
    textStarts.permute(source)
  }

  /// todo.sh's third step: up to five blanks before each number become zeros.
  mutating func zeroFill() {
    numberLayout?.zeroFilled = true
    for row in 0..<count {
      var position = lines.starts[row]
      let limit = min(lines.ends[row], position + 5)
      while position < limit, lines.buffer[position] == 0x20 {
        lines.buffer[position] = UInt8(ascii: "0")
        position += 1
      }
    }
  }

  /// The rows in the order a user's sort command wrote their lines: a line it wrote is the
  /// row it was given with the same bytes (the first not yet taken); a line it made up, or
  /// changed, is a ``foreign`` row, shown as it is.
  func ordered(as written: [[UInt8]]) -> ListingRows {
    var waiting: [[UInt8]: [Int]] = [:]
    for row in stride(from: count - 1, through: 0, by: -1) { waiting[line(row), default: []].append(row) }
    var result = ListingRows(numberLayout: numberLayout)
    for line in written {
      if let row = waiting[line]?.popLast() {
        result.append(indices[row], line, textStart: textStarts[row])
      } else {
        result.append(ListingRows.foreign, line, textStart: 0)
      }
    }
    return result
  }

  /// Where row `row`'s number ends as todo.sh's colouring sees it
  /// (``NumberLayout/digitRun(_:)``); `nil` for a foreign row or rows without a layout.
  func numberEnd(_ row: Int) -> Int? {
    let index = indices[row]
    guard index != ListingRows.foreign, let numberLayout else { return nil }
    return numberLayout.digitRun(Int(index))
  }

  /// How a listing writes its rows' numbers: right-aligned to a width, the places left of the
  /// digits blank or (up to five of them) zeros.
  struct NumberLayout {
    /// The width numbers are right-aligned to (a wider number takes its own width).
    var padding: Int
    var numbering: Numbering
    /// Whether up to five leading blanks of a number are zeros (todo.sh's third step).
    var zeroFilled: Bool

    /// How many bytes at the start of line `index`'s row are digits: the extent todo.sh's
    /// colouring gives the number (`^[0-9]+`). All of its places, but none when blanks lead
    /// it, and only the five zeros when more than five places were left of the digits.
    func digitRun(_ index: Int) -> Int {
      let digits = NumberedLines.digitCount(numbering.number(index))
      let width = max(padding, digits)
      let blanks = width - digits
      if blanks == 0 { return width }
      guard zeroFilled else { return 0 }
      return blanks > 5 ? 5 : width
    }
  }

  /// How a listing numbers its rows.
  enum Numbering {
    /// By the row's line in the file (1 for the first).
    case byLine
    /// By line up to `from` lines (todo.txt's, in `listall`), 0 after them (done.txt's).
    case doneAsZero(from: Int)

    /// The number shown for line `index`.
    func number(_ index: Int) -> Int {
      switch self {
      case .byLine: index + 1
      case .doneAsZero(let from): index < from ? index + 1 : 0
      }
    }
  }
}
