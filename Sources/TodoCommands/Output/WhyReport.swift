import TodoTxt

/// `ls --why`: every task of the listing with the reason it is shown where it is, or not
/// shown at all.
///
/// Reasons, in the order they are looked for: done, hidden by `h:1`, hidden by a `t:` threshold still
/// ahead, hidden for another rule of the listing (such as a parent waiting for an open child),
/// excluded by a search term, by the action's own filter, by the query. A task is blocked
/// when another open task names its `id:` in a `p:` tag (topydo's convention: the `p:` task is
/// a child the parent waits for); that is said whether or not the task is listed.
struct WhyReport {
  /// The listed file's lines as tasks.
  let tasks: Lines
  let shown: [Int]
  let terms: [String]
  let post: ListEngine.PostFilter?
  let native: NativeListing
  let options: ListOptions
  let filter: TaskFilter?
  let context: CommandContext
  let multiple: Bool
  let place: (Int) -> (file: String, number: Int)

  func print() {
    let blockers = blockingChildren()
    let console = context.console
    var listed = Set<Int>()
    for (position, index) in shown.enumerated() {
      listed.insert(index)
      console.line(label(index) + context.display(Array(list[index].bytes)))
      var reason = "shown \(ordinal(position + 1)): " + sortReason(list[index], index: index)
      if let children = blockers[index] { reason += "; blocked by " + names(children) }
      console.line("    " + reason)
    }
    // A reason that is the search's (a term, the query, the action's filter) is the same for
    // every task it leaves out: said once for all of them, with their numbers, instead of
    // once a task (one match among 48 tasks printed 48 such lines).
    var bySearch: [(reason: String, indices: [Int])] = []
    for index in 0..<list.count where !listed.contains(index) {
      let task = list[index]
      guard !task.isBlank, !task.bytes.allSatisfy({ $0 == 0x20 || (48...57).contains($0) }) else { continue }
      let reason = hiddenReason(task, index: index, blockers: blockers[index])
      if reason.hasPrefix("excluded by the term") || reason.hasPrefix("excluded by the query")
        || reason.hasPrefix("excluded by the action's filter")
      {
        if let at = bySearch.firstIndex(where: { $0.reason == reason }) {
          bySearch[at].indices.append(index)
        } else {
          bySearch.append((reason, [index]))
        }
        continue
      }
      console.line(label(index) + context.display(Array(task.bytes)))
      console.line("    " + reason)
    }
    for (reason, indices) in bySearch {
      if indices.count == 1 {
        console.line(label(indices[0]) + context.display(Array(list[indices[0]].bytes)))
        console.line("    " + reason)
      } else {
        console.line("\(indices.count) tasks \(reason): \(WhyReport.ranges(indices.map { place($0) }))")
      }
    }
    if context.verbose {
      context.summary(["\(shown.count) shown, \(list.filter { !$0.isBlank }.count - shown.count) not shown"])
    }
  }

  /// Task numbers as runs (`2-5, 9`), each file's apart (`done.txt:3`) when several are listed.
  static func ranges(_ places: [(file: String, number: Int)]) -> String {
    var parts: [String] = []
    var index = 0
    while index < places.count {
      var end = index
      while end + 1 < places.count, places[end + 1].file == places[index].file,
        places[end + 1].number == places[end].number + 1
      {
        end += 1
      }
      let prefix = places.contains(where: { $0.file != places[0].file }) ? places[index].file + ":" : ""
      let first = places[index].number
      let last = places[end].number
      parts.append(prefix + (first == last ? "\(first)" : "\(first)-\(last)"))
      index = end + 1
    }
    return parts.joined(separator: ", ")
  }

  private func label(_ index: Int) -> [UInt8] {
    let (file, number) = place(index)
    return Array((multiple ? "\(file):\(number) " : "\(number) ").utf8)
  }

  private func names(_ children: [Int]) -> String {
    (children.count == 1 ? "task " : "tasks ") + children.map { String(place($0).number) }.joined(separator: ", ")
  }

  private func ordinal(_ n: Int) -> String {
    let suffix = (11...13).contains(n % 100) ? "th" : (n % 10 == 1 ? "st" : (n % 10 == 2 ? "nd" : (n % 10 == 3 ? "rd" : "th")))
    return "\(n)\(suffix)"
  }

