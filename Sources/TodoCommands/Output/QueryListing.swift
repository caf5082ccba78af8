import TodoStore
import TodoTxt

/// The native listing options that change what a listing selects or how it is written:
/// `-q QUERY`, `--format`, `--group` and `--why`. The selection and order still come from
/// ``ListEngine`` (terms, hiding, `--sort`); this adds the query as one more filter and then
/// writes the chosen tasks in the format asked for.
enum QueryListing {
  /// How much of a machine format is gathered before it is written (a pipe takes 64 KiB).
  static let pieceSize = 1 << 16

  /// The files of a listing (`lsa` lists todo.txt, then done.txt): their bytes as read, one
  /// file's after another's in one buffer (``CommandContext/readBytes(joining:)``: joining
  /// files read apart held every byte twice), whose lines are split here once. (A
  /// ``TodoList`` would hold a second table of every line, 16 bytes each, beside the
  /// listing's own: a fifth of a million-task file.)
  struct Sources {
    var paths: [String]
    var bytes: [UInt8]
    /// Where each file's bytes end in `bytes`.
    var ends: [Int]

    init(path: String, bytes: [UInt8]) {
      self.init(paths: [path], bytes: bytes, ends: [bytes.count])
    }

    init(paths: [String], bytes: [UInt8], ends: [Int]) {
      self.paths = paths
      self.bytes = bytes
      self.ends = ends
    }

    var count: Int { paths.count }

    /// Where each file's bytes lie in `bytes`.
    var files: [Range<Int>] { zip([0] + ends.dropLast(), ends).map { $0..<$1 } }
  }

  /// Whether `options` asks for anything this type does.
  static func isNeeded(_ options: ListOptions) -> Bool {
    options.query != nil || options.format != nil || options.group != nil || options.why || options.notes
  }

  /// Parses a query for `context`, turning its error into a ``TodoError``.
  static func filter(_ query: String, context: CommandContext) throws(TodoError) -> TaskFilter {
    do {
      return try FilterExpression.parse(query).resolved(today: context.today)
    } catch {
      throw .badQuery(error)
    }
  }

  /// Lists `sources` under `options`: the rows are selected and ordered once
  /// (``select(_:terms:post:options:format:filter:context:)``), then written by the renderer of the
  /// format asked for.
  ///
  /// - Parameters:
  ///   - terms: todo.sh search terms.
  ///   - post: the action's own filter (listpri's priorities).
  static func list(
    _ sources: Sources, terms: [String], post: ListEngine.PostFilter? = nil, options: ListOptions,
    context: CommandContext
  ) throws(TodoError) {
    let format = try OutputFormat(options.format)
    let grouping = try options.group.map { text throws(TodoError) in try ListGrouping(text) }
    if grouping != nil, format.isMachineReadable { throw .badOptionValue("--format", options.format ?? "") }
    let filter = try options.query.map { text throws(TodoError) in try QueryListing.filter(text, context: context) }
    // Done tasks are listed to a query that asks about being done (`done`, `completed:`).
    var options = options
    if filter?.mentionsCompletion == true { options.showsDone = true }
    let listed = try select(
      sources, terms: terms, post: post, options: options, format: format, filter: filter, context: context)

    if options.why {
      let report = WhyReport(
        tasks: listed.tasks, shown: listed.shown, terms: terms, post: post, native: listed.native, options: options,
        filter: filter, context: context, fileNames: listed.fileNames, place: listed.line)
      report.print()
      return
    }
    switch format {
    case .json: try writeJSON(listed, asArray: true, context: context)
    case .jsonl: try writeJSON(listed, asArray: false, context: context)
    case .ical: writeCalendar(listed, context: context)
    case .template(let template): writeTemplate(listed, template, grouping: grouping, context: context)
    case .text: writeText(listed, grouping: grouping, notes: options.notes, context: context)
    }
  }

  /// A listing's rows once selected and ordered, as its renderers read them: the tasks by
  /// their index, each index's file and line number, and the engine's own rows for the
  /// text renderers.
  struct Listed {
    let sources: Sources
    /// The engine, with the settings the format asked for (plain for a machine format).
    let engine: ListEngine
    let output: ListEngine.Output
    let native: NativeListing
    /// The lines as tasks (``Task`` parses a line without its CR and byte order mark).
    let tasks: Lines
    /// The listed tasks' indices in `tasks`, in the listing's order (a line a user's sort
    /// command made up is none).
    let shown: [Int]
    /// Where each source's lines start among the indices.
    let starts: [Int]
    let fileNames: [String]

    /// The source and its own line number of an index.
    func line(_ index: Int) -> (source: Int, number: Int) {
      let source = starts.lastIndex { $0 <= index } ?? 0
      return (source, index - starts[source] + 1)
    }

    /// The file name and its own line number of an index.
    func place(_ index: Int) -> (file: String, number: Int) {
      let (source, number) = line(index)
      return (fileNames[source], number)
    }
  }

