import TodoStore
import TodoTxt

#if canImport(Glibc)
  import Glibc
#endif

/// What `ls` does under the name `todo` on top of todo.sh's pipeline (``ListEngine``):
/// hides done tasks, tasks whose `t:` threshold is still ahead, tasks with `h:1` and tasks
/// waiting for an open task (unless `--all`),
/// matches search terms as words (literal, Unicode case folding, in the text and the task's
/// note, never the line number), sorts by
/// `--sort` keys, and colours the `due:` tag of overdue tasks and of those due today.
struct NativeListing {
  /// The file's lines (without line endings), which tasks are made from when needed.
  let lines: Lines
  let today: TaskDate
  let showAll: Bool
  /// Done tasks are listed: with `--all`, in `listall`, or for a query that asks about being
  /// done. Otherwise they stay in the file, unlisted, until `archive`.
  let showsDone: Bool
  /// Done tasks are never listed, not even with `--all` (`next`).
  let hidesDone: Bool
  /// The order of the listing (``RowOrder``): by the tasks' keys with `--sort` or
  /// `TODO_SORT`, else todo.sh's or the user's sort command.
  let order: RowOrder
  let notesDirectory: String
  let overdueColour: [UInt8]
  let dueTodayColour: [UInt8]
  private let notes = NoteCache()
  /// What the shell's earlier lines found in this version of the file (which lines a word
  /// matches, whether it has notes), shared with its later lines; `nil` outside the shell.
  var facts: DerivedFacts? {
    didSet {
      guard let facts else { return }
      let lines = lines
      let notes = notes
      notes.hasNotes = facts.value(ListingFact.HasNotes()) { Kept(notes.fileHasNotes(lines)) }.value
      // Which ids wait depends on the file alone: looked for once per version (a pass over
      // every line), not once per line of the shell. The lines as read raw (todo.sh's) and
      // as read by the grammar are kept apart, as ``CommandContext/readLines(_:raw:)`` does.
      blocked = facts.value(ListingFact.Blocked(raw: raw)) { blocked }
    }
  }
  /// `id:` values of tasks that wait for an open task (see ``Dependencies``), found the first
  /// time a listed line has an `id:`: most listings never need them.
  private var blocked: BlockedIDs
  /// The lines keep a CR before the newline and a byte order mark (todo.sh's listing).
  private let raw: Bool

  init(_ options: ListOptions, lines: Lines, context: CommandContext) throws(TodoError) {
    self.lines = lines
    today = context.today
    showAll = options.showAll
    // A query that asks about being done has set showsDone (``QueryListing``, which parses it).
    showsDone = options.showAll || options.showsDone
    hidesDone = options.hidesDone
    blocked = BlockedIDs(lines)
    raw = !context.settings.policy.readableListing
    order = RowOrder.chosen(sort: options.sort, settings: context.settings)
    notesDirectory = NoteCommand.directory(context.settings)
    (overdueColour, dueTodayColour) = Palette.dueColours(context.settings)
  }

  // MARK: Hiding

  /// Whether the line at `index` (0-based), whose bytes are `line`, is listed.
  func isShown(_ index: Int, _ line: UnsafeBufferPointer<UInt8>) -> Bool { hiding.isShown(index, line) }

  /// The hiding rules, as a small value a listing's loop holds once: called through a
  /// closure over the whole listing state, they cost a retain and a release per line.
  var hiding: Hiding {
    Hiding(lines: lines, today: today, showAll: showAll, showsDone: showsDone, hidesDone: hidesDone, blocked: blocked)
  }

  /// What hides a line: done (unless shown), `h:1`, a threshold ahead, waiting for an open task.
  struct Hiding {
    let lines: Lines
    let today: TaskDate
    let showAll: Bool
    let showsDone: Bool
    let hidesDone: Bool
    fileprivate let blocked: BlockedIDs

    /// Rules that hide nothing (a listing without the native options).
    static var none: Hiding {
      Hiding(lines: Lines(), today: .earliest, showAll: true, showsDone: true, hidesDone: false, blocked: BlockedIDs(Lines()))
    }

