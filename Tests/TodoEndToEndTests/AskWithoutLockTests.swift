import Foundation
import Testing

/// Commands that ask before they change the list (`del`, `move`, `append` with no text, a
/// query's tasks) ask without holding the list's lock, on a pseudo-terminal as a person
/// would be asked: a script's `add` meanwhile goes through, and the change is made only if
/// the task asked about is still as shown.
@Suite struct AskWithoutLockTests {
  static let tasks = "call mom\nfix sink\npay rent\n"

  /// A sandbox with ``tasks``.
  func box() throws -> Sandbox {
    let box = try Sandbox()
    try box.write("todo.txt", AskWithoutLockTests.tasks)
    return box
  }

  /// Meanwhile: a script's `add` that does not wait for a lock, which must go through.
  func addMeanwhile(_ box: Sandbox, name: String = "todo") throws {
    let add = try box.run(name, ["add", "written meanwhile"], environment: ["TODO_LOCK_TIMEOUT": "0"])
    #expect(add.status == 0, "\(add.stderr)")
  }

  /// Meanwhile: another program (not this tool) rewrites one line of the list.
  func rewrite(_ box: Sandbox, _ old: String, _ new: String) throws {
    try box.write("todo.txt", box.read("todo.txt").replacingOccurrences(of: old, with: new))
  }

  @Test func deleteAsksWithoutTheLockAndKeepsWhatChangedMeanwhile() throws {
    let box = try box()
    let session = try ShellTests.Session(box, arguments: ["del", "2"])
    session.expect("Delete 'fix sink'? (y/n) ")
    try addMeanwhile(box)
    try rewrite(box, "call mom", "call mom tonight")
    session.type("y\r")
    #expect(session.exitStatus() == 0)
    #expect(box.read("todo.txt") == "call mom tonight\n\npay rent\n2009-02-13 written meanwhile\n")
    // The deletion is its own undo entry.
    #expect(try box.todo("undo").status == 0)
    #expect(box.read("todo.txt") == "call mom tonight\nfix sink\npay rent\n2009-02-13 written meanwhile\n")
  }

  @Test func deleteRefusesATaskChangedWhileAsked() throws {
    let box = try box()
    let session = try ShellTests.Session(box, arguments: ["del", "2"])
    session.expect("Delete 'fix sink'? (y/n) ")
    try rewrite(box, "fix sink", "fix sink today")
    session.type("y\r")
    session.expect("todo: task 2 changed while you were asked: was 'fix sink', now 'fix sink today'; nothing changed")
    #expect(session.exitStatus() == 1)
    #expect(box.read("todo.txt") == "call mom\nfix sink today\npay rent\n")
  }

  @Test func deleteRefusesATaskRemovedWhileAsked() throws {
    let box = try box()
    let session = try ShellTests.Session(box, arguments: ["del", "3"])
    session.expect("Delete 'pay rent'? (y/n) ")
    try rewrite(box, "pay rent\n", "")
    session.type("y\r")
    session.expect("todo: task 3 was removed while you were asked: was 'pay rent'; nothing changed")
    #expect(session.exitStatus() == 1)
    #expect(box.read("todo.txt") == "call mom\nfix sink\n")
  }

  @Test func underTheNameTodoShTheQuestionIsTheSameAndTheLockFree() throws {
    let box = try box()
    let session = try ShellTests.Session(box, name: "todo.sh", arguments: ["del", "2"])
    session.expect("Delete 'fix sink'? (y/n) ")
    try addMeanwhile(box, name: "todo.sh")
    session.type("y\r")
    session.expect("TODO: 2 deleted.")
    #expect(session.exitStatus() == 0)
    #expect(box.read("todo.txt") == "call mom\n\npay rent\nwritten meanwhile\n")
  }

