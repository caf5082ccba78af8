import TodoTxt

#if canImport(Glibc)
  import Glibc
#endif

/// What `ls` does under the name `todo` on top of todo.sh's pipeline (``ListEngine``):
/// hides tasks whose `t:` threshold is still ahead, tasks with `h:1` and tasks waiting for an
/// open task (unless `--all`),
/// matches plain search words with Unicode case folding and in the task's note, sorts by
/// `--sort` keys, and colours the `due:` tag of overdue tasks and of those due today.
struct NativeListing {
  let list: TodoList
  let today: TaskDate
  let showAll: Bool
  let sorting: TaskSorting?
  let notesDirectory: String
  let overdueColour: [UInt8]
  let dueTodayColour: [UInt8]
  private let notes = NoteCache()
  /// `id:` values of tasks that wait for an open task (see ``Dependencies``).
  let blockedIDs: Set<String>

  init(_ options: ListOptions, list: TodoList, context: CommandContext) throws(TodoError) {
    self.list = list
    today = context.today
    showAll = options.showAll
    blockedIDs = options.showAll ? [] : Dependencies.blockedIDs(in: list)
    sorting = try options.sort.map { text throws(TodoError) in try TaskSorting(text) }
    notesDirectory = NoteCommand.directory(context.settings)
    overdueColour = NativeListing.colour("COLOR_OVERDUE", default: "\\033[1;31m", context.settings)
    dueTodayColour = NativeListing.colour("COLOR_DUE_TODAY", default: "\\033[1;35m", context.settings)
  }

  /// A colour variable, or its default; nothing under plain output.
  static func colour(_ name: String, default value: String, _ settings: Settings) -> [UInt8] {
    guard !settings.isPlain else { return [] }
    return Colours.decode(settings.variables[name] ?? value)
  }

  /// The colour of a `due:` tag with this date: overdue, due today, or none.
  static func dueColour(_ due: TaskDate, today: TaskDate, settings: Settings) -> [UInt8] {
    if due < today { return colour("COLOR_OVERDUE", default: "\\033[1;31m", settings) }
    if due == today { return colour("COLOR_DUE_TODAY", default: "\\033[1;35m", settings) }
    return []
  }

  // MARK: Hiding

