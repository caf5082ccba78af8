import TodoCommands
import TodoStore
import TodoTxt

/// What a command line run from the view printed and returned.
package struct CommandOutcome: Sendable {
  package var status: ExitStatus
  package var output: String
  package var errors: String

  package init(status: ExitStatus, output: String, errors: String) {
    self.status = status
    self.output = output
    self.errors = errors
  }
}

/// Runs one command line (the words after the program name) the way the shell runs a line;
/// `shown` holds the text each task number had on the screen, so the command refuses a
/// number whose task changed meanwhile.
package typealias CommandLineRunner = (_ words: [String], _ shown: [Int: [UInt8]]) -> CommandOutcome

/// The state of the full-screen view and what each key does to it: the rows shown (after the
/// filter, the saved view, done tasks hidden or not, the order), the selection, the prompt
/// being typed, the details pane.
///
/// Every change to the files is a command line of the tool's own (`do 3`, `replace 3 …`,
/// `reorder 3 4`), run with the text of the task as shown, so the view changes the list
/// exactly as the command line and the shell do (recurrence, automatic archiving, the undo
/// log), through the store, and refuses to act on a task another program changed since it
/// was drawn. The lock is taken only while a command runs, never while a person types.
///
/// Drawing is not done here (``ScreenRenderer``), nor reading keys (``FullScreenView``): the
/// whole view can be driven and looked at in a test.
package final class ViewSession {
  /// Which order the rows are in: the file's (manual), or one of ``TaskOrder``'s.
  package enum Order: String, CaseIterable, Sendable {
    case manual, priority, due, urgency, created, text

    var taskOrder: TaskOrder? {
      switch self {
      case .manual: nil
      case .priority: TaskOrder([.init(.priority), .init(.due), .init(.line)])
      case .due: TaskOrder([.init(.due), .init(.priority), .init(.line)])
      case .urgency: TaskOrder([.init(.urgency), .init(.line)])
      case .created: TaskOrder([.init(.created, descending: true), .init(.line)])
      case .text: TaskOrder([.init(.text), .init(.line)])
      }
    }
  }

  /// What the person is typing at the bottom line, and what Enter does with it.
  package enum Prompt: Equatable, Sendable {
    case add
    /// The text of the task at `index`, which had the line `original` when the edit began.
    case edit(index: Int, original: [UInt8])
    case due(index: Int, original: [UInt8])
    case priority(index: Int, original: [UInt8])
    case filter
    case command

    var label: String {
      switch self {
      case .add: "add: "
      case .edit: "edit: "
      case .due: TagMeaning.due.key + ": "
      case .priority: "priority: "
      case .filter: "/"
      case .command: ":"
      }
    }
  }

  /// What the screen is showing besides the list.
  package enum State: Equatable, Sendable {
    case list
    case prompt(Prompt, LineEditor)
    /// `d` asks first: the task at `index` as it was shown.
    case confirmDelete(index: Int, original: [UInt8])
    /// An edit whose task another program changed meanwhile: the person's text is kept
    /// until they say which version stays.
    case conflict(index: Int, yours: String, theirs: [UInt8])
    case help
  }

  /// Something the view must leave the screen for: an editor, a command that asks, an opener.
  package enum Suspension: Equatable, Sendable {
    /// Runs the words with the terminal given back (an editor, an opener).
    case run(words: [String], shown: [Int: [UInt8]])
    /// Runs a line typed after `:` as the shell runs it, then waits for a key so the person
    /// reads what it printed.
    case commandLine(String)
    /// Stops the process as Ctrl-Z stops a program in a shell with job control; the view
    /// comes back, redrawn, when the shell continues it.
    case stop
  }

  package let document: TodoDocument
  let settings: Settings
  package let today: TaskDate
  package let bindings: KeyBindings
  let run: CommandLineRunner
  /// The saved views (`TODO_VIEW_NAME`), by name.
  let views: [(name: String, filter: TaskFilter)]

  package private(set) var rows: [Int] = []
  /// The position of the selected row in ``rows``.
  package private(set) var selected = 0
  /// The first row on the screen.
  package private(set) var top = 0
  package private(set) var order: Order = .manual
  package private(set) var showsDone = false
  package private(set) var showsDetails = false
  package private(set) var state: State = .list
  /// The filter typed after `/` (kept after Enter, cleared by Esc).
  package private(set) var filterText = ""
  private var filter: TaskFilter?
  /// The saved view shown, as an index of ``views``.
  package private(set) var viewIndex: Int?
  /// The status line: what the latest action did or why it did nothing.
  package private(set) var message = ""
  package private(set) var messageIsError = false
  package private(set) var isFinished = false
  /// Set by a key that needs the terminal; the loop runs it and calls ``resume(after:)``.
  package private(set) var suspension: Suspension?
  /// How many rows of tasks fit on the screen (the loop sets it from the window).
  package var pageHeight = 20 {
    didSet { scrollToSelection() }
  }
  /// When and where the mouse was last pressed, for double clicks.
  private var lastClick: (row: Int, time: Double)?

  /// - Parameters:
  ///   - run: runs a command line of the tool (``CommandLineRunner``).
  package init(
    document: TodoDocument, settings: Settings, today: TaskDate, bindings: KeyBindings,
    run: @escaping CommandLineRunner
  ) {
    self.document = document
    self.settings = settings
    self.today = today
    self.bindings = bindings
    self.run = run
    var views: [(name: String, filter: TaskFilter)] = []
    for (name, value) in settings.variables where name.hasPrefix("TODO_VIEW_") && name.count > 10 {
      if let filter = try? FilterExpression.parse(value) {
        views.append((String(name.dropFirst(10)), filter.resolved(today: today)))
      }
    }
    self.views = views.sorted { $0.name < $1.name }
    rebuild(keeping: nil)
  }

  // MARK: Rows

  /// The index in the list of the selected task, if any row is shown.
  package var selectedIndex: Int? { rows.indices.contains(selected) ? rows[selected] : nil }

  /// The name of the saved view shown.
  package var viewName: String? { viewIndex.map { views[$0].name } }

  /// What the rows are made from: a snapshot of the list and every choice that picks and
  /// orders them. A value, so the rows of a large list can be made off the loop.
  package struct RowRequest: Sendable {
    var list: TodoList
    var showsDone: Bool
    var viewFilter: TaskFilter?
    var query: TaskFilter?
    var order: Order
    var today: TaskDate
    /// Counts requests, so a late answer to an older one is dropped.
    var generation: Int
    /// The selected task's line when the request was made.
    var keeping: [UInt8]?
  }

  /// The rows a request asks for.
  package static func rows(for request: RowRequest) -> [Int] {
    let list = request.list
    var indices: [Int] = []
    indices.reserveCapacity(list.count)
    for index in list.indices {
      let line = list.lineBytes(at: index)
      // Blank and (without Tab) done lines are known by their bytes, without reading the task.
      guard let first = line.first(where: { !$0.isTaskWhitespace }) else { continue }
      if !request.showsDone, first == UInt8(ascii: "x"), line.first == first,
        line.dropFirst().first == UInt8(ascii: " ")
      {
        continue
      }
      let task = list[index]
      if task.isHidden || (!request.showsDone && task.isCompleted) { continue }
      if let viewFilter = request.viewFilter, !viewFilter.matches(task, today: request.today) { continue }
      if let query = request.query, !query.matches(task, today: request.today) { continue }
      indices.append(index)
    }
    if let taskOrder = request.order.taskOrder {
      indices = taskOrder.sorted(indices, task: { list[$0] }, today: request.today) { Urgency.waitingCounts(in: list) }
    }
    return indices
  }

  /// Makes rows off the loop when set (the full-screen view sets it; tests leave it `nil` and
  /// get their rows at once).
  package var worker: RowWorker?
  private var generation = 0
  /// Rows are being made for a newer request than the rows shown.
  package private(set) var isWorking = false

  private func request(keeping: [UInt8]?) -> RowRequest {
    generation += 1
    return RowRequest(
      list: document.list, showsDone: showsDone, viewFilter: viewIndex.map { views[$0].filter }, query: filter,
      order: order, today: today, generation: generation, keeping: keeping)
  }

  /// Makes ``rows`` again from the list, keeping the selection on the task whose line is
  /// `keeping` (by its text: another program may have moved it), else on the same place.
  package func rebuild(keeping: [UInt8]?) {
    let request = request(keeping: keeping)
    isWorking = false
    apply(request, rows: ViewSession.rows(for: request))
  }

  /// Makes the rows again, off the loop when there is a worker (a key that filters or sorts
  /// a large list must not wait for it).
  private func refresh(keeping: [UInt8]?) {
    guard let worker else { return rebuild(keeping: keeping) }
    isWorking = true
    worker.submit(request(keeping: keeping))
  }

  /// Takes rows the worker made, unless a newer request is on its way.
  package func receive(_ rows: [Int], for request: RowRequest) {
    guard request.generation == generation else { return }
    isWorking = false
    apply(request, rows: rows)
  }

  private func apply(_ request: RowRequest, rows: [Int]) {
    self.rows = rows
    let list = document.list
    if let keeping = request.keeping,
      let found = rows.firstIndex(where: { list.indices.contains($0) && list.lineBytes(at: $0).elementsEqual(keeping) })
    {
      selected = found
    }
    selected = max(0, min(selected, rows.count - 1))
    scrollToSelection()
  }

  private var selectedLine: [UInt8]? { selectedIndex.map { Array(document.list.lineBytes(at: $0)) } }

  private func select(_ position: Int) {
    selected = max(0, min(position, rows.count - 1))
    scrollToSelection()
  }

  private func scrollToSelection() {
    let height = max(1, pageHeight)
    if selected < top { top = selected }
    if selected >= top + height { top = selected - height + 1 }
    top = max(0, min(top, max(0, rows.count - height)))
  }

  // MARK: Outside changes

  /// Reads the files again after another program changed them; returns whether the list
  /// changed. The selection stays on the same task.
  @discardableResult
  package func reloadFromDisk(saying: Bool = true) -> Bool {
    let line = selectedLine
    // A writer that truncates then writes shows an empty file for an instant: that is not
    // taken as the list (the selection would be lost), the next change is.
    if document.list.count > 0, FileStamp(path: document.path)?.size == 0 { return false }
    do {
      let changes = try document.reload()
      guard !changes.isEmpty else { return false }
    } catch {
      say("could not read the list: \(error)", error: true)
      return false
    }
    rebuild(keeping: line)
    if saying {
      reloadedUnseen = hasDrawn
      if state == .list { say("\(fileName) changed on disk; the view follows it") }
    }
    return true
  }

  private var fileName: String { document.path.split(separator: "/").last.map(String.init) ?? document.path }

  // MARK: Keys

  /// Does what `key` does in the current state.
  package func handle(_ key: Key, time: Double = 0) {
    switch state {
    case .list: handleInList(key, time: time)
    case .help: state = .list
    case .prompt(let prompt, var editor):
      let outcome = editor.handle(key) { self.completions(for: $0, prompt: prompt) }
      switch outcome {
      case .cancelled:
        state = .list
        if prompt == .filter { setFilter("") }
        message = ""
      case .submitted:
        state = .list
        submit(prompt, editor.text)
      case .edited:
        state = .prompt(prompt, editor)
        if prompt == .filter { setFilter(editor.text, live: true) }
      case .ignored: break
      }
    case .confirmDelete(let index, let original):
      state = .list
      if key == .character("y") || key == .character("Y") {
        change(["-f", "del", String(index + 1)], index: index, original: original, keep: nil)
      } else {
        say("nothing deleted")
      }
    case .conflict(let index, let yours, let theirs):
      switch key {
      case .character("y"), .character("Y"):
        state = .list
        if theirs.isEmpty {
          // The task was deleted meanwhile: the person's text comes back as a new task.
          // `-T`: the line keeps the dates it has; no second creation date.
          change(["-T", "add", yours], index: nil, original: nil, keep: nil, select: document.list.count)
        } else {
          change(["replace", String(index + 1), yours], index: index, original: theirs, keep: index)
        }
      case .character("n"), .character("N"), .escape:
        state = .list
        say("kept the version on disk; your text was: \(yours)")
      default: break
      }
    }
  }

  private func handleInList(_ key: Key, time: Double) {
    if case .mouse(let event) = key { return handleMouse(event, time: time) }
    // Pasted text is never keys: a paste into the list would run its letters as commands.
    if case .paste = key { return say("paste into a prompt (a adds, e edits, / filters)", error: true) }
    guard let action = bindings.action(for: key) else {
      if key != .escape { say("\(key.name): no such key here (? lists them)", error: true) } else { clearFilter() }
      return
    }
    perform(action)
  }

  private func clearFilter() {
    guard !filterText.isEmpty else { return }
    setFilter("")
    say("filter cleared")
  }

  /// Does `action` (the key's meaning in the list).
  package func perform(_ action: ViewAction) {
    message = ""
    messageIsError = false
    switch action {
    case .down: select(selected + 1)
    case .up: select(selected - 1)
    case .top: select(0)
    case .bottom: select(rows.count - 1)
    case .pageDown:
      top = min(max(0, rows.count - pageHeight), top + pageHeight)
      select(min(rows.count - 1, selected + pageHeight))
    case .pageUp:
      top = max(0, top - pageHeight)
      select(max(0, selected - pageHeight))
    case .complete:
      withSelected { index, line, task in
        change([task.isCompleted ? "reopen" : "do", String(index + 1)], index: index, original: line, keep: index)
      }
    case .add: state = .prompt(.add, LineEditor())
    case .edit:
      withSelected { index, line, _ in
        state = .prompt(.edit(index: index, original: line), LineEditor(String(decoding: line, as: UTF8.self)))
      }
    case .editInEditor:
      withSelected { index, line, _ in
        suspension = .run(words: ["edit", String(index + 1)], shown: [index + 1: line])
      }
    case .delete:
      withSelected { index, line, _ in
        state = .confirmDelete(index: index, original: line)
      }
    case .priority:
      withSelected { index, line, task in
        let next: String
        switch task.priority?.description {
        case nil: next = "A"
        case "A": next = "B"
        case "B": next = "C"
        default: next = ""
        }
        let words = next.isEmpty ? ["depri", String(index + 1)] : ["pri", String(index + 1), next]
        change(words, index: index, original: line, keep: index)
      }
    case .setPriority:
      withSelected { index, line, _ in state = .prompt(.priority(index: index, original: line), LineEditor()) }
    case .due:
      withSelected { index, line, task in
        state = .prompt(.due(index: index, original: line), LineEditor(task.dueDate?.description ?? ""))
      }
    case .moveDown, .moveUp: move(down: action == .moveDown)
    case .sort:
      let all = Order.allCases
      order = all[(all.firstIndex(of: order)! + 1) % all.count]
      refresh(keeping: selectedLine)
      say("order: \(order.rawValue)")
    case .filter: state = .prompt(.filter, LineEditor(filterText))
    case .views:
      guard !views.isEmpty else {
        return say("no saved views: add one with todo view --add NAME QUERY", error: true)
      }
      viewIndex = viewIndex.map { $0 + 1 < views.count ? $0 + 1 : nil } ?? 0
      refresh(keeping: selectedLine)
      say(viewName.map { "view: \($0)" } ?? "all tasks")
    case .toggleDone:
      showsDone.toggle()
      refresh(keeping: selectedLine)
      say(showsDone ? "showing done tasks" : "hiding done tasks")
    case .details: showsDetails.toggle()
    case .open:
      withSelected { index, line, _ in
        suspension = .run(words: ["open", String(index + 1)], shown: [index + 1: line])
      }
    case .undo: change(["undo"], index: nil, original: nil, keep: nil)
    case .redo: change(["redo"], index: nil, original: nil, keep: nil)
    case .command: state = .prompt(.command, LineEditor())
    case .help: state = .help
    case .suspend: suspension = .stop
    case .quit: isFinished = true
    }
  }

  /// The selected task's line in the frame last drawn, once the loop has drawn one: a key
  /// acts only on the task the person saw selected, not on one an outside change moved under
  /// the cursor before the screen caught up.
  private var drawnSelection: [UInt8]?
  /// The list was read again from an outside change since the last frame was drawn.
  private var reloadedUnseen = false
  private var hasDrawn = false

  /// The loop drew a frame: what it showed selected is what keys act on.
  package func drew() {
    drawnSelection = selectedLine
    reloadedUnseen = false
    hasDrawn = true
  }

  private func withSelected(_ body: (Int, [UInt8], Task) -> Void) {
    guard let index = selectedIndex else { return say("no task selected", error: true) }
    if reloadedUnseen, drawnSelection.map({ !document.list.lineBytes(at: index).elementsEqual($0) }) ?? true {
      return say("the list changed on disk under the selection; look again and press the key again", error: true)
    }
    body(index, Array(document.list.lineBytes(at: index)), document.list[index])
  }

  /// `J`/`K`: the task swaps places in the file with the next (or previous) task shown, in
  /// the manual order (the order switches to it, where moving means something).
  private func move(down: Bool) {
    if order != .manual {
      order = .manual
      rebuild(keeping: selectedLine)
    }
    withSelected { index, line, _ in
      let target = selected + (down ? 1 : -1)
      guard rows.indices.contains(target) else { return say(down ? "already the last task" : "already the first task") }
      let to = rows[target]
      change(["reorder", String(index + 1), String(to + 1)], index: index, original: line, keep: nil, select: to)
    }
  }

  private func submit(_ prompt: Prompt, _ typed: String) {
    // Completion leaves a space after the word it finished: not part of the task.
    let text = String(typed.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    switch prompt {
    case .add:
      guard !text.allSatisfy(\.isWhitespace) else { return say("nothing added") }
      let before = document.list.count
      change(["add", text], index: nil, original: nil, keep: nil, select: before)
    case .edit(let index, let original):
      guard text.utf8.elementsEqual(original) == false else { return say("not changed") }
      guard !text.allSatisfy(\.isWhitespace) else { return say("an empty task is no edit; d deletes", error: true) }
      // The file may have changed while the person typed: the task is found by its text.
      reloadFromDisk(saying: false)
      guard let found = locate(original, near: index) else {
        // Changed or deleted meanwhile: which line it became cannot be told, so the person's
        // text is offered as a new task, never written over another.
        state = .conflict(index: index, yours: text, theirs: [])
        return
      }
      change(["replace", String(found + 1), text], index: found, original: original, keep: found)
    case .due(let index, let original):
      let words = text.split(separator: " ").map(String.init)
      change(["tag", String(index + 1), TagMeaning.due.key] + words, index: index, original: original, keep: index)
    case .priority(let index, let original):
      let word = text.trimmingSpaces
      let words =
        word.isEmpty || word == "-" || word.lowercased() == "none"
        ? ["depri", String(index + 1)] : ["pri", String(index + 1), word]
      change(words, index: index, original: original, keep: index)
    case .filter: setFilter(text)
    case .command:
      let line = text.trimmingSpaces
      guard !line.isEmpty else { return }
      // `:q` as in an editor; the shell's own words for leaving too.
      if ["q", "quit", "exit"].contains(line.lowercased()) {
        isFinished = true
        return
      }
      suspension = .commandLine(line)
    }
  }

  /// Where the line `original` is in the list now: at `index` if it is still there, else
  /// the nearest line with that text; `nil` when no line has it any more.
  private func locate(_ original: [UInt8], near index: Int) -> Int? {
    let list = document.list
    if list.indices.contains(index), list.lineBytes(at: index).elementsEqual(original) { return index }
    return list.indices.filter { list.lineBytes(at: $0).elementsEqual(original) }.min { abs($0 - index) < abs($1 - index) }
  }

  private func setFilter(_ text: String, live: Bool = false) {
    filterText = text
    if text.allSatisfy(\.isWhitespace) {
      filter = nil
    } else {
      do {
        filter = try FilterExpression.parse(text).resolved(today: today)
      } catch {
        // While typing, a half-written query keeps the rows of the last one that parsed.
        say("\(error)", error: true)
        return
      }
    }
    if live {
      refresh(keeping: selectedLine)
    } else {
      rebuild(keeping: selectedLine)
      say(filter == nil ? "" : "\(rows.count) tasks match")
    }
  }

  /// Runs a command that changes the files, then reads them again.
  ///
  /// - Parameters:
  ///   - index: the task the command names, with its line as shown (`original`).
  ///   - keep: select the task at this index afterwards (it kept its place in the file).
  ///   - select: select the task at this index of the file afterwards.
  private func change(_ words: [String], index: Int?, original: [UInt8]?, keep: Int?, select target: Int? = nil) {
    var shown: [Int: [UInt8]] = [:]
    if let index, let original { shown[index + 1] = original }
    let outcome = run(words, shown)
    reloadFromDisk(saying: false)
    // The rows were made again by the read when the command changed the file.
    if let wanted = keep ?? target, let position = rows.firstIndex(of: wanted) { select(position) }
    report(outcome)
  }

  private func report(_ outcome: CommandOutcome) {
    let errors = outcome.errors.split(separator: "\n").map(String.init)
    let output = outcome.output.split(separator: "\n").map(String.init)
    if outcome.status != .success {
      say(errors.first ?? output.last ?? "the command failed", error: true)
    } else {
      say(output.last ?? errors.last ?? "")
    }
  }

  /// Sets the status line.
  package func say(_ text: String, error: Bool = false) {
    message = text
    messageIsError = error
  }

  /// After the loop ran a ``Suspension``: reads the files again and says how it went.
  package func resume(after outcome: CommandOutcome?) {
    suspension = nil
    let line = selectedLine
    _ = try? document.reload()
    rebuild(keeping: line)
    if let outcome { report(outcome) }
  }

  // MARK: Mouse

  private func handleMouse(_ event: MouseEvent, time: Double) {
    switch event.kind {
    case .wheelUp: select(selected - 3)
    case .wheelDown: select(selected + 3)
    case .release: break
    case .press:
      // Row 1 is the header; the rows of tasks follow.
      let position = top + event.row - 2
      guard event.row >= 2, event.row - 2 < pageHeight, rows.indices.contains(position) else { return }
      let double = lastClick.map { $0.row == position && time - $0.time < 0.4 } ?? false
      select(position)
      if double {
        showsDetails = true
        lastClick = nil
      } else {
        lastClick = (position, time)
      }
    }
  }

  // MARK: Completion

  /// The words that may finish `word` in a prompt: the list's projects and contexts, the
  /// tags with meaning, the commands (first word of a command line).
  func completions(for word: String, prompt: Prompt) -> [String] {
    switch prompt {
    case .due:
      return ["today", "tomorrow", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
        "next", "week", "month", "end", "of"].filter { $0.hasPrefix(word) }
    case .command:
      if case .prompt(_, let editor) = state, editor.text.contains(" ") == false {
        return CommandRegistry.all.filter { !$0.hidden && $0.isListed(in: settings.mode) }.flatMap(\.names)
          .filter { $0.hasPrefix(word) }.sorted()
      }
      fallthrough
    default:
      guard let first = word.first, first == "+" || first == "@" else {
        return TagMeaning.all.map { $0.key + ":" }.filter { $0.hasPrefix(word) && !word.isEmpty }
      }
      var names = Set<String>()
      for task in document.list {
        for name in first == "+" ? task.projects : task.contexts { names.insert(String(first) + name) }
      }
      return names.filter { $0.hasPrefix(word) }.sorted()
    }
  }
}

extension String {
  var trimmingSpaces: String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
