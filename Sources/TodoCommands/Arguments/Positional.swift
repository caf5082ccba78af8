extension CommandSpec {
  /// One positional argument as a command declares it: what completion offers for it
  /// (``kind``), what value the parser makes of it (``value``) and whether it may be left out.
  ///
  /// A declaration is written with the kind's name (`arguments: [.taskNumber, .taskText]`),
  /// and narrowed where the kind alone does not say it (`.text.counting(1...1000)` for
  /// `undo [N]`, `.taskNumber.optional` for `edit [NR]`), so that the parser, completion,
  /// the shell's renumbering and the help all read the one list.
  package struct Positional: Sendable, Equatable {
    /// What the parser makes of the word (or the words) at this place.
    package enum Value: Sendable, Equatable {
      /// A task number (``TaskReference``): digits only.
      case taskNumber
      /// Task numbers, separated by commas or given as several words (`3 5,7`): at least one.
      case taskNumbers
      /// Task numbers, one a word (`dep add 3 5 7`): at least one.
      case taskNumberPerWord
      /// A priority letter, in either case; under the name `todo` also a priority word.
      case priority
      /// A whole number in the range. `name` is how the error names a bad one
      /// (``TodoError/badOptionValue(_:_:)``); without a name it is the usage error.
      case count(ClosedRange<Int>, name: String?)
      /// A recurrence rule (`1w`, `+3b`).
      case recurrence
      /// A month (`2026-12`, `12`, `dec`, `next`).
      case month
      /// One of these words, exactly.
      case choice([String])
      /// One word, taken as it is.
      case word
      /// Any number of words, taken as they are: the rest of the line when last.
      case words
    }

    package var kind: ArgumentKind
    package var value: Value
    /// It may be left out (`rec NR [RULE]`). A positional of ``Value/words`` may always be.
    package var isOptional: Bool
    /// Given, its first word must not be empty (`attach NR ''` is a usage error).
    package var refusesEmpty: Bool

    package init(_ kind: ArgumentKind, value: Value? = nil, isOptional: Bool? = nil, refusesEmpty: Bool = false) {
      self.kind = kind
      let value = value ?? Positional.naturalValue(of: kind)
      self.value = value
      self.isOptional = isOptional ?? (value == .words)
      self.refusesEmpty = refusesEmpty
    }

    /// What the parser makes of a kind when the declaration does not narrow it.
    static func naturalValue(of kind: ArgumentKind) -> Value {
      switch kind {
      case .taskNumber: .taskNumber
      case .taskNumbers: .taskNumbers
      case .priority: .priority
      case .text, .taskText, .term, .query, .action, .dateOrDuration, .tagValue: .words
      case .fileName, .path, .tagKey, .priorities: .word
      case .choice(let words): .choice(words)
      }
    }

    /// This positional, which may be left out.
    package var optional: Positional {
      var copy = self
      copy.isOptional = true
      return copy
    }

    /// This positional, which must be given (a text: at least one word).
    package var required: Positional {
      var copy = self
      copy.isOptional = false
      return copy
    }

    /// This positional, which must be given and whose first word must not be empty.
    package var nonEmpty: Positional {
      var copy = self
      copy.isOptional = false
      copy.refusesEmpty = true
      return copy
    }

    /// This positional, read as task numbers one a word.
    package var onePerWord: Positional { Positional(kind, value: .taskNumberPerWord, isOptional: isOptional) }

    /// This positional, read as a whole number in `range` (one word).
    package func counting(_ range: ClosedRange<Int>, named name: String? = nil) -> Positional {
      Positional(kind, value: .count(range, name: name), isOptional: isOptional, refusesEmpty: refusesEmpty)
    }

    /// This positional, read as one word.
    package var oneWord: Positional { Positional(kind, value: .word, isOptional: isOptional) }

    /// This positional, read as task numbers (of another file than todo.txt: `unarchive`).
    package var taskNumbers: Positional { Positional(kind, value: .taskNumbers, isOptional: false) }

    /// This positional, read as a recurrence rule.
    package var recurrence: Positional { Positional(kind, value: .recurrence, isOptional: isOptional) }

    /// This positional, read as a month.
    package var month: Positional { Positional(kind, value: .month, isOptional: isOptional) }

    /// Takes every word that is left when it is the last positional.
    var takesRest: Bool { value == .words || value == .taskNumbers || value == .taskNumberPerWord }

    // The kinds, so that a declaration names them as it names an ``ArgumentKind``.
    package static let taskNumber = Positional(.taskNumber)
    package static let taskNumbers = Positional(.taskNumbers)
    package static let priority = Positional(.priority)
    package static let text = Positional(.text)
    package static let taskText = Positional(.taskText)
    package static let term = Positional(.term)
    package static let query = Positional(.query)
    package static let fileName = Positional(.fileName)
    package static let action = Positional(.action)
    package static let priorities = Positional(.priorities)
    package static func choice(_ words: [String]) -> Positional { Positional(.choice(words)) }
    package static let tagKey = Positional(.tagKey)
    package static let path = Positional(.path)
    package static let dateOrDuration = Positional(.dateOrDuration)
    package static let tagValue = Positional(.tagValue)
  }
}
