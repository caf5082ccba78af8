/// One thing wrong with one line of a list, found by ``ListCheck``.
///
/// The kinds carry what the report needs (the token, the other line); the words are the
/// command's (`doctor`), which prints them.
package struct ListProblem: Sendable, Equatable {
  package enum Kind: Sendable, Equatable {
    /// The line repeats line `of` byte for byte.
    case exactDuplicate(of: Int)
    /// The line repeats line `of` but for the creation date.
    case duplicate(of: Int)
    /// A `due:`/`t:` tag whose value is no calendar date (`due:2026-02-30`, `t:tomorow`).
    case notADate(key: [UInt8], value: [UInt8])
    /// A `rec:` tag whose value is no repeat interval.
    case notARecurrence(value: [UInt8])
    /// A tag with meaning given again on the same line: the first one counts.
    case repeatedTag(key: [UInt8])
    /// A date-shaped word where the head has a creation or completion date, which is no real
    /// day (`2026-02-30 task`): read as text.
    case invalidHeadDate([UInt8])
    /// The line ends with `ending`, most lines of the file with the other one; `count` lines
    /// end like this one (this is the first).
    case mixedLineEnding(ending: LineEnding, count: Int)
    /// A byte order mark (U+FEFF) that is not the first thing in the file.
    case byteOrderMarkInside
    /// The file starts with a byte order mark and its first line with a priority, mark or date.
    case byteOrderMarkBeforeHead
    /// `(a) task`: a lower-case letter, which is no priority; `mendable` when the line holds
    /// no second `(b)` (an enumeration is text).
    case lowercasePriority(letter: UInt8, mendable: Bool)
    /// `(A)task`: a priority needs a space after it; `mendable` when text follows (not a tab,
    /// not the end of the line) and the letter is or becomes a capital.
    case priorityWithoutSpace(letter: UInt8, mendable: Bool)
    /// `x (A) 2026-…`: a done task's priority between the mark and the dates.
    case donePriorityAfterMark(letter: UInt8)
    /// `x 2026-01-05 (A) …`: a done task's priority between its two dates.
    case donePriorityAfterDate(letter: UInt8)
    /// `p:ID` with no task carrying `id:ID` in either file.
    case missingParent(id: [UInt8])
    /// A merge conflict marker line (`<<<<<<<`, `=======`, `|||||||`, `>>>>>>>`).
    case conflictMarker
    /// Bytes that are not UTF-8, the first at byte `column` (1-based).
    case invalidUTF8(column: Int)
    /// A control character (C0, DEL or C1), the first one `scalar`, `count` in the line.
    case controlCharacter(scalar: UInt32, count: Int)
    /// Spaces or tabs only: a blank line here, an empty task or nothing in some other apps.
    case whitespaceOnly
    /// Whitespace before what would be the head (`  (A) task`).
    case leadingWhitespace
    /// `x` followed by a tab, or `X `: not done here, done in some other apps.
    case doneMarkLookalike
  }

  /// 1-based line number in the file as read.
  package var line: Int
  package var kind: Kind

  package init(line: Int, kind: Kind) {
    self.line = line
    self.kind = kind
  }

  /// Whether ``ListCheck/repair(_:preservingLineNumbers:)`` mends it.
  ///
  /// Only what cannot change what a task means is mended: a missing space after a
  /// priority, a lower-case priority letter that can be nothing else, a stray byte order
  /// mark, line endings, and copies of a line that are byte for byte the same. Dates, tags,
  /// bytes that are not UTF-8, control characters and conflict markers need a person.
  package var isFixable: Bool {
    switch kind {
    case .exactDuplicate, .mixedLineEnding, .byteOrderMarkInside: return true
    case .lowercasePriority(_, let mendable), .priorityWithoutSpace(_, let mendable): return mendable
    default:
      return false
    }
  }
}

