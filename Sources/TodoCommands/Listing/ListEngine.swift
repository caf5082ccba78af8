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

  /// What a listing produced: its rows in order, as data until they are rendered.
  struct Output {
    /// The listing's rows, from selected to rendered.
    enum Listing {
      /// Lines of the file still to be numbered and written (the common case).
      case numbered(NumberedLines)
      /// Rows whose lines are made: numbered, perhaps drawn by the layout.
      case made(ListingRows)
      /// Rows whose lines are coloured (and words hidden) as each is written, by the rows'
      /// ``ListedRows/style``: a coloured listing of a million rows holds none of its lines.
      case styled(ListedRows)
      /// What a user's final filter wrote: text, no longer rows (see ``ListEngine/adapt(_:)``).
      case text(Lines)
    }

    /// The rows as ordered (step 4), before they are rendered: the file's numbered lines or
    /// made rows, never styled rows or a final filter's text, which only rendering makes.
    enum Ordered {
      case numbered(NumberedLines)
      case made(ListingRows)

      var listing: Listing {
        switch self {
        case .numbered(let lines): .numbered(lines)
        case .made(let rows): .made(rows)
        }
      }
    }

    var listing: Listing
    /// How many numbered items there were before filtering (blank lines excluded).
    var total: Int
    /// The filter pipeline as todo.sh would report it at verbosity 2.
    var filterCommand: String
    /// Where the task text starts, when the lines were drawn by the ``TerminalLayout``: the
    /// indent of a long line's continuation when it is wrapped to the terminal.
    var indent: Int? = nil

    /// How many lines are listed.
    var count: Int {
      switch listing {
      case .numbered(let lines): lines.count
      case .made(let rows): rows.count
      case .styled(let rows): rows.count
      case .text(let lines): lines.count
      }
    }

    /// The 0-based line indices of the listed rows, in order (rows a user's sort command made
    /// up are left out); `nil` once a user's final filter made the listing text.
    var indices: [Int]? {
      switch listing {
      case .numbered(let lines): lines.indices.map { Int($0) }
      case .made(let rows): rows.indices.compactMap { $0 == ListingRows.foreign ? nil : Int($0) }
      case .styled(let rows): (0..<rows.count).compactMap(rows.index)
      case .text: nil
      }
    }

    /// How many rows show a line before index `bound` and how many one from it on (rows a
    /// user's sort command made up are neither), counted without a copy of the indices;
    /// `nil` once a user's final filter made the listing text.
    func rowCounts(splitAt bound: Int) -> (before: Int, from: Int)? {
      func counted(_ indices: [Int32]) -> (before: Int, from: Int) {
        var before = 0
        var from = 0
        for index in indices where index != ListingRows.foreign {
          if Int(index) < bound { before += 1 } else { from += 1 }
        }
        return (before, from)
      }
      switch listing {
      case .numbered(let lines): return counted(lines.indices)
      case .made(let rows): return counted(rows.indices)
      case .styled(let rows):
        switch rows.storage {
        case .numbered(let lines): return counted(lines.indices)
        case .made(let made): return counted(made.indices)
        }
      case .text: return nil
      }
    }

    /// The listed rows, each with its line index and its line as rendered; `nil` once a
    /// user's final filter made the listing text.
    var listedRows: ListedRows? {
      switch listing {
      case .numbered(let lines): ListedRows(storage: .numbered(lines))
      case .made(let rows): ListedRows(storage: .made(rows))
      case .styled(let rows): rows
      case .text: nil
      }
    }

    /// The lines to print, without line endings.
    var lines: Lines {
      switch listing {
      case .numbered(let lines): lines.lines
      case .made(let rows): rows.lines
      case .styled(let rows): Lines((0..<rows.count).map(rows.line))
      case .text(let lines): lines
      }
    }
  }

  /// The rows of a listing as the writers after it read them (`--group`, `--notes`, `next
  /// --explain`): a row's line is made when it is asked for, so a listing still in its file's
  /// lines is never copied whole into numbered lines first.
  struct ListedRows {
    enum Storage {
      case numbered(NumberedLines)
      case made(ListingRows)
    }
    let storage: Storage
    /// What makes a row's line as it is shown from the line as listed, given the row's line
    /// index (``ListingRows/foreign`` for none) and where its number ends (``numberEnd(_:)``):
    /// colours and hidden words.
    var style: ((_ index: Int32, _ line: [UInt8], _ numberEnd: Int?) -> [UInt8])? = nil

    var count: Int {
      switch storage {
      case .numbered(let lines): lines.count
      case .made(let rows): rows.count
      }
    }

    /// The row's line index, or `nil` for a line a user's sort command made up.
    func index(_ row: Int) -> Int? {
      let index = switch storage {
      case .numbered(let lines): lines.indices[row]
      case .made(let rows): rows.indices[row]
      }
      return index == ListingRows.foreign ? nil : Int(index)
    }

    /// The row's line as rendered, without a line ending.
    func line(_ row: Int) -> [UInt8] {
      let listed: [UInt8]
      let index: Int32
      switch storage {
      case .numbered(let lines):
        var text: [UInt8] = []
        lines.appendLine(at: row, to: &text)
        (listed, index) = (text, lines.indices[row])
      case .made(let rows): (listed, index) = (rows.line(row), rows.indices[row])
      }
      return style.map { $0(index, listed, numberEnd(row)) } ?? listed
    }

    /// Where the row's number ends as todo.sh's colouring sees it, from how the numbers were
    /// written (``ListingRows/NumberLayout``); `nil` for a line a user's sort command made up.
    func numberEnd(_ row: Int) -> Int? {
      switch storage {
      case .numbered(let lines): lines.numberLayout.digitRun(Int(lines.indices[row]))
      case .made(let rows): rows.numberEnd(row)
      }
    }
  }

  /// A native test of each line by its index (the query of `ls -q`), applied with the terms:
  /// unlike a ``PostFilter`` it needs no numbered lines, so the listing keeps its fast path.
  struct LineTest {
    var command: String
    /// For each line, whether it can pass at all (see ``Lines/holding(_:)``); `nil` when any
    /// line can. Lines that cannot are passed over before hiding is worked out or a task made.
    var candidates: [Bool]? = nil
    var keeps: (Int) -> Bool
  }

  /// A step after the search terms (listpri's priority test, `next --limit`, listall's
  /// fields): it keeps or rewrites lines, each still knowing its index in the file.
  ///
  /// Each kind is run where it costs least, never on a copy of every listed line: a made row
  /// holds a copy of its line, and the steps were once functions of made rows.
  struct PostFilter {
    var command: String
    var step: Step

    enum Step {
      /// Keeps a line by its task text alone (listpri's priorities): run with the search
      /// terms, so no line it drops goes further (listpri of a million tasks keeps a tenth).
      case keepsText((UnsafeBufferPointer<UInt8>) -> Bool)
      /// Keeps the first rows of the listing's own order (`next --limit`: its order is the
      /// tasks' urgency, so its first rows are the most urgent): applied after sorting, to the
      /// rows' indices, so no score is worked out twice.
      case keepsFirst(Int)
      /// todo.sh's awk step in `listall` (`$1 = …; print`): each line is its number, then each
      /// word of its text after one blank, so runs of blanks and tabs become one space and
      /// blanks at its ends go. Done to the listed lines' own bytes, which the listing owns
      /// (see ``ListEngine/joinFields(of:)``).
      case joinsFields
    }

    init(command: String, keepingFirst count: Int) {
      self.command = command
      step = .keepsFirst(max(count, 0))
    }

    init(command: String, keepingText keepsText: @escaping (UnsafeBufferPointer<UInt8>) -> Bool) {
      self.command = command
      step = .keepsText(keepsText)
    }

    /// listall's awk step (``Step/joinsFields``).
    static func joiningFields(command: String) -> PostFilter { PostFilter(command: command, step: .joinsFields) }

    private init(command: String, step: Step) {
      self.command = command
      self.step = step
    }

    var keepsText: ((UnsafeBufferPointer<UInt8>) -> Bool)? { if case .keepsText(let keeps) = step { keeps } else { nil } }
    var keepsFirst: Int? { if case .keepsFirst(let count) = step { count } else { nil } }
    var joinsFields: Bool { if case .joinsFields = step { true } else { false } }

    /// Whether the step keeps a line of this task text (only a test of the text drops one
    /// by itself: the first rows of an order depend on the others).
    func keeps(text: some Collection<UInt8>) -> Bool {
      guard let keepsText else { return true }
      return Array(text).withUnsafeBufferPointer { keepsText($0) }
    }
  }

  /// The physical lines of a file as todo.sh's tools see them: in todo.sh mode a CR before the
  /// newline and a byte order mark stay part of the line; under the name `todo` they do not.
  /// The lines share the list's bytes.
  func physicalLines(_ list: TodoList) -> Lines {
    Lines(list: list, raw: !settings.policy.readableListing)
  }

  /// Runs the pipeline over `lines` (the file's physical lines).
  ///
  /// - Parameters:
  ///   - padding: width of the line numbers.
  ///   - terms: search terms (a leading `-` excludes): grep patterns under the name
  ///     `todo.sh`, words under the name `todo`.
  ///   - native: the listing options of the name `todo` (hiding, Unicode search, `--sort`).
  ///   - numbering: the number each row shows (`listall` numbers done.txt's lines 0).
  ///   - adaptsText: whether a user's final filter runs here; a caller that writes more than
  ///     the rows (`--group`, `next --explain`) passes `false` and runs it on all it writes.
  func format(
    _ lines: consuming Lines, padding: Int, terms: [String], post: PostFilter? = nil, native: NativeListing? = nil,
    test: LineTest? = nil, numbering: ListingRows.Numbering = .byLine, adaptsText: Bool = true
  ) -> Output {
    // Handed on, not kept: a step that rewrites the listing's lines (listall's awk step) does
    // so in place when nothing else holds them.
    var (selection, commands) = selected(
      consume lines, padding: padding, terms: terms, native: native, test: test, keepsText: post?.keepsText)
    let ordered = order(&selection, post: post, native: native, numbering: numbering, commands: &commands)
    // The test ran with the terms, but it is reported where it stood as a post filter.
    if let test { commands.append(test.command) }
    return render(
      ordered, total: selection.total, filterCommand: commands.joined(separator: " | "), native: native,
      numbering: numbering, adaptsText: adaptsText)
  }

  /// How many lines a listing of `lines` without a user's sort command or final filter shows
  /// (``format(_:padding:terms:post:native:test:numbering:adaptsText:)`` of them, counted):
  /// the lines the terms select, which need no order or text. grep's complaints are written
  /// as the listing writes them.
  func count(_ lines: Lines, padding: Int, terms: [String], test: LineTest? = nil) -> Int {
    selected(lines, padding: padding, terms: terms, native: nil, test: test).selection.numbered.count
  }

  /// Steps 1 and 2 with the terms compiled, grep's complaints written as its stage of the
  /// pipeline runs (before the listing), and each stage's name for the verbose report.
  private func selected(
    _ lines: consuming Lines, padding: Int, terms: [String], native: NativeListing?, test: LineTest?,
    keepsText: ((UnsafeBufferPointer<UInt8>) -> Bool)? = nil
  ) -> (selection: Selection, commands: [String]) {
    var compiled = compile(terms, native: native)
    let selection = select(consume lines, padding: padding, terms: compiled, native: native, test: test, keepsText: keepsText)
    if selection.heldBack { compiled.notices.append(.binaryFileMatches) }
    for notice in compiled.notices { context.console.errorLine(notice.message) }
    return (selection, compiled.commands)
  }

  /// The search terms, compiled once for every line of the file.
  struct CompiledTerms {
    var terms: [String]
    /// Each stage as todo.sh's verbose output names it (`grep -i call`, `word +work`).
    var commands: [String] = []
    var matchers: [TermTest] = []
    var exclusions: [Bool] = []
    /// Whether a term can match inside the number todo.sh puts before the text.
    var needsNumber = false
    /// grep's complaints about a pattern.
    var notices: [SearchNotice] = []
    /// todo.sh's locale, for its grep (`nil` for words).
    var locale: SystemLocale?
    /// In a multibyte locale the first grep holds back every line it would pass on that has
    /// a byte sequence that is no character: such lines never reach the listing.
    var screensEncoding = false
  }

  /// Step 2 of todo.sh's pipeline, made ready: the search terms as tests of a line.
  func compile(_ terms: [String], native: NativeListing?) -> CompiledTerms {
    // 2. (Run with step 1, so that lines a search term drops are never gathered.) Search
    // terms, then the action's own filter.
    var compiled = CompiledTerms(terms: terms)
    // todo.sh's terms see the numbered line (`  12 text`), but a word without digits or
    // blanks cannot match inside the number: those are matched against the text alone,
    // without making it. Under the name `todo` a term is a word of the text (``WordMatcher``)
    // and never sees the number.
    let wordTerms = settings.policy.wordSearchTerms
    // todo.sh's grep runs in the user's locale.
    let locale = wordTerms || terms.isEmpty ? nil : SystemLocale(settings)
    compiled.locale = locale
    for term in terms {
      let exclude = term.hasPrefix("-")
      let pattern = exclude ? String(term.dropFirst()) : term
      compiled.exclusions.append(exclude)
      if wordTerms {
        compiled.commands.append((exclude ? "without " : "word ") + ShellQuote.quote(pattern))
        let word = WordMatcher(pattern)
        compiled.matchers.append(native?.matcher(for: pattern) ?? .word(word))
        continue
      }
      compiled.commands.append((exclude ? "grep -v -i " : "grep -i ") + ShellQuote.quote(pattern))
      let matcher = TermMatcher(pattern, locale: locale)
      if let notice = matcher.notice {
        // grep stops at a pattern it cannot compile: its stage of the pipeline, with or
        // without -v, passes no line on.
        compiled.notices.append(notice)
        compiled.exclusions[compiled.exclusions.count - 1] = false
        compiled.matchers.append(.closure { _, _ in false })
        continue
      }
      compiled.matchers.append(.closure { matcher.matches($1) })
      if !TermMatcher.ignoresNumber(pattern) { compiled.needsNumber = true }
    }
    compiled.screensEncoding = locale?.isMultibyte == true && !compiled.matchers.isEmpty
    return compiled
  }

  /// What step 1 and 2 kept.
  struct Selection {
    /// The kept lines, in file order.
    var numbered: NumberedLines
    /// How many numbered items there were before filtering (blank lines excluded).
    var total: Int
    /// Whether grep held back a line that is no text in the locale.
    var heldBack: Bool
    /// The key under which the shell keeps which lines pass these terms.
    var passKey: ListingFact.Passing?
  }

  /// Steps 1 and 2: numbers every line (in place: a line is kept as its index), drops lines
  /// that are only digits and spaces, and keeps those the terms, the hiding rules, `test` and
  /// `keepsText` (an action's test of the text, step 3 run early) pass.
  func select(
    _ lines: Lines, padding: Int, terms compiled: CompiledTerms, native: NativeListing?, test: LineTest?,
    keepsText: ((UnsafeBufferPointer<UInt8>) -> Bool)? = nil
  ) -> Selection {
    let terms = compiled.terms
    let matchers = compiled.matchers
    let exclusions = compiled.exclusions
    let needsNumber = compiled.needsNumber
    let locale = compiled.locale
    let screensEncoding = compiled.screensEncoding
    let wordTerms = settings.policy.wordSearchTerms
    var heldBack = false

    var kept: [Int32] = []
    if terms.isEmpty && native == nil { kept.reserveCapacity(lines.count) }
    var numbered = NumberedLines(source: lines, indices: [], padding: padding, zeroFilled: false)
    var scratch: [UInt8] = []
    var total = 0
    let passes = ListEngine.every(matchers, exclusions)
    // One word (the everyday `ls +project`): tested in the loop itself, not through a closure
    // for every line of the file.
    let (word, excluded): (WordMatcher?, Bool) =
      if matchers.count == 1, !needsNumber, case .word(let word) = matchers[0] { (word, exclusions[0]) } else { (nil, false) }
    // Taken out of the optional once: unwrapping it per line copied the whole listing state.
    let hidingRules = native?.hiding ?? .none
    // todo.txt(5): a line of only spaces and tabs is blank, not a task; todo.sh lists it.
    let skipsBlank = settings.policy.readsTasksByGrammar
    // In the shell, an earlier line may have found which lines of this version of the file
    // pass these terms (see ``NativeListing/termPassKey(_:skipsBlank:)``): only those are
    // visited; else they are noted as they are found, for the next line.
    let passKey = native?.termPassKey(terms, skipsBlank: skipsBlank)
    let candidates = test?.candidates
    let known: TermPass? = passKey.flatMap { native?.facts?.value($0) }
    // The lines that can pass the words at all, found in the whole file at once: the others
    // are only counted (a plain `ls +project` tests a few thousand lines of a million).
    let wordCandidates = known == nil && wordTerms ? native?.candidates(forWords: terms) : nil
    if let known {
      total = known.total
      // Which of those lines the hiding rules show was found by an earlier line too, for the
      // same date and rules: the lines' bytes, all over the file, are not read again.
      let shownKey = passKey.flatMap { native?.shownKey(forPass: $0) }
      let shown: [Int32]
      if let shownKey, let found: TermPass = native?.facts?.value(shownKey) {
        shown = found.indices
      } else {
        var showing: [Int32] = []
        lines.buffer.withUnsafeBufferPointer { b in
          for index32 in known.indices {
            let index = Int(index32)
            let content = UnsafeBufferPointer(rebasing: b[lines.starts[index]..<lines.ends[index]])
            if hidingRules.isShown(index, content) { showing.append(index32) }
          }
        }
        shown = showing
        if let shownKey { native?.facts?.set(shownKey, TermPass(indices: shown, total: known.total)) }
      }
      lines.buffer.withUnsafeBufferPointer { b in
        for index32 in shown {
          let index = Int(index32)
          if let candidates, index >= candidates.count || !candidates[index] { continue }
          if let test, !test.keeps(index) { continue }
          if let keepsText, !keepsText(UnsafeBufferPointer(rebasing: b[lines.starts[index]..<lines.ends[index]])) { continue }
          kept.append(index32)
        }
      }
    } else {
      var passing: [Int32]? = passKey == nil ? nil : []
      // The line bounds are read through pointers: this loop visits every line of the file.
      lines.buffer.withUnsafeBufferPointer { b in
        lines.starts.withUnsafeBufferPointer { starts in
          lines.ends.withUnsafeBufferPointer { ends in
            for index in 0..<starts.count {
              let content = UnsafeBufferPointer(rebasing: b[starts[index]..<ends[index]])
              if ListEngine.isNumberLike(content) { continue }
              if skipsBlank, ListEngine.isBlank(content) { continue }
              total += 1
              if let wordCandidates, !wordCandidates[index] { continue }
              if screensEncoding, NativeListing.hasNonASCII(content), let locale, locale.hasEncodingError(content) {
                if !heldBack {
                  scratch.removeAll(keepingCapacity: true)
                  numbered.appendPrefix(index, to: &scratch)
                  scratch.append(contentsOf: content)
                  heldBack = scratch.withUnsafeBufferPointer { matchers[0].matches(index, $0) } != exclusions[0]
                }
                continue
              }
              if let word {
                if word.matches(content) == excluded { continue }
              } else if let passes {
                if needsNumber {
                  scratch.removeAll(keepingCapacity: true)
                  numbered.appendPrefix(index, to: &scratch)
                  scratch.append(contentsOf: content)
                  if !scratch.withUnsafeBufferPointer({ passes(index, $0) }) { continue }
                } else if !passes(index, content) {
                  continue
                }
              }
              passing?.append(Int32(index))
              if let candidates, index >= candidates.count || !candidates[index] { continue }
              // Hiding is tested after the search terms, which reject most lines more cheaply.
              if !hidingRules.isShown(index, content) { continue }
              if let test, !test.keeps(index) { continue }
              if let keepsText, !keepsText(content) { continue }
              kept.append(Int32(index))
            }
          }
        }
      }
      if let passKey, let passing { native?.facts?.set(passKey, TermPass(indices: passing, total: total)) }
    }
    numbered.indices = kept
    return Selection(numbered: numbered, total: total, heldBack: heldBack, passKey: passKey)
  }

  /// Steps 3 and 4: the action's own filter, zero-filled numbers and the order, over rows.
  func order(
    _ selection: inout Selection, post: PostFilter?, native: NativeListing?, numbering: ListingRows.Numbering,
    commands: inout [String]
  ) -> Output.Ordered {
    var numbered = selection.numbered
    // The listing's lines held once: a step that rewrites them does so in place.
    selection.numbered = NumberedLines(source: Lines(), indices: [], padding: 0, zeroFilled: false)
    numbered.numbering = numbering
    let passKey = selection.passKey

    var listing: Output.Ordered
    let rowOrder = native?.order ?? RowOrder(settings)
    // 3. The action's own filter: a test of the text ran with the terms (``select``); the
    // first rows of the order are kept below.
    if let post { commands.append(post.command) }
    // listall's awk step rewrites the kept lines' text; a line left with no word is its
    // number alone, which only a made row can show.
    let needsRows = post?.joinsFields == true && !numbered.source.joinFields(of: numbered.indices)
    if !needsRows, let native, let order = native.sorted(indices: numbered.indices) {
      // 3. and 4. for `--sort` (and `next`): the indices are put in order by their tasks, and
      // the numbers are zero-filled as the lines are written; no line is made to be read back.
      numbered.zeroFilled = true
      numbered.indices = order
      listing = .numbered(numbered)
    } else if !needsRows, rowOrder == .lineIgnoringCase {
      // 3. and 4. without making the lines: zero-filled numbers, sorted by the text after them.
      numbered.zeroFilled = true
      if let passKey, let facts = native?.facts, case .byLine = numbering, post?.joinsFields != true {
        // The order of the same lines of the same version of the file, as an earlier line of
        // the shell sorted them.
        let key = ListingFact.Sorted(pass: passKey)
        if let known = facts.value(key), known.lines == numbered.indices {
          numbered.indices = known.order
        } else {
          let unsorted = numbered.indices
          numbered = numbered.sorted()
          facts.set(key, SortedLines(lines: unsorted, order: numbered.indices))
        }
        listing = .numbered(numbered)
      } else {
        listing = .numbered(numbered.sorted())
      }
    } else {
      var rows = ListingRows(numbered)
      if needsRows { rows.joinFields() }
      // 3. Zero-fill the numbers.
      rows.zeroFill()
      // 4. Sort.
      sort(&rows, by: rowOrder, native: native)
      listing = .made(rows)
    }
    if let first = post?.keepsFirst {
      switch listing {
      case .numbered(var kept):
        if kept.indices.count > first { kept.indices.removeLast(kept.indices.count - first) }
        listing = .numbered(kept)
      case .made(let rows): listing = .made(rows.reordered(Array(0..<min(first, rows.count))))
      }
    }
    return listing
  }

  /// Steps 5 to 7: colour and the priority label, hiding of words, the final filter; on a
  /// terminal under the name todo the readable layout draws the rows instead.
  func render(
    _ ordered: Output.Ordered, total: Int, filterCommand: String, native: NativeListing?, numbering: ListingRows.Numbering,
    adaptsText: Bool
  ) -> Output {
    let colours = Colours(settings)
    let hiding = [
      settings.value("HIDE_PROJECTS_SUBSTITUTION"), settings.value("HIDE_CONTEXTS_SUBSTITUTION"),
      settings.value("HIDE_CUSTOM_SUBSTITUTION"),
    ].filter { !$0.isEmpty }.compactMap { BasicRegex(ListEngine.wordPattern($0)) }
    let escaping = settings.policy.escapesControlsOnTerminal && context.console.isTerminal
    let layout = TerminalLayout.active(in: context)
    guard !colours.isPlain || !hiding.isEmpty || adaptsText && hasFinalFilter || escaping || layout != nil else {
      return Output(listing: ordered.listing, total: total, filterCommand: filterCommand)
    }
    let rendered: Output
    if let layout {
      // The layout draws the hiding of words itself, before it colours them.
      let drawn: (lines: Lines, indent: Int)
      let rows: ListingRows
      switch ordered {
      case .numbered(let numbered):
        drawn = layout.draw(numbered, display: context.display)
        rows = ListingRows(indices: numbered.indices, rendered: drawn.lines)
      case .made(let made):
        drawn = layout.draw(made, numbering: numbering, display: context.display)
        rows = ListingRows(indices: made.indices, rendered: drawn.lines)
      }
      rendered = Output(listing: .made(rows), total: total, filterCommand: filterCommand, indent: drawn.indent)
    } else {
      var rows: ListedRows
      switch ordered {
      case .numbered(let numbered): rows = ListedRows(storage: .numbered(numbered))
      case .made(let made): rows = ListedRows(storage: .made(made))
      }
      let display = context.display
      rows.style = { index, line, numberEnd in
        let due = index == ListingRows.foreign ? [] : native?.dueColour(index: Int(index)) ?? []
        var shown = colours.apply(to: display(line), numberEnd: numberEnd, due: due)
        for pattern in hiding { shown = pattern.replacingAll(in: shown, with: []) }
        return shown
      }
      rendered = Output(listing: .styled(rows), total: total, filterCommand: filterCommand)
    }
    return adaptsText ? adapt(rendered) : rendered
  }

  /// The user's final filter (`TODOTXT_FINAL_FILTER`, unless `-x`), when it is not `cat`.
  var finalFilter: String? {
    let command = settings.filterDisabled ? "cat" : settings.value("TODOTXT_FINAL_FILTER")
    return command == "cat" || command.isEmpty ? nil : command
  }

  var hasFinalFilter: Bool { finalFilter != nil }

  /// The one text stage at the end of a listing: the user's final filter, run by bash over
  /// the rendered lines as todo.sh runs it. What it writes is text: nothing after it reads a
  /// task or a number out of it.
  func adapt(_ output: Output) -> Output {
    guard let finalFilter else { return output }
    var adapted = output
    // A drawn line's glued spaces are written plain (see ``TerminalLayout/glue``).
    let lines = output.indent == nil ? output.lines.all : output.lines.all.map(TerminalLayout.unglued)
    adapted.listing = .text(Lines(runShell(finalFilter, on: lines)))
    return adapted
  }

  /// A line a listing writes beyond its rows' own printing (`--group`'s headings, notes,
  /// `next --explain`'s urgency lines).
  struct WrittenLine {
    var bytes: [UInt8]
    /// A line printed as a row is (``printLine(_:indent:)``), wrapped to the terminal under
    /// `indent` when drawn; else written as it is.
    var asRow: Bool
    var indent: Int?

    static func row(_ bytes: [UInt8], indent: Int?) -> WrittenLine { WrittenLine(bytes: bytes, asRow: true, indent: indent) }
    static func plain(_ bytes: [UInt8]) -> WrittenLine { WrittenLine(bytes: bytes, asRow: false, indent: nil) }
  }

  /// Prints the lines `produce` hands its argument, passed through the final filter as a
  /// whole when the user has one (what it writes is then wrapped under `indent`). Without one,
  /// each line goes out as it is made, so a listing of a million rows holds none of them.
  func printAdapted(indent: Int?, _ produce: (_ emit: (WrittenLine) -> Void) -> Void) {
    guard let finalFilter else {
      produce { line in
        if line.asRow { printLine(line.bytes, indent: line.indent) } else { context.console.line(line.bytes) }
      }
      return
    }
    var gathered: [[UInt8]] = []
    produce { gathered.append(TerminalLayout.unglued($0.bytes)) }
    for line in runShell(finalFilter, on: gathered) { printLine(line, indent: indent) }
  }

  /// The `-+`/`-@` patterns with `[[:graph:]]` read as "neither a blank nor a control byte"
  /// (the ESC of a colour code still ends the word, as with todo.sh): regcomp runs in the C
  /// locale here, where `[[:graph:]]` is ASCII only and `+café` would lose just `+caf`, while
  /// todo.sh's sed in the user's UTF-8 locale hides the whole word. A user's own pattern is
  /// left as written.
  static func wordPattern(_ pattern: String) -> String {
    switch pattern {
    case "[[:space:]]@[[:graph:]]\\{1,\\}": return "[[:space:]]@[^[:space:][:cntrl:]]\\{1,\\}"
    case "[[:space:]][+][[:graph:]]\\{1,\\}": return "[[:space:]][+][^[:space:][:cntrl:]]\\{1,\\}"
    default: return pattern
    }
  }

  /// The rows in `order`: by the tasks' keys (``NativeListing/sorted(_:)``; rows that are no
  /// line of the file fall back to the settings' order), by a user's command, which bash runs
  /// on the lines (see ``ListingRows/ordered(as:)``), or by todo.sh's `sort -f -k2` in the C
  /// locale over the lines.
  func sort(_ rows: inout ListingRows, by order: RowOrder, native: NativeListing?) {
    switch order {
    case .tasks:
      if let sorted = native?.sorted(rows) {
        rows = sorted
        return
      }
      sort(&rows, by: RowOrder(settings), native: nil)
    case .command(let command):
      rows = rows.ordered(as: runShell(command, on: rows.lines.all))
    case .lineIgnoringCase:
      // Moved into order in place: the rows' tables are a third of a large listing's size.
      rows.reorder(orderAsTodoSh(rows))
    }
  }

  /// todo.sh's order of made lines: `sort -f -k2` (see ``KeySort``), as positions.
  private func orderAsTodoSh(_ rows: ListingRows) -> [Int32] {
    let lines = rows.lines
    // The key starts at the blank after the number.
    let keyStarts = lines.buffer.withUnsafeBufferPointer { b in
      (0..<lines.count).map { index in
        var position = lines.starts[index]
        let end = lines.ends[index]
        while position < end, b[position] == 0x20 || b[position] == 0x09 { position += 1 }
        while position < end, b[position] != 0x20, b[position] != 0x09 { position += 1 }
        return position
      }
    }
    let order = lines.buffer.withUnsafeBufferPointer { bytes in
      lines.starts.withUnsafeBufferPointer { starts in
        lines.ends.withUnsafeBufferPointer { ends in
          keyStarts.withUnsafeBufferPointer { keyStarts in
            KeySort.sorted(MadeLineKeys(bytes: bytes, starts: starts, ends: ends, keyStarts: keyStarts))
          }
        }
      }
    }
    return order
  }

  /// `sort -f -k2`'s key in made lines: from the blank after the number to the end; equal keys
  /// fall back to comparing whole lines (done.txt's lines all have the number 0 in `listall`).
  private struct MadeLineKeys: SortKeys {
    let bytes: UnsafeBufferPointer<UInt8>
    let starts: UnsafeBufferPointer<Int>
    let ends: UnsafeBufferPointer<Int>
    let keyStarts: UnsafeBufferPointer<Int>

    var count: Int { starts.count }
    func head(_ item: Int) -> (bytes: UInt64, count: Int) { (0, 0) }
    func rest(_ item: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: bytes[keyStarts[item]..<ends[item]]) }

    func tieBreak(_ left: Int, _ right: Int) -> Bool {
      let x = UnsafeBufferPointer(rebasing: bytes[starts[left]..<ends[left]])
      let y = UnsafeBufferPointer(rebasing: bytes[starts[right]..<ends[right]])
      if x.elementsEqual(y) { return left < right }
      return x.lexicographicallyPrecedes(y)
    }
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

  /// One test for all the terms (`nil` without terms), made once: calling the terms' tests out
  /// of an array cost a retain and a release of each per line.
  static func every(_ matchers: [TermTest], _ exclusions: [Bool]) -> ((Int, UnsafeBufferPointer<UInt8>) -> Bool)? {
    switch matchers.count {
    case 0: return nil
    case 1:
      let matches = matchers[0]
      return exclusions[0] ? { !matches.matches($0, $1) } : { matches.matches($0, $1) }
    default:
      return { index, line in
        for (matches, exclude) in zip(matchers, exclusions) where matches.matches(index, line) == exclude { return false }
        return true
      }
    }
  }

  /// Whether a line is only digits and blanks (todo.sh's numbering drops it, as an empty line).
  @inline(__always)
  static func isNumberLike(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    for byte in line where byte != 0x20 && !(48...57).contains(byte) { return false }
    return true
  }

  /// Whether a line is only spaces and tabs (todo.txt(5): blank, not a task).
  @inline(__always)
  static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    for byte in line where byte != 0x20 && byte != 0x09 { return false }
    return true
  }

  /// Prints one listed line, wrapped to the terminal when the layout drew it (`indent`).
  func printLine(_ line: [UInt8], indent: Int?) {
    guard let indent, let width = context.console.columns else {
      return context.console.line(TerminalLayout.unglued(line))
    }
    for part in TerminalLayout.wrap(line, width: width, indent: indent) { context.console.line(part) }
  }

  /// Prints a listing, with todo.sh's summary lines when verbose.
  func print(_ output: Output, prefixFile: String) {
    // Written a megabyte at a time, so a long listing is not held twice.
    var text: [UInt8] = []
    func flushIfFull() {
      if text.count >= 1 << 20 {
        context.console.write(text)
        text.removeAll(keepingCapacity: true)
      }
    }
    let lines: Lines
    switch output.listing {
    case .numbered(let numbered):
      numbered.write { context.console.write(contentsOf: $0) }
      lines = Lines()
    case .made(let rows): lines = rows.lines
    case .styled(let rows):
      for row in 0..<rows.count {
        text += rows.line(row)
        text.append(0x0A)
        flushIfFull()
      }
      lines = Lines()
    case .text(let text): lines = text
    }
    if let indent = output.indent, let width = context.console.columns {
      for line in lines.all {
        for part in TerminalLayout.wrap(line, width: width, indent: indent) {
          text += part
          text.append(0x0A)
        }
        flushIfFull()
      }
    } else {
      lines.buffer.withUnsafeBufferPointer { b in
        for index in 0..<lines.count {
          let start = text.count
          text.append(contentsOf: UnsafeBufferPointer(rebasing: b[lines.starts[index]..<lines.ends[index]]))
          // A drawn line's glued spaces are written plain (see ``TerminalLayout/glue``).
          if output.indent != nil {
            for at in start..<text.count where text[at] == TerminalLayout.glue { text[at] = 0x20 }
          }
          text.append(0x0A)
          flushIfFull()
        }
      }
    }
    context.console.write(text)
    if settings.verbosity > 1 {
      let command = output.filterCommand.isEmpty ? "cat" : output.filterCommand
      context.console.line("TODO DEBUG: Filter Command was: \(command)")
    }
    if settings.verbosity > 0 {
      context.summary(["\(CommandContext.prefix(of: prefixFile)): \(output.count) of \(output.total) tasks shown"])
    }
  }
}

