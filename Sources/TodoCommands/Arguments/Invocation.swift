import TodoTxt

/// The words after an action, parsed against the action's declaration: typed option values
/// and the positional arguments, so that no command scans its words for options again.
package struct Invocation: Sendable, Equatable {
  /// Each option given, by its canonical name (``OptionSpec/name``), with its values in the
  /// order given as typed (one empty value per use of a flag): for messages and the checks
  /// of what was typed (control characters).
  package var values: [String: [String]] = [:]
  /// Each option's last value as its declaration types it (``OptionValue``), by canonical
  /// name: what commands read.
  package var typed: [String: OptionValue] = [:]
  /// The other words, in order (everything after `--` among them).
  package var positionals: [String] = []
  /// `--help` or `-h` was given: the command shows its help and does nothing else.
  package var wantsHelp = false

  package init(values: [String: [String]] = [:], positionals: [String] = [], wantsHelp: Bool = false) {
    self.values = values
    self.positionals = positionals
    self.wantsHelp = wantsHelp
  }

  /// Whether the option (by canonical name) was given.
  package func has(_ name: String) -> Bool { values[name] != nil }

  /// The option's last value (by canonical name) as typed, or `nil` when it was not given.
  package func value(_ name: String) -> String? { values[name]?.last }

  /// The number a `.number` option was given, or `nil` when it was not.
  package func number(_ name: String) -> Int? { if case .number(let number)? = typed[name] { number } else { nil } }

  /// The word (in lower case) a `.oneOf` option was given, or `nil` when it was not.
  package func word(_ name: String) -> String? { if case .word(let word)? = typed[name] { word } else { nil } }

  /// The keys a `.listOf` option was given, or `nil` when it was not.
  package func keys(_ name: String) -> [OptionValue.Key]? { if case .keys(let keys)? = typed[name] { keys } else { nil } }

  /// The letter a `.priority` option was given, or `nil` when it was not.
  package func priority(_ name: String) -> UInt8? { if case .priority(let letter)? = typed[name] { letter } else { nil } }

  /// Splits `words` into options and positionals, native mode.
  ///
  /// A word starting with `--` is an option wherever it stands, until a word `--` ends the
  /// options, named in full or by a prefix that names only it (`--so` for `--sort`; a prefix
  /// of several is an error naming them): an undeclared one is an error naming the nearest
  /// declared option, so a misspelling never turns into a search term. A short option (`-q`) is one only where the
  /// command declares it; any other `-WORD` stays a positional (`ls -@phone` hides tasks).
  ///
  /// - Throws: ``TodoError/unknownActionOption(action:option:suggestion:isGlobal:)``,
  ///   ``TodoError/ambiguousOption(option:candidates:action:)``,
  ///   ``TodoError/missingOptionValue(_:)``, ``TodoError/optionTakesNoValue(_:)``,
  ///   ``TodoError/controlCharacter(what:scalar:)`` and the errors of
  ///   ``OptionSpec/typedValue(_:as:)``.
  ///
  /// - Parameter action: the name the command was called by, for the messages.
  static func parse(_ words: [String], for spec: CommandSpec, as action: String) throws(TodoError) -> Invocation {
    var invocation = Invocation()
    let declared = spec.options + [.help]
    var index = 0
    while index < words.count {
      let word = words[index]
      index += 1
      if word == "--" {
        invocation.positionals += words[index...]
        break
      }
      guard word.hasPrefix("-"), word.count > 1 else {
        invocation.positionals.append(word)
        continue
      }
      let isLong = word.hasPrefix("--")
      let equals = isLong ? word.firstIndex(of: "=") : nil
      let name = equals.map { String(word[..<$0]) } ?? word
      var found = declared.first(where: { $0.names.contains(name) })
      if found == nil, isLong {
        // A prefix that names one option is that option (`--so` is `--sort`).
        switch spec.matchLongOption(name) {
        case .one(.command(let option), _): found = option
        case .one(.global, _): break
        case .ambiguous(let names): throw .ambiguousOption(option: name, candidates: names, action: action)
        case .none: break
        }
      }
      guard let option = found else {
        guard isLong else {
          // A search term `-WORD` hides tasks holding WORD; one that spells an option with
          // one dash (`ls -sort due`, `ls -all`, `ls -p`) was meant as the option, and would
          // quietly hide every task with that word.
          if spec.arguments.contains(.term), let meant = spelledOption(word, declared: declared) {
            throw .singleDashOption(action: action, word: word, option: meant)
          }
          invocation.positionals.append(word)
          continue
        }
        // The tool's own options after the action are taken out before the command is
        // parsed (``GlobalOptions/takeOptionsAfterAction(mode:)``); one still here stands
        // where they are not taken (a hidden command).
        var isGlobal = false
        if case .one(.global, _) = spec.matchLongOption(name) { isGlobal = true }
        throw .unknownActionOption(
          action: action, option: name, suggestion: CommandRegistry.nearest(name, among: declared.flatMap(\.names).filter { $0.hasPrefix("--") }),
          isGlobal: isGlobal)
      }
      if option == .help {
        invocation.wantsHelp = true
        continue
      }
      // Messages name the option as typed, or in full when a prefix was typed.
      let named = option.names.contains(name) ? name : option.name
      var value = ""
      var typed = OptionValue.flag
      if option.takesValue {
        if let equals {
          value = String(word[word.index(after: equals)...])
        } else {
          guard index < words.count else { throw .missingOptionValue(named) }
          let count = option.value == .date ? dateLength(words[index...]) : 1
          value = words[index..<index + count].joined(separator: " ")
          index += count
        }
        // A control character is refused as such, whatever the value was to be (see
        // ``NativeValidation/checkControls(_:_:_:)``), before the value is read as its type.
        if let scalar = controlCharacter(in: value.utf8) {
          throw .controlCharacter(what: "the value of \(option.name)", scalar: scalar)
        }
        typed = try option.typedValue(value, as: named)
      } else if equals != nil {
        throw .optionTakesNoValue(named)
      }
      invocation.values[option.name, default: []].append(value)
      invocation.typed[option.name] = typed
    }
    return invocation
  }

  /// How many of `words` (at least one) make the value of a date option: the longest run that
  /// reads as a date (`next monday`, `dec 10 2026`), so that a phrase needs no quotes. Whether
  /// words read as a date does not depend on the day, so any day will do here.
  static func dateLength(_ words: ArraySlice<String>) -> Int {
    let anyDay = TaskDate(year: 2000, month: 1, day: 1) ?? .earliest
    let longest = min(words.count, RelativeDate.longestPhrase)
    for count in stride(from: longest, to: 1, by: -1) {
      let phrase = words.prefix(count).joined(separator: " ")
      if RelativeDate.resolve(phrase, today: anyDay) != nil { return count }
    }
    return 1
  }

  /// The option `word` (`-WORD`) spells with one dash: a long option of the command or of the
  /// tool (`-sort` for `--sort`), or one of the tool's own letters (`-p`, `-v`).
  static func spelledOption(_ word: String, declared: [OptionSpec]) -> String? {
    let long = "-" + word
    if declared.flatMap(\.names).contains(long) || GlobalOptionSpec.all.contains(where: { $0.longNames.contains(long) }) {
      return long
    }
    if word.count == 2, let letter = word.last, GlobalOptionSpec.all.contains(where: { $0.letter == letter }) {
      return word
    }
    return nil
  }
}
