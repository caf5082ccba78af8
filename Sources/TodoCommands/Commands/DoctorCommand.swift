import TodoStore
import TodoTxt

/// `doctor [--fix] [--dry-run]`: finds what in todo.txt and done.txt this tool or other
/// todo.txt apps would misread, and mends what is safe to mend.
///
/// The checks are ``ListCheck``'s; this file words them. It runs on a list with merge conflict
/// markers (reporting them is part of its job), and never echoes a line: only the offending
/// word, with control characters and bytes that are not UTF-8 written as `\xNN`.
enum DoctorCommand {
  static let fixOption = OptionSpec(
    ["--fix"], help: "Mend what is safe to mend (one change per run, undone by 'undo'); report the rest.")
  static let dryRunOption = OptionSpec(
    ["--dry-run"], help: "Show what --fix would mend, and write nothing.")

  static let spec: CommandSpec = CommandSpec(
    name: "doctor",
    abstract: "Check todo.txt and done.txt for lines this tool or other todo.txt apps would misread.",
    discussion: """
      Prints one line per problem, FILE:LINE: what is wrong, then a summary; the exit \
      status is 1 when a problem was found, 0 when none. Checked: repeated lines (the same \
      but for the creation date counts too), due:, t: and rec: values that mean nothing, \
      head dates that are no calendar day, a tag given twice, p: naming no id:, lines \
      ending in both CRLF and LF, a byte order mark inside the file, lower-case \
      priorities and priorities without a space after them, priorities of done tasks \
      placed where some apps lose the dates, merge conflict markers, bytes that are not \
      UTF-8, control characters, and lines other apps read another way (whitespace only, \
      leading whitespace, 'X ' or x and a tab). With --fix it mends, in one change that \
      'undo' takes back: the missing space after a priority, a lower-case priority letter \
      when the line holds no other one, a stray byte order mark, line endings (to the \
      ending most lines have), and copies of a line that are byte for byte the same (the \
      first stays; a copy becomes an empty line while line numbers are kept). Dates, tags, \
      encoding, control characters and a file with conflict markers are left to you. In a \
      git work tree it also checks that the merge drivers .gitattributes names are set up \
      in this clone ('git-setup' sets them up).
      """,
    options: [fixOption, dryRunOption], nativeOnly: true, toleratesConflictMarkers: true
  ) { context, _ throws(TodoError) in
    let fixing = context.invocation.has(fixOption.name) || context.invocation.has(dryRunOption.name)
    let dryRun = context.invocation.has(dryRunOption.name)
    let preserve = context.settings.preservesLineNumbers
    var files = [context.settings.todoFile]
    if context.settings.doneFile != context.settings.todoFile { files.append(context.settings.doneFile) }

    var lists = try files.map { path throws(TodoError) in try context.readList(path) }
    var knownIDs = lists.reduce(into: Set<[UInt8]>()) { $0.formUnion(ListCheck.ids(in: $1)) }
    var fixed: [[ListProblem]] = files.map { _ in [] }
    if fixing {
      // Mended on the copies read under the lock, all files in one change (one undo step).
      let targets = files.indices.filter { index in
        Posix.exists(files[index])
          && ListCheck.problems(in: lists[index], knownIDs: knownIDs).contains(where: \.isFixable)
      }
      if !targets.isEmpty {
        let result: ([TodoList], [[ListProblem]]) = try context.storing {
          try context.store.update(targets.map { files[$0] }, label: "doctor --fix") { locked in
            var ids = knownIDs
            for (position, index) in targets.enumerated() {
              ids.subtract(ListCheck.ids(in: lists[index]))
              ids.formUnion(ListCheck.ids(in: locked[position]))
            }
            var mended: [[ListProblem]] = []
            var after = locked
            for position in locked.indices {
              mended.append(
                ListCheck.repair(&after[position], knownIDs: ids, preservingLineNumbers: preserve))
            }
            if !dryRun { locked = after }
            return (after, mended)
          }
        }
        for (position, index) in targets.enumerated() {
          lists[index] = result.0[position]
          fixed[index] = result.1[position]
        }
        knownIDs = lists.reduce(into: Set<[UInt8]>()) { $0.formUnion(ListCheck.ids(in: $1)) }
      }
    }

    var remaining = 0
    var fixable = 0
    var fixedCount = 0
    var perFile: [String] = []
    for (index, path) in files.enumerated() {
      let name = shown(Array(Posix.basename(path).utf8))
      for problem in fixed[index] {
        let verb = dryRun ? "would fix" : "fixed"
        context.console.line("\(name):\(problem.line): \(verb): \(fixDescription(problem.kind, preserve: preserve))")
      }
      fixedCount += fixed[index].count
      // What is left is read from the mended list (after a dry run, the list as it would be).
      let left = ListCheck.problems(in: lists[index], knownIDs: knownIDs)
      for problem in left {
        context.console.line("\(name):\(problem.line): \(description(problem.kind))")
      }
      remaining += left.count
      fixable += left.filter(\.isFixable).count
      if !left.isEmpty { perFile.append("\(name) \(left.count)") }
    }
    let setup = GitSetupCommand.problems(context)
    for problem in setup { context.console.line(problem) }
    if !setup.isEmpty {
      remaining += setup.count
      perFile.append("git \(setup.count)")
    }
    let copies = ConflictsCommand.waitingCopies(context)
    for copy in copies {
      context.console.line(
        "\(shown(Array(copy.utf8))): a conflicted copy a sync service left; '\(context.programName) conflicts' merges it")
    }
    if !copies.isEmpty {
      remaining += copies.count
      perFile.append("copies \(copies.count)")
    }
    let names = files.map { shown(Array(Posix.basename($0).utf8)) }.joined(separator: " and ")
    if fixedCount > 0 {
      let verb = dryRun ? "would fix" : "fixed"
      context.console.line(
        "\(verb) \(count(fixedCount, "problem")); "
          + (remaining == 0 ? "none left" : "\(remaining) left to fix by hand"))
    } else if remaining == 0 {
      context.console.line("no problems found in \(names)")
    } else {
      var hint = ""
      if fixable > 0 {
        hint = fixing
          ? "; nothing fixed: a file with merge conflict markers is left as it is"
          : "; \(fixable) can be fixed with '\(context.programName) doctor --fix'"
      }
      context.console.line("\(count(remaining, "problem")) found (\(perFile.joined(separator: ", ")))\(hint)")
    }
    return remaining > 0 ? .failure : .success
  }

