import CReadline
import Glibc
import TodoCommands

/// Reads lines with GNU readline: editing, history (Up, Down, Ctrl-R) kept in a file across
/// sessions, TAB completion, and Ctrl-C to abandon the line being typed.
///
/// This is the only file that uses readline. readline keeps its state in C globals, so there
/// is one reader per process.
package final class ReadlineLineReader: LineReader {
  private let historyFile: String?
  private let historyLimit: Int32

  /// - Parameters:
  ///   - programName: the name for `$if` in an inputrc.
  ///   - historyFile: where the history is read from and appended to; `nil` keeps none.
  ///   - historyLimit: how many lines the history keeps.
  ///   - completer: completes the word under the cursor on TAB.
  package init(
    programName: String, historyFile: String?, historyLimit: Int, completer: LineCompleter?
  ) {
    self.historyFile = historyFile
    self.historyLimit = Int32(clamping: historyLimit)
    // readline keeps the pointer: the copy lives as long as the process, on purpose.
    creadline_set_name(strdup(programName))
    creadline_break_words_on_whitespace()
    creadline_set_sort_completion_matches(0)
    ReadlineBridge.completer = completer
    creadline_set_attempted_completion(completer == nil ? nil : attemptCompletion)
    creadline_set_display_matches_hook(completer == nil ? nil : displayMatches)
    stifle_history(self.historyLimit)
    if let historyFile {
      // Returns an errno value (ENOENT before the first session), not -1: nothing to do then.
      _ = read_history(historyFile)
    }
  }

  package func readLine(prompt: String) -> String? {
    // A parent may leave SIGINT blocked (threads of test runners and of some launchers
    // block signals); Ctrl-C would then do nothing at all.
    var interrupt = sigset_t()
    sigemptyset(&interrupt)
    sigaddset(&interrupt, SIGINT)
    sigprocmask(SIG_UNBLOCK, &interrupt, nil)
    signal(SIGINT, interruptInsideReadline)
    Interruption.clear()
    // Outside readline (while a command runs) Ctrl-C is caught and does nothing, so it cannot
    // end the shell; programs the shell starts get the default again. The handler does not
    // restart a read it interrupts: a question waiting for its answer gets none (no) instead
    // of going on waiting and taking the first key of the next command line.
    defer {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = interruptOutsideReadline
      sigemptyset(&action.sa_mask)
      action.sa_flags = 0
      sigaction(SIGINT, &action, nil)
    }
    // readline returns a malloc'd line, or NULL at end of input (Ctrl-D on an empty line).
    guard let raw = readline(prompt) else { return nil }
    defer { free(raw) }
    lastLineBytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self), count: strlen(raw)))
    return String(cString: raw)
  }

  package private(set) var lastLineBytes: [UInt8]?

  package func addHistory(_ line: String) {
    add_history(line)
    guard let historyFile, HistoryFile.create(historyFile) else { return }
    // Appending line by line keeps what other sessions wrote, and survives a crash.
    _ = append_history(1, historyFile)
    _ = history_truncate_file(historyFile, historyLimit)
  }

  package var lastHistoryEntry: String? {
    creadline_last_history_line().map { String(cString: $0) }
  }
}

/// State shared with readline's C callbacks. readline calls them only from inside
/// `readline()`, on the thread that called it, so unsynchronized access is sound.
private enum ReadlineBridge {
  nonisolated(unsafe) static var completer: LineCompleter?
  nonisolated(unsafe) static var completions: [LineCompletion] = []
}

/// `rl_completion_func_t`: called on TAB with the word under the cursor and its byte range.
private func attemptCompletion(
  _ text: UnsafePointer<CChar>?, _ start: Int32, _ end: Int32
) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
  // Never fall back to readline's own file-name completion.
  creadline_set_attempted_completion_over(1)
  guard let completer = ReadlineBridge.completer, let text else { return nil }
  var before = ""
  if let buffer = creadline_line_buffer() {
    // `start` counts bytes.
    let bytes = UnsafeBufferPointer(
      start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: Int(start))
    before = String(decoding: bytes, as: UTF8.self)
  }
  let completions = completer(before, String(cString: text))
  ReadlineBridge.completions = completions
  if completions.count == 1, !completions[0].appendsSpace {
    creadline_set_completion_append_character(0)
  }
  return rl_completion_matches(text, nextMatch)
}

/// `rl_compentry_func_t`: called with state 0, 1, 2, … until it returns NULL. readline frees
/// each match, so each is a malloc'd copy.
private func nextMatch(_ text: UnsafePointer<CChar>?, _ state: Int32) -> UnsafeMutablePointer<
  CChar
>? {
  let index = Int(state)
  guard index < ReadlineBridge.completions.count else { return nil }
  return strdup(ReadlineBridge.completions[index].replacement)
}

/// `rl_compdisp_func_t`: lists the candidates on the second TAB. Task numbers are listed one a
/// line with their text beside them; other words in readline's own columns.
private func displayMatches(
  _ matches: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ count: Int32, _ maxLength: Int32
) {
  let completions = ReadlineBridge.completions
  rl_crlf()
  if completions.contains(where: { $0.description != nil }) {
    var rows: Int32 = 0
    var columns: Int32 = 0
    rl_get_screen_size(&rows, &columns)
    let width = completions.map(\.value.count).max() ?? 0
    var listing = ""
    for completion in completions {
      var row = completion.value + String(repeating: " ", count: width - completion.value.count)
      if let description = completion.description { row += "  " + description }
      if columns > 1, row.count >= Int(columns) { row = String(row.prefix(Int(columns) - 1)) }
      listing += row + "\n"
    }
    // readline writes through stdio; what it holds goes out first.
    fflush(nil)
    // Task text and names come from the file: shown, never obeyed, by the terminal.
    let bytes = TerminalSafety.visible(Array(listing.utf8))
    var written = 0
    while written < bytes.count {
      let result = bytes[written...].withUnsafeBytes {
        write(STDOUT_FILENO, $0.baseAddress, $0.count)
      }
      if result < 0, errno == EINTR { continue }
      guard result > 0 else { break }
      written += result
    }
  } else {
    rl_display_match_list(matches, count, maxLength)
  }
  rl_forced_update_display()
}

/// Ctrl-C at the prompt: readline has already cleaned up and passes the signal on; the line is
/// dropped and a fresh prompt shown.
private func interruptInsideReadline(_ signal: Int32) {
  rl_replace_line("", 0)
  rl_crlf()
  rl_on_new_line()
  rl_redisplay()
}

private func interruptOutsideReadline(_ signal: Int32) { Interruption.note() }
