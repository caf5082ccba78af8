import TodoTxt

/// The positional words of a command line, read against the command's declaration
/// (``CommandSpec/positionals``): task numbers as ``TaskReference``s, priorities, counts,
/// recurrence rules and months as values, texts as their words. A command asks for the value
/// at a place (`arguments.task(0)`) and never checks how many words it got or what they look
/// like: a word that does not fit is the parser's error, worded as todo.sh words it.
package struct ParsedArguments: Sendable {
  /// The value made of the words at one place.
  enum Value: Sendable, Equatable {
    case task(TaskReference)
    case tasks([TaskReference])
    /// Task numbers checked in turn: each item read, or the error it is.
    case taskItems([Result<TaskReference, TodoError>])
    case priority(Priority)
    case count(Int)
    case recurrence(Recurrence)
    case month(CalendarMonth)
    case word(String)
    case words([String])
  }

  /// The positional words as given, for a label or a message that repeats them.
  package let words: [String]
  /// What the words at one place were: left out, a value, or (where the declaration checks
  /// the words in turn, ``CommandSpec/checksWordsInTurn``) the error they are, thrown when
  /// the command asks for the value. A type of its own, not an optional `Result`: a generic
  /// type's metadata is made at run time from its mangled name, which cost every command
  /// line 0.3 M instructions (a tenth of a 1k `ls`).
  enum Slot: Sendable {
    case absent
    case value(Value)
    case failure(TodoError)
  }

  /// One entry per place read.
  private let slots: [Slot]

  init(words: [String], slots: [Slot]) {
    self.words = words
    self.slots = slots
  }

  /// No words: what a command run by another one (``CommandContext/runAction(_:)``) gets.
  static let none = ParsedArguments(words: [], slots: [])

  /// How many places were read: for a declaration that repeats (`pri NR PRIORITY ...`), the
  /// declared places times the repetitions.
  var placeCount: Int { slots.count }

  /// Whether the words at `index` were given.
  func isGiven(_ index: Int) -> Bool {
    guard index < slots.count else { return false }
    if case .absent = slots[index] { return false }
    return true
  }

  /// The value at `index`, or `nil` when it was left out.
  private func value(_ index: Int) throws(TodoError) -> Value? {
    guard index < slots.count else { return nil }
    switch slots[index] {
    case .absent: return nil
    case .value(let value): return value
    case .failure(let error): throw error
    }
  }

  /// A declaration that does not match what the command reads is the program's mistake,
  /// which a test of every command finds; it never depends on the words typed.
  private func mismatch(_ index: Int, _ wanted: String) -> Never {
    preconditionFailure("the positional at \(index) is not declared as \(wanted)")
  }

  /// The task number at `index`, declared ``CommandSpec/Positional/Value/taskNumber``.
  func task(_ index: Int) throws(TodoError) -> TaskReference {
    guard let reference = try optionalTask(index) else { mismatch(index, "a required task number") }
    return reference
  }

  /// The task number at `index`, or `nil` when the optional positional was left out.
  func optionalTask(_ index: Int) throws(TodoError) -> TaskReference? {
    switch try value(index) {
    case .task(let reference)?: return reference
    case nil: return nil
    default: mismatch(index, "a task number")
    }
  }

  /// The task numbers at `index` (declared ``CommandSpec/Positional/Value/taskNumbers``),
  /// in the order given; empty when the optional positional was left out.
  func tasks(_ index: Int) throws(TodoError) -> [TaskReference] {
    switch try value(index) {
    case .tasks(let references)?: return references
    case .taskItems(let items)?: return try items.map { item throws(TodoError) in try item.get() }
    case nil: return []
    default: mismatch(index, "task numbers")
    }
  }

  /// The task numbers at `index`, each read or the error it is, for a command that acts on
  /// the numbers before a bad one (``CommandSpec/checksWordsInTurn``).
  func eachTask(_ index: Int) throws(TodoError) -> [Result<TaskReference, TodoError>] {
    switch try value(index) {
    case .tasks(let references)?: return references.map { .success($0) }
    case .taskItems(let items)?: return items
    case nil: return []
    default: mismatch(index, "task numbers")
    }
  }

  /// The priority at `index`.
  func priority(_ index: Int) throws(TodoError) -> Priority {
    guard case .priority(let priority)? = try value(index) else { mismatch(index, "a priority") }
    return priority
  }

  /// The whole number at `index` (declared with ``CommandSpec/Positional/counting(_:named:)``),
  /// or `nil` when it was left out.
  func number(_ index: Int) throws(TodoError) -> Int? {
    switch try value(index) {
    case .count(let number)?: return number
    case nil: return nil
    default: mismatch(index, "a count")
    }
  }

  /// The recurrence rule at `index`, or `nil` when it was left out.
  func recurrence(_ index: Int) throws(TodoError) -> Recurrence? {
    switch try value(index) {
    case .recurrence(let rule)?: return rule
    case nil: return nil
    default: mismatch(index, "a recurrence")
    }
  }

  /// The month at `index`, or `nil` when it was left out.
  func month(_ index: Int) throws(TodoError) -> CalendarMonth? {
    switch try value(index) {
    case .month(let month)?: return month
    case nil: return nil
    default: mismatch(index, "a month")
    }
  }

  /// The word at `index`, declared required.
  func word(_ index: Int) throws(TodoError) -> String {
    guard let word = try optionalWord(index) else { mismatch(index, "a required word") }
    return word
  }

  /// The word at `index`, or `nil` when it was left out.
  func optionalWord(_ index: Int) throws(TodoError) -> String? {
    switch try value(index) {
    case .word(let word)?: return word
    case nil: return nil
    default: mismatch(index, "a word")
    }
  }

  /// The words at `index` (declared ``CommandSpec/Positional/Value/words``); empty when none
  /// were given.
  func text(_ index: Int) throws(TodoError) -> [String] {
    switch try value(index) {
    case .words(let words)?: return words
    case nil: return []
    default: mismatch(index, "words")
    }
  }
}