  /// Selects and orders the rows of `sources`: all sources as one list, numbered on from
  /// one another, through ``ListEngine`` with the query as one more test of a line.
  static func select(
    _ sources: Sources, terms: [String], post: ListEngine.PostFilter?, options: ListOptions, format: OutputFormat,
    filter: TaskFilter?, context: CommandContext
  ) throws(TodoError) -> Listed {
    var engineContext = context
    if options.format != nil {
      // A format asked for wins over the terminal layout: `--format text` is the raw lines.
      var raw = context.settings
      raw["TODO_LAYOUT"] = "lines"
      engineContext = context.with(settings: raw)
    }
    if format.isMachineReadable || options.why {
      var plain = engineContext.settings
      plain["TODOTXT_PLAIN"] = "1"
      plain["TODOTXT_FINAL_FILTER"] = "cat"
      plain["TODOTXT_VERBOSE"] = "0"
      plain["TODO_LAYOUT"] = "lines"
      for name in ["HIDE_PROJECTS_SUBSTITUTION", "HIDE_CONTEXTS_SUBSTITUTION", "HIDE_CUSTOM_SUBSTITUTION"] {
        plain[name] = ""
      }
      engineContext = context.with(settings: plain)
    }
    let engine = ListEngine(context: engineContext)
    let raw = !engineContext.settings.policy.readableListing
    let lines: Lines
    let starts: [Int]
    // The lines as tasks: the listed lines themselves, unless todo.sh's raw lines keep a CR
    // and a byte order mark.
    let taskLines: Lines
    if sources.count == 1 {
      // One file: its own lines, not a copy.
      lines = Lines(bytes: sources.bytes, raw: raw)
      taskLines = raw ? Lines(bytes: sources.bytes, raw: false) : lines
      starts = [0]
    } else {
      // Each file's lines, one file's after another's, in the one buffer; each line starts
      // in its own file's bytes.
      lines = Lines(bytes: sources.bytes, parts: sources.files, raw: raw)
      starts = sources.files.map { file in lines.starts.count { $0 < file.lowerBound } }
      taskLines = raw ? Lines(bytes: sources.bytes, parts: sources.files, raw: false) : lines
    }
    let native = try NativeListing(options, lines: taskLines, context: engineContext)
    let today = context.today
    let query = filter.map { filter in
      // Only the lines that hold the bytes the query needs are made into tasks and tested.
      ListEngine.LineTest(
        command: "query " + ShellQuote.quote(options.query ?? ""), candidates: taskLines.holding(filter.requiredLiterals)
      ) { index in
        index < taskLines.count && filter.matches(taskLines.task(index), today: today)
      }
    }
    let padding = sources.count == 1 ? String(lines.count).count - (lines.isEmpty ? 1 : 0) : String(starts.last ?? 0).count
    // Several files: each line shows its number in its own file, done.txt's 0 (as `listall`).
    let numbering: ListingRows.Numbering = sources.count > 1 ? .doneAsZero(from: starts[1]) : .byLine
    let output = engine.format(
      lines, padding: max(padding, 0), terms: terms, post: post, native: native, test: query, numbering: numbering,
      adaptsText: false)
    return Listed(
      sources: sources, engine: engine, output: output, native: native, tasks: taskLines,
      shown: (output.indices ?? []).filter { $0 < taskLines.count }, starts: starts,
      fileNames: sources.paths.map { Posix.basename($0) })
  }

  /// `--format json` (one array) or `jsonl` (a record a line): each task is its record,
  /// encoded; the shape is TaskRecord's (todo(1), OUTPUT FORMATS).
  static func writeJSON(_ listed: Listed, asArray: Bool, context: CommandContext) throws(TodoError) {
    let console = context.console
    var writer = JSONWriter()
    let encoder = JSONStreamEncoder()
    if asArray { writer.raw("[\n") }
    for (offset, index) in listed.shown.enumerated() {
      let (file, number) = listed.place(index)
      do {
        try encoder.encode(TaskRecord(listed.tasks.task(index), line: number, file: file), into: &writer)
      } catch {
        // A record holds strings, numbers and flags, which always encode; this is not reached.
        throw .message("\(context.programName): cannot write task \(number) as JSON: \(error)")
      }
      if asArray, offset < listed.shown.count - 1 { writer.raw(",") }
      writer.raw("\n")
      // Written out in pieces, so that a long list is never held whole as JSON.
      if writer.bytes.count >= QueryListing.pieceSize {
        console.write(writer.bytes)
        writer.bytes.removeAll(keepingCapacity: true)
      }
    }
    if asArray { writer.raw("]\n") }
    console.write(writer.bytes)
  }

  /// `--format ical`: a calendar of VTODOs.
  static func writeCalendar(_ listed: Listed, context: CommandContext) {
    var writer = ICalendarWriter(today: context.today)
    for index in listed.shown {
      writer.task(listed.tasks.task(index))
      if writer.bytes.count >= QueryListing.pieceSize { context.console.write(writer.drain()) }
    }
    context.console.write(writer.finish())
  }

