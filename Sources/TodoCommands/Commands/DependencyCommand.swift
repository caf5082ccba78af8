import TodoTxt

/// `dep add|rm|ls`: tasks that wait for other tasks, with topydo's tags: the task that waits
/// carries `id:X`, each task it waits for carries `p:X`. Under the name `todo`, `ls` hides a
/// task while anything it waits for is open (`--all` shows it), and `do` says when a task is
/// no longer waiting.
enum DependencyCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "dep", usage: "add|rm NR NR... | ls [NR]",
    abstract: "Make a task wait for others (add), stop it waiting (rm), or list what waits for what (ls).",
    discussion: """
      'dep add 3 5 7' makes task 3 wait for tasks 5 and 7: task 3 gets an id: tag and 5 and 7 \
      a p: tag naming it. Task 3 is left out of ls until 5 and 7 are done. 'dep rm 3 5' undoes \
      one link; 'dep ls 3' shows what 3 waits for and what waits for 3.
      """,
    subcommands: [addSpec, removeSpec, listSpec], nativeOnly: true,
    run: CommandSpec.runningSubcommands { DependencyCommand.spec })

  static let addSpec = linkSpec("add", abstract: "Make the first task wait for the others.", adding: true)
  static let removeSpec = linkSpec("rm", abstract: "Stop the first task waiting for the others.", adding: false)

  /// `dep add` and `dep rm`: the same arguments, linking or unlinking.
  static func linkSpec(_ name: String, abstract: String, adding: Bool) -> CommandSpec {
    CommandSpec(
      name: name, usage: "NR NR...", abstract: abstract, arguments: [.taskNumber, .taskNumbers.onePerWord], parent: "dep",
      nativeOnly: true
    ) { context, arguments throws(TodoError) in
      try link(context, parent: arguments.task(0), children: arguments.tasks(1), adding: adding)
    }
  }

  static let listSpec: CommandSpec = CommandSpec(
    name: "ls", usage: "[NR]", abstract: "Show what waits for what, or what one task waits for and what waits for it.",
    arguments: [.taskNumber.optional], parent: "dep", nativeOnly: true, argumentsOptional: true
  ) { context, arguments throws(TodoError) in
    try show(context, arguments.optionalTask(0))
  }

  static func link(
    _ context: CommandContext, parent parentReference: TaskReference, children: [TaskReference], adding: Bool
  ) throws(TodoError) -> ExitStatus {
    let file = context.settings.todoFile
    let numbers = [parentReference.typed] + children.map(\.typed)
    try context.storing {
      try context.store.update(file, label: "dep \(adding ? "add" : "rm") \(numbers.joined(separator: " "))") {
        (list: inout TodoList) in
        var parent = try parentReference.task(in: list, file: file, mode: context.settings.mode)
        for child in children {
          _ = try child.task(in: list, file: file, mode: context.settings.mode)
          guard child.number != parentReference.number else { throw TodoError.dependencyOnItself(child.typed) }
        }
        if adding {
          let id = parent.dependencyID ?? nextID(in: list)
          if parent.dependencyID == nil {
            parent.appendText("\(TagMeaning.id.key):\(id)")
            list.replace(number: parentReference.number, with: parent)
          }
          for child in children {
            var task = try child.task(in: list, file: file, mode: context.settings.mode)
            if waits(child.number, on: parentReference.number, in: list) {
              throw TodoError.dependencyCycle(parent: parentReference.typed, child: child.typed)
            }
            guard !task.parentIDs.contains(id) else { continue }
            task.appendText("\(TagMeaning.parent.key):\(id)")
            list.replace(number: child.number, with: task)
            if context.verbose {
              context.console.line("TODO: \(parentReference.typed) waits for \(child.typed).")
            }
          }
        } else {
          guard let id = parent.dependencyID else { throw TodoError.notWaiting(parentReference.typed) }
          for child in children {
            var task = try child.task(in: list, file: file, mode: context.settings.mode)
            guard task.removeTag(TagMeaning.parent.key, value: id) else {
              throw TodoError.notWaitingFor(parent: parentReference.typed, child: child.typed)
            }
            list.replace(number: child.number, with: task)
            if context.verbose {
              context.console.line("TODO: \(parentReference.typed) no longer waits for \(child.typed).")
            }
          }
          // An id nothing points to any more is only clutter.
          if !list.contains(where: { $0.parentIDs.contains(id) }) {
            parent.removeTag(TagMeaning.id.key, value: id)
            list.replace(number: parentReference.number, with: parent)
          }
        }
      }
    }
    return .success
  }

  /// The smallest whole number not yet used as an `id:`.
  static func nextID(in list: TodoList) -> String {
    var highest = 0
    for task in list { if let id = task.dependencyID, let value = Int(id) { highest = max(highest, value) } }
    return String(highest + 1)
  }

  /// Whether the task at `number` waits, directly or through others, for the one at `target`
  /// (linking them the other way round would make a cycle).
  static func waits(_ number: Int, on target: Int, in list: TodoList) -> Bool {
    var seen = Set<Int>()
    var pending = [number]
    while let current = pending.popLast() {
      guard seen.insert(current).inserted, let task = list.task(number: current) else { continue }
      if current == target { return true }
      guard let id = task.dependencyID else { continue }
      for (index, other) in list.enumerated() where other.parentIDs.contains(id) { pending.append(index + 1) }
    }
    return false
  }

  static func show(_ context: CommandContext, _ reference: TaskReference?) throws(TodoError) -> ExitStatus {
    let file = context.settings.todoFile
    let list = try context.readList(file)
    func line(_ number: Int, _ task: Task) { context.echo(String(number), task.bytes) }
    if let reference {
      let task = try reference.task(in: list, file: file, mode: context.settings.mode)
      line(reference.number, task)
      if let id = task.dependencyID {
        for (index, other) in list.enumerated() where other.parentIDs.contains(id) {
          context.console.write(bytes("  waits for "))
          line(index + 1, other)
        }
      }
      for parentID in task.parentIDs {
        for (index, other) in list.enumerated() where other.dependencyID == parentID {
          context.console.write(bytes("  needed by "))
          line(index + 1, other)
        }
      }
      return .success
    }
    for (index, task) in list.enumerated() {
      guard let id = task.dependencyID else { continue }
      let children = list.enumerated().filter { $0.element.parentIDs.contains(id) }
      guard !children.isEmpty else { continue }
      line(index + 1, task)
      for (childIndex, child) in children {
        context.console.write(bytes("  waits for "))
        line(childIndex + 1, child)
      }
    }
    return .success
  }
}

