/// `__complete WORD...`: the candidates for the last word, one per line as `value` or
/// `value<TAB>description`. Hidden; the bash, zsh and fish scripts call it for everything that
/// depends on the configuration and the files.
enum CompleteCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "__complete", usage: "WORD...",
    abstract: "Print the completions of the last word of a command line.",
    hidden: true, extraWords: .ignored
  ) { context, parsed throws(TodoError) in
    let words = parsed.words
    let engine = CompletionEngine(context: reconfigured(context, for: words))
    for candidate in engine.complete(words) { context.console.line(candidate.line) }
    return .success
  }

  /// The context the completed command line would run with: its own `-d FILE` or
  /// `--config FILE` (and other options before the action) applied over the current settings.
  static func reconfigured(_ context: CommandContext, for words: [String]) -> CommandContext {
    let mode = context.settings.mode
    let before = Array(words.dropLast())
    let leading = Array(before[LeadingWords(before, mode: mode).options])
    guard !leading.isEmpty, let options = try? GlobalOptions.parse(leading, mode: mode),
      options.configFile != nil
    else { return context }
    let loader = ConfigurationLoader(
      environment: context.settings.variables, mode: mode,
      programPath: context.settings.programPath,
      runner: context.runner, outputIsTerminal: false)
    guard let settings = try? loader.load(options) else { return context }
    return CommandContext(
      settings: settings, console: context.console, clock: context.clock, store: context.store,
      input: context.input)
  }
}

/// `completions bash|zsh|fish`: prints a completion script (the files in `Completions/`).
enum CompletionsCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "completions", usage: "bash|zsh|fish",
    abstract: "Print the completion script for bash, zsh or fish.",
    discussion:
      "Load it in the shell's start-up file, for example with source <(todo completions bash).",
    arguments: [.choice(CompletionScripts.shells)], nativeOnly: true
  ) { context, arguments throws(TodoError) in
    // The parser took only a word of CompletionScripts.shells, each of which has a script.
    context.console.write(Array((CompletionScripts.script(for: try arguments.word(0)) ?? "").utf8))
    return .success
  }
}
