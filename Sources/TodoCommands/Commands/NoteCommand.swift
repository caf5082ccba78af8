@preconcurrency import Glibc
import TodoStore
import TodoTxt

/// `note NR [--show]`: a long description kept in a file of `$TODO_DIR/notes/`, linked to the
/// task by a `note:NAME` tag (the convention of todo.sh's note add-on).
enum NoteCommand {
  static let showOption = OptionSpec(["--show"], help: "Print the note instead of opening it in the editor.")
  static let replaceOption = OptionSpec(
    ["--replace"], help: "With TEXT (or text on standard input): replace the note's text instead of adding to it.")

  static let spec: CommandSpec = CommandSpec(
    name: "note", usage: "NR [TEXT...]",
    abstract: "Write or show the note of a task: a text file in the notes folder of the todo directory.",
    discussion: """
      Opens the task's note in $VISUAL or $EDITOR (vi when neither is set), creating it the \
      first time and linking it with a note:NAME.txt tag, NAME being the task's first words \
      and four random characters (call-mom-k3xq.txt) so that notes two machines write for \
      tasks of the same words never share a file once synced; a new note left empty is removed. \
      --show prints the note. TEXT (or text piped to standard input) is added to the note as \
      a line, without an editor; --replace makes it the whole note. The tag moves with the \
      task to done.txt on archive and the file stays. ls also searches notes for plain words.
      """,
    arguments: [.taskNumber, .text], argumentsWhenGiven: [(showOption.name, [.taskNumber])],
    options: [showOption, replaceOption], nativeOnly: true, argumentsOptional: true
  ) { context, arguments throws(TodoError) in
    let reference = try arguments.task(0)
    let words = try arguments.text(1)
    if !words.isEmpty || !context.input.isTerminal, !context.invocation.has(showOption.name) {
      // Text given is never ignored: as arguments, or piped in (when there is any).
      var text = Array(RawArguments.joined(words))
      if words.isEmpty {
        while let line = context.input.readLine() { text += line + [0x0A] }
      }
      if !text.isEmpty || !words.isEmpty {
        return try writeText(text, to: reference, context: context)
      }
    }
    let showing = context.invocation.has(showOption.name)
    let file = context.settings.todoFile
    let notes = directory(context.settings)
    if showing {
      let task = try reference.task(in: context.readList(file), file: file, mode: context.settings.mode)
      guard let linked = linkedName(task) else { throw .noNote(reference.typed) }
      let text: [UInt8]
      do throws(StoreError) { text = try context.store.folder(notes).read(linked) } catch where error.kind == .notFound {
        throw .noNote(reference.typed)
      } catch {
        throw .store(error)
      }
      context.console.write(text)
      if text.last != 0x0A, !text.isEmpty { context.console.write([0x0A]) }
      return .success
    }

    // The task is found and the editor runs without the list's lock (a script's `add` goes on
    // meanwhile); the tag is then written under it, onto the task the number named, found by
    // content (see `CommandContext.change`).
    let editor = ["VISUAL", "EDITOR"].map { context.settings.value($0) }.first { !$0.isEmpty } ?? "vi"
    let terminal = context.console.destination
    var made: String?
    let outcome: Outcome
    do throws(TodoError) {
      outcome = try context.change(file, label: "note \(reference.typed)", asking: true) {
        (list: inout TodoList) throws -> Outcome in
        var task = try reference.task(in: list, file: file, mode: context.settings.mode)
        // Never through a link: the editor would follow it out of the notes folder.
        let folder = try context.store.folder(notes, creating: true)
        let name: String
        var created = false
        if let linked = linkedName(task) {
          name = linked
          switch folder.kind(of: name) {
          case .link?:
            throw StoreError(.symbolicLink(target: folder.linkTarget(name)), path: folder.path(of: name), operation: .write)
          case .folder?, .other?:
            throw StoreError(.notAFile, path: folder.path(of: name), operation: .write)
          case .file?, nil: break
          }
        } else {
          name = try folder.create(uniqueNameFrom: task.fileNameStem, extension: ".txt", contents: [])
          created = true
        }
        let notePath = folder.path(of: name)
        terminal.flush()
        let status = context.runner.run(
          ["sh", "-c", editor + " \"$1\"", "sh", notePath], environment: context.childEnvironment
        ).status
        let isEmpty = (try? folder.read(name))?.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 } ?? true
        if created, isEmpty { folder.remove(name) }
        guard status == 0 else { throw TodoError.childFailed(editor, status: status) }
        guard created else { return .edited(notePath) }
        guard !isEmpty else { return .leftEmpty }
        made = name
        task.setTag(TagMeaning.note.key, name)
        list.replace(number: reference.number, with: task)
        return .linked(notePath, task)
      }
    } catch {
      // The task changed while the note was written: the note stays, and is named.
      guard case .changedWhileAsked = error, let made else { throw error }
      let message = error.message(programName: context.programName)
      throw .message(
        String(message.dropLast("; nothing changed".count))
          + "; the note is kept in '\(notes)/\(made)', not linked ('\(context.programName) tag \(reference.typed) note \(made)' links it)")
    }
    guard context.verbose else { return .success }
    switch outcome {
    case .leftEmpty: context.console.line("TODO: The note was left empty; nothing linked.")
    case .edited(let notePath): context.console.line("TODO: Note \(notePath)")
    case .linked(let notePath, let task):
      context.echo(reference.typed, task.bytes)
      context.console.line("TODO: Note \(notePath)")
    }
    return .success
  }

  /// `note NR TEXT` (or text on standard input): adds the text to the task's note as a line,
  /// or with `--replace` makes it the whole note, creating and linking the note the first
  /// time; all under the list's lock, the note replaced in one step.
  static func writeText(_ text: [UInt8], to reference: TaskReference, context: CommandContext) throws(TodoError) -> ExitStatus {
    if let scalar = controlCharacter(in: text.filter { $0 != 0x0A && $0 != 0x09 }) {
      throw .controlCharacter(what: "the note's text", scalar: scalar)
    }
    guard !text.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x09 }) else { throw .emptyText(spec.name) }
    let file = context.settings.todoFile
    let notes = directory(context.settings)
    let replacing = context.invocation.has(replaceOption.name)
    var line = text
    if line.last != 0x0A { line.append(0x0A) }
    var result: (path: String, task: Task, created: Bool)?
    try context.storing {
      try context.store.update(file, label: "note \(reference.typed)") { (list: inout TodoList) throws in
        var task = try reference.task(in: list, file: file, mode: context.settings.mode)
        let folder = try context.store.folder(notes, creating: true)
        let written = try write(line, replacing: replacing, to: linkedName(task), for: task, in: folder)
        if written.created {
          task.setTag(TagMeaning.note.key, written.name)
          list.replace(number: reference.number, with: task)
        }
        result = (folder.path(of: written.name), task, written.created)
      }
    }
    guard let (notePath, task, created) = result else { return .success }
    if context.verbose {
      if created { context.echo(reference.typed, task.bytes) }
      context.console.line("TODO: Note \(notePath)")
    }
    return .success
  }

  /// Adds `line` to the note `linked` (or replaces its text), or makes a new note for `task`
  /// when it has none; returns the note's name and whether it is new.
  static func write(_ line: [UInt8], replacing: Bool, to linked: String?, for task: Task, in folder: ConfinedFolder)
    throws(StoreError) -> (name: String, created: Bool)
  {
    guard let linked else {
      return (try folder.create(uniqueNameFrom: task.fileNameStem, extension: ".txt", contents: line), true)
    }
    var contents: [UInt8] = []
    if !replacing {
      do { contents = try folder.read(linked) } catch where error.kind == .notFound { contents = [] }
      if let last = contents.last, last != 0x0A { contents.append(0x0A) }
    }
    try folder.replace(linked, contents: contents + line)
    return (linked, false)
  }

  /// What one `note` did: opened a linked note, made and linked a new one (the task as
  /// written), or made one that was left empty and removed.
  enum Outcome {
    case edited(String)
    case linked(String, Task)
    case leftEmpty
  }

  /// The note file a task's `note:` tag names, when it is a name inside the notes folder.
  static func linkedName(_ task: Task) -> String? {
    task.note.flatMap { isSafeName($0) ? $0 : nil }
  }

  /// `$TODO_DIR/notes`.
  static func directory(_ settings: Settings) -> String { settings.todoDirectory + "/notes" }

  static func path(_ name: String, in directory: String) -> String { directory + "/" + name }

  /// A tag value that names a file inside the folder (no path separators, not `.`/`..`).
  static func isSafeName(_ name: String) -> Bool {
    !name.isEmpty && !name.contains("/") && name != "." && name != ".."
  }


}
