import TodoCommands

/// Which words of a line are task numbers, read from the command table: options before the
/// action are skipped (``LeadingWords``), then the command's declaration says
/// (``CommandSpec/taskNumberPositions(in:mode:)``).
enum TaskNumberPositions {
  /// The indices in `words` of the arguments that are task numbers (or lists `3,4`).
  static func find(in words: [String], mode: Mode) -> [Int] {
    guard var index = LeadingWords(words, mode: mode).action else { return [] }
    var action = words[index].lowercased()
    index += 1
    if CommandRegistry.command(named: action, mode: mode)?.nestsAction == true, index < words.count {
      action = words[index].lowercased()
      index += 1
    }
    guard let spec = CommandRegistry.command(named: action, mode: mode) else { return [] }
    let start = index
    return spec.taskNumberPositions(in: Array(words[start...]), mode: mode).map { $0 + start }
  }
}