extension ParsedArguments {
  /// Reads `words` (the positionals, options already taken out) against `spec`'s
  /// declaration: the positionals that an option given in `invocation` declares instead
  /// (``CommandSpec/argumentsWhenGiven``), else its own.
  ///
  /// Each place takes one word, but a final text takes the rest, a final list of task
  /// numbers takes the rest, and a leading list of task numbers takes the words that are
  /// numbers (``CommandSpec/leadingTaskNumberCount(_:whole:)``). A declaration that repeats
  /// (``CommandSpec/argumentsRepeat``) is read again while words are left.
  ///
  /// - Throws: the first word that does not fit, a required place left out, or a word
  ///   left over, as the command's usage error (``CommandSpec/usageError(in:)``), or as the
  ///   error its value names (``TodoError/notAPriority(_:)`` under the name `todo`,
  ///   ``TodoError/badOptionValue(_:_:)`` for a named count, ``TodoError/notAMonth(_:)``).
  ///   A declaration checked in turn (``CommandSpec/checksWordsInTurn``) keeps a bad word's
  ///   error until the command asks for that value.
  static func parse(
    _ words: [String], for spec: CommandSpec, invocation: Invocation, mode: Mode, today: TaskDate
  ) throws(TodoError) -> ParsedArguments {
    // The words of a command made of subcommands are the chosen one's, which reads them.
    if let first = words.first, spec.subcommand(named: first) != nil { return ParsedArguments(words: words, slots: []) }
    let declared = spec.positionals(given: invocation, mode: mode)
    let usage = spec.usageError(in: mode)
    var slots: [Slot] = []
    var index = 0

    func fail(_ error: TodoError) throws(TodoError) -> Slot {
      if spec.checksWordsInTurn { return .failure(error) }
      throw error
    }

    repeat {
      for (offset, positional) in declared.enumerated() {
        let isLast = offset == declared.count - 1 && !spec.argumentsRepeat
        let rest = Array(words[index...])
        if positional.refusesEmpty, rest.first?.isEmpty ?? true {
          index += rest.isEmpty ? 0 : 1
          slots.append(try fail(usage))
          continue
        }
        if positional.value == .words {
          let taken = isLast ? rest : Array(rest.prefix(1))
          index += taken.count
          if taken.isEmpty {
            slots.append(positional.isOptional ? .absent : try fail(usage))
            continue
          }
          slots.append(.value(.words(taken)))
          continue
        }
        if positional.value == .taskNumbers || positional.value == .taskNumberPerWord {
          let count = isLast ? rest.count : spec.leadingTaskNumberCount(rest, whole: true)
          index += count
          let given = Array(rest.prefix(count))
          let items = positional.value == .taskNumbers ? taskNumberWords(given) : given
          if items.isEmpty {
            // A list with no number is refused before anything is done, in turn or not.
            guard positional.isOptional else { throw usage }
            slots.append(.absent)
            continue
          }
          if spec.checksWordsInTurn {
            // Each number is its own check: todo.sh acts on the ones before a bad one.
            slots.append(.value(.taskItems(items.map { item in Result { () throws(TodoError) in try TaskReference(item, usage: usage) } })))
            continue
          }
          slots.append(.value(.tasks(try items.map { item throws(TodoError) in try TaskReference(item, usage: usage) })))
          continue
        }
        guard let word = rest.first else {
          slots.append(positional.isOptional ? .absent : try fail(usage))
          continue
        }
        index += 1
        do throws(TodoError) {
          slots.append(.value(try value(of: word, as: positional.value, usage: usage, mode: mode, today: today)))
        } catch {
          slots.append(try fail(error))
        }
      }
    } while spec.argumentsRepeat && index < words.count && !declared.isEmpty
    if index < words.count {
      switch spec.extraWords {
      case .refused: throw usage
      case .ignoredUnderTodoSh: if mode.policy.parsesLongOptions { throw usage }
      case .ignored: break
      }
    }
    return ParsedArguments(words: words, slots: slots)
  }

