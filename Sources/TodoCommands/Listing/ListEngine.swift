import TodoTxt

/// todo.sh's listing pipeline (`_format`), step for step: number the lines, filter them by the
/// search terms, zero-fill the numbers, sort, colour, hide words, run the final filter.
///
/// The default sort, filter and hiding settings are done here in the process; a user's own
/// sort or final-filter command is run by bash exactly as todo.sh would run it.
struct ListEngine {
  var context: CommandContext
  var settings: Settings { context.settings }

  /// What a listing produced.
  struct Output {
    /// The lines to print, in order, without line endings.
    var lines: [[UInt8]]
    /// How many numbered items there were before filtering (blank lines excluded).
    var total: Int
    /// The filter pipeline as todo.sh would report it at verbosity 2.
    var filterCommand: String
  }

  /// A step after the search terms (listpri's priority test, listall's renumbering).
  struct PostFilter {
    var command: String
    var apply: ([[UInt8]]) -> [[UInt8]]
  }

  /// The physical lines of a file as todo.sh's tools see them: in todo.sh mode a CR before the
  /// newline and a byte order mark stay part of the line; under the name `todo` they do not.
  func physicalLines(_ list: TodoList) -> [[UInt8]] {
    var lines: [[UInt8]] = []
    lines.reserveCapacity(list.count)
    let raw = settings.mode == .todoSh
    for (index, task) in list.enumerated() {
      var line = Array(task.bytes)
      if raw {
        if index == 0, list.hasByteOrderMark { line.insert(contentsOf: TodoList.byteOrderMark, at: 0) }
        if list.lineEnding(at: index) == .crlf { line.append(0x0D) }
      }
      lines.append(line)
    }
    return lines
  }

  /// Runs the pipeline over `lines` (the file's physical lines).
  ///
  /// - Parameters:
  ///   - padding: width of the line numbers.
  ///   - terms: todo.sh search terms (a leading `-` excludes).
  func format(_ lines: [[UInt8]], padding: Int, terms: [String], post: PostFilter? = nil) -> Output {
    // 1. Number every line, right-aligned; drop lines that are only digits and spaces.
    var items: [[UInt8]] = []
    items.reserveCapacity(lines.count)
    for (index, line) in lines.enumerated() {
      let number = Array(String(index + 1).utf8)
      let item = [UInt8](repeating: 0x20, count: max(0, padding - number.count)) + number + [0x20] + line
      if item.allSatisfy({ $0 == 0x20 || (48...57).contains($0) }) { continue }
      items.append(item)
    }
    let total = items.count

    // 2. Search terms, then the action's own filter.
    var commands: [String] = []
    var filtered = items
    for term in terms {
      let exclude = term.hasPrefix("-")
      let pattern = exclude ? String(term.dropFirst()) : term
      commands.append((exclude ? "grep -v -i " : "grep -i ") + ShellQuote.quote(pattern))
      let matcher = TermMatcher(pattern)
      filtered = filtered.filter { matcher.matches($0) != exclude }
    }
    if let post {
      commands.append(post.command)
      filtered = post.apply(filtered)
    }
    let filterCommand = commands.joined(separator: " | ")

    // 3. Zero-fill the numbers.
    for index in filtered.indices {
      var position = 0
      while position < filtered[index].count, position < 5, filtered[index][position] == 0x20 {
        filtered[index][position] = UInt8(ascii: "0")
        position += 1
      }
    }

    // 4. Sort.
    filtered = sort(filtered)

    // 5. Colour and the priority label, 6. hiding, 7. the final filter.
    let colours = Colours(settings)
    var shown = filtered.map { colours.apply(to: context.display($0)) }
    let hiding = [
      settings.value("HIDE_PROJECTS_SUBSTITUTION"), settings.value("HIDE_CONTEXTS_SUBSTITUTION"),
      settings.value("HIDE_CUSTOM_SUBSTITUTION"),
    ].filter { !$0.isEmpty }.compactMap { BasicRegex($0) }
    if !hiding.isEmpty {
      shown = shown.map { line in hiding.reduce(line) { $1.replacingAll(in: $0, with: []) } }
    }
    let finalFilter = settings.filterDisabled ? "cat" : settings.value("TODOTXT_FINAL_FILTER")
    if finalFilter != "cat", !finalFilter.isEmpty {
      shown = runShell(finalFilter, on: shown)
    }
    return Output(lines: shown, total: total, filterCommand: filterCommand)
  }

