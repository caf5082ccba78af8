#if canImport(Glibc)
  import Glibc
#endif

import TodoStore
import TodoTxt

/// Everything that can go wrong in a command, raised as a value and worded in one place
/// (``message(programName:)``).
///
/// Where todo.sh fixes the wording (scripts and its test suite compare it), the message is
/// exactly todo.sh's; the facts, not the prose, are what is shared.
package enum TodoError: Error, Equatable, Sendable {
  /// The two-line usage on standard output (todo.sh's `usage`).
  case usage
  /// An action's own usage line(s) on standard error.
  case actionUsage(String)
  case cannotReadConfiguration(String)
  case cannotEvaluateConfiguration(String)
  case notADirectory(String)
  case badPriorityOnAdd(String)
  case noSuchTask(prefix: String, item: String)
  case destinationMissing(String)
  case sourceMissing(String)
  case fileMissing(String)
  case noTasksDeleted
  case noTasksMoved(prefix: String)
  case termNotFound(String)
  case noDuplicates
  case noSuchAction(String)
  case actionsDirectoryMissing(String)
  case noValidActions(String)
  case brokenActionLink(String)
  case store(StoreError)
  /// Native mode: an action that does not exist, with the nearest one.
  case unknownAction(String, suggestion: String?)
  case unknownOption(String)
  case missingOptionValue(String)
  case badOptionValue(String, String)
  /// Native mode: an option the action does not declare, with its nearest declared option,
  /// or a note that it is a global option (which goes before the action).
  case unknownActionOption(action: String, option: String, suggestion: String?, isGlobal: Bool)
  /// Native mode: a prefix of the long names of several options (`--f` for `--force` and
  /// `--format`), with their names; `action` is `nil` before the action.
  case ambiguousOption(option: String, candidates: [String], action: String?)
  /// `ls -sort`: a search term that spells an option with one dash.
  case singleDashOption(action: String, word: String, option: String)
  /// An option value outside the declared set, with the words it may be.
  case optionValueNotAllowed(option: String, value: String, allowed: [String])
  /// A flag given a value (`--all=yes`).
  case optionTakesNoValue(String)
  /// A command made of subcommands given a word that names none of them.
  case unknownSubcommand(action: String, word: String, choices: [String], suggestion: String?)
  /// `attach`: the task already has a file with these very bytes.
  case alreadyAttached(item: String, name: String)
  /// `--if-match` named another task than the one at that number.
  case taskMismatch(item: String, expected: String, actual: String)
  /// `--if-match` with an action that names no task.
  case nothingToMatch(String)
  /// Native mode: the text of a task is blank.
  case emptyText(String)
  /// Native mode: the text of a task holds a line break (a task is one line).
  case lineBreakInText(String)
  /// Native mode: a search term that is not a valid basic regular expression.
  case badSearchTerm(String)
  /// The configuration file ran into an error.
  case configurationFailed(path: String, detail: String)
  /// `dep`: a task cannot wait for itself.
  case dependencyOnItself(String)
  /// `dep add`: the link would close a circle of tasks waiting for each other.
  case dependencyCycle(parent: String, child: String)
  /// `dep rm`: the task waits for nothing.
  case notWaiting(String)
  /// `dep rm`: the task does not wait for that one.
  case notWaitingFor(parent: String, child: String)
  /// A message already worded (from a child process or a lower layer).
  case message(String)
  /// Native task-model commands (due dates, recurrence, notes, attachments, order).
  case notDone(String)
  /// `depri` on `(A) x text`: without its priority the line would read as a done task.
  case deprioritizingWouldComplete(String)
  case doesNotRecur(String)
  case noTag(item: String, key: String)
  case noNote(String)
  /// In the shell: the line a task number names no longer holds the task last shown there.
  case changedSinceShown(String, line: String)
  case nothingToOpen(String)
  case chooseWhatToOpen(String, count: Int)
  case notADuration(String)
  /// `postpone`: the last word is neither a duration nor a date.
  case notADurationOrDate(String)
  case notADate(String)
  /// Native mode: a word given as a priority that names none.
  case notAPriority(String)
  /// A numeric date that reads differently from country to country (`12/10`), with the days
  /// it may mean.
  case ambiguousDate(String, readings: [TaskDate])
  /// `add --due` with a `due:` tag in the text as well.
  case dueGivenTwice
  /// `postpone` on a task whose `due:` or `t:` holds no real date (`due:2026-02-30`).
  case invalidTagDate(String, key: String, value: String)
  /// `cal`: a word that names no month.
  case notAMonth(String)
  case notATagKey(String)
  case notATagValue(String)
  case noSuchPosition(String)
  case cannotCopy(String, reason: String)
  case childFailed(String, status: Int32)
  /// `merge`: tasks changed on both sides in ways that do not fit; the file holds markers.
  case mergeConflicts(path: String, count: Int)
  /// A file read or written outside the store (the versions a merge is given).
  case cannotReadFile(String)
  case cannotWriteFile(String)
  /// `git-setup`, `sync`: the todo directory is in no git repository.
  case notAGitRepository(String)
  /// `git` failed; the first line it printed.
  case gitFailed(action: String, detail: String)
  /// `sync`: the repository has no remote.
  case noRemote(String)
  /// `sync`: the remote could not be reached; what was committed here stays.
  case offline(remote: String, detail: String)
  /// `sync`: a merge left conflicts in these files (paths from the top of the work tree
  /// `top`) for the user to settle.
  case syncConflict([UnsettledFile], top: String)
  /// `resolve`: a marker line out of place, which only an editor can settle.
  case malformedConflict(path: String, line: Int)
  /// `resolve`: a conflict number that is not a number, or past the last conflict.
  case notAConflictNumber(String)
  case noSuchConflict(Int, count: Int)
  /// `resolve ours|theirs|both` with no conflict in these files.
  case noConflicts(String)
  /// Native mode: a query (`-q`, `find`, a view) that cannot be read; the message points at
  /// the column.
  case badQuery(FilterError)
  /// Native mode: `-q ''`, a query of nothing (it would select every task).
  case emptyQuery(option: String)
  /// Native mode: a `--format` template naming a field that does not exist.
  case unknownField(String)
  /// Native mode: a bulk edit whose query selects no task.
  case noMatchingTasks(String)
  /// Native mode: `view NAME` without a `TODO_VIEW_NAME` in the configuration.
  case unknownView(String)
  /// Native mode: `import` input that is not JSON or lacks a task's text; the detail says
  /// where.
  case badImport(String)
  /// A folder (notes, attachments) could not be created; the `errno` of `mkdir`.
  case cannotCreateDirectory(String, errno: Int32)
  /// Native mode: one task number given twice to a command that changes each task once.
  case taskNamedTwice(String)
  /// `TODO_LOCK_TIMEOUT` is not a number of seconds from 0 to 86400.
  case badLockTimeout(String)
  /// A configuration variable holds a value it cannot take (`TODO_SORT=dew`); `expected`
  /// says what it takes.
  case badSetting(name: String, value: String, expected: String)
  /// Writing to standard output failed (a full disk, a closed file); the `errno`.
  case cannotWriteOutput(Int32)
  /// A control character (C0 but tab, DEL, C1) in input that would become part of a line:
  /// it could split the line or reach a terminal. `what` names the input.
  case controlCharacter(what: String, scalar: UInt32)
  /// Native mode: a bulk edit the user declined.
  case bulkDeclined
  /// `edit`: the user said no to writing what the editor saved.
  case editDeclined
  /// A change asked about first (see ``CommandContext/change(_:label:asking:_:)``): while
  /// the person answered, another program changed or removed (`now` is `nil`) the line the
  /// change was about; nothing was written.
  case changedWhileAsked(line: Int, was: String, now: String?)
  /// `edit`: what the person wrote was not written (they stopped, or the lines they edited
  /// changed meanwhile, `why`); it is kept in the file at `path`.
  case editKept(path: String, why: String?)
  /// `edit`: the editor exited with a status other than 0 (or its file could not be read
  /// back, -1), so what it left is not taken.
  case editorFailed(editor: String, status: Int32)

  /// The text printed for this error (without the final newline).
  package func message(programName: String) -> String {
    switch self {
    case .usage:
      return "Usage: \(programName) [-fhpantvV] [-d todo_config] action [task_number] [task_description]\n"
        + "Try '\(programName) -h' for more information."
    case .actionUsage(let text): return "usage: \(programName) \(text)"
    case .cannotReadConfiguration(let path): return "Fatal Error: Cannot read configuration file \(path)"
    case .cannotEvaluateConfiguration(let path): return "Fatal Error: Cannot evaluate configuration file \(path) with bash"
    case .notADirectory(let path): return "Fatal Error: \(path) is not a directory"
    case .badPriorityOnAdd(let value):
      return "TODOTXT_PRIORITY_ON_ADD should be a capital letter from A to Z (it is now \"\(value)\")."
    case .noSuchTask(let prefix, let item): return "\(prefix): No task \(item)."
    case .destinationMissing(let path): return "TODO: Destination file \(path) does not exist."
    case .sourceMissing(let path): return "TODO: Source file \(path) does not exist."
    case .fileMissing(let name): return "TODO: File \(name) does not exist."
    case .noTasksDeleted: return "TODO: No tasks were deleted."
    case .noTasksMoved(let prefix): return "\(prefix): No tasks moved."
    case .termNotFound(let term): return "TODO: '\(term)' not found; no removal done."
    case .noDuplicates: return "TODO: No duplicate tasks found"
    case .noSuchAction(let name): return "TODO: No action \"\(name)\" exists."
    case .actionsDirectoryMissing(let path): return "TODO: '\(path)' does not exist."
    case .noValidActions(let path): return "TODO: '\(path)' does not contain valid actions."
    case .brokenActionLink(let path): return "Fatal Error: Broken link to custom action: '\(path)'"
    case .store(let error): return "\(programName): \(error.description)"
    case .unknownAction(let name, let suggestion):
      let hint = suggestion.map { "; did you mean '\($0)'?" } ?? ""
      return "\(programName): unknown action '\(name)'\(hint) (see '\(programName) help')"
    case .unknownOption(let option): return "\(programName): unknown option '\(shown(option))' (see '\(programName) --help')"
    case .missingOptionValue(let option): return "\(programName): option '\(option)' needs a value"
    case .badOptionValue(let option, let value): return "\(programName): option '\(option)' does not take '\(value)'"
    case .singleDashOption(let action, let word, let option):
      let term = String(word.dropFirst())
      let use = option.hasPrefix("--")
        ? "'\(programName) \(action) \(option)'" : "'\(programName) \(option) \(action)' (before the action)"
      return "\(programName): '\(word)' would hide every task containing '\(term)': for the option write \(use); "
        + "to hide those tasks write '\(programName) \(action) -- \(word)'"
    case .unknownActionOption(let action, let option, let suggestion, let isGlobal):
      if isGlobal {
        return "\(programName): '\(option)' is an option of \(programName) itself: put it before '\(action)'"
      }
      let hint = suggestion.map { "; did you mean '\($0)'?" } ?? ""
      return "\(programName): '\(action)' has no option '\(shown(option))'\(hint) (see '\(programName) \(action) --help'; '--' ends the options)"
    case .ambiguousOption(let option, let candidates, let action):
      let help = action.map { "'\(programName) \($0) --help'" } ?? "'\(programName) --help'"
      let names = candidates.dropLast().joined(separator: ", ") + " or " + (candidates.last ?? "")
      return "\(programName): option '\(shown(option))' is ambiguous: did you mean \(names)? (see \(help))"
    case .optionValueNotAllowed(let option, let value, let allowed):
      return "\(programName): option '\(option)' does not take '\(value)'; it takes \(allowed.joined(separator: ", "))"
    case .optionTakesNoValue(let option): return "\(programName): option '\(option)' takes no value"
    case .alreadyAttached(let item, let name):
      return "TODO: \(item) already has this file attached as '\(name)'; nothing done."
    case .unknownSubcommand(let action, let word, let choices, let suggestion):
      let hint = suggestion.map { "did you mean '\($0)'? " } ?? ""
      return "\(programName): '\(action)' has no subcommand '\(word)'; \(hint)it has \(choices.joined(separator: ", "))"
    case .taskMismatch(let item, let expected, let actual):
      return "\(programName): task \(item) is '\(actual)', not '\(expected)'; nothing was changed"
    case .nothingToMatch(let action): return "\(programName): '\(action)' names no task for --if-match to check"
    case .emptyText(let action): return "\(programName): \(action): the task text is empty"
    case .lineBreakInText(let action):
      return "\(programName): \(action): the task text has a line break (a task is one line; use addm for several)"
    case .badSearchTerm(let term): return "\(programName): invalid search term '\(term)'"
    case .configurationFailed(let path, let detail): return "\(programName): error in configuration file \(path): \(detail)"
    case .dependencyOnItself(let item): return "TODO: \(item) cannot wait for itself."
    case .dependencyCycle(let parent, let child):
      return "TODO: \(child) already waits for \(parent); \(parent) cannot wait for \(child) too."
    case .notWaiting(let item): return "TODO: \(item) does not wait for any task."
    case .notWaitingFor(let parent, let child): return "TODO: \(parent) does not wait for \(child)."
    case .message(let text): return text
    case .notDone(let item): return "TODO: \(item) is not marked done."
    case .deprioritizingWouldComplete(let item):
      return "TODO: \(item) starts with 'x ' after its priority: without the priority it would read as done."
    case .doesNotRecur(let item): return "TODO: \(item) has no rec: tag."
    case .noTag(let item, let key): return "TODO: \(item) has no \(key): tag."
    case .noNote(let item): return "TODO: \(item) has no note."
    case .changedSinceShown(let item, let line):
      return "\(programName): task \(item) changed on disk since it was shown ('\(line)'); nothing done"
    case .nothingToOpen(let item): return "TODO: \(item) has no note, attachment or link to open."
    case .chooseWhatToOpen(let item, let count):
      return "TODO: \(item) has \(count) things to open; name one: \(programName) open \(item) 1..\(count)"
    case .notADuration(let text):
      return "\(programName): '\(text)' is not a duration (a number and d, w, m, y or b: 3d, 2w, 5b)"
    case .notADurationOrDate(let text):
      return "\(programName): '\(shown(text))' is neither a duration (3d, 2w, 5b, 3 days, 2 weeks) nor a date "
        + "(2026-05-01, tomorrow, fri, next fri, in 3 days, dec 10, next week, weekend, +2w, eom)"
    case .invalidTagDate(let item, let key, let value):
      return "TODO: \(item) has \(key):\(value), which is not a date; fix it before postponing."
    case .notADate(let text):
      return "\(programName): '\(shown(text))' is not a date; dates are written 2026-05-01, today, tomorrow, fri, "
        + "next fri, this fri, in 3 days, +3d, 2w, dec 10, 10 dec 2026, next week, next month, weekend, eom, eow, eoy "
        + "(in a due: or t: tag, one word: next-fri, in-3-days, dec10, 10dec)"
    case .notAPriority(let text):
      return "\(programName): '\(shown(text))' is not a priority: a letter from A to Z, or high, medium or low (h, m, l)"
    case .ambiguousDate(let text, let readings):
      let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
      ]
      let named = readings.map { "\($0) (\($0.day) \(months[$0.month - 1]))" }
      guard !named.isEmpty else { return TodoError.notADate(text).message(programName: programName) }
      let choice = named.count == 1 ? named[0] : named.dropLast().joined(separator: ", ") + " or " + named[named.count - 1]
      return "\(programName): '\(shown(text))' is not read the same way in every country; write the date as \(choice)"
    case .dueGivenTwice:
      return "\(programName): add: the due date is given twice, by --due and by a due: tag in the text"
    case .notAMonth(let text):
      return "\(programName): '\(text)' is not a month (2026-12, 12, dec, december, next or prev)"
    case .notATagKey(let text): return "\(programName): '\(text)' cannot be a tag key (no spaces or colons)"
    case .notATagValue(let text): return "\(programName): '\(text)' cannot be a tag value (no spaces or colons)"
    case .noSuchPosition(let text): return "TODO: There is no line \(text) to move to."
    case .cannotCopy(let path, let reason): return "\(programName): cannot copy \(path): \(reason)"
    case .childFailed(let command, let status): return "\(programName): '\(command)' failed with status \(status)"
    case .mergeConflicts(let path, let count):
      return "\(programName): \(count) task\(count == 1 ? "" : "s") changed on both sides in \(path): "
        + "keep the right lines between <<<<<<< and >>>>>>> and remove the markers, or run '\(programName) resolve'"
    case .cannotReadFile(let path): return "\(programName): cannot read \(path)"
    case .cannotWriteFile(let path): return "\(programName): cannot write \(path)"
    case .notAGitRepository(let directory):
      return "\(programName): \(directory) is not in a git repository (start one: git -C \(directory) init)"
    case .gitFailed(let action, let detail): return "\(programName): git \(action) failed: \(detail)"
    case .noRemote(let directory):
      return "\(programName): the repository of \(directory) has no remote to sync with "
        + "(add one: git -C \(directory) remote add origin URL)"
    case .offline(let remote, let detail):
      return "\(programName): cannot reach '\(remote)' (\(detail)); "
        + "the changes made here are committed and go out with the next sync"
    case .syncConflict(let files, let top):
      // Each kind of file is named with the step that settles it: `resolve` reads only the
      // list files, and a file without marker lines has no lines to pick.
      func paths(_ kind: UnsettledFile.Kind) -> [String] { files.filter { $0.kind == kind }.map(\.path) }
      var steps: [String] = []
      let markers = "between <<<<<<< and >>>>>>> and remove the markers"
      if case let lists = paths(.list), !lists.isEmpty {
        steps.append("keep the right lines of \(lists.joined(separator: ", ")) \(markers) (or run '\(programName) resolve')")
      }
      if case let texts = paths(.text), !texts.isEmpty {
        steps.append("keep the right lines of \(texts.joined(separator: ", ")) \(markers)")
      }
      for path in paths(.whole) {
        steps.append(
          "\(path) has no lines to pick: keep one version with 'git checkout --ours -- \(path)' (or --theirs) "
            + "and 'git add \(path)' in \(top)")
      }
      return "\(programName): \(files.map(\.path).joined(separator: ", ")) changed on both sides in ways that need you: "
        + steps.joined(separator: "; ") + ", then run '\(programName) sync' again"
    case .malformedConflict(let path, let line):
      return "\(programName): \(path):\(line): a merge conflict marker out of place; settle this file in an editor"
    case .notAConflictNumber(let word): return "\(programName): resolve: '\(word)' is not a conflict number"
    case .noSuchConflict(let number, let count):
      return "\(programName): resolve: no conflict \(number) (there \(count == 1 ? "is 1" : "are \(count)"))"
    case .noConflicts(let files): return "\(programName): resolve: no merge conflicts in \(files)"
    case .emptyQuery(let option):
      return "\(programName): the query of \(option) is empty; it would select every task (for every task say so: -q 'open or done')"
    case .badQuery(let error): return "\(programName): \(error.description)\n  " + error.pointer.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n  ")
    case .unknownField(let name):
      return "\(programName): unknown field {\(name)} in --format (see '\(programName) help ls' for the fields)"
    case .noMatchingTasks(let query): return "\(programName): no task matches '\(query)'; nothing changed"
    case .unknownView(let name):
      return "\(programName): no view '\(name)' (save one with '\(programName) view --add \(name) QUERY'; '\(programName) view' lists them)"
    case .badImport(let detail): return "\(programName): import: \(detail)"
    case .cannotCreateDirectory(let path, let code):
      return "\(programName): cannot create \(path): \(String(cString: strerror(code)).lowercased())"
    case .taskNamedTwice(let item):
      return "\(programName): task \(item) is named more than once; nothing changed"
    case .badLockTimeout(let text):
      return "\(programName): TODO_LOCK_TIMEOUT should be a number of seconds from 0 to 86400, not '\(text.unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "?" : String($0) }.joined())'"
    case .badSetting(let name, let value, let expected):
      let shown = value.unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "?" : String($0) }
      return "\(programName): \(name) should be \(expected), not '\(shown.joined())'"
    case .cannotWriteOutput(let code):
      return "\(programName): cannot write to standard output: \(String(cString: strerror(code)).lowercased())"
    case .controlCharacter(let what, let scalar):
      let code = String(scalar, radix: 16, uppercase: true)
      return "\(programName): \(what) holds the control character U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code); nothing written"
    case .bulkDeclined: return "\(programName): nothing changed"
    case .editDeclined: return "\(programName): edit: nothing changed"
    case .changedWhileAsked(let line, let was, let now?):
      return "\(programName): task \(line) changed while you were asked: was '\(TodoError.oneLine(was))', now '\(TodoError.oneLine(now))'; nothing changed"
    case .changedWhileAsked(let line, let was, nil):
      return "\(programName): task \(line) was removed while you were asked: was '\(TodoError.oneLine(was))'; nothing changed"
    case .editKept(let path, let why):
      let reason = why.map { $0 + "; " } ?? ""
      return "\(programName): edit: \(reason)nothing changed; what you wrote is kept in '\(TodoError.oneLine(path))'"
    case .editorFailed(let editor, let status):
      let how = status < 0 ? "left no file to read" : "exited with status \(status)"
      return "\(programName): edit: the editor '\(editor)' \(how); nothing changed"
    }
  }

  /// `text` with its control characters shown as `?`, so that a message cannot drive the
  /// terminal.
  private func shown(_ text: String) -> String {
    String(text.unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "?" : Character($0) })
  }

  /// Whether the message goes to standard output (todo.sh prints its usage there).
  var goesToStandardOutput: Bool { self == .usage }

  /// Text from a file (a task, a path) in a one-line message: its control characters as `^X`.
  static func oneLine(_ text: String) -> String {
    String(decoding: TerminalSafety.caret(Array(text.utf8), keepingNewlines: false), as: UTF8.self)
  }
}

