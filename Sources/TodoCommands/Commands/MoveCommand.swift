import TodoStore
import TodoTxt

/// `move NR DEST [SRC]`: move a task between files of the todo directory.
enum MoveCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "move", aliases: ["mv"], usage: "NR DEST [SRC]",
    abstract: "Move a task from one file of the todo directory to another.",
    discussion: "SRC defaults to todo.txt. Asks for confirmation unless -f is given.",
    // As todo.sh: the files are looked for before the number is read, a DEST left out is a
    // missing file, an empty SRC is todo.txt, and words after SRC are left alone.
    arguments: [.taskNumber, .fileName.optional, .fileName.optional], numbersNameTodoTasks: false,
    checksWordsInTurn: true, extraWords: .ignored, errorUsage: "mv NR DEST [SRC]"
  ) { context, arguments throws(TodoError) in
    let directory = context.settings.todoDirectory
    let destination = directory + "/" + (try arguments.optionalWord(1) ?? "")
    let sourceName = try arguments.optionalWord(2) ?? ""
    let source = sourceName.isEmpty ? context.settings.todoFile : directory + "/" + sourceName
    guard Posix.isRegularFile(source) else { throw .sourceMissing(source) }
    guard Posix.isRegularFile(destination) else { throw .destinationMissing(destination) }
    let reference = try arguments.task(0)
    let sourcePrefix = CommandContext.prefix(of: source)
    let preserve = context.settings.preservesLineNumbers
    // The question is asked without the lock, and the task moved only if it is still what
    // the question showed (see `CommandContext.change`); a "no" writes nothing.
    let terminal = context.console.destination
    var task = Task(bytes: [])
    let written = try context.change(
      [source, destination], label: "move \(reference.typed)", asking: !context.settings.isForced
    ) { lists in
      task = try reference.task(in: lists[0], file: source, mode: context.settings.mode)
      let text = String(decoding: task.bytes, as: UTF8.self)
      guard context.confirm("Move '\(text)' from \(source) to \(destination)", on: terminal) else {
        throw TodoError.noTasksMoved(prefix: sourcePrefix)
      }
      lists[0].replace(number: reference.number, with: Task(bytes: []))
      if !preserve { lists[0].removeAll { $0.bytes.isEmpty } }
      lists[1].append(task)
    }
    // The task went to the end of the destination as it is now.
    let newNumber = written.lineCounts[1]
    if context.verbose {
      context.echo(reference.typed, task.bytes)
      context.console.line(
        "\(sourcePrefix): \(reference.typed) moved to \(newNumber) in \(CommandContext.prefix(of: destination)).")
    }
    return .success
  }
}
