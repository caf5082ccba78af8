import TodoTxt

#if canImport(Glibc)
  import Glibc
#endif

/// Reading a task number as todo.sh does (`getTodo`): digits only (leading zeros allowed),
/// echoed back exactly as typed, and pointing at a line that is not empty.
struct TaskReference: Equatable, Sendable {
  /// The number as the user typed it (`03`), for messages.
  var typed: String
  /// The 1-based line number.
  var number: Int

  /// Parses `text`; anything but digits is the command's usage error.
  init(_ text: String?, usage: TodoError) throws(TodoError) {
    guard let text, !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }) else { throw usage }
    typed = text
    // A number too large for Int names no line.
    number = Int(text) ?? Int.max
  }

  /// A number read from the list itself (a query's match), typed as it is written.
  init(number: Int) {
    typed = String(number)
    self.number = number
  }

  /// The task this number names in `list`, or `No task N.` with the file's prefix.
  ///
  /// Under the name `todo` a line of only spaces and tabs is blank, as todo.txt(5)'s grammar
  /// says, so it names no task either; todo.sh only skips a line that is truly empty.
  func task(in list: TodoList, file: String, mode: Mode = .todoSh) throws(TodoError) -> Task {
    guard let task = list.task(number: number), !task.bytes.isEmpty, !mode.policy.readsTasksByGrammar || !task.isBlank else {
      throw .noSuchTask(prefix: CommandContext.prefix(of: file), item: typed)
    }
    return task
  }

  /// Whether todo.sh sees a priority at the start of this task's line.
  ///
  /// To todo.sh a byte order mark is part of line 1, so `(A)` after one is text there; under
  /// the name todo.sh the line reads the same way (the mark itself stays at the file's start).
  func todoShSeesPriority(_ task: Task, in list: TodoList) -> Bool {
    !(number == 1 && list.hasByteOrderMark) && hasAnyPriorityPrefix(task.bytes)
  }
}

/// Splits todo.sh's `NR[,NR] NR …` lists: all arguments joined, commas as spaces, then words.
func taskNumberWords(_ arguments: [String]) -> [String] {
  arguments.joined(separator: " ").split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" || $0 == "\n" })
    .map(String.init)
}

extension CommandContext {
  /// `NR TEXT` as todo.sh echoes a task (on `terminal` when given, as for ``ask(_:on:)``).
  func echo(_ typed: String, _ bytes: some Sequence<UInt8>, on terminal: Console? = nil) {
    (terminal ?? console).line(Array(typed.utf8) + [UInt8(ascii: " ")] + display(Array(bytes)))
  }

  /// Task text as it may be shown: under the name `todo`, on a terminal, control characters
  /// are written as `^X` (ESC as `^[`), so a task cannot change the terminal's state. The file
  /// keeps the raw bytes; todo.sh mode and pipes get them unchanged.
  func display(_ bytes: [UInt8]) -> [UInt8] {
    guard settings.policy.escapesControlsOnTerminal, console.isTerminal else { return bytes }
    return TerminalSafety.caret(bytes, keepingNewlines: false)
  }

  /// Asks a question on standard input, as bash's `read -p` does: the prompt is shown (on
  /// standard error) only when standard input is a terminal.
  ///
  /// - Parameter terminal: where the prompt goes; a command that asks inside a change (on the
  ///   snapshot it changes) passes the console from before ``storing(_:)``, which holds the
  ///   change's own output back.
  func ask(_ prompt: String, on terminal: Console? = nil) -> [UInt8] {
    if input.isTerminal { (terminal ?? console).writeError(Array(prompt.utf8)) }
    return input.readLine() ?? []
  }

  /// todo.sh's `confirm`: yes without asking when forced (`-f`, or the command's own
  /// `--force`, which a person may write after the action as the tool's); otherwise one
  /// character, then a newline on standard output, and only `y` is yes (`terminal` as for
  /// ``ask(_:on:)``).
  func confirm(_ question: String, on terminal: Console? = nil) -> Bool {
    if settings.isForced || invocation.has(OptionSpec.force.name) { return true }
    let console = terminal ?? console
    if input.isTerminal { console.writeError(Array("\(question)? (y/n) ".utf8)) }
    let answer = input.readCharacter()
    console.line("")
    return answer == [UInt8(ascii: "y")]
  }

  /// Runs an action the way todo.sh calls itself (`"$TODO_FULL_SH" archive`): an add-on of
  /// that name wins, otherwise the built-in command runs in this process.
  func runAction(_ name: String) throws(TodoError) -> ExitStatus {
    if let addon = try Addons.find(name, in: settings.actionsDirectory) {
      return Addons.run(addon, arguments: [name], context: self)
    }
    guard let spec = CommandRegistry.command(named: name, mode: settings.mode) else { throw .usage }
    // The action runs as if typed alone, not with the options of the command that runs it.
    let alone = CommandContext(self, invocation: Invocation(), snapshotCheck: .some(nil))
    return try alone.checkingSnapshots { () throws(TodoError) -> ExitStatus in try spec.call(alone, []) }
  }
}

/// Replaces CR and LF in typed text with spaces (a task is one line).
func cleanInput(_ bytes: [UInt8]) -> [UInt8] {
  bytes.map { $0 == 0x0D || $0 == 0x0A ? UInt8(ascii: " ") : $0 }
}

/// The first control character in UTF-8 bytes — C0 other than tab, DEL, or C1 (U+0080 to
/// U+009F, encoded C2 80 to C2 9F) — as a scalar value; `nil` when there is none. Input that
/// becomes part of a task line is checked with it, so that no field can split a line, add one,
/// or carry a terminal command.
func controlCharacter(in bytes: some Collection<UInt8>) -> UInt32? {
  var previous: UInt8 = 0
  for byte in bytes {
    if (byte < 0x20 && byte != 0x09) || byte == 0x7F { return UInt32(byte) }
    if previous == 0xC2, (0x80...0x9F).contains(byte) { return UInt32(byte) }
    previous = byte
  }
  return nil
}

/// The bytes of a string.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// todo.sh's priority test for editing actions: any one byte in parentheses and a space.
func hasAnyPriorityPrefix(_ line: some Collection<UInt8>) -> Bool {
  let bytes = Array(line.prefix(4))
  return bytes.count == 4 && bytes[0] == UInt8(ascii: "(") && bytes[2] == UInt8(ascii: ")") && bytes[3] == UInt8(ascii: " ")
}