    /// Whether the line at `index` (0-based), whose bytes are `line`, is listed.
    @inline(__always)
    func isShown(_ index: Int, _ line: UnsafeBufferPointer<UInt8>) -> Bool {
      if hidesDone, line.count >= 2, line[0] == UInt8(ascii: "x"), line[1] == 0x20 { return false }
      guard !showAll, index < lines.count else { return true }
      if !showsDone, line.count >= 2, line[0] == UInt8(ascii: "x"), line[1] == 0x20 { return false }
      let marks = NativeListing.hidingTokens(line)
      // A task waits while any task naming its id: with p: is open.
      if marks.id {
        let task = lines.task(index)
        if let id = task.dependencyID, !task.isCompleted, blocked.ids.contains(id) { return false }
      }
      guard marks.threshold || marks.hidden else { return true }
      let task = lines.task(index)
      if marks.hidden, task.isHidden { return false }
      if marks.threshold, let threshold = task.thresholdDate, threshold > today { return false }
      return true
    }
  }

  /// Whether a token of `line` starts with `id:`, `t:` or `h:1`, the tokens that can hide a
  /// task (``hasToken(_:_:)`` for the three, in one pass over the line's few colons): a
  /// listing asks this of every line before it makes a task of any.
  static func hidingTokens(_ line: UnsafeBufferPointer<UInt8>) -> (id: Bool, threshold: Bool, hidden: Bool) {
    var marks = (id: false, threshold: false, hidden: false)
    guard let base = line.baseAddress else { return marks }
    let count = line.count
    @inline(__always) func startsToken(_ position: Int) -> Bool {
      position == 0 || line[position - 1] == 0x20 || line[position - 1] == 0x09
    }
    var from = 1
    while from < count, let hit = memchr(base + from, 0x3A, count - from) {
      let at = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
      from = at + 1
      switch line[at - 1] {
      case UInt8(ascii: "t"): if startsToken(at - 1) { marks.threshold = true }
      case UInt8(ascii: "h"): if at + 1 < count, line[at + 1] == UInt8(ascii: "1"), startsToken(at - 1) { marks.hidden = true }
      case UInt8(ascii: "d"): if at >= 2, line[at - 2] == UInt8(ascii: "i"), startsToken(at - 2) { marks.id = true }
      default: break
      }
    }
    return marks
  }

  /// Whether a token of `line` starts with `prefix` (a quick test before parsing the task).
  ///
  /// Every prefix asked for holds a colon, and lines hold few: the colons are found with
  /// `memchr` and the prefix is compared around each.
  static func hasToken(_ line: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
    let count = prefix.utf8CodeUnitCount
    guard line.count >= count, let base = line.baseAddress else { return false }
    return prefix.withUTF8Buffer { needle in
      guard let colon = needle.firstIndex(of: UInt8(ascii: ":")) else {
        var index = 0
        while index + count <= line.count {
          if index == 0 || line[index - 1] == 0x20 || line[index - 1] == 0x09,
            UnsafeBufferPointer(rebasing: line[index..<(index + count)]).elementsEqual(needle)
          {
            return true
          }
          index += 1
        }
        return false
      }
      var from = colon
      while from < line.count, let hit = memchr(base + from, 0x3A, line.count - from) {
        let at = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
        let index = at - colon
        if index + count <= line.count, index == 0 || line[index - 1] == 0x20 || line[index - 1] == 0x09,
          UnsafeBufferPointer(rebasing: line[index..<(index + count)]).elementsEqual(needle)
        {
          return true
        }
        from = at + 1
      }
      return false
    }
  }

  // MARK: Search