  /// Whether the line at `index` (0-based), whose bytes are `line`, is listed.
  func isShown(_ index: Int, _ line: UnsafeBufferPointer<UInt8>) -> Bool {
    guard !showAll, index < list.count else { return true }
    // A task waits while any task naming its id: with p: is open.
    if !blockedIDs.isEmpty, NativeListing.hasToken(line, "id:"), let id = list[index].dependencyID,
      blockedIDs.contains(id), !list[index].isCompleted
    {
      return false
    }
    guard NativeListing.hasToken(line, "t:") || NativeListing.hasToken(line, "h:1") else { return true }
    let task = list[index]
    if task.isHidden { return false }
    if let threshold = task.thresholdDate, threshold > today { return false }
    return true
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

  /// A matcher for one search term over numbered lines (`NN text`).
  ///
  /// A plain word ignores case as Unicode defines it (`café` finds `CAFÉ`, `strasse` finds
  /// `Straße`) and also looks in the task's note; a term with regular-expression characters
  /// keeps grep's meaning.
  func matcher(for term: String) -> (UnsafeBufferPointer<UInt8>) -> Bool {
    let grep = TermMatcher(term)
    let special: Set<UInt8> = Set("\\.[]*^$".utf8)
    guard !term.utf8.contains(where: { special.contains($0) }) else {
      return { line in grep.matches(line) || self.noteMatches(line) { grep.matches(Array($0.utf8)) } }
    }
    let folded = TextOrder.folded(term)
    let asciiTerm = term.utf8.allSatisfy { $0 < 0x80 }
    return { line in
      let matched: Bool
      if asciiTerm {
        // Folding turns no other character into ASCII letters than those
        // ``NativeListing/foldsToASCII(_:)`` finds, so without them an ASCII word can only
        // match where grep's byte comparison finds it too; that is checked first, and the
        // Unicode comparison decides only for such a line with other characters.
        if grep.matches(line) {
          matched =
            line.allSatisfy({ $0 < 0x80 })
            || TextOrder.folded(String(decoding: line, as: UTF8.self)).contains(folded)
        } else {
          matched =
            NativeListing.foldsToASCII(line)
            && TextOrder.folded(String(decoding: line, as: UTF8.self)).contains(folded)
        }
      } else {
        matched = TextOrder.folded(String(decoding: line, as: UTF8.self)).contains(folded)
      }
      return matched || self.noteMatches(line) { TextOrder.folded($0).contains(folded) }
    }
  }

  /// Whether the line has a character whose case folding gives ASCII letters: İ (i and a
  /// combining dot), the Kelvin sign (k), ß and ẞ (ss), ſ (s).
  static func foldsToASCII(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    var any: UInt8 = 0
    for byte in line { any |= byte }
    guard any >= 0x80, line.count >= 2 else { return false }
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

  /// Whether the note of the task on this numbered line satisfies `test` (line by line for a
  /// grep term, whole for a word).
  private func noteMatches(_ line: UnsafeBufferPointer<UInt8>, _ test: (String) -> Bool) -> Bool {
    guard NativeListing.hasToken(line, "note:"), let index = NativeListing.index(of: line), index < list.count,
      let name = list[index].tagValue("note"), let text = notes.text(NoteCommand.path(name, in: notesDirectory))
    else { return false }
    return test(text) || text.split(separator: "\n").contains { test(String($0)) }
  }

  /// The 0-based line index of a numbered line (`  12 text` or `012 text`).
  static func index(of line: UnsafeBufferPointer<UInt8>) -> Int? {
    var position = 0
    while position < line.count, line[position] == 0x20 { position += 1 }
    var number = 0
    var digits = 0
    while position < line.count, (48...57).contains(line[position]), digits < 18 {
      number = number * 10 + Int(line[position] - 48)
      position += 1
      digits += 1
    }
    return digits > 0 && number > 0 ? number - 1 : nil
  }

  static func index(of line: [UInt8]) -> Int? { line.withUnsafeBufferPointer { index(of: $0) } }

  // MARK: Order and colour

  /// The lines in `--sort` order, or `nil` for todo.sh's order.
  func sorted(_ lines: Lines) -> Lines? {
    guard let sorting else { return nil }
    var indices: [Int] = []
    var positions: [Int: Int] = [:]
    lines.buffer.withUnsafeBufferPointer { b in
      for item in 0..<lines.count {
        let index = NativeListing.index(of: UnsafeBufferPointer(rebasing: b[lines.starts[item]..<lines.ends[item]]))
        guard let index, index < list.count else { continue }
        indices.append(index)
        positions[index] = item
      }
    }
    let order = sorting.sorted(indices, in: list).compactMap { positions[$0] }
    return order.count == lines.count ? lines.reordered(order) : nil
  }

  /// The colour of the `due:` tag on a numbered line: overdue, due today, or none.
  func dueColour(numberedLine line: [UInt8]) -> [UInt8] {
    guard !overdueColour.isEmpty || !dueTodayColour.isEmpty else { return [] }
    let hasDue = line.withUnsafeBufferPointer { NativeListing.hasToken($0, "due:") }
    guard hasDue, let index = NativeListing.index(of: line), index < list.count else { return [] }
    let task = list[index]
    guard !task.isCompleted, let due = task.dueDate else { return [] }
    if due < today { return overdueColour }
    return due == today ? dueTodayColour : []
  }
}

/// Note files read once per listing.
private final class NoteCache {
  private var texts: [String: String?] = [:]

  func text(_ path: String) -> String? {
    if let known = texts[path] { return known }
    let text = Posix.readFile(path).map { String(decoding: $0, as: UTF8.self) }
    texts[path] = .some(text)
    return text
  }
}
