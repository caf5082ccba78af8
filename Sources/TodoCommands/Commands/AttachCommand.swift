@preconcurrency import Glibc
import TodoStore
import TodoTxt

/// `attach NR FILE`: a copy of a file in `$TODO_DIR/attachments`, linked by an `att:NAME` tag.
enum AttachCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "attach", usage: "NR FILE",
    abstract: "Copy a file (a picture, a document) into the attachments folder and link it to a task.",
    discussion: """
      The copy keeps the file's name, with spaces and colons made dashes and -2, -3 … added \
      when the name is taken, so no attachment is ever overwritten; the task gets an \
      att:NAME tag. A task may have several.
      """,
    arguments: [.taskNumber, .path.nonEmpty], nativeOnly: true
  ) { context, arguments throws(TodoError) in
    let reference = try arguments.task(0)
    let source = try arguments.word(1)
    let file = context.settings.todoFile
    // The list is read once, under the lock: the task is checked, the file copied and the tag
    // added on the snapshot that is written.
    var copied: (folder: ConfinedFolder, name: String)?
    let edited: EditedTasks
    do throws(TodoError) {
      edited = try context.editTasks([reference], label: "attach \(reference.typed)") { _, task throws(TodoError) in
        let made = try copy(source, for: task, reference: reference, settings: context.settings, store: context.store)
        copied = made
        task.appendText(TagMeaning.attachment.key + ":" + made.name)
      }
    } catch {
      if let copied { copied.folder.remove(copied.name) }
      throw error
    }
    let folder = directory(context.settings)
    let name = copied?.name ?? ""
    if context.verbose {
      for (reference, task) in edited { context.echo(reference.typed, task.bytes) }
      context.console.line("TODO: Attached \(source) as \(folder)/\(name).")
    }
    return .success
  }

  /// Copies `source` into the attachments folder for `task`, under a name no other file has.
  ///
  /// The folder is never reached through a link (a linked `attachments` would put the copy
  /// wherever the link points, `~/.bashrc.d` say): see ``ConfinedFolder``.
  ///
  /// - Returns: the folder and the copy's name in it.
  private static func copy(
    _ source: String, for task: Task, reference: TaskReference, settings: Settings, store: TodoStore
  ) throws(TodoError) -> (folder: ConfinedFolder, name: String) {
    // The copy's name becomes part of the task line.
    if let scalar = controlCharacter(in: Array(Posix.basename(source).utf8)) {
      throw .controlCharacter(what: "the file name '\(source.unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "?" : String($0) }.joined())'", scalar: scalar)
    }
    guard Posix.isRegularFile(source) else { throw .cannotCopy(source, reason: "not a readable file") }
    guard let contents = Posix.readFile(source) else { throw .cannotCopy(source, reason: "cannot read it") }
    let folder: ConfinedFolder
    do { folder = try store.folder(directory(settings), creating: true) } catch { throw .store(error) }
    // The same file attached again would only be a second copy and a second tag.
    for name in attachedNames(of: task) where (try? folder.read(name)) == contents {
      throw .alreadyAttached(item: reference.typed, name: name)
    }
    let wanted = String(
      Posix.basename(source).map { $0 == " " || $0 == "\t" || $0 == ":" || $0 == "\n" ? "-" : $0 })
    do { return (folder, try folder.create(preferring: wanted, contents: contents)) } catch { throw .store(error) }
  }

  /// The names of a task's attachments, in the order of its `att:` tags.
  static func attachedNames(of task: Task) -> [String] {
    task.attachments.filter(NoteCommand.isSafeName)
  }

  /// `$TODO_DIR/attachments`.
  static func directory(_ settings: Settings) -> String { settings.todoDirectory + "/attachments" }

  /// Paths of a task's attachments, in the order of its `att:` tags.
  static func attachments(of task: Task, settings: Settings) -> [String] {
    attachedNames(of: task).map { directory(settings) + "/" + $0 }
  }
}

