import Foundation
import Testing

/// `todo ls | wc -l` counts tasks: under the name todo a listing's summary (`--` and `TODO: N
/// of M tasks shown`) goes to standard error when standard output is not a terminal, and
/// follows the tasks on a terminal. todo.sh's name keeps it on standard output.
@Suite struct PipeSummaryTests {
  static let list = "(A) call mom +family\npay rent\nx 2009-02-01 old\nfix sink +home\n"

  @Test func aPipeGetsTheTasksAlone() throws {
    let box = try Sandbox()
    try box.write("todo.txt", PipeSummaryTests.list)
    let ls = try box.todo("ls")
    #expect(ls.stdout == "1 (A) call mom +family\n4 fix sink +home\n2 pay rent\n")
    #expect(ls.stderr == "--\nTODO: 3 of 4 tasks shown\n")
    // As a shell pipe counts them.
    try box.write("bin/count", "#!/bin/sh\ntodo ls \"$@\" 2>/dev/null | wc -l\n")
    chmod(box.path("bin/count"), 0o755)
    #expect(try box.run("count", []).stdout.trimmingCharacters(in: .whitespaces) == "3\n")
    #expect(try box.run("count", ["+home"]).stdout.trimmingCharacters(in: .whitespaces) == "1\n")
    // With 2>&1 the summary still comes after the tasks.
    #expect(
      try box.todo("ls", merged: true).stdout
        == "1 (A) call mom +family\n4 fix sink +home\n2 pay rent\n--\nTODO: 3 of 4 tasks shown\n")
  }

  /// Every listing's summary: the three lines of lsa, and those of lsp, next and listaddons.
  @Test func everyListingsSummaryLeavesThePipe() throws {
    let box = try Sandbox()
    try box.write("todo.txt", PipeSummaryTests.list)
    try box.write("done.txt", "x 2009-01-01 older\n")
    let lsa = try box.todo("lsa")
    #expect(!lsa.stdout.contains("tasks shown") && !lsa.stdout.contains("--"), "\(lsa.stdout)")
    #expect(lsa.stderr == "--\nTODO: 4 of 4 tasks shown\nDONE: 1 of 1 tasks shown\ntotal 5 of 5 tasks shown\n")
    #expect(try box.todo("lsp").stdout == "1 (A) call mom +family\n")
    #expect(try box.todo("lsp").stderr == "--\nTODO: 1 of 4 tasks shown\n")
    // next counts every line of the file, as ls does.
    #expect(try box.todo("next", "-n", "1").stderr == "--\nTODO: 1 of 4 tasks shown\n")
    // Quiet, there is no summary anywhere.
    let quiet = try box.todo("ls", environment: ["TODOTXT_VERBOSE": "0"])
    #expect(quiet.stdout == "1 (A) call mom +family\n4 fix sink +home\n2 pay rent\n" && quiet.stderr == "")
  }

  /// On a terminal the summary follows the tasks on standard output (here a pseudo-terminal,
  /// with standard error a separate file).
  @Test func aTerminalGetsTheSummaryAfterTheTasks() throws {
    let box = try Sandbox()
    try box.write("todo.txt", PipeSummaryTests.list)
    let terminal = try PseudoTerminal()
    let process = Process()
    process.executableURL = box.home.appendingPathComponent("bin/todo")
    process.arguments = ["-p", "ls", "+home"]
    process.currentDirectoryURL = box.home
    process.environment = box.environment.merging(["TERM": "dumb"]) { $1 }
    let errors = box.home.appendingPathComponent("errors")
    _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
    let errorHandle = try FileHandle(forWritingTo: errors)
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = terminal.handle
    process.standardError = errorHandle
    try process.run()
    let seen = terminal.read(until: "tasks shown")
    process.waitUntilExit()
    try errorHandle.close()
    #expect(seen?.contains("fix sink +home") == true, "\(terminal.unread.debugDescription)")
    #expect(seen?.contains("--\r\nTODO: 1 of 4 tasks shown") == true, "\(seen ?? "")")
    #expect(box.read("errors") == "")
  }

  /// Under the name todo.sh the summary is on standard output, piped or not, as todo.sh has it.
  @Test func todoShKeepsItOnStandardOutput() throws {
    let box = try Sandbox()
    try box.write("todo.txt", PipeSummaryTests.list)
    let run = try box.sh("ls", "+home")
    #expect(run.stdout == "4 fix sink +home\n--\nTODO: 1 of 4 tasks shown\n")
    #expect(run.stderr == "")
  }
}
