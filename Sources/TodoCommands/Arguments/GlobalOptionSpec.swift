/// One option before the action, declared once: ``GlobalOptions/parse(_:mode:)``, the full
/// help, completion (`__complete` and the generated bash, zsh and fish scripts), the shell's
/// renumbering of task numbers and the `__dump` that the man-page check reads all come from
/// ``all``.
///
/// The single letter exists under both names (todo.sh's `-fhpcnNaAtTvVx+@Pd:`); the long
/// names exist only under the name `todo`.
package struct GlobalOptionSpec: Sendable {
  /// What giving the option does to ``GlobalOptions``.
  enum Effect: Sendable, Equatable {
    /// Overrides a configuration variable (`-p` sets `TODOTXT_PLAIN=1`).
    case set(String, String)
    case verbose, hideContexts, hideProjects, hidePriorities
    case version, help
    case configFile, color, ifMatch
  }

  /// todo.sh's letter (`-f`), or `nil` for an option only `todo` has.
  package var letter: Character?
  /// The long names, canonical first (`--color`, `--colour`); only under the name `todo`.
  package var longNames: [String]
  /// The value's name in help, the dump and todo(1) (`CONFIG_FILE`); empty for a flag.
  package var valueName: String
  /// The value: `.none` for a flag, `.text`, or `.oneOf` a fixed set.
  package var value: OptionSpec.Value
  /// The value is a path (completion offers files).
  package var valueIsPath: Bool
  /// The value comes only after `=` and may be left out (`--color` alone is
  /// ``defaultValue``).
  package var valueAfterEquals: Bool
  /// The value of `--color` alone.
  var defaultValue: String?
  /// What each word of a fixed value set does, for completion.
  package var valueHelp: [String]
  /// One line, in this project's own words; a long name of a letter's option is described
  /// as the same as the letter.
  package var help: String
  let effect: Effect

  init(
    _ letter: Character?, _ longNames: [String] = [], value: OptionSpec.Value = .none, valueName: String = "",
    path: Bool = false, afterEquals: Bool = false, defaultValue: String? = nil, valueHelp: [String] = [],
    help: String, effect: Effect
  ) {
    self.letter = letter
    self.longNames = longNames
    self.value = value
    self.valueName = valueName
    self.valueIsPath = path
    self.valueAfterEquals = afterEquals
    self.defaultValue = defaultValue
    self.valueHelp = valueHelp
    self.help = help
    self.effect = effect
  }

  package var takesValue: Bool { value != .none }
  /// The value is the next word (`-d FILE`, `--config FILE`), not only after `=`.
  package var takesSeparateValue: Bool { takesValue && !valueAfterEquals }

  /// The names under `mode`: the letter, then (under the name `todo`) the long names.
  package func names(in mode: Mode) -> [String] {
    (letter.map { ["-" + String($0)] } ?? []) + (mode.policy.parsesLongOptions ? longNames : [])
  }

  /// The options, letters in the order todo.sh's help has them, then those only `todo` has.
  package static let all: [GlobalOptionSpec] = [
    GlobalOptionSpec(
      "@", help: "Hide @context names in listings (given twice, show them again).", effect: .hideContexts),
    GlobalOptionSpec(
      "+", help: "Hide +project names in listings (given twice, show them again).", effect: .hideProjects),
    GlobalOptionSpec("c", help: "Colour the listings.", effect: .set("TODOTXT_PLAIN", "0")),
    GlobalOptionSpec(
      "d", ["--config"], value: .text, valueName: "CONFIG_FILE", path: true,
      help: "Read this configuration file instead of the default ones.", effect: .configFile),
    GlobalOptionSpec(
      "f", ["--force"], help: "Force: do not ask for confirmation or for missing text.",
      effect: .set("TODOTXT_FORCE", "1")),
    GlobalOptionSpec("h", ["--help"], help: "Show the short help.", effect: .help),
    GlobalOptionSpec("p", ["--plain"], help: "Plain output: no colours.", effect: .set("TODOTXT_PLAIN", "1")),
    GlobalOptionSpec(
      "P", help: "Hide the priority labels in listings (given twice, show them again).", effect: .hidePriorities),
    GlobalOptionSpec(
      "a", help: "Leave done tasks in todo.txt when marking them done.", effect: .set("TODOTXT_AUTO_ARCHIVE", "0")),
    GlobalOptionSpec(
      "A", help: "Move done tasks to done.txt when marking them done.", effect: .set("TODOTXT_AUTO_ARCHIVE", "1")),
    GlobalOptionSpec(
      "n", help: "Remove the empty line a deleted or moved task leaves behind.",
      effect: .set("TODOTXT_PRESERVE_LINE_NUMBERS", "0")),
    GlobalOptionSpec(
      "N", help: "Keep the empty line a deleted or moved task leaves behind, so numbers stay.",
      effect: .set("TODOTXT_PRESERVE_LINE_NUMBERS", "1")),
    GlobalOptionSpec("t", help: "Put today's date in front of added tasks.", effect: .set("TODOTXT_DATE_ON_ADD", "1")),
    GlobalOptionSpec("T", help: "Do not date added tasks.", effect: .set("TODOTXT_DATE_ON_ADD", "0")),
    GlobalOptionSpec("v", ["--verbose"], help: "More messages (-vv adds debugging lines).", effect: .verbose),
    GlobalOptionSpec("V", ["--version"], help: "Show the version.", effect: .version),
    GlobalOptionSpec(
      "x", help: "Do not apply TODOTXT_FINAL_FILTER to listings.", effect: .set("TODOTXT_DISABLE_FILTER", "1")),
    GlobalOptionSpec(
      nil, ["--color", "--colour"], value: .oneOf(["always", "auto", "never"]), valueName: "WHEN",
      afterEquals: true, defaultValue: "always",
      valueHelp: [
        "colour even when not on a terminal", "colour on a terminal unless NO_COLOR is set", "no colour",
      ],
      help: "Colour listings always, never, or auto (only on a terminal, not with NO_COLOR).", effect: .color),
    GlobalOptionSpec(
      nil, ["--if-match"], value: .text, valueName: "TEXT",
      help:
        "Run the action only if the task it names still has this line, text or content hash (six or more hex digits).",
      effect: .ifMatch),
  ]

  /// The option with this letter.
  static func option(letter: Character) -> GlobalOptionSpec? {
    all.first { $0.letter == letter }
  }

  /// The option with this long name (`--colour` included), or whose long names alone start
  /// with it (`--conf`), as ``GlobalOptions/parse(_:mode:)`` reads it.
  static func option(long name: String) -> GlobalOptionSpec? {
    let candidates = all.filter { !$0.longNames.isEmpty }.map { ($0, $0.longNames) }
    guard case .one(let option, _) = LongOptionMatch.match(name, among: candidates) else { return nil }
    return option
  }

  /// Every long name, for messages that tell a global option from a command's.
  static let longNames: Set<String> = Set(all.flatMap(\.longNames))

  /// Whether the word before the action is an option whose value is the next word: `-d`
  /// (also bundled, as `-fd`, but not `-dFILE`), and under the name `todo` `--config` and
  /// `--if-match`.
  package static func takesSeparateValue(_ word: String, mode: Mode) -> Bool {
    if word.hasPrefix("--") {
      return mode.policy.parsesLongOptions && option(long: word)?.takesSeparateValue == true
    }
    guard word.hasPrefix("-") else { return false }
    // The first letter that takes a value takes the rest of the word, or else the next one.
    for (offset, letter) in word.dropFirst().enumerated() where option(letter: letter)?.takesSeparateValue == true {
      return offset == word.count - 2
    }
    return false
  }

  // MARK: Help

  /// `-d CONFIG_FILE`, `--config CONFIG_FILE`, `--color=WHEN`: the name as help shows it.
  func label(_ name: String) -> String {
    guard takesValue else { return name }
    return name + (valueAfterEquals ? "=" : " ") + valueName
  }

  /// The help lines of `mode`: the letters in declared order, then (under the name `todo`)
  /// the long names in alphabetical order, a letter's long name described as the same as it.
  static func helpEntries(mode: Mode) -> [(option: GlobalOptionSpec, name: String, label: String, help: String)] {
    var entries = all.compactMap { option in
      option.letter.map { (option, "-" + String($0), option.label("-" + String($0)), option.help) }
    }
    guard mode.policy.parsesLongOptions else { return entries }
    let long = all.compactMap { option in
      option.longNames.first.map { name in
        (option, name, option.label(name), option.letter.map { "The same as -\($0)." } ?? option.help)
      }
    }
    entries += long.sorted { $0.1 < $1.1 }
    return entries
  }
}