/// One search term's test of a line, given its index and its text.
///
/// A word of the name `todo` in a file without notes needs nothing but the word
/// (``WordMatcher``): kept as itself, the listing's loop tests it in place, where a closure
/// called for each of a million lines cost a call through a thunk and a retain and release of
/// its context.
enum TermTest {
  case word(WordMatcher)
  case closure((Int, UnsafeBufferPointer<UInt8>) -> Bool)

  @inline(__always)
  func matches(_ index: Int, _ line: UnsafeBufferPointer<UInt8>) -> Bool {
    switch self {
    case .word(let word): return word.matches(line)
    case .closure(let test): return test(index, line)
    }
  }
}

/// Matches one search term against a numbered line as `grep -i` would: a basic regular
/// expression, ignoring case in the user's locale (``SystemLocale``: `É` is `é` in a UTF-8
/// locale, only ASCII letters fold in the C locale); plain ASCII words take a fast path that
/// gives the same answers. A term given as bytes that are not UTF-8 (``RawArguments``) is
/// those bytes, as grep is given them.
struct TermMatcher {
  private let plain: [UInt8]?
  private let regex: BasicRegex?
  /// In a multibyte locale an ASCII letter also matches some other letters (`s` matches
  /// `ſ`, which upper-cases to `S`): a line with such a letter that the fast path misses goes
  /// to the regular expression.
  private let foldsBeyondASCII: Bool
  /// In UTF-8 only four letters change case to ASCII (İ and ı to i and I, ſ to S, the
  /// Kelvin sign to k): only a line holding one of them can need the regular expression,
  /// and only for a term with i, k or s. In another multibyte set, any line with other bytes.
  private let onlyCaseMappingLetters: Bool
  /// What grep says of a term it cannot compile (such a term matches nothing).
  let notice: SearchNotice?