  /// A matcher for one search term: given a line's index and its text (never its number).
  ///
  /// A term is a word, not a pattern: it is found anywhere in the task's text, every
  /// character standing for itself (`a.b` finds only `a.b`), ignoring case as Unicode defines
  /// it (`café` finds `CAFÉ`, `strasse` finds `Straße`); it also looks in the task's note.
  func matcher(for term: String) -> TermTest {
    let word = WordMatcher(term)
    // Whether a word matches a line depends on the line's text alone: found once per version
    // of the file, in the shell.
    let known = facts?.value(ListingFact.Matches(term: term)) { LineMatches(count: lines.count) }
    // A file without notes (looked for once, in one pass) needs no look at a line's note: the
    // test of each line that does not match is then the word's alone, with nothing of the
    // listing's state to hold on to.
    let hasNotes = notes.fileHasNotes(lines)
    if known == nil, !hasNotes { return .word(word) }
    return .closure { index, line in
      let matched: Bool
      if let known, index < known.states.count, known.states[index] != 0 {
        matched = known.states[index] == 1
      } else {
        matched = word.matches(line)
        if let known, index < known.states.count { known.states[index] = matched ? 1 : 2 }
      }
      return matched || (hasNotes && self.noteMatches(index, line) { word.matches(Array($0.utf8)) })
    }
  }

  /// For each line, whether it can match every word of `terms` that is not an exclusion,
  /// found by one search of the whole file (``Lines/holding(_:)``) instead of a test of each
  /// line; `nil` when no such search is known to be enough: a file with notes (a note can
  /// make a word match), a word that is not plain ASCII text, or no word to look for.
  ///
  /// An ASCII word matches a line only where its bytes occur, ASCII letters ignoring case,
  /// or where the line has a character whose folding gives ASCII letters (see
  /// ``WordMatcher/matches(_:)``): the lines with either are the candidates, and
  /// only they are tested.
  func candidates(forWords terms: [String]) -> [Bool]? {
    let words = terms.filter { !$0.hasPrefix("-") }
    guard !words.isEmpty, !notes.fileHasNotes(lines),
      words.allSatisfy({ word in
        !word.isEmpty && RawArguments.bytes(of: word) == nil && word.utf8.allSatisfy { $0 < 0x80 }
      })
    else { return nil }
    let literals = words.map { word in
      RequiredLiteral(word.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, ignoresCase: true)
    }
    guard var holds = lines.holding(literals) else { return nil }
    lines.buffer.withUnsafeBufferPointer { bytes in
      lines.forEachLineWithNonASCII { index in
        if NativeListing.foldsToASCII(UnsafeBufferPointer(rebasing: bytes[lines.starts[index]..<lines.ends[index]])) {
          holds[index] = true
        }
      }
    }
    return holds
  }

  /// The key under which the lines that pass `terms` are kept among the file's facts, when
  /// which lines pass depends on their text alone: words without digits, blanks or
  /// regular-expression characters, in a file without notes (a note can make a word match).
  func termPassKey(_ terms: [String], skipsBlank: Bool) -> ListingFact.Passing? {
    guard facts != nil, !terms.isEmpty, notes.hasNotes == false,
      terms.allSatisfy({ TermMatcher.ignoresNumber($0.hasPrefix("-") ? String($0.dropFirst()) : $0) })
    else { return nil }
    return ListingFact.Passing(terms: terms, skipsBlank: skipsBlank)
  }

  /// The key under which the lines of a term pass (``termPassKey(_:skipsBlank:)``) that the
  /// hiding rules show are kept: besides the file's version, which the facts belong to, they
  /// depend on the date (thresholds), which rules apply and how the lines were read.
  func shownKey(forPass passKey: ListingFact.Passing) -> ListingFact.Shown {
    ListingFact.Shown(
      pass: passKey, today: today, showAll: showAll, showsDone: showsDone, hidesDone: hidesDone, raw: raw)
  }

