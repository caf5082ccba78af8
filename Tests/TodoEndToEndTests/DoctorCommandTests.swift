import Foundation
import Testing
import TodoTestSupport

/// `todo doctor` (issue 19): one line per problem with file and line number, a summary, exit
/// 1 when something was found; `--fix` mends the safe part in one undoable change. Every
/// expected line below was worked out from the crafted file, not copied from a run.
@Suite struct DoctorCommandTests {
  static let hint = "can be fixed with 'todo doctor --fix'"

  @Test func aCleanListSaysSoAndExitsZero() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "(A) 2009-02-01 call mom +family due:2009-02-20\nx 2009-02-12 paid rent pri:B\n\n")
    try box.write("done.txt", "x 2009-02-10 2009-02-01 filed taxes\n")
    let run = try box.todo("doctor")
    #expect(run.status == 0, "\(run.stdout)")
    #expect(run.stdout == "no problems found in todo.txt and done.txt\n")
  }

  /// Each check on a file of its own: the file, then the whole expected output.
  @Test(arguments: [
    (
      "buy milk\n2009-01-01 buy milk\nbuy milk\n",
      """
      todo.txt:2: repeats line 1 but for the creation date
      todo.txt:3: repeats line 1 exactly
      2 problems found (todo.txt 2); 1 \(hint)

      """
    ),
    (
      "2009-01-01 a\na\na\n(A) buy milk\n(A) 2009-01-02 buy milk\n",
      """
      todo.txt:2: repeats line 1 but for the creation date
      todo.txt:3: repeats line 2 exactly
      todo.txt:5: repeats line 4 but for the creation date
      3 problems found (todo.txt 3); 1 \(hint)

      """
    ),
    (
      "(A) 2009-02-30 pay\nx 2009-13-01 done\nx 2009-02-01 2009-02-29 filed\n",
      """
      todo.txt:1: 2009-02-30 is not a date; it is read as text, not as the task's creation or completion date
      todo.txt:2: 2009-13-01 is not a date; it is read as text, not as the task's creation or completion date
      todo.txt:3: 2009-02-29 is not a date; it is read as text, not as the task's creation or completion date
      3 problems found (todo.txt 3)

      """
    ),
    (
      "a due:2009-02-30\nb t:tomorow\nc rec:often\nd due:2009-03-01 due:2009-03-02\n",
      """
      todo.txt:1: due:2009-02-30 is not a date (YYYY-MM-DD); the task has no due: date
      todo.txt:2: t:tomorow is not a date (YYYY-MM-DD); the task has no t: date
      todo.txt:3: rec:often is not a repeat interval (such as 3d, 1w, +1m, 1y, 5b)
      todo.txt:4: due: is given more than once; only the first counts
      4 problems found (todo.txt 4)

      """
    ),
    (
      "parent id:1\nchild p:1\norphan p:7\n",
      """
      todo.txt:3: p:7 names no task: no line in either file has id:7
      1 problem found (todo.txt 1)

      """
    ),
    (
      "a\r\nb\nc\r\nd\r\n",
      """
      todo.txt:2: ends with LF while most lines end with CRLF (the only such line)
      1 problem found (todo.txt 1); 1 \(hint)

      """
    ),
    (
      "a\r\nb\r\nc\nd\ne\n",
      """
      todo.txt:1: ends with CRLF while most lines end with LF (first of 2 such lines)
      1 problem found (todo.txt 1); 1 \(hint)

      """
    ),
    (
      "\u{FEFF}(A) first\nsecond\u{FEFF}\n",
      """
      todo.txt:1: the file starts with a byte order mark: some todo.txt apps then miss the priority, x or date \
      of this line
      todo.txt:2: holds a byte order mark (U+FEFF), which belongs only at the start of a file
      2 problems found (todo.txt 2); 1 \(hint)

      """
    ),
    (
      "(a) one\n(B)two\n(c) list (d) items\n",
      """
      todo.txt:1: (a) is not a priority (priorities are capital letters); it is read as text
      todo.txt:2: (B) with no space after it is not a priority; it is read as text
      todo.txt:3: (c) is not a priority (priorities are capital letters); it is read as text
      3 problems found (todo.txt 3); 2 \(hint)

      """
    ),
    (
      "x (A) 2009-02-12 2009-02-01 a\nx 2009-02-12 (B) 2009-02-01 b\n",
      """
      todo.txt:1: done task keeps its priority (A) between x and its dates: some todo.txt apps then lose both dates \
      (pri:A after the text reads the same everywhere)
      todo.txt:2: done task keeps its priority (B) after its completion date: some todo.txt apps then lose its \
      creation date (pri:B after the text reads the same everywhere)
      2 problems found (todo.txt 2)

      """
    ),
    (
      "   \n  (A) spaced\nX 2009-02-12 capital\nx\ttabbed\n",
      """
      todo.txt:1: holds only spaces or tabs: a blank line here, an empty task in some todo.txt apps
      todo.txt:2: starts with whitespace: its priority, x or date is text here, a task's head in apps that trim lines
      todo.txt:3: starts like a done task but is not one here (done is a lower-case x and a space); \
      some apps read it as done
      todo.txt:4: starts like a done task but is not one here (done is a lower-case x and a space); \
      some apps read it as done
      4 problems found (todo.txt 4)

      """
    ),
  ])
  func eachCheckNamesItsLine(file: String, expected: String) throws {
    let box = try Sandbox()
    try box.write("todo.txt", file)
    let run = try box.todo("doctor")
    #expect(run.stdout == expected)
    #expect(run.status == 1)
    #expect(box.read("todo.txt") == file, "doctor without --fix changes nothing")
  }

  @Test func bytesThatAreNotUTF8AndC1ControlsAreReported() throws {
    let box = try Sandbox()
    try box.write(
      "todo.txt", bytes: Array("caf".utf8) + [0xE9] + Array(" au lait\nx".utf8) + [0xC2, 0x9B] + Array("31m\n".utf8))
    let run = try box.todo("doctor")
    #expect(
      run.stdout == """
        todo.txt:1: is not valid UTF-8 (from byte 4 of the line)
        todo.txt:2: holds the control character U+009B
        2 problems found (todo.txt 2)

        """)
    #expect(run.status == 1)
  }

  @Test func aParentInDoneTxtCounts() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "child p:7\n")
    try box.write("done.txt", "x 2009-02-01 parent id:7\n")
    #expect(try box.todo("doctor").stdout == "no problems found in todo.txt and done.txt\n")
  }

  /// NUL, CR and ESC inside lines are reported by code; the output holds none of them raw.
  @Test func hostileBytesAreReportedNotEchoed() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "nul\u{0} esc\u{1B}[31m due:\u{1B}[2J\nstray\rcarriage\n")
    let run = try box.todo("doctor")
    #expect(
      run.stdout == """
        todo.txt:1: holds the control character U+0000 and 2 more
        todo.txt:1: due:\\x1B[2J is not a date (YYYY-MM-DD); the task has no due: date
        todo.txt:2: holds the control character U+000D
        3 problems found (todo.txt 3)

        """)
    #expect(!run.stdout.utf8.contains(0x1B) && !run.stdout.utf8.contains(0) && !run.stdout.utf8.contains(0x0D))
  }

  @Test func runsOnAListWithConflictMarkersAndLeavesItAlone() throws {
    let box = try Sandbox()
    let file = "a\n<<<<<<< ours\nb\n=======\nc\n>>>>>>> theirs\n(B)x\n"
    try box.write("todo.txt", file)
    #expect(try box.todo("ls").status == 1, "the other commands refuse such a list")
    let marker =
      "merge conflict marker: keep the right lines and remove the markers by hand (doctor leaves this file as it is)"
    let report = """
      todo.txt:2: \(marker)
      todo.txt:4: \(marker)
      todo.txt:6: \(marker)
      todo.txt:7: (B) with no space after it is not a priority; it is read as text

      """
    let run = try box.todo("doctor")
    #expect(run.status == 1)
    #expect(run.stdout == report + "4 problems found (todo.txt 4); 1 \(DoctorCommandTests.hint)\n")
    let fix = try box.todo("doctor", "--fix")
    #expect(fix.status == 1)
    #expect(
      fix.stdout == report + "4 problems found (todo.txt 4); "
        + "nothing fixed: a file with merge conflict markers is left as it is\n")
    #expect(box.read("todo.txt") == file)
  }

  static let damaged: [UInt8] = Array("(a) buy milk\r\n(B)call bob\r\nmid\u{FEFF}dle\r\nsame\r\nsame\r\nlast\n".utf8)

  @Test func fixMendsTheSafePartAndUndoRestoresEveryByte() throws {
    let box = try Sandbox()
    try box.write("todo.txt", bytes: DoctorCommandTests.damaged)
    let doneBefore = Array("x 2009-02-01 one\nx 2009-02-01 one\n".utf8)
    try box.write("done.txt", bytes: doneBefore)
    let run = try box.todo("doctor", "--fix")
    #expect(
      run.stdout == """
        todo.txt:1: fixed: (a) became (A)
        todo.txt:2: fixed: added a space after (B)
        todo.txt:3: fixed: removed the byte order mark
        todo.txt:5: fixed: emptied the copy of line 4
        todo.txt:6: fixed: 1 line changed from LF to CRLF
        done.txt:2: fixed: emptied the copy of line 1
        fixed 6 problems; none left

        """)
    #expect(run.status == 0)
    #expect(box.bytes("todo.txt") == Array("(A) buy milk\r\n(B) call bob\r\nmiddle\r\nsame\r\n\r\nlast\r\n".utf8))
    #expect(box.bytes("done.txt") == Array("x 2009-02-01 one\n\n".utf8))
    #expect(try box.todo("doctor").stdout == "no problems found in todo.txt and done.txt\n")

    // One change: a single undo takes back both files, byte for byte.
    let undo = try box.todo("undo")
    #expect(undo.status == 0, "\(undo.stderr)")
    #expect(box.bytes("todo.txt") == DoctorCommandTests.damaged)
    #expect(box.bytes("done.txt") == doneBefore)
  }

  @Test func withoutKeptLineNumbersACopyIsRemoved() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "same\nother\nsame\nlast\n")
    let run = try box.todo("doctor", "--fix", environment: ["TODOTXT_PRESERVE_LINE_NUMBERS": "0"])
    #expect(run.stdout == "todo.txt:3: fixed: removed the copy of line 1\nfixed 1 problem; none left\n")
    #expect(box.read("todo.txt") == "same\nother\nlast\n")
  }

  @Test func dryRunShowsTheRepairsAndWritesNothing() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "(a) one\n(B)two\n(c) list (d) items\n")
    let run = try box.todo("doctor", "--dry-run")
    #expect(
      run.stdout == """
        todo.txt:1: would fix: (a) became (A)
        todo.txt:2: would fix: added a space after (B)
        todo.txt:3: (c) is not a priority (priorities are capital letters); it is read as text
        would fix 2 problems; 1 left to fix by hand

        """)
    #expect(run.status == 1)
    #expect(box.read("todo.txt") == "(a) one\n(B)two\n(c) list (d) items\n")
    let fix = try box.todo("doctor", "--fix")
    #expect(fix.stdout == run.stdout.replacingOccurrences(of: "would fix", with: "fixed"))
    #expect(box.read("todo.txt") == "(A) one\n(B) two\n(c) list (d) items\n")
  }

  /// On a real (pseudo-)terminal too, no byte of a hostile line reaches the screen raw.
  @Test func hostileBytesReachNoTerminalRaw() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "a\u{1B}]0;title\u{07} due:\u{1B}[2J \u{9B}31m \u{202E}cba\n")
    let terminal = try PseudoTerminal()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "'\(box.path("bin/todo"))' doctor; echo END-OF-RUN"]
    process.currentDirectoryURL = box.home
    process.environment = box.environment.merging(["TERM": "xterm"]) { $1 }
    process.standardInput = terminal.handle
    process.standardOutput = terminal.handle
    process.standardError = terminal.handle
    try process.run()
    let text = terminal.read(until: "END-OF-RUN") ?? ""
    process.waitUntilExit()
    let output = Array(text.utf8)
    for sequence: [UInt8] in [[0x1B], [0x07], [0xC2, 0x9B], [0xE2, 0x80, 0xAE]] {
      #expect(!output.indices.contains { output[$0...].starts(with: sequence) }, "\(sequence) reached the terminal")
    }
    #expect(text.contains("due:\\x1B[2J is not a date"), "\(text)")
  }

  @Test func completionOffersTheOptions() throws {
    let box = try Sandbox()
    let options = CompletionTests.lines(try box.todo("__complete", "doctor", "--").stdout).map {
      String($0.prefix { $0 != "\t" })
    }
    #expect(options.contains("--fix") && options.contains("--dry-run"))
    #expect(try box.todo("__complete", "info", "--format", "").stdout == "text\njson\n")
  }

  @Test func takesNoArgumentsAndIsNativeOnly() throws {
    let box = try Sandbox()
    let run = try box.todo("doctor", "extra")
    #expect(run.status == 1)
    #expect(run.stderr == "usage: todo doctor\n")
    #expect(try box.sh("doctor").status == 1)
  }
}

