import TodoTxt

/// `ls --why`: every task of the listing with the reason it is shown where it is, or not
/// shown at all.
///
/// Reasons, in the order they are looked for: done, hidden by `h:1`, hidden by a `t:` threshold still
/// ahead, hidden for another rule of the listing (such as a parent waiting for an open child),
/// excluded by a search term, by the action's own filter, by the query. A task is blocked
/// when another open task names its `id:` in a `p:` tag (topydo's convention: the `p:` task is
/// a child the parent waits for); that is said whether or not the task is listed.
///
/// The report reads the listing's own lines: a task is made only of a line whose reason needs
/// one (a listed line, a hidden one, one the query tests), and the tasks a search leaves out
/// are kept as runs of numbers, so that a report over a large list holds little beside it.
struct WhyReport {
  /// The listed files' lines, without their line endings.
  let tasks: Lines
  let shown: [Int]
  let terms: [String]
  let post: ListEngine.PostFilter?
  let native: NativeListing
  let options: ListOptions
  let filter: TaskFilter?
  let context: CommandContext
  /// The listed files' names, in the order of their lines.
  let fileNames: [String]
  /// The file (its position in ``fileNames``) and the number in it of a line.
  let place: (Int) -> (source: Int, number: Int)

  func print() {
    let blockers = blockingChildren()
    let console = context.console
    let reasons = SortReason(order: rowOrder, report: self)
    // Which lines are listed: one flag a line, not a set of their numbers.
    var listed = [Bool](repeating: false, count: tasks.count)
    for (position, index) in shown.enumerated() {
      listed[index] = true
      let task = tasks.task(index)
      console.line(label(index) + context.display(Array(task.bytes)))
      var reason = "shown \(ordinal(position + 1)): " + reasons.text(task, index: index)
      if let children = blockers[index] { reason += "; blocked by " + names(children) }
      console.line("    " + reason)
    }
    // A reason that is the search's (a term, the query, the action's filter) is the same for
    // every task it leaves out: said once for all of them, with their numbers, instead of
    // once a task (one match among 48 tasks printed 48 such lines).
    let searches = terms.map { term in
      let excludes = term.hasPrefix("-")
      return Search(term: term, excludes: excludes, test: native.matcher(for: excludes ? String(term.dropFirst()) : term))
    }
    var bySearch: [(reason: String, runs: Runs)] = []
    var tasksInFile = 0
    tasks.buffer.withUnsafeBufferPointer { buffer in
      for index in 0..<tasks.count {
        let line = UnsafeBufferPointer(rebasing: buffer[tasks.starts[index]..<tasks.ends[index]])
        // A blank line holds a number but is no task.
        guard !line.allSatisfy(\.isTaskWhitespace) else { continue }
        tasksInFile += 1
        // A line of digits and spaces alone is left out of every listing, and not reported.
        guard !listed[index], !line.allSatisfy({ $0 == 0x20 || (48...57).contains($0) }) else { continue }
        let reason = hiddenReason(line, index: index, searches: searches, blockers: blockers[index])
        guard reason.isSearch else {
          console.line(label(index) + context.display(Array(line)))
          console.line("    " + reason.text)
          continue
        }
        let (source, number) = place(index)
        if let at = bySearch.firstIndex(where: { $0.reason == reason.text }) {
          bySearch[at].runs.append(line: index, source: source, number: number)
        } else {
          var runs = Runs()
          runs.append(line: index, source: source, number: number)
          bySearch.append((reason.text, runs))
        }
      }
    }
    for (reason, runs) in bySearch {
      if runs.count == 1 {
        console.line(label(runs.firstLine) + context.display(tasks.line(runs.firstLine)))
        console.line("    " + reason)
      } else {
        console.line("\(runs.count) tasks \(reason): \(runs.text(fileNames: fileNames))")
      }
    }
    if context.verbose {
      context.summary(["\(shown.count) shown, \(tasksInFile - shown.count) not shown"])
    }
  }

  /// Task numbers gathered as runs of consecutive numbers in one file, in the order of the
  /// lines: a search that leaves out most of a large list holds a few runs, not every number.
  struct Runs {
    /// Each run: its file's position among the listed files, its first and its last number.
    private var runs: [(source: Int32, first: Int32, last: Int32)] = []
    /// How many numbers the runs hold.
    private(set) var count = 0
    /// The line of the first number (one task alone is shown whole).
    private(set) var firstLine = 0

    mutating func append(line: Int, source: Int, number: Int) {
      if count == 0 { firstLine = line }
      count += 1
      if let last = runs.last, Int(last.source) == source, Int(last.last) + 1 == number {
        runs[runs.count - 1].last += 1
      } else {
        runs.append((Int32(source), Int32(number), Int32(number)))
      }
    }

    /// `2-5, 9`; each run is prefixed with its file's name (`done.txt:3`) when they are in
    /// more than one file.
    func text(fileNames: [String]) -> String {
      let prefixed = runs.contains { $0.source != runs[0].source }
      var parts: [String] = []
      parts.reserveCapacity(runs.count)
      for run in runs {
        let prefix = prefixed ? fileNames[Int(run.source)] + ":" : ""
        parts.append(prefix + (run.first == run.last ? "\(run.first)" : "\(run.first)-\(run.last)"))
      }
      return parts.joined(separator: ", ")
    }
  }

  /// A search term, its matcher made once for the whole report.
  private struct Search {
    let term: String
    let excludes: Bool
    let test: TermTest
  }

  private func label(_ index: Int) -> [UInt8] {
    let (source, number) = place(index)
    return Array((fileNames.count > 1 ? "\(fileNames[source]):\(number) " : "\(number) ").utf8)
  }