  /// Whether any byte of the line is outside ASCII (eight bytes at a time).
  static func hasNonASCII(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = line.baseAddress else { return false }
    let count = line.count
    guard count >= 8 else { return line.contains { $0 >= 0x80 } }
    let raw = UnsafeRawPointer(base)
    // The last word overlaps the one before it, so no byte is left to look at one by one.
    var any = raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    var offset = 0
    while offset + 32 <= count {
      any |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        | raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
        | raw.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)
        | raw.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)
      offset += 32
    }
    while offset + 8 <= count {
      any |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      offset += 8
    }
    return any & 0x8080_8080_8080_8080 != 0
  }

  /// Whether the line has a character whose case folding gives ASCII letters: İ (i and a
  /// combining dot), the Kelvin sign (k), ß and ẞ (ss), ſ (s).
  static func foldsToASCII(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    guard line.count >= 2, hasNonASCII(line) else { return false }
    for index in 0..<(line.count - 1) {
      switch (line[index], line[index + 1]) {
      case (0xC4, 0xB0), (0xC3, 0x9F), (0xC5, 0xBF): return true
      case (0xE2, 0x84) where index + 2 < line.count && line[index + 2] == 0xAA: return true
      case (0xE1, 0xBA) where index + 2 < line.count && line[index + 2] == 0x9E: return true
      default: continue
      }
    }
    return false
  }

  /// Whether the note of the task on line `index`, whose text (numbered or not) is `line`,
  /// satisfies `test` (line by line for a grep term, whole for a word).
  private func noteMatches(_ index: Int, _ line: UnsafeBufferPointer<UInt8>, _ test: (String) -> Bool) -> Bool {
    guard notes.fileHasNotes(lines), NativeListing.hasToken(line, TagMeaning.note.token), index < lines.count,
      let name = lines.task(index).note, let text = notes.text(name, in: notesDirectory)
    else { return false }
    return test(text) || text.split(separator: "\n").contains { test(String($0)) }
  }

  // MARK: Order and colour

  /// The listed line indices (0-based) in `--sort` order, or `nil` for todo.sh's order (or
  /// an index that is no line of the file).
  func sorted(indices: [Int32]) -> [Int32]? {
    guard let sorting = order.taskOrder, indices.allSatisfy({ Int($0) < lines.count }) else { return nil }
    return sorting.sorted(indices, task: lines.task, today: today) { Dependencies.waitingCounts(in: lines) }
  }

  /// The rows in the tasks' order, or `nil` when the order is not by the tasks' keys (or a
  /// row is no line of the file).
  func sorted(_ rows: ListingRows) -> ListingRows? {
    guard let sorting = order.taskOrder, rows.indices.allSatisfy({ $0 >= 0 && Int($0) < lines.count }) else {
      return nil
    }
    // Where each line of the file stands in the listing (-1: not listed); an array, not a
    // dictionary, as there is one slot per line of the file anyway.
    var positions = [Int32](repeating: -1, count: lines.count)
    for (row, index) in rows.indices.enumerated() { positions[Int(index)] = Int32(row) }
    let sortedIndices = sorting.sorted(rows.indices, task: lines.task, today: today) { Dependencies.waitingCounts(in: lines) }
    return rows.reordered(sortedIndices.map { Int(positions[Int($0)]) })
  }

  /// The colour of the `due:` tag of line `index`: overdue, due today, or none.
  func dueColour(index: Int) -> [UInt8] {
    guard !overdueColour.isEmpty || !dueTodayColour.isEmpty, index < lines.count else { return [] }
    guard lines.holdsToken(index, TagMeaning.due.token) else { return [] }
    let task = lines.task(index)
    guard !task.isCompleted, let due = task.dueDate else { return [] }
    if due < today { return overdueColour }
    return due == today ? dueTodayColour : []
  }
}

/// One search term of the name `todo` as a word: a case-insensitive substring of the text,
/// with Unicode case folding (see ``TextOrder/folded(_:)``). A term given as bytes that are
/// not UTF-8 (``RawArguments``) is looked for as those bytes, ASCII letters ignoring case.
struct WordMatcher {
  /// The term, lower-cased for the byte comparison (ASCII letters only).
  private let bytes: [UInt8]
  /// The folded term, or `nil` when the term is bytes to find as they are.
  private let folded: String?
  private let asciiTerm: Bool

  init(_ term: String) {
    if let raw = RawArguments.bytes(of: term) {
      bytes = raw.map(WordMatcher.lower)
      folded = nil
    } else if term.unicodeScalars.contains("\u{FFFD}") {
      // Decoding a line turns its bad bytes into U+FFFD too: only the character's own bytes
      // are the character.
      bytes = term.utf8.map(WordMatcher.lower)
      folded = nil
    } else {
      bytes = term.utf8.map(WordMatcher.lower)
      folded = TextOrder.folded(term)
    }
    asciiTerm = bytes.allSatisfy { $0 < 0x80 }
  }

