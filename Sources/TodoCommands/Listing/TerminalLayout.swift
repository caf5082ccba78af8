import TodoTxt

/// How a native listing looks on a terminal: the readable layout.
///
/// A listing is made by ``ListEngine`` as todo.sh makes it, numbered lines of raw task text;
/// when standard output is a terminal (or `TODO_LAYOUT=readable`), under the name `todo`,
/// each of those lines is drawn again here: the number right-aligned, the priority (or `x`
/// for a done task) in a column of its own, the text without the tags nobody reads on screen
/// (`note:`, `att:`, `id:`, `p:` by default, `TODO_HIDE_TAGS`), the due date followed by how
/// far it is (`today`, `in 3d`, `2d ago`) and coloured by how near it is, projects and
/// contexts coloured, done tasks dimmed. Long lines are wrapped when printed
/// (``wrap(_:width:indent:)``), the continuation indented under the text.
///
/// Working from the numbered lines rather than from the tasks keeps one listing pipeline: the
/// search terms, hiding, sort, `--group`, `listall`'s renumbering and a user's final filter all
/// run as before, and the layout only changes how their result is drawn. Into a pipe or a file
/// the lines stay `N raw-line`, byte for byte, so scripts read what they always read.
package struct TerminalLayout {
  /// `TODO_LAYOUT`: `auto` (readable on a terminal), `readable` (always), `lines` (never).
  enum Choice: String, CaseIterable {
    case auto, readable, lines
  }

  let today: TaskDate
  /// Tag keys not shown (`note`, `att`, `id`, `p`), lower-cased.
  let hiddenKeyBytes: [[UInt8]]
  /// `TODO_HIDE_CREATED=1`: creation dates are not shown.
  let hidesCreated: Bool
  /// The `-+`, `-@` and `-P` options (or their variables): projects, contexts or priorities
  /// are left out, as in todo.sh's listing.
  let hidesProjects: Bool
  let hidesContexts: Bool
  let hidesPriority: Bool
  /// `HIDE_CUSTOM_SUBSTITUTION`: a user's own pattern, removed from the text first.
  let customHiding: BasicRegex?
  let palette: Palette

  /// The tags hidden when `TODO_HIDE_TAGS` is not set.
  static let defaultHiddenTags = "note att id p"

  /// The layout for a listing in `context`, or `nil` when the lines are to be printed as
  /// they are (todo.sh mode, a pipe, `TODO_LAYOUT=lines`).
  static func active(in context: CommandContext) -> TerminalLayout? {
    let settings = context.settings
    guard settings.policy.readableListing else { return nil }
    switch Choice(rawValue: settings.value("TODO_LAYOUT").lowercased()) ?? .auto {
    case .lines: return nil
    case .auto: guard context.console.isTerminal else { return nil }
    case .readable: break
    }
    return TerminalLayout(settings: settings, today: context.today)
  }

  /// Refuses listing settings that hold a value they cannot take (a typo in the
  /// configuration would otherwise go unnoticed), before any command runs.
  static func check(_ settings: Settings) throws(TodoError) {
    let chosen = settings.value("TODO_LAYOUT")
    if !chosen.isEmpty, Choice(rawValue: chosen.lowercased()) == nil {
      throw .badSetting(
        name: "TODO_LAYOUT", value: chosen, expected: "one of " + Choice.allCases.map(\.rawValue).joined(separator: ", "))
    }
    let created = settings.value("TODO_HIDE_CREATED")
    if !["", "0", "1"].contains(created) {
      throw .badSetting(name: "TODO_HIDE_CREATED", value: created, expected: "0 or 1")
    }
    let sort = settings.value("TODO_SORT")
    if !sort.isEmpty {
      do {
        _ = try TaskOrder(sort)
      } catch {
        throw .badSetting(
          name: "TODO_SORT", value: sort,
          expected: "sort keys such as 'due,-priority' (" + TaskOrder.Key.allCases.map(\.rawValue).joined(separator: ", ") + ")")
      }
    }
  }

  package init(settings: Settings, today: TaskDate) {
    self.today = today
    let keys = settings.variables["TODO_HIDE_TAGS"] ?? TerminalLayout.defaultHiddenTags
    hiddenKeyBytes = keys.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map {
      Array(String($0).lowercased().utf8)
    }
    hidesCreated = settings.value("TODO_HIDE_CREATED") == "1"
    hidesProjects = !settings.value("HIDE_PROJECTS_SUBSTITUTION").isEmpty
    hidesContexts = !settings.value("HIDE_CONTEXTS_SUBSTITUTION").isEmpty
    hidesPriority = !settings.value("HIDE_PRIORITY_SUBSTITUTION").isEmpty
    let custom = settings.value("HIDE_CUSTOM_SUBSTITUTION")
    customHiding = custom.isEmpty ? nil : BasicRegex(custom)
    // Under plain output the layout draws no colour at all, todo.sh's variables included.
    palette = settings.isPlain ? Palette() : Palette(settings)
  }

  // MARK: Drawing the lines

  /// Draws rows whose lines are made, each numbered by `numbering`; `display` makes task
  /// text safe for the terminal (control characters shown as `^X`). A row that shows no
  /// line of the file (a user's sort command made it) is kept as it is.
  ///
  /// Each line is drawn straight into one buffer, word by word from the bytes of the line, so
  /// that the layout costs a listing little more than printing it (no string or array per
  /// word).
  ///
  /// - Returns: the drawn lines and the column where the task text starts (the indent of a
  ///   wrapped line's continuation).
  func draw(_ rows: ListingRows, numbering: ListingRows.Numbering, display: ([UInt8]) -> [UInt8]) -> (
    lines: Lines, indent: Int
  ) {
    let lines = rows.lines
    return draw(
      count: rows.count, buffer: lines.buffer, display: display,
      number: { rows.indices[$0] == ListingRows.foreign ? -1 : numbering.number(Int(rows.indices[$0])) },
      text: { lines.starts[$0] + rows.textStarts[$0]..<lines.ends[$0] }, original: { lines.starts[$0]..<lines.ends[$0] })
  }

  /// Draws a listing that is still its file's lines in its order (todo.sh's or `--sort`'s),
  /// without making the numbered text first.
  func draw(_ numbered: NumberedLines, display: ([UInt8]) -> [UInt8]) -> (lines: Lines, indent: Int) {
    let source = numbered.source
    return numbered.indices.withUnsafeBufferPointer { indices in
      draw(
        count: indices.count, buffer: source.buffer, display: display, number: { numbered.number(Int(indices[$0])) },
        text: { source.starts[Int(indices[$0])]..<source.ends[Int(indices[$0])] }, original: { _ in 0..<0 })
    }
  }

  /// Whether the text of a line holds a byte the terminal would act on (a control character
  /// other than tab, or DEL): only such a line is handed to `display` first.
  static func needsDisplay(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let raw = UnsafeRawBufferPointer(text)
    var i = 0
    // Eight bytes at a time: bytes below 0x20 (a tab among them, looked at again) or DEL.
    while i + 8 <= text.count {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
      let deletes = word ^ (0x7F &* ones)
      if ((word &- 0x20 &* ones) & ~word | (deletes &- ones) & ~deletes) & highs != 0 {
        for byte in text[i..<(i + 8)] where (byte < 0x20 && byte != 0x09) || byte == 0x7F { return true }
      }
      i += 8
    }
    for byte in text[i...] where (byte < 0x20 && byte != 0x09) || byte == 0x7F { return true }
    return false
  }

  /// Whether a line's text gets a mark in the head column: it is done (`x `) or, unless
  /// priorities are hidden, starts with a priority (`(A) `), as ``Task`` reads its head.
  /// Making a line safe for the terminal changes neither.
  private func hasHead(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    let n = text.count
    if n >= 2, text[0] == UInt8(ascii: "x"), text[1] == 0x20 { return true }
    return !hidesPriority && n >= 4 && text[0] == UInt8(ascii: "(") && text[2] == UInt8(ascii: ")")
      && text[3] == 0x20 && Priority(text[1]) != nil
  }

  /// Draws `count` lines of `buffer`: line `item` has the number `number(item)` (-1 for none,
  /// kept as the bytes `original(item)`) and the task text `text(item)`.
  ///
  /// A first pass finds the width of the numbers and whether any line needs the head
  /// column; the second draws each line, its task parsed from the bytes where they lie.
  private func draw(
    count: Int, buffer: [UInt8], display: ([UInt8]) -> [UInt8], number: (Int) -> Int, text: (Int) -> Range<Int>,
    original: (Int) -> Range<Int>
  ) -> (lines: Lines, indent: Int) {
    var numberWidth = 1
    var hasHead = false
    buffer.withUnsafeBufferPointer { b in
      for item in 0..<count {
        let number = number(item)
        guard number >= 0 else { continue }
        numberWidth = max(numberWidth, TerminalLayout.digits(number))
        // A column for the priority or the done mark only when some line has one.
        if !hasHead { hasHead = self.hasHead(UnsafeBufferPointer(rebasing: b[text(item)])) }
      }
    }
    let indent = numberWidth + 1 + (hasHead ? 4 : 0)
    var drawn = Lines()
    drawn.reserve(lines: count, bytes: buffer.count + buffer.count / 2)
    for item in 0..<count {
      drawn.starts.append(drawn.buffer.count)
      let number = number(item)
      if number >= 0 {
        let range = text(item)
        let unsafe = buffer.withUnsafeBufferPointer { TerminalLayout.needsDisplay(UnsafeBufferPointer(rebasing: $0[range])) }
        let task = unsafe ? Task(bytes: display(Array(buffer[range]))) : Task(bytes: buffer[range])
        draw(number: number, task: task, numberWidth: numberWidth, hasHead: hasHead, into: &drawn.buffer)
      } else {
        drawn.buffer += buffer[original(item)]
      }
      drawn.ends.append(drawn.buffer.count)
    }
    return (drawn, indent)
  }

  package static func digits(_ number: Int) -> Int { NumberedLines.digitCount(number) }

  static func appendNumber(_ number: Int, to out: inout [UInt8]) {
    var divisor = 1
    while divisor <= number / 10 { divisor *= 10 }
    var rest = number
    while divisor > 0 {
      out.append(UInt8(48 + rest / divisor))
      rest %= divisor
      divisor /= 10
    }
  }

  /// One task: number, head column, text.
  package func draw(number: Int, task: Task, numberWidth: Int, hasHead: Bool, into out: inout [UInt8]) {
    for _ in 0..<max(0, numberWidth - TerminalLayout.digits(number)) { out.append(0x20) }
    begin(palette.number, &out)
    TerminalLayout.appendNumber(number, to: &out)
    end(palette.number, &out)
    out.append(0x20)
    let done = task.isCompleted
    if hasHead {
      if done {
        begin(palette.done, &out)
        out.append(UInt8(ascii: "x"))
        end(palette.done, &out)
        out += TerminalLayout.threeBlanks
      } else if let priority = task.headPriority, !hidesPriority {
        let letter = priority.byte
        let colour = priorityColour(letter)
        begin(colour, &out)
        out.append(UInt8(ascii: "("))
        out.append(letter)
        out.append(UInt8(ascii: ")"))
        end(colour, &out)
        out.append(0x20)
      } else {
        out += TerminalLayout.fourBlanks
      }
    }
    // A done task is drawn faint as a whole; the colours inside it are left out.
    let faintWhole = done && !palette.done.isEmpty
    if faintWhole { out += palette.done }
    let start = out.count
    // A done task shows when it was done; an open one when it was made.
    if done, let completed = task.completionDate {
      TerminalLayout.appendDate(completed, to: &out)
    } else if !done, !hidesCreated, let created = task.creationDate {
      begin(palette.faint, &out)
      TerminalLayout.appendDate(created, to: &out)
      end(palette.faint, &out)
    }
    body(of: task, done: done, separated: out.count > start, into: &out)
    if faintWhole { out += palette.reset }
  }

  static let threeBlanks: [UInt8] = [0x20, 0x20, 0x20]
  static let fourBlanks: [UInt8] = [0x20, 0x20, 0x20, 0x20]
  static let noteKey = Array(TagMeaning.note.key.utf8)
  static let attachmentKey = Array(TagMeaning.attachment.key.utf8)
  static let dueKey = Array(TagMeaning.due.key.utf8)

  /// `YYYY-MM-DD`, straight into `out`.
  static func appendDate(_ date: TaskDate, to out: inout [UInt8]) {
    let year = date.year
    out.append(UInt8(48 + year / 1000 % 10))
    out.append(UInt8(48 + year / 100 % 10))
    out.append(UInt8(48 + year / 10 % 10))
    out.append(UInt8(48 + year % 10))
    out.append(UInt8(ascii: "-"))
    out.append(UInt8(48 + date.month / 10))
    out.append(UInt8(48 + date.month % 10))
    out.append(UInt8(ascii: "-"))
    out.append(UInt8(48 + date.day / 10))
    out.append(UInt8(48 + date.day % 10))
  }

  /// The words of a task's body as drawn, each after a blank (but the first, unless
  /// `separated`).
  ///
  /// The words are found here rather than with ``Task/forEachToken(_:)`` (same rules: see
  /// `Token.Kind.classify`), in one pass over the bytes, so that drawing a word costs about
  /// what copying it does.
  private func body(of task: Task, done: Bool, separated: Bool, into out: inout [UInt8]) {
    let bytes: ArraySlice<UInt8>
    var from = task.bodyOffset
    if let customHiding {
      bytes = ArraySlice(customHiding.replacingAll(in: Array(task.bodyBytes), with: []))
      from = 0
    } else {
      bytes = task.bytes
    }
    var notes = 0
    var attachments = 0
    var first = !separated
    bytes.withUnsafeBufferPointer { b in
      let n = b.count
      var i = from
      var plain: Range<Int>?
      func flush() {
        if let run = plain { out.append(contentsOf: UnsafeBufferPointer(rebasing: b[run])) }
        plain = nil
      }
      while i < n {
        while i < n, b[i] == 0x20 || b[i] == 0x09 { i += 1 }
        guard i < n else { break }
        let start = i
        var colon = -1
        var colons = 0
        i = TerminalLayout.wordEnd(b, from: i) { at in
          colons += 1
          if colon < 0 { colon = at }
        }
        let word = UnsafeBufferPointer(rebasing: b[start..<i])
        // The colour is named, not copied: most words have none.
        var colour = Colour.none
        var dueDate: TaskDate?
        if i - start >= 2, b[start] == UInt8(ascii: "+") {
          if hidesProjects { continue }
          if !done, !palette.project.isEmpty { colour = .project }
        } else if i - start >= 2, b[start] == UInt8(ascii: "@") {
          if hidesContexts { continue }
          if !done, !palette.context.isEmpty { colour = .context }
        } else if colons == 1, colon > start, colon < i - 1,
          !(colon + 2 < i && b[colon + 1] == 0x2F && b[colon + 2] == 0x2F)
        {
          let key = UnsafeBufferPointer(rebasing: b[start..<colon])
          if hiddenKeyBytes.contains(where: { TerminalLayout.equalIgnoringCase(key, $0) }) {
            if TerminalLayout.equalIgnoringCase(key, TerminalLayout.noteKey) { notes += 1 }
            if TerminalLayout.equalIgnoringCase(key, TerminalLayout.attachmentKey) { attachments += 1 }
            continue
          }
          if TerminalLayout.equalIgnoringCase(key, TerminalLayout.dueKey) {
            dueDate = TerminalLayout.date(UnsafeBufferPointer(rebasing: b[(colon + 1)..<i]))
          }
          if dueDate == nil, !done, !palette.meta.isEmpty { colour = .meta }
        }
        // Plain words one blank apart are copied as one run.
        if colour == .none, dueDate == nil {
          if let run = plain, run.upperBound + 1 == start, b[run.upperBound] == 0x20 {
            plain = run.lowerBound..<i
            continue
          }
          flush()
          if !first { out.append(0x20) }
          first = false
          plain = start..<i
          continue
        }
        flush()
        if !first { out.append(0x20) }
        first = false
        if let dueDate {
          dueWord(word, due: dueDate, done: done, into: &out)
        } else {
          switch colour {
          case .none: break
          case .project: out += palette.project
          case .context: out += palette.context
          case .meta: out += palette.meta
          }
          out.append(contentsOf: word)
          out += palette.reset
        }
      }
      flush()
    }
    guard notes > 0 || attachments > 0 else { return }
    var mark = "["
    if notes > 0 { mark += "note" }
    if attachments > 0 {
      if notes > 0 { mark += ", " }
      mark += attachments == 1 ? "att" : "\(attachments) att"
    }
    if !first { out.append(0x20) }
    let colour = done ? [] : palette.faint
    begin(colour, &out)
    out += Array((mark + "]").utf8)
    end(colour, &out)
  }

  /// The colour of a word of the body, by name.
  private enum Colour {
    case none, project, context, meta
  }

  /// Where the word starting at `from` ends (at a blank or the end of `b`), calling `colon`
  /// with the offset of each colon in it.
  ///
  /// Eight bytes are looked at at a time: a word is most often a single load.
  @inline(__always)
  static func wordEnd(_ b: UnsafeBufferPointer<UInt8>, from: Int, colon: (Int) -> Void) -> Int {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let raw = UnsafeRawBufferPointer(b)
    let n = b.count
    var i = from
    while i + 8 <= n {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
      let colons = word ^ (0x3A &* ones)
      // Bytes below 0x21 (blanks among them) and colons; a flag above another may be false,
      // as a borrow crosses it, so every flagged byte is looked at.
      var flags = ((word &- 0x21 &* ones) & ~word | (colons &- ones) & ~colons) & highs
      while flags != 0 {
        let k = i + flags.trailingZeroBitCount >> 3
        let byte = b[k]
        if byte == 0x20 || byte == 0x09 { return k }
        if byte == 0x3A { colon(k) }
        flags &= flags &- 1
      }
      i += 8
    }
    while i < n {
      let byte = b[i]
      if byte == 0x20 || byte == 0x09 { return i }
      if byte == 0x3A { colon(i) }
      i += 1
    }
    return n
  }

  /// `YYYY-MM-DD` read from bytes, without a string.
  static func date(_ value: UnsafeBufferPointer<UInt8>) -> TaskDate? {
    guard value.count == 10, value[4] == UInt8(ascii: "-"), value[7] == UInt8(ascii: "-") else { return nil }
    func number(_ from: Int, _ count: Int) -> Int? {
      var result = 0
      for index in from..<(from + count) {
        let byte = value[index]
        guard byte >= 48, byte <= 57 else { return nil }
        result = result * 10 + Int(byte - 48)
      }
      return result
    }
    guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2) else { return nil }
    return TaskDate(year: year, month: month, day: day)
  }

  static func equalIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: [UInt8]) -> Bool {
    guard bytes.count == lowercase.count else { return false }
    for index in 0..<lowercase.count {
      let candidate = bytes[index]
      if ((candidate >= 65 && candidate <= 90) ? candidate + 32 : candidate) != lowercase[index] { return false }
    }
    return true
  }

  /// `due:2026-12-04 (in 3d)`, coloured by how near the date is.
  private func dueWord(_ word: UnsafeBufferPointer<UInt8>, due: TaskDate, done: Bool, into out: inout [UInt8]) {
    let days = today.days(until: due)
    var colour: [UInt8] = []
    if !done {
      switch days {
      case ..<0: colour = palette.overdue
      case 0: colour = palette.dueToday
      case 1...3: colour = palette.dueSoon
      default: break
      }
    }
    begin(colour, &out)
    out.append(contentsOf: word)
    // Glued, so that wrapping never parts the date from its distance; the glue becomes a
    // plain space when the line is written (a no-break space would travel with copied text).
    out.append(TerminalLayout.glue)
    out.append(UInt8(ascii: "("))
    TerminalLayout.appendRelative(days: days, blank: [TerminalLayout.glue], to: &out)
    out.append(UInt8(ascii: ")"))
    end(colour, &out)
  }

  /// A space the wrapping does not break at: a control byte no drawn task text holds (the
  /// layout draws only on a terminal, where task text has its control bytes shown as `^X`),
  /// written as a plain space (``unglued(_:)``).
  static let glue: UInt8 = 0x1F

  /// A drawn line as it is written: glued spaces made plain.
  package static func unglued(_ line: [UInt8]) -> [UInt8] {
    guard line.contains(glue) else { return line }
    return line.map { $0 == glue ? 0x20 : $0 }
  }
  static let today = Array("today".utf8)
  static let tomorrow = Array("tomorrow".utf8)
  static let yesterday = Array("yesterday".utf8)
  static let inWord = Array("in".utf8)
  static let agoWord = Array("ago".utf8)
  static let monthUnit = Array("mo".utf8)

  /// How far a date is, in the largest unit that keeps it short: `today`, `tomorrow`,
  /// `yesterday`, `in 5d`, `5d ago`, then weeks (from 14 days), months of 30 days (from 10
  /// weeks) and years of 365 days (from two years), rounded down.
  static func relative(days: Int) -> String {
    var bytes: [UInt8] = []
    appendRelative(days: days, blank: [0x20], to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// ``relative(days:)`` written straight into `out`, with `blank` between its words.
  static func appendRelative(days: Int, blank: [UInt8], to out: inout [UInt8]) {
    switch days {
    case 0: out += today
    case 1: out += tomorrow
    case -1: out += yesterday
    default:
      if days > 0 {
        out += inWord
        out += blank
      }
      let size = abs(days)
      switch size {
      case ..<14:
        appendNumber(size, to: &out)
        out.append(UInt8(ascii: "d"))
      case ..<70:
        appendNumber(size / 7, to: &out)
        out.append(UInt8(ascii: "w"))
      case ..<730:
        appendNumber(size / 30, to: &out)
        out += monthUnit
      default:
        appendNumber(size / 365, to: &out)
        out.append(UInt8(ascii: "y"))
      }
      if days < 0 {
        out += blank
        out += agoWord
      }
    }
  }

  private func priorityColour(_ letter: UInt8) -> [UInt8] { palette.priorities[letter] ?? palette.otherPriority }

  /// Starts and ends a stretch in `colour` (nothing for no colour).
  private func begin(_ colour: [UInt8], _ out: inout [UInt8]) {
    if !colour.isEmpty { out += colour }
  }

  private func end(_ colour: [UInt8], _ out: inout [UInt8]) {
    if !colour.isEmpty { out += palette.reset }
  }

  // MARK: Wrapping

  /// A drawn line cut at blanks into lines of at most `width` columns, each after the first
  /// starting with `indent` blanks. A word longer than a line is left whole (the terminal
  /// folds it); colour sequences take no room, wide characters two columns.
  static func wrap(_ line: [UInt8], width: Int, indent: Int) -> [[UInt8]] {
    guard width > indent + 8, TerminalText.columns(line) > width else { return [unglued(line)] }
    var result: [[UInt8]] = []
    var current: [UInt8] = []
    var used = 0
    var index = 0
    var first = true
    while index < line.count {
      // A word with the blanks before it.
      var end = index
      while end < line.count, line[end] == 0x20 { end += 1 }
      let blanks = end - index
      while end < line.count, line[end] != 0x20 { end += 1 }
      let word = Array(line[(index + blanks)..<end])
      let size = TerminalText.columns(word)
      if used > indent || (first && used > 0), used + blanks + size > width, size > 0 {
        result.append(current)
        current = [UInt8](repeating: 0x20, count: indent)
        used = indent
        first = false
      } else {
        current += [UInt8](repeating: 0x20, count: blanks)
        used += blanks
      }
      current += word
      used += size
      index = end
    }
    result.append(current)
    return result.map(unglued)
  }
}

/// How much room text takes on a terminal.
package enum TerminalText {
  /// The columns `bytes` take: colour sequences (`ESC [ … m`) none, combining marks and
  /// zero-width characters none, East Asian wide and emoji characters two, every other
  /// character (and every byte that is not valid UTF-8) one.
  package static func columns(_ bytes: [UInt8]) -> Int {
    var total = 0
    var index = 0
    let count = bytes.count
    while index < count {
      let byte = bytes[index]
      if byte == 0x1B, index + 1 < count, bytes[index + 1] == UInt8(ascii: "[") {
        index += 2
        while index < count, !(0x40...0x7E).contains(bytes[index]) { index += 1 }
        index += 1
        continue
      }
      if byte < 0x80 {
        total += 1
        index += 1
        continue
      }
      let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
      guard length > 1, index + length <= count,
        let scalar = String(validating: bytes[index..<(index + length)], as: UTF8.self)?.unicodeScalars.first
      else {
        total += 1
        index += 1
        continue
      }
      total += width(of: scalar)
      index += length
    }
    return total
  }

  package static func width(of scalar: Unicode.Scalar) -> Int {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    switch scalar.value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
      0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
      0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
      return 2
    default:
      return 1
    }
  }
}
