import TodoStore
import TodoTxt

/// What the listing works out from one version of a file and keeps among its
/// ``DerivedFacts`` for the shell's later lines, one key type per kind of fact: the key says
/// what the fact depends on besides the bytes, and the fact's type comes with the key.
enum ListingFact {
  /// The file's lines, as todo.sh reads them (`raw`) or as the grammar does.
  struct Lines: FactKey {
    typealias Fact = Kept<TodoCommands.Lines>
    let raw: Bool
  }

  /// Whether any line links a note (a note's words can make a term match).
  struct HasNotes: FactKey {
    typealias Fact = Kept<Bool>
  }

  /// The `id:` values of tasks that wait for an open task.
  struct Blocked: FactKey {
    typealias Fact = BlockedIDs
    let raw: Bool
  }

  /// Which lines one search word matches.
  struct Matches: FactKey {
    typealias Fact = LineMatches
    let term: String
  }

  /// The lines that pass a listing's terms, when that depends on their text alone.
  struct Passing: FactKey {
    typealias Fact = TermPass
    let terms: [String]
    let skipsBlank: Bool
  }

  /// The lines of a pass that the hiding rules show: they depend on the day (thresholds),
  /// which rules apply and how the lines were read.
  struct Shown: FactKey {
    typealias Fact = TermPass
    let pass: Passing
    let today: TaskDate
    let showAll: Bool
    let showsDone: Bool
    let hidesDone: Bool
    let raw: Bool
  }

  /// The lines of a pass in todo.sh's listing order.
  struct Sorted: FactKey {
    typealias Fact = SortedLines
    let pass: Passing
  }
}