  /// For each task with an `id:`, the open tasks whose `p:` names it.
  private func blockingChildren() -> [Int: [Int]] {
    var owners: [String: [Int]] = [:]
    for (index, task) in list.enumerated() {
      if let id = task.dependencyID { owners[id, default: []].append(index) }
    }
    guard !owners.isEmpty else { return [:] }
    var result: [Int: [Int]] = [:]
    for (index, task) in list.enumerated() where !task.isCompleted && !task.isBlank {
      for parent in task.parentIDs {
        for owner in owners[parent] ?? [] where owner != index { result[owner, default: []].append(index) }
      }
    }
    return result
  }

  private func sortReason(_ task: Task, index: Int) -> String {
    let rowOrder = (try? RowOrder.chosen(sort: options.sort, settings: context.settings)) ?? RowOrder(context.settings)
    if let order = rowOrder.taskOrder {
      let keys = order.terms.map { term -> String in
        let value: String
        switch term.key {
        case .due: value = task.dueDate?.description ?? "none"
        case .priority: value = task.priority.map { "(\($0))" } ?? "none"
        case .created: value = task.creationDate?.description ?? "none"
        case .completed: value = task.completionDate?.description ?? "none"
        case .line: value = String(place(index).number)
        case .urgency:
          value = task.isCompleted
            ? "none (done)"
            : Urgency.format(
              tenths: Urgency(task, today: context.today, waiting: Urgency.waiting(for: task, counts: waitingCounts)).tenths)
        case .text: value = "\"\(WhyReport.oneLine(task.text))\""
        }
        return "\(term.key.rawValue)\(term.descending ? " (descending)" : "") \(value)"
      }
      return "sorted by " + keys.joined(separator: ", then ") + ", then line number"
    }
    if case .command = rowOrder {
      return "sorted by TODOTXT_SORT_COMMAND"
    }
    // todo.sh's order: the whole line after its number, ignoring case. So the priority
    // decides first, then a creation date (the oldest first, before undated tasks), then
    // the text: the key itself is shown.
    return "sorted by the whole line ignoring case, so priority, then creation date, then text (\"\(WhyReport.oneLine(task.line))\")"
  }

  /// Every line's task, made as it is asked for.
  private var list: LazyMapCollection<Range<Int>, Task> { tasks.tasks }

  /// ``Urgency/waitingCounts(in:)`` of the whole list (asked only for `--sort urgency`).
  private var waitingCounts: [String: Int] { Urgency.waitingCounts(in: list) }

  /// Text for a one-line reason: control characters as `?`.
  static func oneLine(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "?" : $0 }))
  }

  private func hiddenReason(_ task: Task, index: Int, blockers: [Int]?) -> String {
    let isShown = Array(task.bytes).withUnsafeBufferPointer { native.isShown(index, $0) }
    if !isShown {
      if task.isCompleted { return "done: it stays in the file until archive (--all shows it)" }
      if task.isHidden { return "hidden by h:1 (--all shows it)" }
      if let threshold = task.thresholdDate, threshold > context.today {
        let days = context.today.days(until: threshold)
        return "hidden until its threshold t:\(threshold), \(days) day\(days == 1 ? "" : "s") ahead (--all shows it)"
      }
      if let blockers { return "hidden: blocked by " + names(blockers) + " (--all shows it)" }
      return "hidden by the listing's rules (--all shows it)"
    }
    for term in terms {
      let exclude = term.hasPrefix("-")
      let pattern = exclude ? String(term.dropFirst()) : term
      let matches = native.matcher(for: pattern)
      // A term is a word of the text: it never sees the line's number.
      if Array(task.bytes).withUnsafeBufferPointer({ matches.matches(index, $0) }) == exclude {
        return exclude ? "excluded by the term '\(term)' (it matches)" : "excluded by the term '\(term)' (no match)"
      }
    }
    if let post, !post.keeps(text: task.bytes) { return "excluded by the action's filter (\(post.command))" }
    if let filter, !filter.matches(task, today: context.today) {
      let failing = filter.conjuncts.first { !$0.matches(task, today: context.today) }
      if let failing, filter.conjuncts.count > 1 {
        return "excluded by the query: \(failing) does not hold"
      }
      return "excluded by the query '\(options.query ?? filter.description)'"
    }
    return "not shown (removed by the sort command or the final filter)"
  }
}
