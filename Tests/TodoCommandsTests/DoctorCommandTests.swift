import Testing

/// `doctor`: lines this tool or other apps would misread, named FILE:LINE; `--fix` mends
/// what can be mended, in one change.
@Suite struct DoctorCommandTests {
  static let todo = "Call mom\nCall mom\n(a) low\n2009-02-30 bad date due:someday\nx\tTab\n"

  @Test func namesEachProblemWithItsLine() throws {
    let list = try CommandFixture(todo: DoctorCommandTests.todo)
    let run = list.todo("doctor")
    #expect(run.status == 1)
    let lines = run.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 6)
    #expect(lines[0] == "todo.txt:2: repeats line 1 exactly")
    #expect(lines[1].hasPrefix("todo.txt:3: (a) is not a priority"))
    #expect(lines[2].hasPrefix("todo.txt:4: 2009-02-30 is not a date"))
    #expect(lines[3].hasPrefix("todo.txt:4: due:someday is not a date"))
    #expect(lines[4].hasPrefix("todo.txt:5: starts like a done task"))
    #expect(lines[5] == "5 problems found (todo.txt 5); 2 can be fixed with 'todo doctor --fix'")
    #expect(list.read("todo.txt") == DoctorCommandTests.todo)
  }

  @Test func fixMendsWhatItCanAndUndoTakesItBack() throws {
    let list = try CommandFixture(todo: DoctorCommandTests.todo)
    let run = list.todo("doctor", "--fix")
    #expect(run.status == 1)
    #expect(run.stdout.hasSuffix("fixed 2 problems; 3 left to fix by hand\n"))
    #expect(list.read("todo.txt") == "Call mom\n\n(A) low\n2009-02-30 bad date due:someday\nx\tTab\n")
    #expect(list.todo("undo").status == 0)
    #expect(list.read("todo.txt") == DoctorCommandTests.todo)
  }

  @Test func controlCharactersAndBadBytesAreNamed() throws {
    let list = try CommandFixture(todo: nil)
    try list.write("todo.txt", bytes: Array("ok\nbell\u{07}\n".utf8) + [0x66, 0xFF, 0x0A])
    let run = list.todo("doctor")
    #expect(run.status == 1)
    #expect(run.stdout.contains("todo.txt:2: "))
    #expect(run.stdout.contains("todo.txt:3: "))
    #expect(!run.stdout.contains("todo.txt:1: "))
    #expect(!run.stdout.contains("\u{07}"))
  }

  @Test func aCleanListPassesAndTodoShHasNoDoctor() throws {
    let list = try CommandFixture(todo: "Call mom\n(A) 2009-02-01 Pay rent due:2009-03-01\n", done: "x 2009-02-01 Old\n")
    let run = list.todo("doctor")
    #expect(run.status == 0)
    #expect(run.stdout == "no problems found in todo.txt and done.txt\n")
    #expect(list.sh("doctor").status == 1)
  }
}
