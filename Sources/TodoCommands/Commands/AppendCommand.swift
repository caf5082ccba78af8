import TodoTxt

/// `append`, `prepend` and `replace`: edit the text of one task in place.
enum AppendCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "append", aliases: ["app"], usage: "NR \"TEXT TO APPEND\"",
    abstract: "Add text to the end of a task.",
    discussion: """
      A space goes between the task and the text, unless the text starts with one of the \
      characters in SENTENCE_DELIMITERS (by default , . : and ;). Under the name todo, a tag \
      with meaning that the task already has (due:, t:, rec:, h:, id:, note:) is set in place \
      instead of added a second time, where it would not count, and the old value is named.
      """,
    arguments: [.taskNumber, .taskText], options: [TypedInput.verbatimOption]
  ) { context, arguments throws(TodoError) in
    let file = context.settings.todoFile
    let reference = try arguments.task(0)
    let rest = try arguments.text(1)
    // Asked only about a task that exists, and without the lock: the text is added only if
    // the task is still as it was when asked about.
    let asks = rest.first?.isEmpty ?? true && !context.settings.isForced
    let terminal = context.console.destination
    let delimiters = Set(context.settings.sentenceDelimiters.utf8)
    var replaced: [Task.RepeatedTag] = []
    let updated = try context.editTask(reference, in: file, label: "append", asking: asks) { task throws(TodoError) in
      var input = asks ? context.ask("Append: ", on: terminal) : RawArguments.joined(rest)
      let space: [UInt8] = input.first.map { delimiters.contains($0) } ?? false ? [] : [UInt8(ascii: " ")]
      input = try context.storedText(cleanInput(input))
      (input, replaced) = try context.settingRepeatedTags(of: input, on: &task)
      guard !input.isEmpty || replaced.isEmpty else { return }
      task.setLine(task.bytes + space + input)
    }
    context.reportReplaced(replaced)
    if context.verbose { context.echo(reference.typed, updated.bytes) }
    return .success
  }
}

extension CommandContext {
  /// Under the name `todo`, the tags with meaning that text added to `task` gives again
  /// (`append 6 due:fri` on a task with a `due:`) are set in place instead of added a second
  /// time, where they would not count; returns the rest of the text and what was replaced.
  /// Under the name todo.sh the text is added as typed.
  func settingRepeatedTags(of text: [UInt8], on task: inout Task) throws(TodoError) -> ([UInt8], [Task.RepeatedTag]) {
    guard settings.policy.readsTasksByGrammar else { return (text, []) }
    let split = task.splittingRepeatedTags(from: text)
    for tag in split.repeated {
      do throws(Task.ModelError) { try task.set(tag.meaning, to: tag.new) } catch {
        throw .message("\(programName): cannot set \(tag.meaning.key):\(tag.new) on the task")
      }
    }
    return (split.rest, split.repeated)
  }

  /// Says which values replaced which (`TODO: due:2026-12-04 replaces due:2026-12-01.`).
  func reportReplaced(_ replaced: [Task.RepeatedTag]) {
    guard verbose else { return }
    for tag in replaced where tag.old != tag.new {
      console.line("TODO: \(tag.meaning.key):\(tag.new) replaces \(tag.meaning.key):\(tag.old).")
    }
  }
}

extension CommandContext {
  /// Edits one task of `file` under the store's lock and returns it as written.
  ///
  /// - Parameter asking: `edit` asks the person for text; the task is then read and asked
  ///   about without the lock (see ``change(_:label:asking:_:)``).
  func editTask(
    _ reference: TaskReference, in file: String, label: String, asking: Bool = false,
    _ edit: (inout Task) throws(TodoError) -> Void
  ) throws(TodoError) -> Task {
    try change(file, label: "\(label) \(reference.typed)", asking: asking) { list -> Task in
      var task = try reference.task(in: list, file: file, mode: settings.mode)
      try edit(&task)
      list.replace(number: reference.number, with: task)
      return task
    }
  }
}