  /// `--format TEMPLATE`: a line per task. A template, like the machine formats, prints its
  /// records and nothing else: a script reading them must not have to strip todo.sh's summary.
  static func writeTemplate(_ listed: Listed, _ template: TaskTemplate, grouping: ListGrouping?, context: CommandContext) {
    let shown = listed.shown
    writeLines(
      shown,
      line: { position in
        let (file, number) = listed.place(shown[position])
        // Task text written to a terminal shows its control characters (a colour sequence in
        // a task is text, not a colour), as in every other listing.
        return context.display(template.render(listed.tasks.task(shown[position]), line: number, file: file))
      }, grouping: grouping, tasks: listed.tasks, today: context.today, indent: nil
    ) { context.console.line($0.bytes) }
  }

  /// The listing's own lines (todo.sh's, or the terminal layout's), under group headings and
  /// with notes when asked, then the summary.
  static func writeText(_ listed: Listed, grouping: ListGrouping?, notes: Bool, context: CommandContext) {
    let (engine, output) = (listed.engine, listed.output)
    if grouping == nil, listed.sources.count == 1, !notes {
      engine.print(engine.adapt(output), prefixFile: listed.sources.paths[0])
      return
    }
    let tasks = listed.tasks
    // The rows of tasks of the list, as rendered (not a line a user's sort command made up).
    let rows = output.listedRows
    // The rows that are tasks of the list, by their position among the rows; `nil` while
    // every row is one (the usual case: no table of a million positions is made).
    var kept: [Int]?
    var indices: [Int] = []
    indices.reserveCapacity(rows?.count ?? 0)
    for row in 0..<(rows?.count ?? 0) {
      guard let index = rows?.index(row), index < tasks.count else {
        if kept == nil { kept = Array(0..<row) }
        continue
      }
      kept?.append(row)
      indices.append(index)
    }
    let noteLines = notes ? { (index: Int) in QueryListing.noteLines(of: tasks.task(index), context: context) } : nil
    engine.printAdapted(indent: output.indent) { emit in
      writeLines(
        indices, line: { rows?.line(kept?[$0] ?? $0) ?? [] }, grouping: grouping, tasks: tasks, today: context.today,
        indent: output.indent, under: noteLines, to: emit)
    }
    summary(output, shownCount: listed.shown.count, sources: listed.sources, starts: listed.starts, context: context)
  }

  /// Writes the listed tasks as lines, under group headings when asked, each with the indent
  /// of its continuation when it is wrapped to the terminal (`nil`: not wrapped). The lines
  /// are made as they are written, so that nothing holds one per task.
  ///
  /// - Parameters:
  ///   - indices: the listed tasks' indices in `tasks`, in the listing's order.
  ///   - line: the rendered line of the task at a position of `indices`.
  ///   - indent: the indent of rows the ``TerminalLayout`` drew.
  ///   - under: lines to write under a task's line (its note, for `--notes`).
  static func writeLines(
    _ indices: [Int], line: (Int) -> [UInt8], grouping: ListGrouping?, tasks: Lines, today: TaskDate, indent: Int?,
    under: ((Int) -> [[UInt8]])? = nil, to emit: (ListEngine.WrittenLine) -> Void
  ) {
    func put(_ position: Int) {
      emit(.row(line(position), indent: indent))
      for extra in under?(indices[position]) ?? [] { emit(.plain(extra)) }
    }
    guard let grouping else {
      for position in indices.indices { put(position) }
      return
    }
    // Where each task of the list stands in the listing (-1: not listed); a task with two
    // projects is written under each.
    var positions = [Int32](repeating: -1, count: tasks.count)
    for (position, index) in indices.enumerated() { positions[index] = Int32(position) }
    let groups = grouping.grouping.groups(indices, today: today) { tasks.task($0) }
    for (offset, group) in groups.enumerated() {
      if offset > 0 { emit(.plain([])) }
      emit(.plain(Array(group.heading.utf8)))
      for index in group.indices {
        if positions[index] >= 0 { put(Int(positions[index])) } else { emit(.row([], indent: indent)) }
      }
    }
  }

  /// A task's note as lines to show under it, indented, control characters shown on a
  /// terminal as everywhere; none when it has no note or the note cannot be read (a missing
  /// file, a link: the notes folder is never left).
  static func noteLines(of task: Task, context: CommandContext) -> [[UInt8]] {
    guard let name = NoteCommand.linkedName(task),
      let folder = try? context.store.folder(NoteCommand.directory(context.settings)),
      let text = try? folder.read(name)
    else { return [] }
    var lines = text.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) }
    if lines.last?.isEmpty == true { lines.removeLast() }
    return lines.map { line in Array("      ".utf8) + context.display(line.last == 0x0D ? Array(line.dropLast()) : line) }
  }

  /// todo.sh's summary lines, when verbose.
  static func summary(
    _ output: ListEngine.Output, shownCount: Int, sources: Sources, starts: [Int], context: CommandContext
  ) {
    guard context.verbose else { return }
    if sources.count == 1 {
      context.summary(["\(CommandContext.prefix(of: sources.paths[0])): \(shownCount) of \(output.total) tasks shown"])
    } else {
      context.summary(["total \(shownCount) of \(output.total) tasks shown"])
    }
  }
}
