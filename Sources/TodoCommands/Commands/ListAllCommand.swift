import TodoTxt

enum ListAllCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "listall", aliases: ["lsa"], usage: "[TERM...]",
    abstract: "List the tasks of todo.txt and done.txt together; done.txt's are numbered 0.",
    arguments: [.term], options: OptionSpec.listing, termsAreWords: true
  ) { context, parsed throws(TodoError) in
    let arguments = try parsed.text(0)
    if context.settings.policy.readableListing, case var options = ListOptions(context.invocation, terms: arguments),
      QueryListing.isNeeded(options)
    {
      options.showAll = true
      let paths = [context.settings.todoFile, context.settings.doneFile]
      let (bytes, ends) = try context.readBytes(joining: paths)
      let sources = QueryListing.Sources(paths: paths, bytes: bytes, ends: ends)
      try QueryListing.list(sources, terms: options.terms, options: options, context: context)
      return .success
    }
    let readable = context.settings.policy.readableListing
    // Both files' bytes in one buffer (``TodoStore/readBytes(joining:)``), and where each
    // file's lie in it.
    var (bytes, ends) = try context.readBytes(joining: [context.settings.todoFile, context.settings.doneFile])
    let files = [0..<ends[0], ends[0]..<ends[1]]
    // Each file's own lines, as they would be read alone, in the buffer `bytes`.
    func fileLines(_ file: Int, in bytes: [UInt8]) -> Lines { Lines(bytes: bytes, parts: [files[file]], raw: !readable) }
    // Under the name todo the listed lines are each file's, todo.txt's first (each starts in
    // its own file's bytes), and each file is counted among them; under the name todo.sh
    // each file's lines are counted on their own, before the listed lines are made, so that
    // the two sets of line bounds are never held together.
    var listed = readable ? Lines(bytes: bytes, parts: files, raw: false) : nil
    let total = listed.map { lines in lines.starts.count { $0 < ends[0] } } ?? fileLines(0, in: bytes).count
    let doneCount = listed.map { $0.count - total } ?? fileLines(1, in: bytes).count
    let padding = total == 0 ? 0 : String(total).count
    var quiet = context.settings
    quiet["TODOTXT_VERBOSE"] = "0"
    var plain = quiet
    plain["TODOTXT_PLAIN"] = "1"
    let counter = ListEngine(context: context.with(settings: plain))
    // Each file is counted as todo.sh counts it, on its own and numbered from 1 (under the
    // name todo among the listed lines: words never see a line's number). The counts are
    // made before the listing, which rewrites the lines in place, and what they write (grep's
    // complaints) is held back until after it. A user's sort command or final filter is run
    // for the counts after the listing's, as todo.sh runs them, on the files' bytes kept
    // aside for it (the listing then rewrites a copy).
    let countsFirst = context.verbose && !counter.hasFinalFilter && RowOrder(plain) == .lineIgnoringCase
    // Under the name todo a term is a word of the text (it never sees a number, and writes no
    // complaint), so without a user's command the listing's own rows are the counts: each
    // file's rows among them, with no selection made again.
    let countsFromListing = readable && countsFirst
    func counts(listed lines: Lines?, files bytes: [UInt8]) -> (todo: Int, done: Int) {
      // Without a user's command a count is of the lines the terms select: none is sorted.
      func count(_ lines: Lines, test: ListEngine.LineTest? = nil) -> Int {
        countsFirst
          ? counter.count(lines, padding: 1, terms: arguments, test: test)
          : counter.format(lines, padding: 1, terms: arguments, test: test).count
      }
      if readable, let lines {
        func inFile(_ range: Range<Int>) -> ListEngine.LineTest { ListEngine.LineTest(command: "") { range.contains($0) } }
        return (count(lines, test: inFile(0..<total)), count(lines, test: inFile(total..<lines.count)))
      }
      return (count(fileLines(0, in: bytes)), count(fileLines(1, in: bytes)))
    }
    let early = countsFirst && !countsFromListing ? context.holdingBack { counts(listed: listed, files: bytes) } : nil
    let keptForCounts = context.verbose && !countsFirst ? bytes : nil
    // Under the name todo.sh, the two files as `cat` joins them: a todo.txt without a final
    // newline runs into done.txt's first line.
    let lines = listed ?? Lines(bytes: bytes, parts: [0..<ends[1]], raw: true)
    // The listing is given the only reference to the bytes (bar the counts' copy, when kept).
    (listed, bytes) = (nil, [])
    // todo.sh's awk step: done.txt's lines are numbered 0 (``ListingRows/Numbering``), and
    // each line is rebuilt from its fields, so runs of blanks in the text become one space.
    let fields = ListEngine.PostFilter.joiningFields(
      command: "awk -v TOTAL=\(total) -v PADDING=\(padding) '{ $1 = sprintf(\"%\" PADDING \"d\", ($1 > TOTAL ? 0 : $1)); print }' ")
    let quietEngine = ListEngine(context: context.with(settings: quiet))
    let output = quietEngine.format(
      consume lines, padding: padding, terms: arguments, post: fields, numbering: .doneAsZero(from: total))
    let listedCounts = countsFromListing ? output.rowCounts(splitAt: total) : nil
    quietEngine.print(output, prefixFile: context.settings.todoFile)
    guard context.verbose else { return .success }
    early?.replay()
    let (shownTodo, shownDone) =
      listedCounts.map { ($0.before, $0.from) } ?? early?.result ?? counts(listed: nil, files: keptForCounts ?? [])
    context.summary([
      "\(context.todoPrefix): \(shownTodo) of \(total) tasks shown",
      "\(CommandContext.prefix(of: context.settings.doneFile)): \(shownDone) of \(doneCount) tasks shown",
      "total \(shownTodo + shownDone) of \(total + doneCount) tasks shown",
    ])
    return .success
  }
}
