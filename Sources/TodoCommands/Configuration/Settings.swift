import TodoStore

/// Which behaviour the tool follows, chosen by the name it is invoked under.
package enum Mode: Sendable, Equatable {
  /// Invoked as `todo.sh`: exactly todo.sh's behaviour and defaults.
  case todoSh
  /// Invoked as `todo`: the same actions and output formats, with modern defaults.
  case native

  /// The mode of the program at `path` (`argv[0]`): todo.sh's under that name, else the tool's.
  package init(programPath path: String) {
    self = Posix.basename(path) == "todo.sh" ? .todoSh : .native
  }
}

/// The configuration in force: todo.sh's variables after the environment, the options and the
/// configuration file have been applied, in todo.sh's order of precedence.
///
/// The variables are kept as one table of strings, like the shell variables todo.sh works with,
/// because that table is also what add-ons and the user's own filter commands receive. Typed
/// accessors read from it.
package struct Settings: Sendable {
  package var mode: Mode
  package var variables: [String: String]
  /// `--if-match`: the text or ``Task/contentHash`` the named task must have.
  package var expectedTask: String?

  package init(mode: Mode, variables: [String: String]) {
    self.mode = mode
    self.variables = variables
  }

  package subscript(name: String) -> String? {
    get { variables[name] }
    set { variables[name] = newValue }
  }

  /// A variable's value, or `""` when unset.
  func value(_ name: String) -> String { variables[name] ?? "" }

  /// A numeric variable as todo.sh's `[ "$X" -gt 0 ]` reads it (non-numbers count as 0).
  func number(_ name: String) -> Int { Int(value(name).trimmingSpaces()) ?? 0 }

  package var verbosity: Int { number("TODOTXT_VERBOSE") }
  package var isPlain: Bool { value("TODOTXT_PLAIN") == "1" }
  package var isForced: Bool { value("TODOTXT_FORCE") != "0" && !value("TODOTXT_FORCE").isEmpty }
  package var preservesLineNumbers: Bool { value("TODOTXT_PRESERVE_LINE_NUMBERS") != "0" }
  package var autoArchives: Bool { value("TODOTXT_AUTO_ARCHIVE") == "1" }
  package var datesOnAdd: Bool { number("TODOTXT_DATE_ON_ADD") == 1 }
  package var priorityOnAdd: String { value("TODOTXT_PRIORITY_ON_ADD") }
  package var filterDisabled: Bool { value("TODOTXT_DISABLE_FILTER") == "1" }

  package var todoDirectory: String { value("TODO_DIR") }
  package var todoFile: String { value("TODO_FILE") }
  package var doneFile: String { value("DONE_FILE") }
  package var reportFile: String { value("REPORT_FILE") }
  package var actionsDirectory: String { value("TODO_ACTIONS_DIR") }
  package var sentenceDelimiters: String { variables["SENTENCE_DELIMITERS"] ?? ",.:;" }

  /// The program name used in messages (`basename $0`).
  package var programName: String { value("TODO_SH") }
  /// The path the tool was invoked as, for calling itself again.
  package var programPath: String { value("TODO_FULL_SH") }
}

extension StringProtocol {
  /// The text without leading and trailing spaces, tabs and newlines.
  func trimmingSpaces() -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
      return ""
    }
    return String(self[first...last])
  }
}
