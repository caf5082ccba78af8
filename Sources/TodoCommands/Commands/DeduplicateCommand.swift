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
        var seen = Set<[UInt8]>()
        var duplicates: [Int] = []
        for (index, task) in list.enumerated() {
          let line = Array(task.bytes)
          if !seen.insert(line).inserted { duplicates.append(index) }
        }
        let before = list.filter { !$0.bytes.isEmpty }.count
        if preserve {
          for index in duplicates where !list[index].bytes.isEmpty { list.replace(at: index, with: Task(bytes: [])) }
        } else {
          for index in duplicates.reversed() { list.remove(at: index) }
        }
        let after = list.filter { !$0.bytes.isEmpty }.count
        return before - after
      }
    }
    guard removed > 0 else { throw .noDuplicates }
    context.console.line("TODO: \(removed) duplicate task(s) removed")
    return .success
  }
}