  @Test func moveAsksWithoutTheLock() throws {
    let box = try box()
    try box.write("later.txt", "someday\n")
    let session = try ShellTests.Session(box, arguments: ["move", "1", "later.txt"])
    session.expect("? (y/n) ")
    try addMeanwhile(box)
    try box.write("later.txt", "someday\nmaybe\n")
    session.type("y\r")
    // The number is the task's in later.txt as written, after the line added meanwhile.
    session.expect("TODO: 1 moved to 3 in LATER.")
    #expect(session.exitStatus() == 0)
    #expect(box.read("todo.txt") == "\nfix sink\npay rent\n2009-02-13 written meanwhile\n")
    #expect(box.read("later.txt") == "someday\nmaybe\ncall mom\n")
  }

  @Test func textAskedForIsAddedWithoutTheLock() throws {
    let box = try box()
    let session = try ShellTests.Session(box, arguments: ["append", "3"])
    session.expect("Append: ")
    try addMeanwhile(box)
    session.type("by friday\r")
    #expect(session.exitStatus() == 0)
    #expect(box.read("todo.txt") == "call mom\nfix sink\npay rent by friday\n2009-02-13 written meanwhile\n")
    // The task asked about changed meanwhile: nothing is replaced.
    let again = try ShellTests.Session(box, arguments: ["replace", "1"])
    again.expect("Replacement: ")
    try rewrite(box, "call mom", "call dad")
    again.type("call grandma\r")
    again.expect("todo: task 1 changed while you were asked: was 'call mom', now 'call dad'; nothing changed")
    #expect(again.exitStatus() == 1)
    #expect(box.read("todo.txt").hasPrefix("call dad\n"))
  }

  @Test func aQuerysTasksAreAskedAboutWithoutTheLock() throws {
    let box = try box()
    try box.write("todo.txt", "call mom +family\nfix sink\ncall dad +family\n")
    let session = try ShellTests.Session(box, arguments: ["do", "-q", "+family"])
    session.expect("Mark as done 2 tasks? (y/n) ")
    try addMeanwhile(box)
    session.type("y\r")
    #expect(session.exitStatus() == 0)
    #expect(
      box.read("todo.txt")
        == "x 2009-02-13 call mom +family\nfix sink\nx 2009-02-13 call dad +family\n2009-02-13 written meanwhile\n")
  }

  /// `note` runs its editor without the lock too; the tag goes onto the task, found by content.
  @Test func aNoteIsWrittenWithoutTheLock() throws {
    let box = try box()
    try box.write(
      "bin/writer",
      """
      #!/bin/sh
      TODO_LOCK_TIMEOUT=0 "$HOME/bin/todo" add 'written meanwhile' > /dev/null || exit 7
      sed -i 's/call mom/call mom tonight/' "$HOME/todo.txt"
      echo 'ask about the trip' > "$1"
      """)
    chmod(box.path("bin/writer"), 0o755)
    let run = try box.todo("note", "2", environment: ["EDITOR": box.path("bin/writer")])
    #expect(run.status == 0, "\(run.stderr)")
    let note = box.noteName("fix-sink")
    #expect(box.read("todo.txt") == "call mom tonight\nfix sink note:\(note)\npay rent\n2009-02-13 written meanwhile\n")
    #expect(box.read("notes/\(note)") == "ask about the trip\n")
  }

  /// A task changed while its new note was written: the note is kept and named, not linked.
  @Test func aNoteOfATaskChangedMeanwhileIsKeptAndNamed() throws {
    let box = try box()
    try box.write("bin/writer", "#!/bin/sh\nsed -i 's/fix sink/fix the sink/' \"$HOME/todo.txt\"\necho 'call a plumber' > \"$1\"\n")
    chmod(box.path("bin/writer"), 0o755)
    let run = try box.todo("note", "2", environment: ["EDITOR": box.path("bin/writer")])
    #expect(run.status == 1)
    let note = box.noteName("fix-sink")
    #expect(
      run.stderr == "todo: task 2 changed while you were asked: was 'fix sink', now 'fix the sink'; the note is kept in '"
        + box.path("notes") + "/\(note)', not linked ('todo tag 2 note \(note)' links it)\n")
    #expect(box.read("todo.txt") == "call mom\nfix the sink\npay rent\n")
    #expect(box.read("notes/\(note)") == "call a plumber\n")
  }
}
