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
      let sources = try [context.settings.todoFile, context.settings.doneFile].map { path throws(TodoError) in
        QueryListing.Source(path: path, bytes: try context.readBytes(path))
      }
      try QueryListing.list(sources, terms: options.terms, options: options, context: context)
      return .success
    }
    // The files' lines, not TodoLists: a listing keeps no per-line state of a list's.
    let readable = context.settings.policy.readableListing
    var (todoLines, _) = try context.readLines(context.settings.todoFile, raw: !readable)
    var (doneLines, _) = try context.readLines(context.settings.doneFile, raw: !readable)
    let total = todoLines.count
    let doneCount = doneLines.count
    let padding = total == 0 ? 0 : String(total).count
    // Under the name todo.sh, the two files as `cat` joins them: a todo.txt without a final
    // newline runs into done.txt's first line. Under the name todo, each file's lines.
    var lines = readable ? todoLines.appending(doneLines) : Lines(bytes: todoLines.buffer + doneLines.buffer, raw: true)
    var quiet = context.settings
    quiet["TODOTXT_VERBOSE"] = "0"
    var plain = quiet
    plain["TODOTXT_PLAIN"] = "1"
    let counter = ListEngine(context: context.with(settings: plain))
    // A user's final filter runs for the counts after it ran for the listing, and sees each
    // file's lines numbered on their own, as todo.sh runs it: the files' lines are kept for
    // it. Else, under the name todo, the joined lines are all that is read again.
    let countsEachFile = !readable || context.verbose && counter.hasFinalFilter
    if !countsEachFile { (todoLines, doneLines) = (Lines(), Lines()) }
    // Words never see a line's number: under the name todo, with no final filter, each file's
    // lines are counted among the joined ones (the only copy of todo.txt's bytes), before the
    // listing rewrites them; a word writes no notice, so nothing on the screen moves.
    var shown: (todo: Int, done: Int)? = nil
    if !countsEachFile, context.verbose {
      func inFile(_ range: Range<Int>) -> ListEngine.LineTest { ListEngine.LineTest(command: "") { range.contains($0) } }
      shown = (
        counter.format(lines, padding: 1, terms: arguments, test: inFile(0..<total)).count,
        counter.format(lines, padding: 1, terms: arguments, test: inFile(total..<lines.count)).count
      )
    }
    // todo.sh's awk step: done.txt's lines are numbered 0 (``ListingRows/Numbering``), and
    // each line is rebuilt from its fields, so runs of blanks in the text become one space.
    // The listing is given the only reference to the lines, which the step rewrites in place.
    let fields = ListEngine.PostFilter.joiningFields(
      command: "awk -v TOTAL=\(total) -v PADDING=\(padding) '{ $1 = sprintf(\"%\" PADDING \"d\", ($1 > TOTAL ? 0 : $1)); print }' ")
    let quietEngine = ListEngine(context: context.with(settings: quiet))
    let output = quietEngine.format(
      consume lines, padding: padding, terms: arguments, post: fields, numbering: .doneAsZero(from: total))
    quietEngine.print(output, prefixFile: context.settings.todoFile)
    guard context.verbose else { return .success }
    let (shownTodo, shownDone) =
      shown ?? (
        counter.format(todoLines, padding: 1, terms: arguments).count,
        counter.format(doneLines, padding: 1, terms: arguments).count
      )
    context.summary([
      "\(context.todoPrefix): \(shownTodo) of \(total) tasks shown",
      "\(CommandContext.prefix(of: context.settings.doneFile)): \(shownDone) of \(doneCount) tasks shown",
      "total \(shownTodo + shownDone) of \(total + doneCount) tasks shown",
    ])
    return .success
  }
}