  /// Sorts numbered lines with the configured command: `sort -f -k2` in the C locale unless
  /// the user chose another.
  func sort(_ lines: [[UInt8]]) -> [[UInt8]] {
    let command = settings.value("TODOTXT_SORT_COMMAND")
    guard command == ConfigurationLoader.defaultSortCommand else { return runShell(command, on: lines) }
    // The key starts at the blank after the number; lower case folds to upper case. Equal
    // keys fall back to comparing whole lines, which orders them by number.
    func keyStart(_ line: [UInt8]) -> Int {
      var index = 0
      while index < line.count, line[index] == 0x20 || line[index] == 0x09 { index += 1 }
      while index < line.count, line[index] != 0x20, line[index] != 0x09 { index += 1 }
      return index
    }
    let keyed = lines.map { ($0, keyStart($0)) }
    return keyed.sorted { a, b in
      let (left, leftStart) = a
      let (right, rightStart) = b
      var i = leftStart
      var j = rightStart
      while i < left.count, j < right.count {
        var x = left[i]
        var y = right[j]
        if (97...122).contains(x) { x -= 32 }
        if (97...122).contains(y) { y -= 32 }
        if x != y { return x < y }
        i += 1
        j += 1
      }
      let leftRest = left.count - i
      let rightRest = right.count - j
      if leftRest != rightRest { return leftRest < rightRest }
      return left.lexicographicallyPrecedes(right)
    }.map(\.0)
  }

  /// Passes lines through a shell command, as todo.sh's `eval` does.
  func runShell(_ command: String, on lines: [[UInt8]]) -> [[UInt8]] {
    var input: [UInt8] = []
    for line in lines {
      input += line
      input.append(0x0A)
    }
    let result = context.runner.run(
      ["bash", "-c", command], environment: context.childEnvironment, input: input, captureOutput: true)
    var output = result.output
    while output.last == 0x0A { output.removeLast() }
    if output.isEmpty { return [] }
    return output.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
  }

  /// Prints a listing, with todo.sh's summary lines when verbose.
  func print(_ output: Output, prefixFile: String) {
    for line in output.lines { context.console.line(line) }
    if settings.verbosity > 1 {
      let command = output.filterCommand.isEmpty ? "cat" : output.filterCommand
      context.console.line("TODO DEBUG: Filter Command was: \(command)")
    }
    if settings.verbosity > 0 {
      context.console.line("--")
      context.console.line(
        "\(CommandContext.prefix(of: prefixFile)): \(output.lines.count) of \(output.total) tasks shown")
    }
  }
}

/// Matches one search term against a numbered line as `grep -i` would: a basic regular
/// expression, ignoring case; plain words take a fast path that gives the same answers.
struct TermMatcher {
  private let plain: [UInt8]?
  private let regex: BasicRegex?

  init(_ pattern: String) {
    let bytes = Array(pattern.utf8)
    let special: Set<UInt8> = Set("\\.[]*^$".utf8)
    if bytes.allSatisfy({ !special.contains($0) && $0 < 0x80 }) {
      plain = bytes.map { (65...90).contains($0) ? $0 + 32 : $0 }
      regex = nil
    } else {
      plain = nil
      regex = BasicRegex(pattern, ignoringCase: true)
    }
  }

  func matches(_ line: [UInt8]) -> Bool {
    if let plain {
      if plain.isEmpty { return true }
      let count = plain.count
      guard line.count >= count else { return false }
      var start = 0
      while start + count <= line.count {
        var index = 0
        while index < count {
          var byte = line[start + index]
          if (65...90).contains(byte) { byte += 32 }
          if byte != plain[index] { break }
          index += 1
        }
        if index == count { return true }
        start += 1
      }
      return false
    }
    // A term grep cannot compile matches nothing (grep reports an error and prints nothing).
    return regex?.matches(line) ?? false
  }
}

/// Quoting as bash's `printf %q` does, for the filter command todo.sh reports.
enum ShellQuote {
  static func quote(_ text: String) -> String {
    if text.isEmpty { return "''" }
    var result = ""
    for (offset, character) in text.enumerated() {
      let special = " \t!\"$&'()*;<>?[\\]^`{|}"
      if special.contains(character) || ((character == "~" || character == "#") && offset == 0) {
        result.append("\\")
      }
      result.append(character)
    }
    return result
  }
}