/// Which tasks wait for open tasks, found without parsing lines that name no parent.
enum Dependencies {
  /// The `id:` values of tasks that still wait: some open task names them with `p:`.
  static func blockedIDs(in list: TodoList) -> Set<String> {
    var candidates: [Int] = []
    list.forEachLineBytes { index, line in
      if NativeListing.hasToken(line, TagMeaning.parent.token) { candidates.append(index) }
    }
    return openParents(candidates.lazy.map { list[$0] })
  }

  /// The same, over a listing's lines.
  static func blockedIDs(in lines: Lines) -> Set<String> {
    openParents(lines.indices(holdingToken: TagMeaning.parent.token).lazy.map { lines.task($0) })
  }

  /// ``Urgency/waitingCounts(in:)`` over a listing's lines, parsing only the lines with an
  /// `id:`.
  static func waitingCounts(in lines: Lines) -> [String: Int] {
    Urgency.waitingCounts(in: lines.indices(holdingToken: TagMeaning.id.token).lazy.map { lines.task($0) })
  }

  /// The parents named with `p:` by the open tasks among `tasks`.
  private static func openParents(_ tasks: some Sequence<Task>) -> Set<String> {
    var ids = Set<String>()
    for task in tasks where !task.isCompleted { ids.formUnion(task.parentIDs) }
    return ids
  }

  /// The tasks that waited only for tasks now done: their `id:` is named by a completed task
  /// and by no open one.
  static func freed(by completed: [Task], in list: TodoList) -> [(number: Int, task: Task)] {
    let candidates = Set(completed.flatMap(\.parentIDs))
    guard !candidates.isEmpty else { return [] }
    let stillBlocked = blockedIDs(in: list)
    var result: [(Int, Task)] = []
    for (index, task) in list.enumerated() where !task.isCompleted {
      if let id = task.dependencyID, candidates.contains(id), !stillBlocked.contains(id) {
        result.append((index + 1, task))
      }
    }
    return result
  }
}