  static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

  /// What is wrong, in words.
  static func description(_ kind: ListProblem.Kind) -> String {
    switch kind {
    case .exactDuplicate(let line): return "repeats line \(line) exactly"
    case .duplicate(let line): return "repeats line \(line) but for the creation date"
    case .notADate(let key, let value):
      return "\(shown(key)):\(shown(value)) is not a date (YYYY-MM-DD); the task has no \(shown(key)): date"
    case .notARecurrence(let value):
      return "\(TagMeaning.recurrence.key):\(shown(value)) is not a repeat interval (such as 3d, 1w, +1m, 1y, 5b)"
    case .repeatedTag(let key): return "\(shown(key)): is given more than once; only the first counts"
    case .invalidHeadDate(let word):
      return "\(shown(word)) is not a date; it is read as text, not as the task's creation or completion date"
    case .mixedLineEnding(let ending, let count):
      let other = ending == .crlf ? "LF" : "CRLF"
      let name = ending == .crlf ? "CRLF" : "LF"
      let which = count == 1 ? "the only such line" : "first of \(count) such lines"
      return "ends with \(name) while most lines end with \(other) (\(which))"
    case .byteOrderMarkInside: return "holds a byte order mark (U+FEFF), which belongs only at the start of a file"
    case .byteOrderMarkBeforeHead:
      return "the file starts with a byte order mark: some todo.txt apps then miss the priority, x or date of this line"
    case .lowercasePriority(let letter, _):
      let lower = Character(Unicode.Scalar(letter + 32))
      return "(\(lower)) is not a priority (priorities are capital letters); it is read as text"
    case .priorityWithoutSpace(let letter, _):
      return "(\(Character(Unicode.Scalar(letter)))) with no space after it is not a priority; it is read as text"
    case .donePriorityAfterMark(let letter):
      let p = Character(Unicode.Scalar(letter))
      return "done task keeps its priority (\(p)) between x and its dates: some todo.txt apps then lose both dates "
        + "(pri:\(p) after the text reads the same everywhere)"
    case .donePriorityAfterDate(let letter):
      let p = Character(Unicode.Scalar(letter))
      return "done task keeps its priority (\(p)) after its completion date: some todo.txt apps then lose its "
        + "creation date (pri:\(p) after the text reads the same everywhere)"
    case .missingParent(let id): return "\(TagMeaning.parent.key):\(shown(id)) names no task: no line in either file has \(TagMeaning.id.key):\(shown(id))"
    case .conflictMarker:
      return "merge conflict marker: keep the right lines and remove the markers by hand "
        + "(doctor leaves this file as it is)"
    case .invalidUTF8(let column): return "is not valid UTF-8 (from byte \(column) of the line)"
    case .controlCharacter(let scalar, let count):
      let code = String(scalar, radix: 16, uppercase: true)
      let more = count > 1 ? " and \(count - 1) more" : ""
      return "holds the control character U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code)\(more)"
    case .whitespaceOnly: return "holds only spaces or tabs: a blank line here, an empty task in some todo.txt apps"
    case .leadingWhitespace:
      return "starts with whitespace: its priority, x or date is text here, a task's head in apps that trim lines"
    case .doneMarkLookalike:
      return "starts like a done task but is not one here (done is a lower-case x and a space); "
        + "some apps read it as done"
    }
  }