  init(_ pattern: String, locale: SystemLocale? = nil) {
    let bytes = RawArguments.bytes(of: pattern) ?? Array(pattern.utf8)
    let special: Set<UInt8> = Set("\\.[]*^$".utf8)
    let multibyte = locale?.isMultibyte ?? false
    if bytes.allSatisfy({ !special.contains($0) && $0 < 0x80 }) {
      plain = bytes.map { (65...90).contains($0) ? $0 + 32 : $0 }
      let utf8 = locale?.isUTF8 ?? false
      let letters = bytes.contains { byte in
        utf8 ? "iksIKS".utf8.contains(byte) : (65...90).contains(byte) || (97...122).contains(byte)
      }
      regex = multibyte && letters ? try? BasicRegex(compiling: bytes, ignoringCase: true, locale: locale) : nil
      foldsBeyondASCII = regex != nil
      onlyCaseMappingLetters = utf8
      notice = nil
      return
    }
    plain = nil
    foldsBeyondASCII = false
    onlyCaseMappingLetters = false
    if let fault = TermMatcher.faultGlibcAccepts(bytes) {
      regex = nil
      notice = fault
      return
    }
    do {
      regex = try BasicRegex(compiling: bytes, ignoringCase: true, locale: locale)
      notice = nil
    } catch {
      regex = nil
      notice = TermMatcher.notice(for: error, pattern: bytes)
    }
  }

