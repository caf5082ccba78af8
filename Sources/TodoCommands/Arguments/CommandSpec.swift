/// One command, declared once: the parser, help, completion and man-page checks all read it.
public struct CommandSpec: Sendable {
  /// What a positional argument is, for completion and help.
  public enum ArgumentKind: Sendable, Equatable {
    case taskNumber
    case taskNumbers
    case priority
    case text
    case term
    case fileName
    case action
    case priorities
    /// One of a fixed set of words (`bash`, `zsh`, `fish`).
    case choice([String])
  }

  public var name: String
  public var aliases: [String]
  /// The arguments as todo.sh's usage line shows them (`NR "TEXT TO APPEND"`).
  public var usage: String
  /// One line, in this project's own words.
  public var abstract: String
  /// More detail, in this project's own words (may be empty).
  public var discussion: String
  public var arguments: [ArgumentKind]
  /// Exists only under the name `todo` (todo.sh has no such action).
  public var nativeOnly: Bool
  /// Left out of help, short help and suggestions (`__complete`, which the completion
  /// scripts call).
  public var hidden: Bool
  public var run: @Sendable (CommandContext, [String]) throws(TodoError) -> ExitStatus

  public init(
    name: String, aliases: [String] = [], usage: String = "", abstract: String, discussion: String = "",
    arguments: [ArgumentKind] = [], nativeOnly: Bool = false, hidden: Bool = false,
    run: @escaping @Sendable (CommandContext, [String]) throws(TodoError) -> ExitStatus
  ) {
    self.name = name
    self.aliases = aliases
    self.usage = usage
    self.abstract = abstract
    self.discussion = discussion
    self.arguments = arguments
    self.nativeOnly = nativeOnly
    self.hidden = hidden
    self.run = run
  }

  /// `usage: todo.sh <name> <usage>` as an error value.
  var usageError: TodoError { .actionUsage(usage.isEmpty ? name : "\(name) \(usage)") }

  /// All names this command answers to.
  public var names: [String] { [name] + aliases }

  /// Shown in help and offered by completion under this mode.
  public func isListed(in mode: Mode) -> Bool { !hidden && (mode == .native || !nativeOnly) }
}
