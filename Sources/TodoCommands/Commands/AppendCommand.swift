import TodoTxt

/// `append`, `prepend` and `replace`: edit the text of one task in place.
enum AppendCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "append", aliases: ["app"], usage: "NR \"TEXT TO APPEND\"",
    abstract: "Add text to the end of a task.",
    discussion: """
      A space goes between the task and the text, unless the text starts with one of the \
      characters in SENTENCE_DELIMITERS (by default , . : and ;).
      """,
    arguments: [.taskNumber, .taskText], options: [TypedInput.verbatimOption]
  ) { context, arguments throws(TodoError) in
    let file = context.settings.todoFile
    let reference = try TaskReference(arguments.first, usage: spec.usageError)
    let rest = Array(arguments.dropFirst())
    // Asked only about a task that exists, on the snapshot being changed: the list is read
    // once, under the lock.
    let asks = rest.first?.isEmpty ?? true && !context.settings.isForced
    let terminal = context.console
    let delimiters = Set(context.settings.sentenceDelimiters.utf8)
    let updated = try context.editTask(reference, in: file, label: "append") { task throws(TodoError) in
      var input = asks ? context.ask("Append: ", on: terminal) : RawArguments.joined(rest)
      let space: [UInt8] = input.first.map { delimiters.contains($0) } ?? false ? [] : [UInt8(ascii: " ")]
      input = try context.storedText(cleanInput(input))
      task.setLine(task.bytes + space + input)
    }
    if context.verbose { context.echo(reference.typed, updated.bytes) }
    return .success
  }
}

extension CommandContext {
  /// Edits one task of `file` under the store's lock and returns it as written.
  func editTask(
    _ reference: TaskReference, in file: String, label: String, _ edit: (inout Task) throws(TodoError) -> Void
  ) throws(TodoError) -> Task {
    try storing {
      try store.update(file, label: "\(label) \(reference.typed)") { list -> Task in
        var task = try reference.task(in: list, file: file, mode: settings.mode)
        try edit(&task)
        list.replace(number: reference.number, with: task)
        return task
      }
    }
  }
}
