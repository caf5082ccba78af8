import TodoCommands

/// TAB in the shell: the words before the cursor go to the tool's ``CompletionEngine``, the
/// same one that answers the bash, zsh and fish scripts, and its candidates come back quoted
/// for the shell's line syntax.
struct ShellCompleter {
  let engine: CompletionEngine

  init(context: CommandContext) {
    engine = CompletionEngine(context: context)
  }

  /// The completions of `word`, which starts where `before` ends.
  func complete(before: String, word: String) -> [LineCompletion] {
    let words = ShellWords.scan(before).words
    // The word as typed may be quoted (`"buy`); the engine wants it as the line will read it.
    let current = ShellWords.scan(word).words.first ?? ""
    return engine.complete(words + [current]).map { candidate in
      let value = candidate.value
      let open = value.hasSuffix(":") || value.hasSuffix("/") || value.hasSuffix("=")
      return LineCompletion(
        replacement: ShellWords.quote(value), value: value, description: candidate.description,
        appendsSpace: !open)
    }
  }
}
