import TodoTxt

/// `listcon` and `listproj`: the words carrying a sigil, as todo.sh extracts them.
///
/// The files are read into one buffer and their lines looked at where they lie: a word is
/// copied only when it is one to print (a list of a million tasks has a few hundred), so the
/// command holds little more than the files.
enum WordsWithSigil {
  static func list(_ sigil: UInt8, terms: [String], context: CommandContext) throws(TodoError) {
    let settings = context.settings
    var files = [settings.todoFile]
    let sourceVar = settings.value("TODOTXT_SOURCEVAR")
    if !sourceVar.isEmpty {
      let result = context.runner.run(
        ["bash", "-c", "eval \"FILE=$1\"; printf '%s\\0' \"${FILE[@]}\"", settings.programPath, sourceVar],
        environment: context.childEnvironment, captureOutput: true)
      files = result.output.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }
    // The files one after another, as `cat` joins them; one that cannot be read adds nothing.
    let bytes: [UInt8]
    if let joined = try? context.readBytes(joining: files) {
      bytes = joined.bytes
    } else {
      var gathered: [UInt8] = []
      for file in files { gathered += (try? context.readBytes(file)) ?? [] }
      bytes = gathered
    }
    var lines = Lines(bytes: bytes, raw: !settings.policy.readableListing)
    // Under the name todo a TERM is a word, as for ls; under todo.sh's name a grep pattern,
    // and grep, sed and sort run in the user's locale.
    let native = settings.policy.wordSearchTerms
    let locale = native ? nil : SystemLocale(settings)
    var notices: [SearchNotice] = []
    for (position, term) in terms.enumerated() {
      let exclude = term.hasPrefix("-")
      let pattern = exclude ? String(term.dropFirst()) : term
      if native {
        let word = WordMatcher(pattern)
        lines = lines.filter { word.matches($0) != exclude }
        continue
      }
      let matcher = TermMatcher(pattern, locale: locale)
      if let notice = matcher.notice {
        notices.append(notice)
        lines = Lines()
        continue
      }
      var heldBack = false
      lines = lines.filter { line in
        guard matcher.matches(line) != exclude else { return false }
        // The first grep holds back a line that is no text in a multibyte locale.
        if position == 0, let locale, locale.hasEncodingError(line) {
          heldBack = true
          return false
        }
        return true
      }
      if heldBack { notices.append(.binaryFileMatches) }
    }
    for notice in notices { context.console.errorLine(notice.message) }
    let words = Extraction(sigil: sigil, settings: settings, locale: locale).words(of: lines)
    // sort -u: in the locale's collation (bytes in the C locale), a word that collates
    // equal to the one before it left out.
    let sorted = words.sorted { left, right in
      let order = locale?.collate(left, right) ?? 0
      return order != 0 ? order < 0 : left.lexicographicallyPrecedes(right)
    }
    var previous: [UInt8]?
    for word in sorted {
      if let previous, let locale, locale.collate(previous, word) == 0 { continue }
      context.console.line(word)
      previous = word
    }
  }

  /// todo.sh's `grep -o '[^ ]*SIGIL[^ ]\+'` and its `sed` steps (the sigil patterns of the
  /// settings), over lines where they lie.
  struct Extraction {
    let sigil: UInt8
    let locale: SystemLocale?
    let stripBefore: BasicRegex?
    let stripAfter: BasicRegex?
    let valid: BasicRegex?

    init(sigil: UInt8, settings: Settings, locale: SystemLocale?) {
      self.sigil = sigil
      self.locale = locale
      let before = settings.value("TODOTXT_SIGIL_BEFORE_PATTERN")
      let after = settings.value("TODOTXT_SIGIL_AFTER_PATTERN")
      let valid = settings.variables["TODOTXT_SIGIL_VALID_PATTERN"] ?? ".*"
      stripBefore = before.isEmpty ? nil : BasicRegex("^" + before, locale: locale)
      stripAfter = after.isEmpty ? nil : BasicRegex(after + "$", locale: locale)
      self.valid =
        valid == ".*" ? nil : BasicRegex("^" + (sigil == UInt8(ascii: "+") ? "+" : "@") + valid + "$", locale: locale)
    }

    /// The distinct words of `lines`.
    func words(of lines: Lines) -> Set<[UInt8]> {
      var words = Set<[UInt8]>()
      lines.buffer.withUnsafeBufferPointer { buffer in
        for index in 0..<lines.count {
          let line = UnsafeBufferPointer(rebasing: buffer[lines.starts[index]..<lines.ends[index]])
          // The line's space-separated tokens (runs of spaces make none).
          var from = 0
          while from < line.count {
            var to = from
            while to < line.count, line[to] != 0x20 { to += 1 }
            if to > from { add(UnsafeBufferPointer(rebasing: line[from..<to]), to: &words) }
            from = to + 1
          }
        }
      }
      return words
    }

    /// The word a token gives, if any: a token holding the sigil with at least one more
    /// character after it; in a multibyte locale `[^ ]` matches no byte that is not a
    /// character, so such bytes split the token.
    private func add(_ token: UnsafeBufferPointer<UInt8>, to words: inout Set<[UInt8]>) {
      // Most tokens hold no sigil at all, and no part of them can.
      guard token.dropLast().contains(sigil) else { return }
      let runs = locale.map { $0.validRuns(token) } ?? [0..<token.count]
      for run in runs {
        var word = Array(token[run])
        guard WordsWithSigil.hasSigilFollowedByMore(word, sigil) else { continue }
        if let stripBefore { word = stripBefore.replacingAll(in: word, with: [], global: false) }
        if let stripAfter { word = stripAfter.replacingAll(in: word, with: [], global: false) }
        if let valid {
          guard valid.matches(word) else { continue }
        } else {
          guard word.first == sigil else { continue }
        }
        words.insert(word)
      }
    }
  }

  static func hasSigilFollowedByMore(_ word: [UInt8], _ sigil: UInt8) -> Bool {
    for index in word.indices.dropLast() where word[index] == sigil { return true }
    return false
  }
}