  /// grep's wording of glibc's reason: the same text, but for a lone `\)`.
  static func notice(for failure: BasicRegex.Failure, pattern: [UInt8]) -> SearchNotice {
    if failure.code == Int32(_REG_EPAREN.rawValue), BracketScanner(pattern).hasUnopenedGroupEnd { return .unmatchedCloseGroup }
    return .badPattern(failure.message)
  }

  /// A fault grep finds that glibc's `regcomp` lets pass: a bracket expression that reads
  /// `[:name:]`, meant as the class `[[:name:]]`.
  static func faultGlibcAccepts(_ pattern: [UInt8]) -> SearchNotice? {
    BracketScanner(pattern).hasBareClass ? .classOutsideBracket : nil
  }

  /// Whether the term can only match a numbered line's text, never its number: it has no
  /// digit, no blank and nothing of a regular expression.
  static func ignoresNumber(_ pattern: String) -> Bool {
    !pattern.utf8.contains { byte in
      byte == 0x20 || byte == 0x09 || (48...57).contains(byte) || "\\.[]*^$".utf8.contains(byte)
    }
  }

  /// Whether grep would accept the term.
  static func isValid(_ pattern: String) -> Bool {
    TermMatcher(pattern).notice == nil
  }

  func matches(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    if let plain {
      if TermMatcher.occurs(plain, in: line) { return true }
      guard foldsBeyondASCII, let regex, NativeListing.hasNonASCII(line) else { return false }
      if onlyCaseMappingLetters, !TermMatcher.hasLetterMappingToASCII(line) { return false }
      return regex.matches(Array(line))
    }
    // A term grep cannot compile matches nothing (grep reports an error and prints nothing).
    return regex?.matches(Array(line)) ?? false
  }

