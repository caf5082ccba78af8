import TodoTxt

/// `deduplicate`: remove repeated identical lines.
enum DeduplicateCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "deduplicate",
    abstract: "Remove lines that repeat an earlier line exactly.",
    discussion: "The first copy stays. Removed copies leave an empty line unless -n is given.",
    extraWords: .ignoredUnderTodoSh
  ) { context, _ throws(TodoError) in
    let file = context.settings.todoFile
    let preserve = context.settings.preservesLineNumbers
    let removed: Int = try context.storing {
      try context.store.update(file, label: "deduplicate") { list in
        // Marked by a table of the first line of each text (``ListCheck/exactCopies(in:)``),
        // not a set of copies of every line.
        let copies = ListCheck.exactCopies(in: list)
        // Copies of an empty line go too (without -n), but are no task removed.
        let removed = copies.indices.count { copies[$0] && !list.lineBytes(at: $0).isEmpty }
        if preserve {
          for index in copies.indices where copies[index] && !list.lineBytes(at: index).isEmpty {
            list.replace(at: index, with: Task(bytes: []))
          }
        } else {
          list.removeLines(marked: copies)
        }
        return removed
      }
    }
    guard removed > 0 else { throw .noDuplicates }
    context.console.line("TODO: \(removed) duplicate task(s) removed")
    return .success
  }
}