  /// The value of one word.
  private static func value(
    of word: String, as value: CommandSpec.Positional.Value, usage: TodoError, mode: Mode, today: TaskDate
  ) throws(TodoError) -> Value {
    switch value {
    case .taskNumber:
      return .task(try TaskReference(word, usage: usage))
    case .priority:
      // Under the name todo a priority word or a letter of either case (``Priority/init(word:)``,
      // ASCII letters only); under todo.sh's one letter of either case, as its `tr` reads it.
      let priority = mode.policy.resolvesTypedValues ? Priority(word: word) : word.utf8.count == 1 ? Priority(word.uppercased()) : nil
      guard let priority else { throw mode.policy.resolvesTypedValues ? .notAPriority(word) : usage }
      return .priority(priority)
    case .count(let range, let name):
      // Digits only: `+5` and ` 5` are no way to write a count.
      guard !word.isEmpty, word.utf8.allSatisfy({ (48...57).contains($0) }), let number = Int(word), range.contains(number)
      else {
        let allowed = range.upperBound == Int.max ? "\(range.lowerBound) or more" : "\(range.lowerBound)…\(range.upperBound)"
        throw name.map { .optionValueNotAllowed(option: $0, value: word, allowed: [allowed]) } ?? usage
      }
      return .count(number)
    case .recurrence:
      guard let rule = Recurrence(word) else { throw usage }
      return .recurrence(rule)
    case .month:
      guard let month = CalendarMonth(word, today: today) else { throw .notAMonth(word) }
      return .month(month)
    case .choice(let choices):
      guard choices.contains(word) else { throw usage }
      return .word(word)
    case .word:
      return .word(word)
    case .words:
      return .words([word])
    case .taskNumbers:
      return .tasks(try taskNumberWords([word]).map { item throws(TodoError) in try TaskReference(item, usage: usage) })
    case .taskNumberPerWord:
      return .tasks([try TaskReference(word, usage: usage)])
    }
  }
}