/// What todo.sh's `grep` says on standard error while a listing goes on (todo.sh still exits
/// 0): worded as grep words it, since scripts compare todo.sh's output.
enum SearchNotice: Equatable, Sendable {
  /// A search term grep cannot compile: glibc's `regerror` text where grep says the same.
  case badPattern(String)
  /// A `\)` with no `\(` before it (glibc names the opening one).
  case unmatchedCloseGroup
  /// `[:space:]` written for `[[:space:]]`, which grep refuses.
  case classOutsideBracket
  /// In a multibyte locale grep holds back a line it would print that is not text there (an
  /// invalid byte sequence), and says so once.
  case binaryFileMatches

  var message: String {
    switch self {
    case .badPattern(let reason): return "grep: \(reason)"
    case .unmatchedCloseGroup: return "grep: Unmatched ) or \\)"
    case .classOutsideBracket: return "grep: character class syntax is [[:space:]], not [:space:]"
    case .binaryFileMatches: return "grep: (standard input): binary file matches"
    }
  }
}

/// A file a sync's merge left for the user, and what kind of step settles it.
package struct UnsettledFile: Sendable, Equatable {
  package enum Kind: Sendable, Equatable {
    /// todo.txt or done.txt with marker lines: `resolve`, or an editor.
    case list
    /// Another file with marker lines (a note): an editor.
    case text
    /// A file without marker lines (an attachment, a file deleted on one side): one side's
    /// version, picked with git.
    case whole
  }

  /// From the top of the work tree.
  package var path: String
  package var kind: Kind
}
