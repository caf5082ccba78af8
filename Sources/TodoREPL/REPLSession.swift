import TodoCommands
import TodoTxt

/// The shell's loop: reads a line, splits it into words and runs them as one command line of
/// the tool, until `quit`, `exit` or end of input.
///
/// Each line goes through ``TodoCLI/run(arguments:environment:console:input:shell:)`` with the
/// program name and the options the shell was opened with in front, so every action, option
/// and add-on behaves, and prints, exactly as on the command line. What stays the same from
/// one line to the next (the settings, the files nobody changed) is kept in a
/// ``SessionCache``, unless `TODO_SHELL_CACHE=0`.
package final class REPLSession {
  /// What a line asks of the loop.
  package enum Event: Equatable {
    case `continue`
    case quit
  }

  let launch: ShellLaunch
  let reader: LineReader
  /// A person is typing: prompts and history. Both kinds of session check the file for
  /// outside edits before every line.
  let interactive: Bool
  /// Kept between lines; `nil` when `TODO_SHELL_CACHE=0`.
  let cache: SessionCache?
  private var watch: TodoFileWatch
  private var lastRecorded: String?
  /// A line failed (batch mode exits non-zero then).
  package private(set) var failed = false

  /// A session with the cache the launch's environment asks for (see
  /// ``SessionCache/make(environment:)``).
  package convenience init(launch: ShellLaunch, reader: LineReader, interactive: Bool) {
    self.init(
      launch: launch, reader: reader, interactive: interactive,
      cache: SessionCache.make(environment: launch.environment))
  }

  /// - Parameter cache: what lines keep for the next; `nil` keeps nothing.
  package init(launch: ShellLaunch, reader: LineReader, interactive: Bool, cache: SessionCache?) {
    self.launch = launch
    self.reader = reader
    self.interactive = interactive
    self.cache = cache
    // The shell's own reads (the prompt's counts, completion, the watch) share it too.
    launch.context.store.readCache = cache?.reads
    watch = TodoFileWatch(path: launch.context.settings.todoFile, store: launch.context.store)
    lastRecorded = reader.lastHistoryEntry
  }

  private var console: Console { launch.context.console }
  private var programName: String { launch.context.settings.programName }

  /// Runs lines until the input ends or one says to quit.
  ///
  /// - Returns: success when a person was typing; in batch mode, failure when any line failed.
  package func run() -> ExitStatus {
    while true {
      console.flush()
      guard let line = reader.readLine(prompt: interactive ? prompt() : "") else {
        // After Ctrl-D the terminal's next prompt starts on a line of its own.
        if interactive { console.line("") }
        break
      }
      if handle(line, bytes: reader.lastLineBytes) == .quit { break }
    }
    console.flush()
    return interactive || !failed ? .success : .failure
  }

  /// The prompt, with the counts of the todo file as it is now.
  func prompt() -> String {
    let today = Clock.current(environment: launch.environment).today
    return ShellPrompt.text(
      programName: programName, list: watch.read(), today: today,
      conflictedCopies: launch.context.waitingConflictedCopies.count)
  }

  /// Runs one line.
  ///
  /// - Parameter bytes: the line as it was read, when the reader kept it: the words of a line
  ///   that is not UTF-8 keep their bytes (``RawArguments``), as on the command line.
  package func handle(_ line: String, bytes: [UInt8]? = nil) -> Event {
    let trimmed = line.drop { $0 == " " || $0 == "\t" }
    // Blank lines and comments (for scripts in batch mode) do nothing.
    guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return .continue }
    var words: [String]
    do {
      words = try ShellWords.split(line)
      // Each line's words alone: a valid line keeps nothing of an earlier line's bytes.
      let raw = bytes.flatMap { String(validating: $0, as: UTF8.self) == nil ? ShellWords.split(bytes: $0) : nil }
      RawArguments.record(raw ?? [], replacing: true)
    } catch {
      recordInHistory(line)
      fail("\(programName): \(error.message)")
      return .continue
    }
    // Leaving is not kept in the history: Up and Enter in the next session would leave again.
    if words.count == 1, ["exit", "quit"].contains(words[0].lowercased()) { return .quit }
    recordInHistory(line)
    // Habit from the command line: `todo ls` in the shell means `ls`, and `?` asks for help.
    if words.count > 1, words[0] == programName || words[0] == "todo" || words[0] == "todo.sh" {
      words.removeFirst()
    }
    if words == ["?"] { words = ["help"] }
    // A script's task numbers are checked as a person's are: another program may change the
    // file between two of its lines as well.
    var shown: [Int: [UInt8]] = [:]
    if watch.hasChanged {
      console.errorLine("\(basename(watch.path)) changed on disk; re-read")
      guard let checked = checkTaskNumbers(words, shown: &shown) else {
        watch.markSeen()
        return .continue
      }
      words = checked
    } else {
      for number in taskNumbers(in: words) { shown[number] = watch.seenTask(number) }
    }
    // The command checks each number against what was shown on the very version it changes:
    // another program may still move the lines after the check above.
    cache?.shownTasks = shown
    cache?.reads.beginRound()
    let status = TodoCLI.run(
      arguments: [launch.programPath] + launch.options + words, environment: launch.environment,
      console: console, input: launch.context.input, cache: cache)
    console.flush()
    cache?.shownTasks = [:]
    if status != .success { failed = true }
    // What the line listed is what the user saw, though the file may have been replaced
    // since the listing read it.
    if let version = cache?.reads.handedOut(watch.path) {
      watch.markSeen(stamp: version.stamp, bytes: version.bytes)
    } else {
      watch.markSeen()
    }
    return .continue
  }

  /// The task numbers the line's words name (`do 3 4,5`).
  private func taskNumbers(in words: [String]) -> [Int] {
    TaskNumberPositions.find(in: words, mode: launch.context.settings.mode).flatMap { position in
      words[position].split(separator: ",").compactMap { part in
        part.allSatisfy({ $0.isASCII && $0.isNumber }) ? Int(part) : nil
      }
    }
  }

  private func recordInHistory(_ line: String) {
    guard interactive, line != lastRecorded else { return }
    reader.addHistory(line)
    lastRecorded = line
  }

  private func fail(_ message: String) {
    console.errorLine(message)
    failed = true
  }

  /// The line's words with every task number moved to where its task went since the file was
  /// last seen, or `nil` (after saying why) when a task the line names was changed or removed.
  private func checkTaskNumbers(_ words: [String], shown: inout [Int: [UInt8]]) -> [String]? {
    let current = watch.read()
    let seen = watch.seen
    var words = words
    for position in TaskNumberPositions.find(in: words, mode: launch.context.settings.mode) {
      var parts: [String] = []
      for part in words[position].split(separator: ",", omittingEmptySubsequences: false) {
        guard part.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(part) else {
          parts.append(String(part))
          continue
        }
        let text = watch.seenTask(number)
        switch TodoFileWatch.resolve(number, in: current, seen: seen) {
        case .unchanged:
          parts.append(String(part))
          shown[number] = text
        case .moved(let newNumber):
          console.errorLine("task \(part) is now task \(newNumber)")
          parts.append(String(newNumber))
          shown[newNumber] = text
        case .lost(let line):
          fail(
            "\(programName): task \(part) changed on disk since it was shown ('\(line)'); nothing done"
          )
          return nil
        }
      }
      words[position] = parts.joined(separator: ",")
    }
    return words
  }

  private func basename(_ path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
  }
}