  /// Whether a UTF-8 line holds İ (C4 B0), ı (C4 B1), ſ (C5 BF) or the Kelvin sign (E2 84 AA).
  private static func hasLetterMappingToASCII(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    guard line.count >= 2 else { return false }
    for index in 0..<(line.count - 1) {
      switch (line[index], line[index + 1]) {
      case (0xC4, 0xB0), (0xC4, 0xB1), (0xC5, 0xBF): return true
      case (0xE2, 0x84) where index + 2 < line.count && line[index + 2] == 0xAA: return true
      default: continue
      }
    }
    return false
  }

  /// Whether the lower-cased ASCII word `plain` occurs in `line`, ASCII letters ignoring case
  /// (both names' plain search words).
  static func occurs(_ plain: [UInt8], in line: UnsafeBufferPointer<UInt8>) -> Bool {
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

/// The shape of a basic regular expression where grep and glibc's `regcomp` word or judge it
/// differently: which `\)` has no `\(`, which bracket expression reads `[:name:]`.
private struct BracketScanner {
  private(set) var hasUnopenedGroupEnd = false
  private(set) var hasBareClass = false

  init(_ pattern: [UInt8]) {
    let backslash = UInt8(ascii: "\\")
    let open = UInt8(ascii: "["), close = UInt8(ascii: "]"), colon = UInt8(ascii: ":")
    var depth = 0
    var index = 0
    while index < pattern.count {
      let byte = pattern[index]
      if byte == backslash {
        if index + 1 < pattern.count {
          if pattern[index + 1] == UInt8(ascii: "(") { depth += 1 }
          if pattern[index + 1] == UInt8(ascii: ")") {
            if depth == 0 { hasUnopenedGroupEnd = true } else { depth -= 1 }
          }
        }
        index += 2
        continue
      }
      guard byte == open else {
        index += 1
        continue
      }
      // A bracket expression: `^`, then a `]` that is a member, then members up to `]`;
      // `[:alpha:]`, `[.a.]` and `[=a=]` inside it end at their own `:]`, `.]`, `=]`.
      var end = index + 1
      if end < pattern.count, pattern[end] == UInt8(ascii: "^") { end += 1 }
      let start = end
      if end < pattern.count, pattern[end] == close { end += 1 }
      var nested = false
      while end < pattern.count, pattern[end] != close {
        if pattern[end] == open, end + 1 < pattern.count, ":.=".utf8.contains(pattern[end + 1]) {
          let mark = pattern[end + 1]
          var inner = end + 2
          while inner + 1 < pattern.count, !(pattern[inner] == mark && pattern[inner + 1] == close) { inner += 1 }
          guard inner + 1 < pattern.count else { return }
          nested = true
          end = inner + 2
          continue
        }
        end += 1
      }
      // An unmatched `[`: regcomp says so.
      guard end < pattern.count else { return }
      let members = pattern[start..<end]
      if !nested, members.first == colon, members.last == colon, members.contains(where: { $0 != colon }) {
        hasBareClass = true
      }
      index = end + 1
    }
  }
}