/// `doctor --fix` as a class: on files made of lines with stray CRs, both line endings,
/// copies, lower-case priorities and byte order marks, every fix is undone byte for byte by
/// `undo`, keeps the number of lines (numbers are kept under `todo`), and a second run finds
/// nothing more to fix.
@Suite struct DoctorFixConvergesTests {
  static let pieces = ["a", "a\r", "b", "(a) c", "(B)d", "\u{FEFF}e", "", "x 2009-02-01 f", "a"]
  static let endings = ["\n", "\r\n", "\r\r\n"]

  @Test(arguments: [UInt64(1), 2, 3, 4])
  func everyFixIsUndoneAndASecondRunFixesNothing(_ seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    for round in 0..<12 {
      let box = try Sandbox()
      let count = 1 + random.below(5)
      let text = (0..<count).map { _ in
        DoctorFixConvergesTests.pieces[random.below(DoctorFixConvergesTests.pieces.count)]
          + DoctorFixConvergesTests.endings[random.below(DoctorFixConvergesTests.endings.count)]
      }.joined()
      let original = Array(text.utf8)
      try box.write("todo.txt", bytes: original)
      let lines = { (bytes: [UInt8]) in bytes.filter { $0 == 0x0A }.count }
      let first = try box.todo("doctor", "--fix")
      let fixed = box.bytes("todo.txt")
      let label = "seed \(seed) round \(round): \(text.debugDescription)"
      #expect(lines(fixed) == lines(original), "\(label)")
      let second = try box.todo("doctor", "--fix")
      #expect(!second.stdout.contains("fixed"), "\(label): \(second.stdout)")
      #expect(box.bytes("todo.txt") == fixed, "\(label)")
      if fixed != original {
        #expect(first.stdout.contains("fixed"), "\(label)")
        let undo = try box.todo("undo")
        #expect(undo.status == 0, "\(label): \(undo.stderr)")
        #expect(box.bytes("todo.txt") == original, "\(label)")
      }
    }
  }
}