/// Checks a list for what this tool or other todo.txt apps would misread, and mends what is
/// safe to mend. Reads bytes, never fails, allocates per problem rather than per line.
package enum ListCheck {
  /// The `id:` values of a list, for the `p:` check across todo.txt and done.txt.
  package static func ids(in list: TodoList) -> Set<[UInt8]> {
    var ids: Set<[UInt8]> = []
    // Most lines have no `id:`: a scan of the bytes says so without making a task of them.
    var holding: [Int] = []
    list.forEachLineBytes { index, line in
      if contains(line, TagMeaning.id.token) { holding.append(index) }
    }
    for index in holding {
      let task = list[index]
      task.forEachToken { token in
        guard case .tag(let colon) = token.kind, colon - token.range.lowerBound == 2,
          task.bytes[token.range.lowerBound] == UInt8(ascii: "i"),
          task.bytes[token.range.lowerBound + 1] == UInt8(ascii: "d")
        else { return }
        ids.insert(Array(task.bytes[(colon + 1)..<token.range.upperBound]))
      }
    }
    return ids
  }

  /// Whether `bytes` holds `needle` (a short ASCII word): one pass, no allocation.
  static func contains(_ b: UnsafeBufferPointer<UInt8>, _ needle: StaticString) -> Bool {
    needle.withUTF8Buffer { word in
      guard word.count <= b.count, let first = word.first else { return false }
      var i = 0
      while i + word.count <= b.count {
        if b[i] == first {
          var k = 1
          while k < word.count, b[i + k] == word[k] { k += 1 }
          if k == word.count { return true }
        }
        i += 1
      }
      return false
    }
  }

  /// Every problem of `list`, by line, then in the order the checks run.
  ///
  /// - Parameter knownIDs: the `id:` values of every list a `p:` may point into.
  package static func problems(in list: TodoList, knownIDs: Set<[UInt8]>) -> [ListProblem] {
    var problems: [ListProblem] = []
    // One table for every line, by its text without the creation date; exact copies are told
    // apart only among the lines that meet there (few), in a second table.
    var firstWithoutDate = FirstLines(capacity: list.count)
    var sameButForDate: [LineKey: Int] = [:]
    var conflictOpen = false
    var crlf = 0
    var lf = 0
    for index in list.indices {
      switch list.lineEnding(at: index) {
      case .crlf: if !isPinnedToCRLF(list, index) { crlf += 1 }
      case .lf: lf += 1
      case .none: break
      }
    }
    let minority: LineEnding? = crlf > 0 && lf > 0 ? (crlf > lf ? .lf : .crlf) : nil
    var reportedEnding = false

    for index in list.indices {
      let number = index + 1
      let task = list[index]
      let bytes = task.bytes
      func report(_ kind: ListProblem.Kind) { problems.append(ListProblem(line: number, kind: kind)) }

      if let minority, !reportedEnding, list.lineEnding(at: index) == minority, !isPinnedToCRLF(list, index) {
        reportedEnding = true
        report(.mixedLineEnding(ending: minority, count: minority == .crlf ? crlf : lf))
      }
      if let marker = conflictMarker(bytes) {
        if marker != UInt8(ascii: "=") || conflictOpen { report(.conflictMarker) }
        if marker == UInt8(ascii: "<") { conflictOpen = true }
        if marker == UInt8(ascii: ">") { conflictOpen = false }
        continue
      }
      if index == 0, list.hasByteOrderMark, task.isCompleted || task.headPriority != nil || task.creationDate != nil {
        report(.byteOrderMarkBeforeHead)
      }
      checkBytes(bytes, report: report)
      if bytes.isEmpty { continue }
      if task.isBlank {
        report(.whitespaceOnly)
        continue
      }
      checkHead(task, report: report)
      checkTags(task, knownIDs: knownIDs, report: report)

      let key = withoutCreationDate(task)
      if let earlier = firstWithoutDate.first(key, number: number, keyOfLine: { withoutCreationDate(list[$0 - 1]) }) {
        let first = list[earlier - 1].bytes
        if first.elementsEqual(bytes) {
          report(.exactDuplicate(of: earlier))
        } else {
          let exact = LineKey(head: bytes, tail: [])
          if let copied = sameButForDate[exact] {
            report(.exactDuplicate(of: copied))
          } else {
            sameButForDate[exact] = number
            if sameButForDate[LineKey(head: first, tail: [])] == nil {
              sameButForDate[LineKey(head: first, tail: [])] = earlier
            }
            report(.duplicate(of: earlier))
          }
        }
      }
    }
    return problems
  }

  /// For each line of `list`, whether it repeats an earlier line byte for byte (`deduplicate`;
  /// a second empty line repeats the first).
  package static func exactCopies(in list: TodoList) -> [Bool] {
    var copies = [Bool](repeating: false, count: list.count)
    var first = FirstLines(capacity: list.count)
    for index in list.indices {
      let key = LineKey(head: list.lineBytes(at: index), tail: [])
      if first.first(key, number: index + 1, keyOfLine: { LineKey(head: list.lineBytes(at: $0 - 1), tail: []) }) != nil {
        copies[index] = true
      }
    }
    return copies
  }

  /// The first line number of each line's key (its text, or its text without its creation
  /// date), held as a hash and a number a line (16 bytes), where a dictionary of keys into the
  /// lines took about a hundred: doctor on a million tasks held 4.2 times the list. The line
  /// a hash names is compared with the one asked about; a different key with the same hash
  /// (rare: 64 bits) is kept in a table of its own.
  struct FirstLines {
    private var numbers: [UInt64: Int32] = [:]
    private var collided: [LineKey: Int] = [:]

    init(capacity: Int) { numbers.reserveCapacity(capacity) }

    /// The number of the first line whose key is `key`; `nil` when line `number` is the first
    /// (it is then recorded). `keyOfLine` gives the key of an earlier line, by its number.
    mutating func first(_ key: LineKey, number: Int, keyOfLine: (Int) -> LineKey) -> Int? {
      var hasher = Hasher()
      key.hash(into: &hasher)
      let hash = UInt64(bitPattern: Int64(hasher.finalize()))
      guard let earlier = numbers[hash] else {
        numbers[hash] = Int32(truncatingIfNeeded: number)
        return nil
      }
      if keyOfLine(Int(earlier)) == key { return Int(earlier) }
      if let other = collided[key] { return other }
      collided[key] = number
      return nil
    }
  }

  /// The marker's character when the line is a merge conflict marker: seven of `<`, `=`, `|`
  /// or `>`, alone or (but for `=`) followed by a space and a label. The one definition: the
  /// store's refusal of a conflicted list, its counting pass, doctor and resolve all ask it.
  @inlinable
  package static func conflictMarker<Line: Collection<UInt8>>(_ bytes: Line) -> UInt8? {
    guard bytes.count >= 7, let first = bytes.first,
      first == UInt8(ascii: "<") || first == UInt8(ascii: "=") || first == UInt8(ascii: "|")
        || first == UInt8(ascii: ">"),
      bytes.prefix(7).allSatisfy({ $0 == first })
    else { return nil }
    if bytes.count == 7 { return first }
    return first != UInt8(ascii: "=") && bytes[bytes.index(bytes.startIndex, offsetBy: 7)] == UInt8(ascii: " ")
      ? first : nil
  }

  /// Invalid UTF-8, control characters and byte order marks inside the line.
  private static func checkBytes(_ bytes: ArraySlice<UInt8>, report: (ListProblem.Kind) -> Void) {
    var controls = 0
    var firstControl: UInt32?
    var invalidAt: Int?
    var bom = false
    // Most lines are printable ASCII: one pass over the raw bytes says so.
    let plain = bytes.withUnsafeBufferPointer { b in
      var all = true
      for byte in b where byte < 0x20 || byte >= 0x7F { all = false }
      return all
    }
    if plain { return }
    var i = bytes.startIndex
    let end = bytes.endIndex
    while i < end {
      let byte = bytes[i]
      if byte < 0x80 {
        if (byte < 0x20 && byte != .tab) || byte == 0x7F {
          controls += 1
          if firstControl == nil { firstControl = UInt32(byte) }
        }
        i += 1
        continue
      }
      guard let (scalar, length) = decode(bytes, at: i) else {
        if invalidAt == nil { invalidAt = i - bytes.startIndex + 1 }
        i += 1
        continue
      }
      if (0x80...0x9F).contains(scalar) {
        controls += 1
        if firstControl == nil { firstControl = scalar }
      }
      if scalar == 0xFEFF { bom = true }
      i += length
    }
    if let invalidAt { report(.invalidUTF8(column: invalidAt)) }
    if let firstControl { report(.controlCharacter(scalar: firstControl, count: controls)) }
    if bom { report(.byteOrderMarkInside) }
  }

  /// The scalar at `i` and its length in bytes, when a well-formed UTF-8 sequence starts there.
  package static func decode(_ bytes: ArraySlice<UInt8>, at i: Int) -> (UInt32, Int)? {
    let lead = bytes[i]
    let length: Int
    var scalar: UInt32
    var lowest: UInt32
    switch lead {
    case 0xC2...0xDF: (length, scalar, lowest) = (2, UInt32(lead & 0x1F), 0x80)
    case 0xE0...0xEF: (length, scalar, lowest) = (3, UInt32(lead & 0x0F), 0x800)
    case 0xF0...0xF4: (length, scalar, lowest) = (4, UInt32(lead & 0x07), 0x10000)
    default: return nil
    }
    guard i + length <= bytes.endIndex else { return nil }
    for k in 1..<length {
      let next = bytes[i + k]
      guard next & 0xC0 == 0x80 else { return nil }
      scalar = scalar << 6 | UInt32(next & 0x3F)
    }
    guard scalar >= lowest, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else { return nil }
    return (scalar, length)
  }

  /// The head: priority shapes, done-task priority placements, head dates, look-alikes.
  private static func checkHead(_ task: Task, report: (ListProblem.Kind) -> Void) {
    let bytes = task.bytes
    let start = bytes.startIndex
    if let first = bytes.first, first.isTaskWhitespace {
      let rest = bytes.drop(while: \.isTaskWhitespace)
      let head = Task(bytes: rest)
      if head.isCompleted || head.headPriority != nil || head.creationDate != nil { report(.leadingWhitespace) }
    }
    if bytes.count >= 2, bytes[start + 1] == .tab || bytes[start + 1] == .space,
      bytes[start] == UInt8(ascii: "X") || (bytes[start] == .lowercaseX && bytes[start + 1] == .tab)
    {
      report(.doneMarkLookalike)
    }
    if let shape = priorityShape(bytes) {
      let unambiguous = !shape.lowercase || isUnambiguousLowercase(Array(bytes))  // rare: no hot path
      if shape.lowercase { report(.lowercasePriority(letter: shape.letter, mendable: unambiguous)) }
      if shape.missingSpace {
        let textFollows = bytes.count > 3 && !bytes[start + 3].isTaskWhitespace
        report(.priorityWithoutSpace(letter: shape.letter, mendable: unambiguous && textFollows))
      }
    }
    if let priority = task.headPriority {
      switch task.priorityPlacement {
      case .afterMark: report(.donePriorityAfterMark(letter: priority.byte))
      case .afterCompletionDate: report(.donePriorityAfterDate(letter: priority.byte))
      default: break
      }
    }
    // A date-shaped word where the head would have taken a real date.
    let body = task.bodyBytes
    if body.count >= 10, body.count == 10 || body[body.startIndex + 10] == .space {
      let word = body.prefix(10)
      if isDateShaped(word), TaskDate(String(decoding: word, as: UTF8.self)) == nil {
        let headExpectsDate = task.creationDate == nil
        if headExpectsDate { report(.invalidHeadDate(Array(word))) }
      }
    }
  }

  /// `NNNN-NN-NN`.
  static func isDateShaped(_ word: ArraySlice<UInt8>) -> Bool {
    guard word.count == 10 else { return false }
    for (offset, byte) in word.enumerated() {
      if offset == 4 || offset == 7 {
        guard byte == .dash else { return false }
      } else {
        guard (48...57).contains(byte) else { return false }
      }
    }
    return true
  }

  /// A priority-like start of line: `(` letter `)`, where the letter is lower case or no
  /// space follows (`(a) x`, `(A)x`, `(A)` alone); `nil` for a proper `(A) ` or anything else.
  static func priorityShape(_ bytes: ArraySlice<UInt8>) -> (letter: UInt8, lowercase: Bool, missingSpace: Bool)? {
    let s = bytes.startIndex
    guard bytes.count >= 3, bytes[s] == .openParen, bytes[s + 2] == .closeParen else { return nil }
    let letter = bytes[s + 1]
    let lowercase = (97...122).contains(letter)
    guard lowercase || (65...90).contains(letter) else { return nil }
    let missingSpace = bytes.count == 3 || bytes[s + 3] != .space
    guard lowercase || missingSpace else { return nil }
    return (lowercase ? letter - 32 : letter, lowercase, missingSpace)
  }

  /// Tags with meaning: dates, repeat intervals, repeats of a key, parents that do not exist.
  private static func checkTags(_ task: Task, knownIDs: Set<[UInt8]>, report: (ListProblem.Kind) -> Void) {
    guard task.bodyBytes.contains(.colon) else { return }
    let bytes = task.bytes
    // The keys with meaning seen so far: due, t, rec (a bit each).
    var seen = 0
    task.forEachToken { token in
      guard case .tag(let colon) = token.kind else { return }
      let keyStart = token.range.lowerBound
      let value = bytes[(colon + 1)..<token.range.upperBound]
      let key: Int
      switch colon - keyStart {
      case 1 where bytes[keyStart] == UInt8(ascii: "t"): key = 1
      case 1 where bytes[keyStart] == UInt8(ascii: "p"):
        if !knownIDs.contains(Array(value)) { report(.missingParent(id: Array(value))) }
        return
      case 3 where bytes[keyStart] == UInt8(ascii: "d") && bytes[keyStart + 1] == UInt8(ascii: "u")
        && bytes[keyStart + 2] == UInt8(ascii: "e"):
        key = 0
      case 3 where bytes[keyStart] == UInt8(ascii: "r") && bytes[keyStart + 1] == UInt8(ascii: "e")
        && bytes[keyStart + 2] == UInt8(ascii: "c"):
        key = 2
      default:
        return
      }
      if key == 2 {
        if Recurrence(String(decoding: value, as: UTF8.self)) == nil { report(.notARecurrence(value: Array(value))) }
      } else {
        let date = value.count == 10 ? value.withUnsafeBufferPointer { TaskDate.parse($0, at: 0) } : nil
        if date == nil { report(.notADate(key: Array(bytes[keyStart..<colon]), value: Array(value))) }
      }
      if seen & (1 << key) != 0 { report(.repeatedTag(key: Array(bytes[keyStart..<colon]))) }
      seen |= 1 << key
    }
  }

  /// The line without its creation date (and the space after it), for duplicates that differ
  /// only in the day they were added.
  static func withoutCreationDate(_ task: Task) -> LineKey {
    let bytes = task.bytes
    guard task.creationDate != nil else { return LineKey(head: bytes, tail: []) }
    let bodyStart = bytes.startIndex + task.bodyOffset
    let dateStart = bodyStart == bytes.endIndex && bytes.last != .space ? bodyStart - 10 : bodyStart - 11
    return LineKey(head: bytes[..<dateStart], tail: bytes[bodyStart...])
  }

  /// A line, or a line with a stretch cut out, as a dictionary key that points into the
  /// list's bytes instead of copying them; equal when the bytes joined are equal.
  struct LineKey: Hashable {
    var head: ArraySlice<UInt8>
    var tail: ArraySlice<UInt8>

    static func == (lhs: LineKey, rhs: LineKey) -> Bool {
      guard lhs.head.count + lhs.tail.count == rhs.head.count + rhs.tail.count else { return false }
      var left = lhs.head.makeIterator()
      var leftTail = lhs.tail.makeIterator()
      var right = rhs.head.makeIterator()
      var rightTail = rhs.tail.makeIterator()
      while let a = left.next() ?? leftTail.next() {
        guard a == (right.next() ?? rightTail.next()) else { return false }
      }
      return true
    }

    /// The hash of the joined bytes: `Hasher` takes bytes as a stream, so two parts fed one
    /// after the other hash as their join does, however a line is cut.
    func hash(into hasher: inout Hasher) {
      head.withUnsafeBytes { hasher.combine(bytes: $0) }
      tail.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
  }

  // MARK: Repairs

  /// Mends the fixable problems of `list` (see ``ListProblem/isFixable``) and returns them.
  ///
  /// A list with a conflict marker is left alone: its lines are two versions at once, and
  /// resolving them is a person's choice. A lower-case priority is mended only when the line
  /// has no second `(b)`-like letter (an enumeration is text). Copies of a line become empty
  /// lines when line numbers are kept, else they are removed; the first copy stays.
  package static func repair(_ list: inout TodoList, knownIDs: Set<[UInt8]>, preservingLineNumbers: Bool)
    -> [ListProblem]
  {
    // One mend can make another's case (a stray byte order mark removed leaves a copy of the
    // line before): mended until nothing is left to mend, so a second run has nothing to do.
    var fixed: [ListProblem] = []
    for _ in 0..<8 {
      let round = repairOnce(&list, knownIDs: knownIDs, preservingLineNumbers: preservingLineNumbers)
      if round.isEmpty { break }
      fixed += round
    }
    return fixed
  }

  private static func repairOnce(_ list: inout TodoList, knownIDs: Set<[UInt8]>, preservingLineNumbers: Bool)
    -> [ListProblem]
  {
    let problems = problems(in: list, knownIDs: knownIDs)
    guard !problems.contains(where: { $0.kind == .conflictMarker }) else { return [] }
    var fixed: [ListProblem] = []
    var edits: [Int: [UInt8]] = [:]
    var removals: [Int] = []
    var endings: LineEnding?
    for problem in problems where problem.isFixable {
      let index = problem.line - 1
      var line = edits[index] ?? Array(list[index].bytes)
      switch problem.kind {
      case .byteOrderMarkInside:
        line = removingByteOrderMarks(line)
      case .lowercasePriority:
        line[1] -= 32
      case .priorityWithoutSpace:
        line.insert(.space, at: 3)
      case .mixedLineEnding(let ending, _):
        endings = ending == .crlf ? .lf : .crlf
        fixed.append(problem)
        continue
      case .exactDuplicate:
        removals.append(index)
        fixed.append(problem)
        continue
      default:
        continue
      }
      edits[index] = line
      fixed.append(problem)
    }
    for (index, line) in edits { list.replace(at: index, with: Task(bytes: line)) }
    if let majority = endings {
      for index in list.indices where list.lineEnding(at: index) != majority && !isPinnedToCRLF(list, index) {
        list.setLineEnding(majority, at: index)
      }
    }
    for index in removals.sorted().reversed() {
      if preservingLineNumbers {
        list.replace(at: index, with: Task(bytes: []))
      } else {
        list.remove(at: index)
      }
    }
    return fixed
  }

  /// Whether the line's text ends in CR before its CRLF (`a\r\r\n`): given LF, it would end
  /// in CRLF and read as another line (`a`), which no undo could find again. Such a line is
  /// left out of the line-ending check and its mending; its CR is reported as a control
  /// character, for a person to settle.
  static func isPinnedToCRLF(_ list: TodoList, _ index: Int) -> Bool {
    list.lineEnding(at: index) == .crlf && list[index].bytes.last == 0x0D
  }

  /// The line without any U+FEFF.
  static func removingByteOrderMarks(_ line: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(line.count)
    var i = 0
    while i < line.count {
      if i + 3 <= line.count, line[i] == 0xEF, line[i + 1] == 0xBB, line[i + 2] == 0xBF {
        i += 3
        continue
      }
      result.append(line[i])
      i += 1
    }
    return result
  }

  /// `(a) …` with no other `(b)` (one lower-case letter in parentheses) later in the line.
  static func isUnambiguousLowercase(_ line: [UInt8]) -> Bool {
    guard line.count >= 3 else { return false }
    var i = 3
    while i + 2 < line.count {
      if line[i] == .openParen, (97...122).contains(line[i + 1]), line[i + 2] == .closeParen { return false }
      i += 1
    }
    return true
  }
}
