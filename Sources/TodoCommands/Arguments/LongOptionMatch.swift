/// What a typed long option (`--so`, `--colour`) names among the long options that may stand
/// where it stands: one option, by a whole name or by a prefix of the names of that one
/// option alone; several, when the prefix starts names of more than one; or none.
///
/// The one rule for every long option under the name `todo`: a command's (``Invocation``), the
/// tool's before the action and after it (``GlobalOptions``), and the lenient reading of a
/// line being typed (``CommandSpec/scan(_:mode:)``).
enum LongOptionMatch<Option>: Sendable where Option: Sendable {
  /// The option, with the canonical name of it.
  case one(Option, name: String)
  /// The prefix starts a name of each of these, given by their canonical names.
  case ambiguous([String])
  case none

  /// Matches `typed` (a word starting with `--`, without any `=value`) against `candidates`,
  /// each an option with its long names, canonical first, in order of precedence: a whole
  /// name matches the first option that has it, before any prefix is tried.
  static func match(_ typed: String, among candidates: [(option: Option, names: [String])]) -> LongOptionMatch {
    guard typed.hasPrefix("--"), typed.count > 2 else { return .none }
    if let exact = candidates.first(where: { $0.names.contains(typed) }) {
      return .one(exact.option, name: exact.names[0])
    }
    var found: [(option: Option, name: String)] = []
    for candidate in candidates where candidate.names.contains(where: { $0.hasPrefix(typed) }) {
      // The same name declared twice (`--force` by a command and by the tool) is one choice:
      // the first's.
      guard !found.contains(where: { candidate.names.contains($0.name) }) else { continue }
      found.append((candidate.option, candidate.names[0]))
    }
    switch found.count {
    case 0: return .none
    case 1: return .one(found[0].option, name: found[0].name)
    default: return .ambiguous(found.map(\.name))
    }
  }
}

extension CommandSpec {
  /// An option this command declares, or `--help`, or (when `global`) one of the tool's own
  /// long options, as the command's words may hold them under the name todo.
  enum AnyOption: Sendable {
    case command(OptionSpec)
    case global(GlobalOptionSpec)
  }

  /// What `typed` names after this command's action: its own options (and `--help`) first,
  /// then, when `global`, the tool's long options it does not itself declare.
  func matchLongOption(_ typed: String, global: Bool = true) -> LongOptionMatch<AnyOption> {
    var candidates: [(option: AnyOption, names: [String])] = (options + [.help]).map {
      (.command($0), $0.names.filter { $0.hasPrefix("--") })
    }
    if global {
      candidates += GlobalOptionSpec.all.filter { !$0.longNames.isEmpty }.map { (.global($0), $0.longNames) }
    }
    return .match(typed, among: candidates)
  }
}
