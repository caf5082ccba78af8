@preconcurrency import Glibc
import TodoTxt

/// `note NR [--show]`: a long description kept in a file of `$TODO_DIR/notes/`, linked to the
/// task by a `note:NAME` tag (the convention of todo.sh's note add-on).
enum NoteCommand {
  static let showOption = OptionSpec(["--show"], help: "Print the note instead of opening it in the editor.")

  static let spec: CommandSpec = CommandSpec(
    name: "note", usage: "NR",
    abstract: "Write or show the note of a task: a text file in the notes folder of the todo directory.",
    discussion: """
      Opens the task's note in $VISUAL or $EDITOR (vi when neither is set), creating it the \
      first time and linking it with a note:NAME.txt tag; a new note left empty is removed. \
      --show prints the note. The tag moves with the task to done.txt on archive and the \
      file stays. ls also searches notes for plain words.
      """,
    arguments: [.taskNumber], options: [showOption], nativeOnly: true
  ) { context, arguments throws(TodoError) in
    guard arguments.count == 1 else { throw spec.usageError }
    let showing = context.invocation.has(showOption.name)
    let reference = try TaskReference(arguments[0], usage: spec.usageError)
    let file = context.settings.todoFile
    let notes = directory(context.settings)
    if showing {
      let task = try reference.task(in: context.readList(file), file: file, mode: context.settings.mode)
      guard let linked = linkedName(task) else { throw .noNote(reference.typed) }
      try refuseLinks(notes, path(linked, in: notes))
      guard let text = Posix.readFile(path(linked, in: notes)) else { throw .noNote(reference.typed) }
      context.console.write(text)
      if text.last != 0x0A, !text.isEmpty { context.console.write([0x0A]) }
      return .success
    }

    // The task is found, the editor runs and the tag is written in one update of one snapshot:
    // the list is read once, and the task given the note is the one the number named then
    // (another writer waits for the editor, as for `edit`).
    let editor = ["VISUAL", "EDITOR"].map { context.settings.value($0) }.first { !$0.isEmpty } ?? "vi"
    let terminal = context.console
    let outcome: Outcome = try context.storing {
      try context.store.update(file, label: "note \(reference.typed)") { (list: inout TodoList) throws -> Outcome in
        var task = try reference.task(in: list, file: file, mode: context.settings.mode)
        try refuseLinks(notes)
        guard Posix.makeDirectories(notes) else { throw directoryError(notes) }
        let name: String
        var created = false
        if let linked = linkedName(task) {
          name = linked
          try refuseLinks(path(name, in: notes))
        } else {
          guard let new = createUniqueFile(in: notes, preferring: slug(task) + ".txt", contents: []) else {
            throw TodoError.notADirectory(notes)
          }
          name = new
          created = true
        }
        let notePath = path(name, in: notes)
        terminal.flush()
        let status = context.runner.run(
          ["sh", "-c", editor + " \"$1\"", "sh", notePath], environment: context.childEnvironment
        ).status
        let isEmpty = Posix.readFile(notePath)?.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 } ?? true
        if created, isEmpty { _ = unlink(notePath) }
        guard status == 0 else { throw TodoError.childFailed(editor, status: status) }
        guard created else { return .edited(notePath) }
        guard !isEmpty else { return .leftEmpty }
        task.setTag("note", name)
        list.replace(number: reference.number, with: task)
        return .linked(notePath, task)
      }
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

  /// What one `note` did: opened a linked note, made and linked a new one (the task as
  /// written), or made one that was left empty and removed.
  enum Outcome {
    case edited(String)
    case linked(String, Task)
    case leftEmpty
  }

  /// Refuses paths that are symbolic links: the editor or `--show` would follow them out of
  /// the notes folder.
  static func refuseLinks(_ paths: String...) throws(TodoError) {
    for path in paths where Posix.isSymbolicLink(path) { throw .noteIsALink(path) }
  }

  /// The note file a task's `note:` tag names, when it is a name inside the notes folder.
  static func linkedName(_ task: Task) -> String? {
    task.tagValue("note").flatMap { isSafeName($0) ? $0 : nil }
  }

  /// `$TODO_DIR/notes`.
  static func directory(_ settings: Settings) -> String { settings.todoDirectory + "/notes" }

  static func path(_ name: String, in directory: String) -> String { directory + "/" + name }

  /// A tag value that names a file inside the folder (no path separators, not `.`/`..`).
  static func isSafeName(_ name: String) -> Bool {
    !name.isEmpty && !name.contains("/") && name != "." && name != ".."
  }

  /// A file name from the first words of a task (`call-mom-about.txt`), `note` when it has none.
  static func slug(_ task: Task) -> String {
    var words: [String] = []
    task.forEachToken { token in
      guard token.kind == .word else { return }
      let word = String(decoding: task.bytes[token.range], as: UTF8.self).lowercased()
      let kept = String(word.unicodeScalars.filter { ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") })
      if !kept.isEmpty { words.append(kept) }
    }
    var slug = ""
    for word in words where slug.count + word.count + 1 <= 32 { slug += (slug.isEmpty ? "" : "-") + word }
    return slug.isEmpty ? "note" : slug
  }

  /// Creates a new file in `directory` named `name`, or `stem-2.ext`, `stem-3.ext` … when taken
  /// (created exclusively, so two runs can never pick the same name), and writes `contents`.
  /// Returns the name used.
  static func createUniqueFile(in directory: String, preferring name: String, contents: [UInt8]) -> String? {
    let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
    let stem = dot.map { String(name[..<$0]) } ?? name
    let suffix = dot.map { String(name[$0...]) } ?? ""
    for attempt in 1...10_000 {
      let candidate = attempt == 1 ? name : "\(stem)-\(attempt)\(suffix)"
      let fd = open(directory + "/" + candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
      if fd < 0 {
        if errno == EEXIST { continue }
        return nil
      }
      // A copy is linked only when every byte is on disk: a full disk (or a quota) would
      // otherwise leave a truncated file that the task points at.
      var info = stat()
      let written = Posix.writeAll(fd, contents) == 0 && fsync(fd) == 0 && fstat(fd, &info) == 0
        && Int(info.st_size) == contents.count
      if close(fd) != 0 || !written {
        _ = unlink(directory + "/" + candidate)
        return nil
      }
      return candidate
    }
    return nil
  }
}
