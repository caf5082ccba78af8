import CalDAVSync
import Foundation
import Testing
import TodoCalendar

/// The network as the tool sees it, over an in-memory collection.
struct FakeConnector: CalDAVConnector {
  let server: InMemoryCollection
  var found: [FoundCollection] = [FoundCollection(url: "http://127.0.0.1:1/cal/tasks/", name: "Tasks")]
  var failure: CalendarServerError?

  func collection(url: String, user: String?) throws(CalendarServerError) -> any TaskCollection {
    if let failure { throw failure }
    return server
  }

  func discover(url: String, user: String?) throws(CalendarServerError) -> [FoundCollection] {
    if let failure { throw failure }
    return found
  }
}

final class ToolRun {
  var out: [String] = []
  var err: [String] = []
  let bench = SyncBench()

  func run(_ arguments: [String], connector: FakeConnector? = nil, extra: [String: String] = [:]) -> CalDAVTool.Status {
    var environment = [
      "HOME": bench.folder, "TODO_FILE": bench.todoFile, "DONE_FILE": bench.doneFile,
      "TODO_CALDAV_URL": "http://127.0.0.1:1/cal/tasks/", "XDG_STATE_HOME": bench.folder + "/xdg-state",
    ]
    environment.merge(extra) { $1 }
    let tool = CalDAVTool(
      environment: environment, connector: connector ?? FakeConnector(server: bench.server),
      output: { self.out.append($0) }, errors: { self.err.append($0) }, showsProgress: false)
    return tool.run(arguments)
  }
}

@Suite struct CalDAVToolTests {
  @Test func setupKeepsTheCollectionAndUserInTheConfigurationAndNoPassword() throws {
    let run = ToolRun()
    let config = run.bench.folder + "/todo.cfg"
    run.bench.write("export TODO_DIR=\"$HOME/lists\"\nexport TODO_CALDAV_URL=old\n", to: config)
    let status = run.run(["setup", "http://127.0.0.1:1/", "--user", "o'neil"], extra: ["TODOTXT_CFG_FILE": config])
    #expect(status == .synced)
    #expect(
      run.bench.read(config)
        == "export TODO_DIR=\"$HOME/lists\"\nexport TODO_CALDAV_URL='http://127.0.0.1:1/cal/tasks/'\nexport TODO_CALDAV_USER='o'\\''neil'\n"
    )
    // The shell reads the value back as it was written.
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/bin/sh")
    shell.arguments = ["-c", ". \"$0\"; printf %s \"$TODO_CALDAV_USER\"", config]
    let pipe = Pipe()
    shell.standardOutput = pipe
    try shell.run()
    shell.waitUntilExit()
    #expect(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "o'neil")
  }

  @Test func setupWithoutAConfigurationCreatesOne() {
    let run = ToolRun()
    #expect(run.run(["setup", "http://127.0.0.1:1/"]) == .synced)
    #expect(run.bench.read(run.bench.folder + "/.config/todo/config") == "export TODO_CALDAV_URL='http://127.0.0.1:1/cal/tasks/'\n")
  }

  @Test func setupWithSeveralCollectionsListsThem() {
    let run = ToolRun()
    var connector = FakeConnector(server: run.bench.server)
    connector.found.append(FoundCollection(url: "http://127.0.0.1:1/cal/jobs/", name: "Jobs\u{1B}[2J"))
    #expect(run.run(["setup", "http://127.0.0.1:1/"], connector: connector) == .usage)
    #expect(run.err.count == 3)
    #expect(!run.err.joined().contains("\u{1B}"))
  }

  @Test func serverErrorsAreOneLineWithTheirOwnStatus() {
    let run = ToolRun()
    var connector = FakeConnector(server: run.bench.server)
    connector.failure = .authentication("401 Unauthorized\r\nX-Evil: 1")
    #expect(run.run(["sync"], connector: connector) == .server)
    #expect(run.err == ["todo caldav: the server refused the credentials: 401 Unauthorized??X-Evil: 1"])
  }

  @Test func usageAndConfigurationErrors() {
    let run = ToolRun()
    #expect(run.run([]) == .usage)
    #expect(run.run(["sync", "--force"]) == .usage)
    #expect(run.run(["setup"]) == .usage)
    #expect(run.run(["setup", "http://x/\u{0}"]) == .usage)
    #expect(run.run(["sync"], extra: ["TODO_CALDAV_URL": ""]) == .usage)
    #expect(run.err.last == "todo caldav: no collection: run 'todo caldav setup URL' first")
  }

  @Test func aConflictIsReportedWithBothValuesAndStatusOne() throws {
    let run = ToolRun()
    run.bench.write("Call Mum\n")
    #expect(run.run(["sync"]) == .synced)
    let tag = try #require(run.bench.lines.first?.components(separatedBy: " uid:").last)
    #expect(tag.count == 36)
    run.bench.write("Call Mum tonight uid:\(tag)\n")
    run.bench.server.put("\(tag).ics", vtodo(tag, "SUMMARY:Call Mum tomorrow"))
    #expect(run.run(["sync"]) == .reported)
    let conflict = try #require(run.out.first { $0.hasPrefix("conflict: ") })
    #expect(conflict.contains("\"Call Mum tonight\""))
    #expect(conflict.contains("\"Call Mum tomorrow\""))
    #expect(run.bench.lines == ["Call Mum tomorrow uid:\(tag)"])
  }

  @Test func anEmptiedCollectionIsRefusedWithStatusFive() {
    let run = ToolRun()
    run.bench.write("Call Mum\nBuy milk\n")
    #expect(run.run(["sync"]) == .synced)
    run.bench.server.removeAll()
    #expect(run.run(["sync"]) == .refused)
    #expect(run.err.last?.contains("--yes") == true)
    #expect(run.run(["sync", "--yes"]) == .synced)
  }
}
