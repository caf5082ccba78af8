import TodoTxt

/// One option of one command, declared once: the parser, `ACTION --help`, `help ACTION`,
/// completion, the `__dump` of the command tree and the man-page check all read it.
package struct OptionSpec: Sendable, Equatable {
  /// What an option's value may be.
  package enum Value: Sendable, Equatable {
    /// A flag: the option takes no value.
    case none
    /// Any text (a query, a template).
    case text
    /// A whole number in the range.
    case number(ClosedRange<Int>)
    /// One of these words.
    case oneOf([String])
    /// Comma-separated words of this set, each may start with `-` (`--sort -due,priority`).
    case listOf([String])
    /// One of these words, or text the command checks itself (`--format json` or a template).
    case suggested([String])
    /// A priority: a letter A–Z, or high, medium or low (h, m, l).
    case priority
    /// A query (see QUERY LANGUAGE), never empty: a query of nothing would select every
    /// task, and `do -q "$UNSET"` must not act on them all.
    case query
    /// A date as people say it (`fri`, `next monday`, `dec 10`), which the command resolves
    /// against its today. Given without `=`, the value is the longest run of up to
    /// ``RelativeDate/longestPhrase`` words that reads as a date (`--due next monday buy
    /// milk`), else the next word.
    case date

    /// The date words completion offers.
    static let dateWords = ["today", "tomorrow", "fri", "next-monday", "next-week", "weekend", "eom", "+1w"]

    /// The words completion offers for the value.
    package var words: [String] {
      switch self {
      case .none, .text, .number, .query: []
      case .oneOf(let words), .listOf(let words), .suggested(let words): words
      case .date: Value.dateWords
      case .priority: Value.priorityWords
      }
    }

    /// The priority words and letters completion offers.
    static let priorityWords = ["high", "medium", "low"] + (65...90).map { String(UnicodeScalar(UInt8($0))) }
  }

  /// The names, the canonical long one first (`--query`, then `-q`).
  package var names: [String]
  /// The value's name in usage and help (`KEYS`); empty for a flag.
  package var valueName: String
  package var value: Value
  /// One line, in this project's own words.
  package var help: String
  /// Given, the option names the tasks or the input itself (`do -q QUERY`, `add --json`), so
  /// the checks of the positionals it replaces do not apply.
  package var replacesArguments: Bool

  package init(
    _ names: [String], value: Value = .none, valueName: String = "", help: String, replacesArguments: Bool = false
  ) {
    self.names = names
    self.value = value
    self.valueName = valueName
    self.help = help
    self.replacesArguments = replacesArguments
  }

  /// The canonical name, the one ``Invocation`` keys values by.
  package var name: String { names[0] }
  package var takesValue: Bool { value != .none }

  /// `-q, --query EXPR`, as help lists it.
  package var label: String {
    let ordered = names.filter { !$0.hasPrefix("--") } + names.filter { $0.hasPrefix("--") }
    return ordered.joined(separator: ", ") + (takesValue ? " \(valueName)" : "")
  }

  /// The value `text` as its declaration types it (``OptionValue``), checked against
  /// ``value``: the one place an option's words are read, so a command receives a number, a
  /// word of its set, sort keys or a priority letter and never checks the text itself.
  ///
  /// - Throws: ``TodoError/optionValueNotAllowed(option:value:allowed:)`` naming the allowed
  ///   words.
  func typedValue(_ text: String, as typed: String) throws(TodoError) -> OptionValue {
    switch value {
    case .none: return .flag
    case .text, .suggested, .date: return .text(text)
    case .query:
      guard text.contains(where: { !$0.isWhitespace }) else { throw .emptyQuery(option: typed) }
      return .text(text)
    case .number(let range):
      // Digits only: `+5`, `-0`, ` 5` and `0x10` are no way to write a count.
      guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }), let number = Int(text),
        range.contains(number)
      else {
        throw .optionValueNotAllowed(option: typed, value: text, allowed: ["\(range.lowerBound)…\(range.upperBound)"])
      }
      return .number(number)
    case .oneOf(let words):
      let word = text.lowercased()
      guard words.contains(word) else { throw .optionValueNotAllowed(option: typed, value: text, allowed: words) }
      return .word(word)
    case .listOf(let words):
      let items = text.split(whereSeparator: { $0 == "," || $0 == " " })
      // Keys are apart by commas, blanks or both (`due, -priority`); a comma with no key
      // before or after it (`due,,text`, `,due`) is a key left out, not a separator.
      let pieces = text.split(separator: ",", omittingEmptySubsequences: false)
      guard !items.isEmpty, !pieces.contains(where: { $0.allSatisfy { $0 == " " } }) else {
        throw .optionValueNotAllowed(option: typed, value: text, allowed: words)
      }
      var keys: [OptionValue.Key] = []
      for item in items {
        let descending = item.hasPrefix("-")
        let word = (descending || item.hasPrefix("+") ? item.dropFirst() : item[...]).lowercased()
        guard words.contains(word) else {
          throw .optionValueNotAllowed(option: typed, value: String(item), allowed: words)
        }
        keys.append(OptionValue.Key(word: word, descending: descending))
      }
      return .keys(keys)
    case .priority:
      guard let priority = Priority(word: text) else {
        throw .optionValueNotAllowed(option: typed, value: text, allowed: ["A-Z", "high", "medium", "low"])
      }
      return .priority(priority.byte)
    }
  }
}