  @inline(__always) private static func lower(_ byte: UInt8) -> UInt8 { (65...90).contains(byte) ? byte + 32 : byte }

  func matches(_ line: [UInt8]) -> Bool { line.withUnsafeBufferPointer { matches($0) } }

  func matches(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let folded else { return bytesOccur(in: line) }
    if asciiTerm {
      // Folding turns no other character into ASCII letters than those
      // ``NativeListing/foldsToASCII(_:)`` finds, so without them an ASCII word can only match
      // where the byte comparison finds it too; that is checked first, and the Unicode
      // comparison decides only for such a line with other characters.
      if bytesOccur(in: line) { return !NativeListing.hasNonASCII(line) || foldedOccurs(folded, in: line) }
      return NativeListing.foldsToASCII(line) && foldedOccurs(folded, in: line)
    }
    return foldedOccurs(folded, in: line)
  }

  private func foldedOccurs(_ folded: String, in line: UnsafeBufferPointer<UInt8>) -> Bool {
    TextOrder.folded(String(decoding: line, as: UTF8.self)).contains(folded)
  }

  /// Whether the term's bytes (lower-cased) occur in `line`, ASCII letters ignoring case.
  private func bytesOccur(in line: UnsafeBufferPointer<UInt8>) -> Bool {
    TermMatcher.occurs(bytes, in: line)
  }
}

/// The ids that wait, looked for once, when first asked.
final class BlockedIDs {
  private let lines: Lines
  private(set) lazy var ids: Set<String> = Dependencies.blockedIDs(in: lines)

  init(_ lines: Lines) { self.lines = lines }
}

/// Which lines of a file a search word matched: 0 not yet known, 1 matched, 2 did not.
///
/// Raw storage: it is read and written once per line of a listing, where an array in a class
/// would pay for an exclusivity check each time.
final class LineMatches {
  let states: UnsafeMutableBufferPointer<UInt8>

  init(count: Int) {
    states = .allocate(capacity: count)
    states.initialize(repeating: 0)
  }

  deinit { states.deallocate() }
}

/// Line indices of a listing (in file order) and the same indices in listing order.
final class SortedLines {
  let lines: [Int32]
  let order: [Int32]

  init(lines: [Int32], order: [Int32]) {
    self.lines = lines
    self.order = order
  }
}

/// The lines of a file that pass a listing's search terms, and how many lines are tasks.
final class TermPass {
  let indices: [Int32]
  let total: Int

  init(indices: [Int32], total: Int) {
    self.indices = indices
    self.total = total
  }
}

/// Note files read once per listing.
private final class NoteCache {
  private var texts: [String: String?] = [:]
  var hasNotes: Bool?

  /// Whether any line has `note:` at all (looked for once, in the whole file).
  func fileHasNotes(_ lines: Lines) -> Bool {
    if let hasNotes { return hasNotes }
    let found = lines.buffer.withUnsafeBufferPointer { bytes in
      // Colons are few: each is found with memchr and the four bytes before it compared.
      guard let base = bytes.baseAddress else { return false }
      var from = 4
      while from < bytes.count, let hit = memchr(base + from, 0x3A, bytes.count - from) {
        let at = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
        if bytes[at - 4] == 0x6E, bytes[at - 3] == 0x6F, bytes[at - 2] == 0x74, bytes[at - 1] == 0x65 { return true }
        from = at + 1
      }
      return false
    }
    hasNotes = found
    return found
  }

  /// The notes folder, opened once (see ``ConfinedFolder``); `nil` inside when it cannot be.
  private var folder: ConfinedFolder??

  /// The text of the note `name`, read only as a regular file of the notes folder: a note or
  /// folder that is a link (to `~/.ssh`, to `/dev/zero`) or a FIFO is never read, so a word
  /// search neither leaks nor waits.
  func text(_ name: String, in directory: String) -> String? {
    if let known = texts[name] { return known }
    if folder == nil { folder = .some(try? ConfinedFolder(directory)) }
    let text = (folder ?? nil).flatMap { try? $0.read(name) }.map { String(decoding: $0, as: UTF8.self) }
    texts[name] = .some(text)
    return text
  }
}
