import TodoStore
import TodoTxt

/// Everything a command may touch: settings, output, clock, files, standard input and child
/// processes, and the command's own parsed words. Commands reach the outside world only
/// through it, so tests can hand in their own.
///
/// A context never changes: a command that needs other settings, or runs another command,
/// makes a context of its own from this one (``init(_:settings:invocation:snapshotCheck:shellRequest:)``).
/// What does change while a command runs is where its output goes (held back while a change
/// is written), and that is the ``OutputSink``'s state.
package final class CommandContext {
  package let settings: Settings
  /// Where output goes; while a change is being written it is held back (see ``storing(_:)``).
  package let console: OutputSink
  package let clock: Clock
  package let store: TodoStore
  package let input: InputSource
  let runner: ProcessRunner
  /// How to open the interactive shell; `nil` inside it, so that it is not opened twice.
  let shellRequest: ShellCommand.Request?
  /// The options and positionals of the command being run, as parsed against its
  /// declaration (native mode; empty under the name todo.sh, where every word is an argument).
  package let invocation: Invocation
  /// In the shell, the text of each task number of the line as the user last saw it (see
  /// ``SessionCache/shownTasks``): the command acts only when each number still names that
  /// text, on the very snapshot it changes.
  package let shownTasks: [Int: [UInt8]]
  /// The check of the command's task numbers (``NativeValidation``), run on every snapshot of
  /// todo.txt the command reads here or changes through the store (see
  /// ``TodoStore/snapshotCheck`` and ``checkingSnapshots(_:)``), so it always judges the
  /// version acted on.
  let snapshotCheck: NativeValidation.ListCheck?

  package convenience init(
    settings: Settings, console: Console, clock: Clock, store: TodoStore, input: InputSource,
    shownTasks: [Int: [UInt8]] = [:]
  ) {
    self.init(
      settings: settings, console: OutputSink.over(console), clock: clock, store: store, input: input,
      runner: ProcessRunner(), shellRequest: nil, invocation: Invocation(), shownTasks: shownTasks,
      snapshotCheck: nil)
  }

  private init(
    settings: Settings, console: OutputSink, clock: Clock, store: TodoStore, input: InputSource,
    runner: ProcessRunner, shellRequest: ShellCommand.Request?, invocation: Invocation,
    shownTasks: [Int: [UInt8]], snapshotCheck: NativeValidation.ListCheck?
  ) {
    self.settings = settings
    self.console = console
    self.clock = clock
    self.store = store
    self.input = input
    self.runner = runner
    self.shellRequest = shellRequest
    self.invocation = invocation
    self.shownTasks = shownTasks
    self.snapshotCheck = snapshotCheck
  }

  /// A context like `parent` in all but what is given: the same output sink, clock, store,
  /// input and process runner. For the two optional parts, `nil` keeps the parent's and
  /// `.some(nil)` takes it away (a command run by another checks no snapshot of its own).
  convenience init(
    _ parent: CommandContext, settings: Settings? = nil, invocation: Invocation? = nil,
    snapshotCheck: NativeValidation.ListCheck?? = nil, shellRequest: ShellCommand.Request?? = nil
  ) {
    self.init(
      settings: settings ?? parent.settings, console: parent.console, clock: parent.clock, store: parent.store,
      input: parent.input, runner: parent.runner, shellRequest: shellRequest ?? parent.shellRequest,
      invocation: invocation ?? parent.invocation, shownTasks: parent.shownTasks,
      snapshotCheck: snapshotCheck ?? parent.snapshotCheck)
  }

  /// Runs `body` with this context's ``snapshotCheck`` as the store's, and the store's
  /// earlier check back after: a command run by another (`do` running `archive`) judges its
  /// snapshots by its own words, not by the words of the command that runs it.
  func checkingSnapshots<R, Failure: Error>(_ body: () throws(Failure) -> R) throws(Failure) -> R {
    let outer = store.snapshotCheck
    if let check = snapshotCheck {
      let file = settings.todoFile
      store.snapshotCheck = { path, list in
        if path == file { try check(list) }
      }
    } else {
      store.snapshotCheck = nil
    }
    defer { store.snapshotCheck = outer }
    return try body()
  }

  package var today: TaskDate { clock.today }

  /// The conflicted copies (Dropbox, Syncthing) waiting beside todo.txt and done.txt, by
  /// name: what the shell's prompt counts (see ``ConflictsCommand``).
  package var waitingConflictedCopies: [String] { ConflictsCommand.waitingCopies(self) }
  var verbose: Bool { settings.verbosity > 0 }

  /// Writes a listing's summary: `--`, then `lines` (`TODO: 2 of 5 tasks shown`). On
  /// standard error when standard output is not a terminal under the name todo (see
  /// ``ModePolicy/summarizesOnErrorWhenPiped``), else on standard output after the tasks.
  func summary(_ lines: [String]) {
    let toError = settings.policy.summarizesOnErrorWhenPiped && !console.isTerminal
    for line in ["--"] + lines {
      if toError { console.errorLine(line) } else { console.line(line) }
    }
  }
  var programName: String { settings.programName }

  /// `TODO:`-style prefix of a file: its name up to the first dot that is followed by a
  /// non-dot, upper-cased (`todo.txt` → `TODO`, `my.list.txt` → `MY`).
  static func prefix(of path: String) -> String {
    let base = Array(Posix.basename(path).utf8)
    var end = base.count
    var index = 0
    while index + 1 < base.count {
      if base[index] == UInt8(ascii: "."), base[index + 1] != UInt8(ascii: ".") {
        end = index
        break
      }
      index += 1
    }
    return String(decoding: base[..<end], as: UTF8.self).uppercased()
  }

  var todoPrefix: String { CommandContext.prefix(of: settings.todoFile) }

  /// Reads a list for display; a missing file is an empty list (native mode creates files only
  /// when it first writes them).
  func readList(_ path: String) throws(TodoError) -> TodoList {
    let list: TodoList
    do {
      list = try store.read(path)
    } catch {
      guard case .notFound = error.kind else { throw .store(error) }
      list = TodoList()
    }
    if let snapshotCheck, path == settings.todoFile { try snapshotCheck(list) }
    return list
  }

  /// A file's bytes, as ``readList(_:)`` reads them (a missing file is empty).
  func readBytes(_ path: String) throws(TodoError) -> [UInt8] {
    do {
      return try store.readBytes(path)
    } catch {
      if case .notFound = error.kind { return [] }
      throw .store(error)
    }
  }

  /// The files' bytes one after another in one buffer, and where each file's end (see
  /// ``TodoStore/readBytes(joining:)``); a file that is not there is empty.
  func readBytes(joining paths: [String]) throws(TodoError) -> (bytes: [UInt8], ends: [Int]) {
    do {
      return try store.readBytes(joining: paths)
    } catch {
      throw .store(error)
    }
  }

  /// A file's lines, as ``readBytes(_:)`` reads them, with what earlier lines of the shell
  /// worked out from this version of the file (`nil` outside the shell; see ``DerivedFacts``).
  func readLines(_ path: String, raw: Bool) throws(TodoError) -> (lines: Lines, facts: DerivedFacts?) {
    let bytes: [UInt8]
    let facts: DerivedFacts?
    do {
      (bytes, facts) = try store.readBytesAndFacts(path)
    } catch {
      if case .notFound = error.kind { return (Lines(), nil) }
      throw .store(error)
    }
    guard let facts else { return (Lines(bytes: bytes, raw: raw), nil) }
    let kept = facts.value(ListingFact.Lines(raw: raw)) { Kept(Lines(bytes: bytes, raw: raw)) }
    return (kept.value, facts)
  }

  /// Runs a store operation, turning its errors into ``TodoError``.
  ///
  /// What the operation prints is held back until the files are written: if writing fails,
  /// the confirmations (standard output) are dropped, so nothing claims a change that did not
  /// happen; warnings (standard error) are still shown, in order, before the error.
  func storing<R>(_ body: () throws -> R) throws(TodoError) -> R {
    let outer = console.destination
    let recorder = RecordingConsole(isTerminal: outer.isTerminal, columns: outer.columns)
    do {
      let result = try console.holding(recorder) { () throws -> R in try body() }
      recorder.replay(to: outer, includingOutput: true)
      return result
    } catch let error as TodoError {
      recorder.replay(to: outer, includingOutput: true)
      throw error
    } catch let error as StoreError {
      recorder.replay(to: outer, includingOutput: false)
      throw .store(error)
    } catch {
      recorder.replay(to: outer, includingOutput: false)
      throw .message("\(programName): \(error)")
    }
  }

  /// A change of `paths` that may wait on a person (a question, text to type), as
  /// `store.update(paths, label:)` with `edit`, but never holding the lists' lock while the
  /// person thinks: another process (a script's `add`) would fail after the lock's timeout.
  ///
  /// With `asking`, the files are read without the lock, `edit` asks (on the console from
  /// before the change, as under ``storing(_:)``) and edits them, and its edits are then
  /// written under the lock, re-applied by content onto whatever else changed meanwhile (see
  /// `TodoStore.update(_:label:editedAfterReading:)`). When a line the edits change or remove
  /// (the task asked about) changed meanwhile, nothing is written:
  /// ``TodoError/changedWhileAsked(line:was:now:)``. Without `asking` (forced, or nothing to
  /// ask) it is an ordinary change under the lock.
  ///
  /// - Returns: what `edit` returned, and how many lines each file has as written.
  func change<R>(_ paths: [String], label: String, asking: Bool, _ edit: (inout [TodoList]) throws -> R)
    throws(TodoError) -> (result: R, lineCounts: [Int])
  {
    do {
      return try storing {
        guard asking else {
          var counts: [Int] = []
          let result = try store.update(paths, label: label) { lists in
            defer { counts = lists.map(\.count) }
            return try edit(&lists)
          }
          return (result, counts)
        }
        var lists = try paths.map { path throws(TodoError) in try readList(path) }
        let result = try edit(&lists)
        return (result, try store.update(paths, label: label, editedAfterReading: lists))
      }
    } catch {
      if case .store(let stored) = error, case .conflict(let line, let was, let now) = stored.kind {
        throw .changedWhileAsked(line: line, was: was, now: now)
      }
      throw error
    }
  }

  /// ``change(_:label:asking:_:)`` of one file.
  func change<R>(_ path: String, label: String, asking: Bool, _ edit: (inout TodoList) throws -> R)
    throws(TodoError) -> R
  {
    try change([path], label: label, asking: asking) { lists in try edit(&lists[0]) }.result
  }

  /// What `body` writes to standard output, kept instead of written (errors still go out).
  func capturingOutput(_ body: () throws(TodoError) -> Void) throws(TodoError) -> [UInt8] {
    let outer = console.destination
    let recorder = CapturingConsole(isTerminal: outer.isTerminal, columns: outer.columns)
    try console.holding(recorder) { () throws(TodoError) in try body() }
    if !recorder.errors.isEmpty { outer.writeError(recorder.errors) }
    return recorder.output
  }

  /// What `body` writes, held back until `replay` is called: work done early (``ListAllCommand``
  /// counts its tasks before it lists them) shows what it wrote where it stands in the output.
  func holdingBack<R>(_ body: () -> R) -> (result: R, replay: () -> Void) {
    let outer = console.destination
    let recorder = RecordingConsole(isTerminal: outer.isTerminal, columns: outer.columns)
    let result = console.holding(recorder) { body() }
    return (result, { recorder.replay(to: outer, includingOutput: true) })
  }

  /// Shows text longer than the terminal through `$PAGER` (else `less -FRX`), as other
  /// tools do with their long help; on anything but a terminal, and under the name todo.sh,
  /// it is written as it is. A pager that cannot be started leaves the text written whole.
  func page(_ text: [UInt8]) {
    let rows = settings.variables["LINES"].flatMap { Int($0) } ?? Posix.terminalRows(1)
    let lineCount = text.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    guard settings.policy.pagesLongOutput, console.isTerminal, input.isTerminal, let rows, lineCount >= rows else {
      return console.write(text)
    }
    let chosen = settings.variables["PAGER"].flatMap { $0.trimmingSpaces().isEmpty ? nil : $0 }
    guard let pager = chosen ?? ProcessRunner.which("less", path: settings.value("PATH")).map({ _ in "less -FRX" })
    else { return console.write(text) }
    console.flush()
    let status = runner.run(["/bin/sh", "-c", pager], environment: childEnvironment, input: TerminalSafety.escape(text)).status
    if status == 127 { console.write(text) }
  }

  /// The environment for child processes: every variable of the settings.
  var childEnvironment: [String: String] { settings.variables }
}