  /// What `--fix` did about a problem.
  static func fixDescription(_ kind: ListProblem.Kind, preserve: Bool) -> String {
    switch kind {
    case .exactDuplicate(let line):
      return preserve ? "emptied the copy of line \(line)" : "removed the copy of line \(line)"
    case .mixedLineEnding(let ending, let lines):
      return ending == .crlf
        ? "\(count(lines, "line")) changed from CRLF to LF" : "\(count(lines, "line")) changed from LF to CRLF"
    case .byteOrderMarkInside: return "removed the byte order mark"
    case .lowercasePriority(let letter, _):
      return "(\(Character(Unicode.Scalar(letter + 32)))) became (\(Character(Unicode.Scalar(letter))))"
    case .priorityWithoutSpace(let letter, _): return "added a space after (\(Character(Unicode.Scalar(letter))))"
    default: return description(kind)
    }
  }

  /// Bytes of a line as doctor may print them anywhere, a terminal or a pipe: printable text
  /// as it is, control characters (C0, DEL, C1) and bytes that are not UTF-8 as `\xNN`, the
  /// byte order mark and bidirectional controls as `<U+202E>`; at most 60 characters.
  static func shown(_ bytes: [UInt8]) -> String {
    var result = ""
    var i = 0
    var characters = 0
    let slice = bytes[...]
    while i < bytes.count {
      if characters == 60 {
        result += "…"
        break
      }
      characters += 1
      let byte = bytes[i]
      if byte >= 0x20, byte < 0x7F {
        result.unicodeScalars.append(Unicode.Scalar(byte))
        i += 1
        continue
      }
      if byte >= 0x80, let (scalar, length) = ListCheck.decode(slice, at: i), !(0x80...0x9F).contains(scalar),
        let value = Unicode.Scalar(scalar)
      {
        // Marks that reorder or hide text are named, not applied.
        if scalar == 0xFEFF || (0x202A...0x202E).contains(scalar) || (0x2066...0x2069).contains(scalar) {
          result += "<U+\(String(scalar, radix: 16, uppercase: true))>"
        } else {
          result.unicodeScalars.append(value)
        }
        i += length
        continue
      }
      let hex = String(byte, radix: 16, uppercase: true)
      result += "\\x" + (hex.count == 1 ? "0" : "") + hex
      i += 1
    }
    return result
  }
}
