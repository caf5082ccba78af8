import TodoTxt

#if canImport(Glibc)
  import Glibc
#endif

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
    var lines: Lines
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
  func physicalLines(_ list: TodoList) -> Lines {
    var lines = Lines()
    lines.reserve(lines: list.count, bytes: 0)
    let raw = settings.mode == .todoSh
    list.forEachLineBytes { index, bytes in
      if raw, index == 0, list.hasByteOrderMark {
        lines.append(TodoList.byteOrderMark + Array(bytes))
      } else {
        lines.append(bytes)
      }
      if raw, list.lineEnding(at: index) == .crlf {
        lines.buffer.append(0x0D)
        lines.ends[lines.ends.count - 1] += 1
      }
    }
    return lines
  }

  /// Runs the pipeline over `lines` (the file's physical lines).
  ///
  /// - Parameters:
  ///   - padding: width of the line numbers.
  ///   - terms: todo.sh search terms (a leading `-` excludes).
  ///   - native: the listing options of the name `todo` (hiding, Unicode search, `--sort`).
  func format(
    _ lines: Lines, padding: Int, terms: [String], post: PostFilter? = nil, native: NativeListing? = nil
  ) -> Output {
    // 2. (Run with step 1, so that lines a search term drops are never gathered.) Search
    // terms, then the action's own filter.
    var commands: [String] = []
    var matchers: [(UnsafeBufferPointer<UInt8>) -> Bool] = []
    var exclusions: [Bool] = []
    for term in terms {
      let exclude = term.hasPrefix("-")
      let pattern = exclude ? String(term.dropFirst()) : term
      commands.append((exclude ? "grep -v -i " : "grep -i ") + ShellQuote.quote(pattern))
      let matcher = TermMatcher(pattern)
      matchers.append(native?.matcher(for: pattern) ?? { matcher.matches($0) })
      exclusions.append(exclude)
    }

    // 1. Number every line, right-aligned; drop lines that are only digits and spaces.
    var items = Lines()
    if terms.isEmpty {
      items.reserve(lines: lines.count, bytes: lines.buffer.count + lines.count * (padding + 1))
    }
    var digits: [UInt8] = []
    var numbered = 0
    // Taken out of the optional once: unwrapping it per line copied the whole listing state.
    let isShown = native.map { native in { (index: Int, line: UnsafeBufferPointer<UInt8>) in native.isShown(index, line) } }
    lines.buffer.withUnsafeBufferPointer { b in
      for index in 0..<lines.count {
        let content = UnsafeBufferPointer(rebasing: b[lines.starts[index]..<lines.ends[index]])
        if content.allSatisfy({ $0 == 0x20 || (48...57).contains($0) }) { continue }
        digits.removeAll(keepingCapacity: true)
        var number = index + 1
        while number > 0 {
          digits.append(UInt8(48 + number % 10))
          number /= 10
        }
        items.starts.append(items.buffer.count)
        for _ in digits.count..<max(padding, digits.count) { items.buffer.append(0x20) }
        items.buffer.append(contentsOf: digits.reversed())
        items.buffer.append(0x20)
        items.buffer.append(contentsOf: content)
        numbered += 1
        if !matchers.isEmpty {
          let start = items.starts[items.starts.count - 1]
          let kept = items.buffer.withUnsafeBufferPointer { numberedLine in
            let line = UnsafeBufferPointer(rebasing: numberedLine[start...])
            for (matches, exclude) in zip(matchers, exclusions) where matches(line) == exclude { return false }
            return true
          }
          if !kept {
            items.buffer.removeLast(items.buffer.count - start)
            items.starts.removeLast()
            continue
          }
        }
        // Hiding is tested after the search terms, which reject most lines more cheaply.
        if let isShown, !isShown(index, content) {
          items.buffer.removeLast(items.buffer.count - items.starts[items.starts.count - 1])
          items.starts.removeLast()
          continue
        }
        items.ends.append(items.buffer.count)
      }
    }
    let total = numbered
    var filtered = items
    if let post {
      commands.append(post.command)
      filtered = Lines(post.apply(filtered.all))
    }
    let filterCommand = commands.joined(separator: " | ")

    // 3. Zero-fill the numbers.
    for index in 0..<filtered.count {
      var position = filtered.starts[index]
      let limit = min(filtered.ends[index], position + 5)
      while position < limit, filtered.buffer[position] == 0x20 {
        filtered.buffer[position] = UInt8(ascii: "0")
        position += 1
      }
    }

    // 4. Sort.
    filtered = native?.sorted(filtered) ?? sort(filtered)

    // 5. Colour and the priority label, 6. hiding, 7. the final filter.
    let colours = Colours(settings)
    let hiding = [
      settings.value("HIDE_PROJECTS_SUBSTITUTION"), settings.value("HIDE_CONTEXTS_SUBSTITUTION"),
      settings.value("HIDE_CUSTOM_SUBSTITUTION"),
    ].filter { !$0.isEmpty }.compactMap { BasicRegex($0) }
    let finalFilter = settings.filterDisabled ? "cat" : settings.value("TODOTXT_FINAL_FILTER")
    let customFilter = finalFilter != "cat" && !finalFilter.isEmpty
    let escaping = settings.mode == .native && context.console.isTerminal
    guard !colours.isPlain || !hiding.isEmpty || customFilter || escaping else {
      return Output(lines: filtered, total: total, filterCommand: filterCommand)
    }
    var shown = filtered.all.map { colours.apply(to: context.display($0), due: native?.dueColour(numberedLine: $0) ?? []) }
    if !hiding.isEmpty {
      shown = shown.map { line in hiding.reduce(line) { $1.replacingAll(in: $0, with: []) } }
    }
    if customFilter { shown = runShell(finalFilter, on: shown) }
    return Output(lines: Lines(shown), total: total, filterCommand: filterCommand)
  }

  /// Sorts numbered lines with the configured command: `sort -f -k2` in the C locale unless
  /// the user chose another.
  func sort(_ lines: Lines) -> Lines {
    let command = settings.value("TODOTXT_SORT_COMMAND")
    guard command == ConfigurationLoader.defaultSortCommand else { return Lines(runShell(command, on: lines.all)) }
    // The key starts at the blank after the number; lower case folds to upper case. Equal
    // keys fall back to comparing whole lines, which orders them by number.
    let count = lines.count
    var keyStarts = [Int](repeating: 0, count: count)
    var prefixes = [UInt64](repeating: 0, count: count)
    var seconds = [UInt64](repeating: 0, count: count)
    var thirds = [UInt64](repeating: 0, count: count)
    lines.buffer.withUnsafeBufferPointer { b in
      for index in 0..<count {
        var position = lines.starts[index]
        let end = lines.ends[index]
        while position < end, b[position] == 0x20 || b[position] == 0x09 { position += 1 }
        while position < end, b[position] != 0x20, b[position] != 0x09 { position += 1 }
        keyStarts[index] = position
        // The first sixteen folded key bytes, most significant first, decide most comparisons.
        func word(at start: Int) -> UInt64 {
          var value: UInt64 = 0
          for offset in 0..<8 {
            var byte: UInt8 = 0
            if start + offset < end {
              byte = b[start + offset]
              if byte >= 97, byte <= 122 { byte -= 32 }
            }
            value = value << 8 | UInt64(byte)
          }
          return value
        }
        prefixes[index] = word(at: position)
        seconds[index] = word(at: position + 8)
        thirds[index] = word(at: position + 16)
      }
    }
    // Radix sort on the sixteen-byte prefixes (stable, so equal prefixes stay in line order),
    // then a full comparison inside each run of equal prefixes.
    var order = RadixSort.sort(count: count, first: prefixes, second: seconds)
    lines.buffer.withUnsafeBufferPointer { b in
      keyStarts.withUnsafeBufferPointer { keyStarts in
        lines.starts.withUnsafeBufferPointer { starts in
          lines.ends.withUnsafeBufferPointer { ends in
            var runStart = 0
            while runStart < count {
              var runEnd = runStart + 1
              let head = order[runStart]
              while runEnd < count, prefixes[order[runEnd]] == prefixes[head], seconds[order[runEnd]] == seconds[head] {
                runEnd += 1
              }
              if runEnd - runStart > 1 {
                // Lines with the same priority and date share sixteen bytes; the next eight
                // (kept beside the first sixteen) decide most of the rest.
                order[runStart..<runEnd].sort { x, y in
                  if thirds[x] != thirds[y] { return thirds[x] < thirds[y] }
                  var i = keyStarts[x] + 24
                  var j = keyStarts[y] + 24
                  let leftEnd = ends[x]
                  let rightEnd = ends[y]
                  while i < leftEnd, j < rightEnd {
                    var left = b[i]
                    var right = b[j]
                    if left >= 97, left <= 122 { left -= 32 }
                    if right >= 97, right <= 122 { right -= 32 }
                    if left != right { return left < right }
                    i += 1
                    j += 1
                  }
                  let leftRest = max(0, leftEnd - i)
                  let rightRest = max(0, rightEnd - j)
                  if leftRest != rightRest { return leftRest < rightRest }
                  // Last resort: the whole lines, byte for byte.
                  return UnsafeBufferPointer(rebasing: b[starts[x]..<leftEnd]).lexicographicallyPrecedes(
                    UnsafeBufferPointer(rebasing: b[starts[y]..<rightEnd]))
                }
              }
              runStart = runEnd
            }
          }
        }
      }
    }
    return lines.reordered(order)
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
    let lines = output.lines
    // Written a megabyte at a time, so a long listing is not held twice.
    var text: [UInt8] = []
    text.reserveCapacity(min(lines.buffer.count + lines.count, 1 << 20) + 4096)
    lines.buffer.withUnsafeBufferPointer { b in
      for index in 0..<lines.count {
        text.append(contentsOf: UnsafeBufferPointer(rebasing: b[lines.starts[index]..<lines.ends[index]]))
        text.append(0x0A)
        if text.count >= 1 << 20 {
          context.console.write(text)
          text.removeAll(keepingCapacity: true)
        }
      }
    }
    context.console.write(text)
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

  /// Whether grep would accept the term.
  static func isValid(_ pattern: String) -> Bool {
    let matcher = TermMatcher(pattern)
    return matcher.plain != nil || matcher.regex != nil
  }

  func matches(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    if let plain {
      let count = plain.count
      if count == 0 { return true }
      guard line.count >= count else { return false }
      return plain.withUnsafeBufferPointer { needle in
        let first = needle[0]
        let firstUpper = (97...122).contains(first) ? first - 32 : first
        var start = 0
        let last = line.count - count
        while start <= last {
          // A first byte without case (`+`, `@`, a digit) is looked for with memchr.
          if first == firstUpper, let base = line.baseAddress {
            guard let hit = memchr(base + start, Int32(first), last - start + 1) else { return false }
            start = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
          }
          let byte = line[start]
          if byte == first || byte == firstUpper {
            var index = 1
            while index < count {
              var candidate = line[start + index]
              if candidate >= 65, candidate <= 90 { candidate += 32 }
              if candidate != needle[index] { break }
              index += 1
            }
            if index == count { return true }
          }
          start += 1
        }
        return false
      }
    }
    // A term grep cannot compile matches nothing (grep reports an error and prints nothing).
    return regex?.matches(Array(line)) ?? false
  }

  func matches(_ line: [UInt8]) -> Bool { line.withUnsafeBufferPointer { matches($0) } }
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

/// A stable least-significant-digit radix sort of indices by two 64-bit keys.
enum RadixSort {
  static func sort(count: Int, first: [UInt64], second: [UInt64]) -> [Int] {
    var order = Array(0..<count)
    var scratch = [Int](repeating: 0, count: count)
    var counts = [Int](repeating: 0, count: 256)
    for (keys, shiftRange) in [(second, 0..<8), (first, 0..<8)] {
      keys.withUnsafeBufferPointer { keys in
        for byteIndex in shiftRange {
          let shift = UInt64(byteIndex * 8)
          for bucket in 0..<256 { counts[bucket] = 0 }
          for item in order { counts[Int((keys[item] >> shift) & 0xFF)] += 1 }
          // A pass where every item has the same byte changes nothing.
          if counts.contains(count) { continue }
          var total = 0
          for bucket in 0..<256 {
            let size = counts[bucket]
            counts[bucket] = total
            total += size
          }
          for item in order {
            let bucket = Int((keys[item] >> shift) & 0xFF)
            scratch[counts[bucket]] = item
            counts[bucket] += 1
          }
          swap(&order, &scratch)
        }
      }
    }
    return order
  }
}
