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
    let engine = ListEngine(context: context)
    let todoList = try context.readList(context.settings.todoFile)
    let doneList = try context.readList(context.settings.doneFile)
    let todoLines = engine.physicalLines(todoList)
    let doneLines = engine.physicalLines(doneList)
    let total = todoLines.count
    let padding = total == 0 ? 0 : String(total).count
    // Under the name todo.sh, the two files as `cat` joins them: a todo.txt without a final
    // newline runs into done.txt's first line. Under the name todo, each file's lines.
    let lines =
      context.settings.policy.readableListing
      ? todoLines.appending(doneLines)
      : Lines(bytes: todoList.serialized() + doneList.serialized(), raw: true)
    // todo.sh's awk step: done.txt's lines are numbered 0 (``ListingRows/Numbering``), and
    // each line is rebuilt from its fields, so runs of blanks in the text become one space.
    let fields = ListEngine.PostFilter(
      command: "awk -v TOTAL=\(total) -v PADDING=\(padding) '{ $1 = sprintf(\"%\" PADDING \"d\", ($1 > TOTAL ? 0 : $1)); print }' "
    ) { rows in
      var rebuilt = ListingRows()
      for row in 0..<rows.count {
        let line = rows.line(row)
        let number = line[..<(rows.textStarts[row] - 1)]
        let words = rows.text(row).split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
        var text = Array(number)
        for word in words { text += [0x20] + word }
        rebuilt.append(rows.indices[row], text, textStart: words.isEmpty ? text.count : number.count + 1)
      }
      return rebuilt
    }
    var quiet = context.settings
    quiet["TODOTXT_VERBOSE"] = "0"
    let quietEngine = ListEngine(context: context.with(settings: quiet))
    let output = quietEngine.format(
      lines, padding: padding, terms: arguments, post: fields, numbering: .doneAsZero(from: total))
    quietEngine.print(output, prefixFile: context.settings.todoFile)
    guard context.verbose else { return .success }
    var plain = quiet
    plain["TODOTXT_PLAIN"] = "1"
    let counter = ListEngine(context: context.with(settings: plain))
    let shownTodo = counter.format(todoLines, padding: 1, terms: arguments).count
    let shownDone = counter.format(doneLines, padding: 1, terms: arguments).count
    context.summary([
      "\(context.todoPrefix): \(shownTodo) of \(total) tasks shown",
      "\(CommandContext.prefix(of: context.settings.doneFile)): \(shownDone) of \(doneLines.count) tasks shown",
      "total \(shownTodo + shownDone) of \(total + doneLines.count) tasks shown",
    ])
    return .success
  }
}