/// One option's value as the parser typed it from the option's declaration
/// (``OptionSpec/typedValue(_:as:)``).
package enum OptionValue: Sendable, Equatable {
  /// A flag's use.
  case flag
  /// Text (a query, a template, a date phrase the command resolves against its today).
  case text(String)
  /// A whole number, in the declared range.
  case number(Int)
  /// A word of the declared set, in lower case.
  case word(String)
  /// Keys of the declared set, each with its direction (`--sort -due,priority`).
  case keys([Key])
  /// A priority's letter (`high` is `A`).
  case priority(UInt8)

  /// A key of a list and whether `-` in front of it asked for the descending order.
  package struct Key: Sendable, Equatable {
    package var word: String
    package var descending: Bool
  }
}

extension OptionSpec {
  /// `--help`/`-h`, which every native command answers.
  static let help = OptionSpec(["--help", "-h"], help: "Show this command's help and exit.")

  // MARK: The options of the listings

  static let all = OptionSpec(
    ["--all", "-a"], help: "Also show done tasks and the tasks hidden by a future t: date, by h:1 or by an open task they wait for.")
  static let sort = OptionSpec(
    ["--sort"], value: .listOf(TaskOrder.Key.allCases.map(\.rawValue)), valueName: "KEYS",
    help: "Order by these comma-separated keys; a key with - in front sorts descending.")
  static let format = OptionSpec(
    ["--format"], value: .suggested(["text", "json", "jsonl", "ical"]), valueName: "FORMAT",
    help: "Print text, json, jsonl, ical, or a template such as '{n} {text}'.")
  /// `--format` of a report (`info`, `stats`, `projects`, `contexts`): text for people or
  /// one JSON value, declared once; each report says in `help` what its text looks like.
  static func reportFormat(help: String) -> OptionSpec {
    OptionSpec(["--format"], value: .oneOf(ReportFormat.allCases.map(\.rawValue)), valueName: "FORMAT", help: help)
  }
  static let group = OptionSpec(
    ["--group"], value: .oneOf(ListGrouping.allCases.map(\.rawValue) + ListGrouping.aliases.keys.sorted()), valueName: "BY",
    help: "Show the tasks under a heading per project, context, priority or due date.")
  static let query = OptionSpec(
    ["--query", "-q"], value: .query, valueName: "EXPR", help: "Choose the tasks with a query (see QUERY LANGUAGE).")
  static let why = OptionSpec(["--why"], help: "Say why each task is shown, hidden or blocked.")

  /// The options every listing takes.
  static let notes = OptionSpec(["--notes"], help: "Show each listed task's note under it.")
  static let listing: [OptionSpec] = [all, sort, format, group, query, why, notes]

  // MARK: The options of the editing commands

  static let selectQuery = OptionSpec(
    ["--query", "-q"], value: .query, valueName: "EXPR",
    help: "Act on the tasks this query selects instead of on task numbers.", replacesArguments: true)
  static let force = OptionSpec(
    ["--force", "-f"], help: "Do not ask for confirmation, before changing more than one task or at all.")

  /// The options of a command that acts on task numbers or on a query.
  static let selecting: [OptionSpec] = [selectQuery, force]
}

/// The formats of a report's `--format` (``OptionSpec/reportFormat(help:)``).
enum ReportFormat: String, CaseIterable {
  case text, json

  /// The format the command line asks for; its word was checked by the parser.
  init(_ invocation: Invocation) {
    self = invocation.word(OptionSpec.format.name).flatMap(ReportFormat.init(rawValue:)) ?? .text
  }
}