/// `attachments NR`: the files attached to a task.
enum AttachmentsCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "attachments", usage: "NR",
    abstract: "List the paths of the files attached to a task.",
    arguments: [.taskNumber], nativeOnly: true
  ) { context, arguments throws(TodoError) in
    let reference = try arguments.task(0)
    let file = context.settings.todoFile
    let task = try reference.task(in: context.readList(file), file: file, mode: context.settings.mode)
    let paths = AttachCommand.attachments(of: task, settings: context.settings)
    for path in paths { context.console.line(path) }
    if paths.isEmpty, context.verbose { context.console.line("TODO: \(reference.typed) has no attachments.") }
    return .success
  }
}

/// `open NR [N]`: a task's note, attachment or link in the system's opener.
enum OpenCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "open", usage: "NR [N]",
    abstract: "Open a task's note, attachment or web link with $TODO_OPEN, else xdg-open.",
    discussion: """
      When the task has several (its note first, then attachments, then links), they are \
      listed and N chooses one. Without TODO_OPEN and without a graphical session (DISPLAY \
      and WAYLAND_DISPLAY unset), the path or link is printed instead, and why.
      """,
    // N is checked after the task: a task with nothing to open says so first.
    arguments: [.taskNumber, .text.counting(1...Int.max, named: "N").optional], nativeOnly: true, checksWordsInTurn: true
  ) { context, arguments throws(TodoError) in
    let reference = try arguments.task(0)
    let file = context.settings.todoFile
    let task = try reference.task(in: context.readList(file), file: file, mode: context.settings.mode)
    let targets = openable(task, settings: context.settings)
    guard !targets.isEmpty else { throw .nothingToOpen(reference.typed) }
    let target: String
    if let choice = try arguments.number(1) {
      guard choice <= targets.count else { throw .badOptionValue("N", arguments.words[1]) }
      target = targets[choice - 1]
    } else if targets.count == 1 {
      target = targets[0]
    } else {
      for (offset, path) in targets.enumerated() { context.console.line("\(offset + 1) \(path)") }
      throw .chooseWhatToOpen(reference.typed, count: targets.count)
    }
    // Without a graphical session xdg-open falls back to a terminal browser or pager that
    // takes over the terminal (lynx): the path is shown instead, and why.
    if context.settings.value("TODO_OPEN").isEmpty, context.settings.value("DISPLAY").isEmpty,
      context.settings.value("WAYLAND_DISPLAY").isEmpty
    {
      context.console.line(target)
      context.console.errorLine(
        "\(context.programName): no graphical session (DISPLAY and WAYLAND_DISPLAY are unset), so nothing was opened; "
          + "set TODO_OPEN to a program that opens it here")
      return .success
    }
    let opener = context.settings.value("TODO_OPEN").isEmpty ? "xdg-open" : context.settings.value("TODO_OPEN")
    context.console.flush()
    let status = context.runner.run(
      ["sh", "-c", opener + " \"$1\"", "sh", target], environment: context.childEnvironment
    ).status
    guard status == 0 else { throw .childFailed(opener, status: status) }
    return .success
  }

  /// The note, the attachments, then the links (`scheme://…` words) of a task.
  static func openable(_ task: Task, settings: Settings) -> [String] {
    var targets: [String] = []
    if let note = task.note, NoteCommand.isSafeName(note) {
      targets.append(NoteCommand.path(note, in: NoteCommand.directory(settings)))
    }
    targets += AttachCommand.attachments(of: task, settings: settings)
    task.forEachToken { token in
      let word = String(decoding: task.bytes[token.range], as: UTF8.self)
      guard token.kind == .word, let range = word.firstRange(of: "://"), range.lowerBound > word.startIndex,
        word[..<range.lowerBound].allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "+") })
      else { return }
      targets.append(word)
    }
    return targets
  }
}
