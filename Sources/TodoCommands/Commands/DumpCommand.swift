import TodoTxt

/// `__dump [mdoc]`: the whole command tree as JSON, or the option lists of todo(1) as mdoc.
/// Hidden; the man-page tests compare todo(1) with it, option by option, so the manual cannot
/// drift from the declarations.
enum DumpCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "__dump", usage: "[mdoc]",
    abstract: "Print the declared commands, arguments and options as JSON (or todo(1)'s option lists).",
    arguments: [.choice(["mdoc"]).optional], hidden: true
  ) { context, arguments throws(TodoError) in
    let mode = context.settings.mode
    let commands = CommandRegistry.all.filter { $0.isListed(in: mode) }
    if try arguments.optionalWord(0) != nil {
      for spec in commands where !spec.options.isEmpty { context.console.write(bytes(mdoc(spec))) }
      return .success
    }
    context.console.write(json(commands, mode: mode))
    context.console.line("")
    return .success
  }

  /// The tree as one JSON object: `{"program", "options": [{"names", "valueName", "values",
  /// "help"}], "commands": [{"name", "aliases", "usage", "abstract", "discussion",
  /// "nativeOnly", "arguments", "options": [...], "subcommands": [...]}]}`; the first
  /// `options` are those before the action (``GlobalOptionSpec``), as `mode` has them.
  static func json(_ commands: [CommandSpec], mode: Mode) -> [UInt8] {
    var writer = JSONWriter()
    writer.raw("{\"program\":")
    writer.string(mode.policy.name)
    writer.raw(",\"options\":[")
    for (number, entry) in GlobalOptionSpec.helpEntries(mode: mode).enumerated() {
      if number > 0 { writer.raw(",") }
      writer.raw("{\"names\":")
      writer.strings([entry.name] + (entry.name.hasPrefix("--") ? Array(entry.option.longNames.dropFirst()) : []))
      writer.raw(",\"valueName\":")
      writer.optional(entry.option.takesValue ? entry.option.valueName : nil)
      writer.raw(",\"values\":")
      writer.strings(entry.option.value.words)
      writer.raw(",\"help\":")
      writer.string(entry.help)
      writer.raw("}")
    }
    writer.raw("],\"commands\":")
    write(commands, to: &writer, mode: mode)
    writer.raw("}")
    return writer.bytes
  }

  private static func write(_ commands: [CommandSpec], to writer: inout JSONWriter, mode: Mode) {
    writer.raw("[")
    for (index, spec) in commands.enumerated() {
      if index > 0 { writer.raw(",") }
      writer.raw("{\"name\":")
      writer.string(spec.name)
      writer.raw(",\"aliases\":")
      writer.strings(spec.aliases)
      writer.raw(",\"usage\":")
      writer.string(spec.usage)
      writer.raw(",\"abstract\":")
      writer.string(spec.abstract)
      writer.raw(",\"discussion\":")
      writer.string(spec.discussion)
      writer.raw(",\"nativeOnly\":")
      writer.bool(spec.nativeOnly)
      writer.raw(",\"arguments\":")
      writer.strings(spec.arguments.map(describe))
      writer.raw(",\"options\":[")
      for (number, option) in (mode.policy.parsesLongOptions ? spec.options : []).enumerated() {
        if number > 0 { writer.raw(",") }
        writer.raw("{\"names\":")
        writer.strings(option.names)
        writer.raw(",\"valueName\":")
        writer.optional(option.takesValue ? option.valueName : nil)
        writer.raw(",\"values\":")
        // A date's words are suggestions out of many forms (see DATE WORDS), not its values.
        writer.strings(option.value == .date ? [] : option.value.words)
        writer.raw(",\"help\":")
        writer.string(option.help)
        writer.raw("}")
      }
      writer.raw("],\"subcommands\":")
      write(spec.subcommands, to: &writer, mode: mode)
      writer.raw("}")
    }
    writer.raw("]")
  }

  static func describe(_ kind: CommandSpec.ArgumentKind) -> String {
    switch kind {
    case .taskNumber: "taskNumber"
    case .taskNumbers: "taskNumbers"
    case .priority: "priority"
    case .text: "text"
    case .taskText: "taskText"
    case .term: "term"
    case .query: "query"
    case .fileName: "fileName"
    case .action: "action"
    case .priorities: "priorities"
    case .choice(let words): "choice:" + words.joined(separator: "|")
    case .tagKey: "tagKey"
    case .path: "path"
    case .dateOrDuration: "dateOrDuration"
    case .tagValue: "tagValue"
    }
  }

  /// A command's options as the nested list todo(1) has in the command's entry, preceded by a
  /// comment line naming the command.
  static func mdoc(_ spec: CommandSpec) -> String {
    var text = ".\\\" Options of \(spec.name), as declared (todo __dump mdoc).\n.Bl -tag -width Ds\n"
    for option in spec.options {
      let names = option.names.filter { !$0.hasPrefix("--") } + option.names.filter { $0.hasPrefix("--") }
      let flags = names.map { "Fl " + $0.dropFirst() }.joined(separator: " , ")
      text += ".It \(flags)\(option.takesValue ? " Ar \(option.valueName)" : "")\n"
      // mdoc wants each sentence on a line of its own, and lines of at most 80 bytes.
      let help = HelpCommand.optionHelpText(option)
      for sentence in help.split(separator: ". ", omittingEmptySubsequences: true) {
        let line = sentence.hasSuffix(".") ? String(sentence) : sentence + "."
        for part in HelpCommand.wrap(line, width: 78) { text += part + "\n" }
      }
    }
    return text + ".El\n"
  }
}
