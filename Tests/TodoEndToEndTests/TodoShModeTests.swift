import Testing

/// Every action under the name `todo.sh`, whose output and exit codes must be todo.sh's.
/// The clock is pinned to 2009-02-13 (`TODO_TEST_TIME=1234500000`), as todo.sh's own tests do.
@Suite struct TodoShModeTests {
  @Test func addListAndSummary() throws {
    let box = try Sandbox()
    var run = try box.sh("add", "notice the daisies")
    #expect(run.stdout == "1 notice the daisies\nTODO: 1 added.\n")
    run = try box.sh("-p", "add", "(b)", "smell", "the", "roses")
    #expect(run.stdout == "2 (B) smell the roses\nTODO: 2 added.\n")
    run = try box.sh("-p", "ls")
    #expect(run.stdout == "2 (B) smell the roses\n1 notice the daisies\n--\nTODO: 2 of 2 tasks shown\n")
    #expect(run.status == 0)
    #expect(box.read("todo.txt") == "notice the daisies\n(B) smell the roses\n")
  }

  @Test func addWithDateAndDefaultPriority() throws {
    let box = try Sandbox()
    #expect(try box.sh("-t", "add", "(a) dated").stdout == "1 (A) 2009-02-13 dated\nTODO: 1 added.\n")
    let run = try box.sh("add", "plain", environment: ["TODOTXT_PRIORITY_ON_ADD": "C"])
    #expect(run.stdout == "2 (C) plain\nTODO: 2 added.\n")
    let bad = try box.sh("ls", environment: ["TODOTXT_PRIORITY_ON_ADD": "c"])
    #expect(bad.status == 1)
    #expect(bad.stderr == "TODOTXT_PRIORITY_ON_ADD should be a capital letter from A to Z (it is now \"c\").\n")
  }