/// Standard input, for the questions todo.sh asks (`Add:`, `Delete '…'? (y/n)`).
package protocol InputSource: AnyObject {
  /// Standard input is a terminal (prompts are shown only then, as bash's `read -p` does).
  var isTerminal: Bool { get }
  /// One line without its newline, or `nil` at end of input.
  func readLine() -> [UInt8]?
  /// One character (bash's `read -N 1`), or `nil` at end of input.
  func readCharacter() -> [UInt8]?
}

/// Holds a command's output in order while its change is written.
final class RecordingConsole: Console {
  private var events: [(isError: Bool, bytes: [UInt8])] = []
  let isTerminal: Bool
  let columns: Int?

  init(isTerminal: Bool, columns: Int?) {
    self.isTerminal = isTerminal
    self.columns = columns
  }

  func write(_ bytes: [UInt8]) { events.append((false, bytes)) }
  func writeError(_ bytes: [UInt8]) { events.append((true, bytes)) }
  func flush() {}

  func replay(to console: Console, includingOutput: Bool) {
    for event in events {
      if event.isError {
        console.writeError(event.bytes)
      } else if includingOutput {
        console.write(event.bytes)
      }
    }
    events = []
  }
}

/// A value kept among a file's ``DerivedFacts``.
final class Kept<Value> {
  var value: Value
  init(_ value: Value) { self.value = value }
}