  private func names(_ children: [Int]) -> String {
    (children.count == 1 ? "task " : "tasks ") + children.map { String(place($0).number) }.joined(separator: ", ")
  }

  private func ordinal(_ n: Int) -> String {
    let suffix = (11...13).contains(n % 100) ? "th" : (n % 10 == 1 ? "st" : (n % 10 == 2 ? "nd" : (n % 10 == 3 ? "rd" : "th")))
    return "\(n)\(suffix)"
  }

  /// For each task with an `id:`, the open tasks whose `p:` names it. Only lines with an
  /// `id:` or a `p:` token are made into tasks.
  private func blockingChildren() -> [Int: [Int]] {
    var owners: [String: [Int]] = [:]
    for index in tasks.indices(holdingToken: TagMeaning.id.token) {
      if let id = tasks.task(index).dependencyID { owners[id, default: []].append(index) }
    }
    guard !owners.isEmpty else { return [:] }
    var result: [Int: [Int]] = [:]
    for index in tasks.indices(holdingToken: TagMeaning.parent.token) {
      let task = tasks.task(index)
      guard !task.isCompleted, !task.isBlank else { continue }
      for parent in task.parentIDs {
        for owner in owners[parent] ?? [] where owner != index { result[owner, default: []].append(index) }
      }
    }
    return result
  }

  /// The order the listing used, as the settings and `--sort` choose it.
  private var rowOrder: RowOrder {
    RowOrder.chosen(sort: options.sort, settings: context.settings)
  }

  /// Why a listed task stands where it does: the order's keys, with the task's values.
  private struct SortReason {
    let order: RowOrder
    let report: WhyReport
    /// ``Urgency/waitingCounts(in:)`` of the whole list, counted once when the order asks
    /// for urgency.
    let waitingCounts: [String: Int]

    init(order: RowOrder, report: WhyReport) {
      self.order = order
      self.report = report
      let byUrgency = order.taskOrder?.terms.contains { $0.key == .urgency } ?? false
      waitingCounts = byUrgency ? Urgency.waitingCounts(in: report.tasks.tasks) : [:]
    }

    func text(_ task: Task, index: Int) -> String {
      if let order = order.taskOrder {
        let keys = order.terms.map { term -> String in
          let value: String
          switch term.key {
          case .due: value = task.dueDate?.description ?? "none"
          case .priority: value = task.priority.map { "(\($0))" } ?? "none"
          case .created: value = task.creationDate?.description ?? "none"
          case .completed: value = task.completionDate?.description ?? "none"
          case .line: value = String(report.place(index).number)
          case .urgency:
            let today = report.context.today
            value = task.isCompleted
              ? "none (done)"
              : Urgency.format(tenths: Urgency(task, today: today, waiting: Urgency.waiting(for: task, counts: waitingCounts)).tenths)
          case .text: value = "\"\(WhyReport.oneLine(task.text))\""
          }
          return "\(term.key.rawValue)\(term.descending ? " (descending)" : "") \(value)"
        }
        return "sorted by " + keys.joined(separator: ", then ") + ", then line number"
      }
      if case .command = order {
        return "sorted by TODOTXT_SORT_COMMAND"
      }
      // todo.sh's order: the whole line after its number, ignoring case. So the priority
      // decides first, then a creation date (the oldest first, before undated tasks), then
      // the text: the key itself is shown.
      return "sorted by the whole line ignoring case, so priority, then creation date, then text (\"\(WhyReport.oneLine(task.line))\")"
    }
  }

  /// Text for a one-line reason: control characters as `?`.
  static func oneLine(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "?" : $0 }))
  }

  /// Why an unlisted line is not shown, and whether that is the search's doing (a term, the
  /// action's filter, the query), which is said once for every line it leaves out. The line
  /// is made into a task only where the reason needs one.
  private func hiddenReason(
    _ line: UnsafeBufferPointer<UInt8>, index: Int, searches: [Search], blockers: [Int]?
  ) -> (text: String, isSearch: Bool) {
    if !native.isShown(index, line) {
      let task = tasks.task(index)
      if task.isCompleted { return ("done: it stays in the file until archive (--all shows it)", false) }
      if task.isHidden { return ("hidden by h:1 (--all shows it)", false) }
      if let threshold = task.thresholdDate, threshold > context.today {
        let days = context.today.days(until: threshold)
        return ("hidden until its threshold t:\(threshold), \(days) day\(days == 1 ? "" : "s") ahead (--all shows it)", false)
      }
      if let blockers { return ("hidden: blocked by " + names(blockers) + " (--all shows it)", false) }
      return ("hidden by the listing's rules (--all shows it)", false)
    }
    for search in searches {
      // A term is a word of the text: it never sees the line's number.
      if search.test.matches(index, line) == search.excludes {
        let term = search.term
        return (search.excludes ? "excluded by the term '\(term)' (it matches)" : "excluded by the term '\(term)' (no match)", true)
      }
    }
    if let post, !post.keeps(text: line) { return ("excluded by the action's filter (\(post.command))", true) }
    if let filter {
      let task = tasks.task(index)
      if !filter.matches(task, today: context.today) {
        let failing = filter.conjuncts.first { !$0.matches(task, today: context.today) }
        if let failing, filter.conjuncts.count > 1 {
          return ("excluded by the query: \(failing) does not hold", true)
        }
        return ("excluded by the query '\(options.query ?? filter.description)'", true)
      }
    }
    return ("not shown (removed by the sort command or the final filter)", false)
  }
}