  @Test func addNeverJoinsALastLineWithoutNewline() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "no trailing newline")
    try box.sh("add", "next")
    #expect(box.read("todo.txt") == "no trailing newline\nnext\n")
  }

  @Test func addmAddsEachLine() throws {
    let box = try Sandbox()
    let run = try box.sh("addm", "first\nsecond\n\nthird")
    #expect(run.stdout == "1 first\nTODO: 1 added.\n2 second\nTODO: 2 added.\n3 third\nTODO: 3 added.\n")
  }

  @Test func addtoNeedsAnExistingFile() throws {
    let box = try Sandbox()
    var run = try box.sh("addto", "garden.txt", "plant")
    #expect(run.status == 1)
    #expect(run.stderr == "TODO: Destination file \(box.path("garden.txt")) does not exist.\n")
    try box.write("garden.txt", "")
    run = try box.sh("addto", "garden.txt", "plant", "tomatoes")
    #expect(run.stdout == "1 plant tomatoes\nGARDEN: 1 added.\n")
    #expect(try box.sh("addto").stderr == "usage: todo.sh addto DEST \"TODO ITEM\"\n")
  }

  @Test func appendPrependReplace() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "(A) 2009-02-13 new task\n")
    #expect(try box.sh("append", "1", "more").stdout == "1 (A) 2009-02-13 new task more\n")
    #expect(try box.sh("app", "1", ", list").stdout == "1 (A) 2009-02-13 new task more, list\n")
    #expect(try box.sh("prepend", "1", "this is").stdout == "1 (A) 2009-02-13 this is new task more, list\n")
    let run = try box.sh("replace", "1", "(B) 2010-07-04 another")
    #expect(
      run.stdout == "1 (A) 2009-02-13 this is new task more, list\nTODO: Replaced task with:\n1 (B) 2010-07-04 another\n")
    #expect(try box.sh("replace", "1", "kept head").stdout.hasSuffix("1 (B) 2010-07-04 kept head\n"))
    #expect(try box.sh("append", "x", "y").stderr == "usage: todo.sh append NR \"TEXT TO APPEND\"\n")
    #expect(try box.sh("append", "9", "y").stderr == "TODO: No task 9.\n")
  }

  @Test func priAndDepri() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "one\ntwo\n")
    var run = try box.sh("pri", "1", "b", "2", "C")
    #expect(run.stdout == "1 (B) one\nTODO: 1 prioritized (B).\n2 (C) two\nTODO: 2 prioritized (C).\n")
    run = try box.sh("pri", "1", "a")
    #expect(run.stdout == "1 (A) one\nTODO: 1 re-prioritized from (B) to (A).\n")
    run = try box.sh("pri", "1", "A", merged: true)
    #expect(run.stdout == "1 (A) one\nTODO: 1 already prioritized (A).\n")
    #expect(run.status == 1)
    run = try box.sh("pri", "1", "AA")
    #expect(run.stderr == "usage: todo.sh pri NR PRIORITY [NR PRIORITY ...]\nnote: PRIORITY must be anywhere from A to Z.\n")
    run = try box.sh("depri", "1,2")
    #expect(run.stdout == "1 one\nTODO: 1 deprioritized.\n2 two\nTODO: 2 deprioritized.\n")
    run = try box.sh("depri", "1")
    #expect(run.stderr == "TODO: 1 is not prioritized.\n")
    #expect(run.status == 1)
  }

  @Test func doArchivesByDefault() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "remove1\n(A) remove2\nkeep\n")
    let run = try box.sh("do", "2,1")
    #expect(
      run.stdout == """
        2 x 2009-02-13 remove2
        TODO: 2 marked as done.
        1 x 2009-02-13 remove1
        TODO: 1 marked as done.
        x 2009-02-13 remove1
        x 2009-02-13 remove2
        TODO: \(box.path("todo.txt")) archived.

        """)
    #expect(box.read("todo.txt") == "keep\n")
    #expect(box.read("done.txt") == "x 2009-02-13 remove1\nx 2009-02-13 remove2\n")
  }

  @Test func doWithoutArchiveAndAlreadyDone() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "x 2009-01-01 old\nnew\n")
    let run = try box.sh("-a", "do", "1", "2", merged: true)
    #expect(run.stdout == "TODO: 1 is already marked done.\n2 x 2009-02-13 new\nTODO: 2 marked as done.\n")
    #expect(run.status == 1)
    #expect(box.read("todo.txt") == "x 2009-01-01 old\nx 2009-02-13 new\n")
    #expect(try box.sh("do").stderr == "usage: todo.sh do NR [NR ...]\n")
  }

  @Test func deleteKeepsLineNumbersUnlessAskedNotTo() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "a\nb\nc\n")
    var run = try box.sh("-f", "del", "2")
    #expect(run.stdout == "2 b\nTODO: 2 deleted.\n")
    #expect(box.read("todo.txt") == "a\n\nc\n")
    run = try box.sh("del", "3", input: "n")
    #expect(run.stdout == "\n")
    #expect(run.stderr == "TODO: No tasks were deleted.\n")
    #expect(run.status == 1)
    run = try box.sh("-n", "del", "3", input: "y")
    #expect(run.stdout == "\n3 c\nTODO: 3 deleted.\n")
    #expect(box.read("todo.txt") == "a\n")
  }

  @Test func deleteTerm() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "(A) buy milk and bread\n")
    var run = try box.sh("del", "1", "milk")
    #expect(run.stdout == "1 (A) buy milk and bread\nTODO: Removed 'milk' from task.\n1 (A) buy and bread\n")
    run = try box.sh("del", "1", "cheese")
    #expect(run.stdout == "1 (A) buy and bread\n")
    #expect(run.stderr == "TODO: 'cheese' not found; no removal done.\n")
    #expect(run.status == 1)
  }

  @Test func moveBetweenFiles() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "first\nsecond\n")
    try box.write("done.txt", "x old")
    let run = try box.sh("-f", "mv", "1", "done.txt")
    #expect(run.stdout == "1 first\nTODO: 1 moved to 2 in DONE.\n")
    #expect(box.read("todo.txt") == "\nsecond\n")
    #expect(box.read("done.txt") == "x old\nfirst\n")
    #expect(try box.sh("mv", "1", "nope.txt").stderr == "TODO: Destination file \(box.path("nope.txt")) does not exist.\n")
  }

  @Test func archiveAndReport() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "open\n\nx 2009-02-12 done one\n")
    var run = try box.sh("archive")
    #expect(run.stdout == "x 2009-02-12 done one\nTODO: \(box.path("todo.txt")) archived.\n")
    run = try box.sh("archive")
    #expect(run.stdout == "TODO: \(box.path("todo.txt")) does not contain any done tasks.\n")
    run = try box.sh("report")
    #expect(run.stdout.hasSuffix("2009-02-13T04:40:00 1 1\nTODO: Report file updated.\n"))
    run = try box.sh("report")
    #expect(run.stdout.hasSuffix("2009-02-13T04:40:00 1 1\nTODO: Report file is up-to-date.\n"))
    #expect(box.read("report.txt") == "2009-02-13T04:40:00 1 1\n")
  }

  @Test func deduplicate() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "a\nb\na\na\n")
    #expect(try box.sh("deduplicate").stdout == "TODO: 2 duplicate task(s) removed\n")
    #expect(box.read("todo.txt") == "a\nb\n\n\n")
    let run = try box.sh("deduplicate")
    #expect(run.stderr == "TODO: No duplicate tasks found\n")
    #expect(run.status == 1)
  }

  @Test func listFiltersSortsAndNumbers() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "(B) bravo +p\n\nzulu @home\n(A) alpha\nx 2009-01-01 done\nmilk or mom\n")
    var run = try box.sh("-p", "ls")
    #expect(
      run.stdout == "4 (A) alpha\n1 (B) bravo +p\n6 milk or mom\n5 x 2009-01-01 done\n3 zulu @home\n--\nTODO: 5 of 5 tasks shown\n")
    // Terms match the numbered line case-insensitively: "O" finds "bravo", "mom", "done", "home".
    run = try box.sh("-p", "ls", "-alpha", "O")
    #expect(run.stdout == "1 (B) bravo +p\n6 milk or mom\n5 x 2009-01-01 done\n3 zulu @home\n--\nTODO: 4 of 5 tasks shown\n")
    run = try box.sh("-p", "ls", "zulu\\|alpha")
    #expect(run.stdout == "4 (A) alpha\n3 zulu @home\n--\nTODO: 2 of 5 tasks shown\n")
    run = try box.sh("-p", "lsp")
    #expect(run.stdout == "4 (A) alpha\n1 (B) bravo +p\n--\nTODO: 2 of 5 tasks shown\n")
    run = try box.sh("-p", "lsp", "b")
    #expect(run.stdout == "1 (B) bravo +p\n--\nTODO: 1 of 5 tasks shown\n")
    #expect(try box.sh("lsprj").stdout == "+p\n")
    #expect(try box.sh("lsc").stdout == "@home\n")
    run = try box.sh("-p", "-+", "-@", "ls", "o")
    #expect(run.stdout == "1 (B) bravo\n6 milk or mom\n5 x 2009-01-01 done\n3 zulu\n--\nTODO: 4 of 5 tasks shown\n")
  }

  @Test func listColours() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "(A) top\nx 2009-01-01 done\n")
    let run = try box.sh("ls")
    #expect(run.stdout == "\u{1B}[1;33m1 (A) top\u{1B}[0m\n\u{1B}[0;37m2 x 2009-01-01 done\u{1B}[0m\n--\nTODO: 2 of 2 tasks shown\n")
  }

  @Test func listallAndListfile() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "open one\nopen two\n")
    try box.write("done.txt", "x 2009-02-01 closed\n")
    var run = try box.sh("-p", "lsa")
    #expect(
      run.stdout == """
        1 open one
        2 open two
        0 x 2009-02-01 closed
        --
        TODO: 2 of 2 tasks shown
        DONE: 1 of 1 tasks shown
        total 3 of 3 tasks shown

        """)
    run = try box.sh("-p", "lf", "done.txt")
    #expect(run.stdout == "1 x 2009-02-01 closed\n--\nDONE: 1 of 1 tasks shown\n")
    run = try box.sh("lf")
    #expect(run.stdout == "Files in the todo.txt directory:\ndone.txt\nreport.txt\ntodo.txt\n")
    #expect(try box.sh("lf", "nope").stderr == "TODO: File nope does not exist.\n")
  }

  @Test func errorsAndUsage() throws {
    let box = try Sandbox()
    var run = try box.sh("frobnicate")
    #expect(run.stdout == "Usage: todo.sh [-fhpantvV] [-d todo_config] action [task_number] [task_description]\nTry 'todo.sh -h' for more information.\n")
    #expect(run.status == 1)
    run = try box.sh("-z", "ls")
    #expect(run.status == 1)
    #expect(run.stdout.hasPrefix("Usage: todo.sh"))
    run = try Sandbox(config: nil).sh("ls")
    #expect(run.stderr.hasPrefix("Fatal Error: Cannot read configuration file "))
    #expect(run.status == 1)
  }

  @Test func stdoutAndStderrKeepTheirOrder() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "(A) one\ntwo\n(B) three\n")
    let run = try box.sh("depri", "2", "1", "3", merged: true)
    #expect(
      run.stdout == "TODO: 2 is not prioritized.\n1 one\nTODO: 1 deprioritized.\n3 three\nTODO: 3 deprioritized.\n")
  }

  @Test func addonsRunAndCommandBypassesThem() throws {
    let box = try Sandbox()
    try box.write(".todo.actions.d/ls", "#!/bin/sh\necho \"addon ls $# $1\"\nexit 42\n")
    _ = try Sandbox.makeExecutable(box.path(".todo.actions.d/ls"))
    var run = try box.sh("ls")
    #expect(run.stdout == "addon ls 1 ls\n")
    #expect(run.status == 42)
    run = try box.sh("-p", "command", "ls")
    #expect(run.stdout == "--\nTODO: 0 of 0 tasks shown\n")
    #expect(try box.sh("listaddons").stdout == "ls\n--\nTODO: 1 valid addon actions found.\n")
  }

  @Test func defaultActionWithArguments() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "alpha\nbeta\n")
    let run = try box.sh(environment: ["TODOTXT_DEFAULT_ACTION": "ls -p 'bet'"])
    #expect(run.stdout == "2 beta\n--\nTODO: 1 of 2 tasks shown\n")
  }

  @Test func configFileIsAShellScript() throws {
    let box = try Sandbox(config: "export TODO_DIR=\"$HOME/lists\"\nexport PRI_A=$GREEN\nTODOTXT_VERBOSE=0\n")
    try box.write("lists/todo.txt", "(A) green\n")
    let run = try box.sh("ls")
    #expect(run.stdout == "\u{1B}[0;32m1 (A) green\u{1B}[0m\n")
  }
}

extension Sandbox {
  static func makeExecutable(_ path: String) throws -> Bool {
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    return true
  }
}

import Foundation
