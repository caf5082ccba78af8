import Foundation
import Testing
import TodoCommands
import TodoStore

@testable import TodoREPL

#if canImport(Glibc)
  import Glibc
#endif

/// Lines for the shell, with things done to the files between them (as another program would).
final class SteppedLineReader: LineReader {
  enum Step {
    case line(String)
    case outside(() throws -> Void)
  }

  private var steps: [Step]

  init(_ steps: [Step]) { self.steps = steps }

  func readLine(prompt: String) -> String? {
    while !steps.isEmpty {
      switch steps.removeFirst() {
      case .line(let line): return line
      case .outside(let action):
        do { try action() } catch { Issue.record("the step between lines failed: \(error)") }
      }
    }
    return nil
  }

  func addHistory(_ line: String) {}

  var lastHistoryEntry: String? { nil }
}

/// What the shell keeps between lines (``SessionCache``) never hides a change: every test
/// changes a file between two lines the way some other program would and checks that the
/// next line sees it.
@Suite struct ShellCacheTests {
  typealias Home = REPLSessionTests.Home

  /// Runs `todo shell` in batch mode over `steps`, with `cache` (or, when `nil`, the cache
  /// the environment asks for).
  static func shell(
    _ home: Home, _ steps: [SteppedLineReader.Step], cache: SessionCache? = nil,
    environment extra: [String: String] = [:]
  ) -> (status: TodoCommands.ExitStatus, console: CapturingConsole) {
    let console = CapturingConsole()
    let reader = SteppedLineReader(steps)
    let environment = home.environment.merging(extra) { $1 }
    let status = TodoCLI.run(
      arguments: ["todo", "shell"], environment: environment, console: console, input: ScriptedInput()
    ) { launch in
      if let cache { return REPLSession(launch: launch, reader: reader, interactive: false, cache: cache).run() }
      return REPLSession(launch: launch, reader: reader, interactive: false).run()
    }
    return (status, console)
  }

  /// What the shell says on stderr before a line when the file changed since the last line
  /// (batch mode checks as the terminal shell does).
  static let changed = "todo.txt changed on disk; re-read\n"

  /// `todo ls` of the tasks given as (number, line), in the order ls shows them.
  static func listing(_ tasks: [(Int, String)], of total: Int) -> String {
    tasks.map { "\($0.0) \($0.1)\n" }.joined() + "--\nTODO: \(tasks.count) of \(total) tasks shown\n"
  }

  static func stat(_ path: String) throws -> Glibc.stat {
    var info = Glibc.stat()
    guard Glibc.lstat(path, &info) == 0 else { throw POSIXError(.ENOENT) }
    return info
  }

  /// Overwrites the file's bytes where they are (same inode, no truncation), then sets its
  /// access and modification times back: an editor saving in place within the same second.
  static func rewriteInPlace(_ path: String, _ text: String) throws {
    let before = try stat(path)
    let fd = open(path, O_WRONLY)
    guard fd >= 0 else { throw POSIXError(.EIO) }
    let bytes = Array(text.utf8)
    let written = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    close(fd)
    guard written == bytes.count else { throw POSIXError(.EIO) }
    var times = [before.st_atim, before.st_mtim]
    guard utimensat(AT_FDCWD, path, &times, 0) == 0 else { throw POSIXError(.EIO) }
  }

  /// Writes a new file beside it and renames it over the file, as many editors save.
  static func renameOver(_ path: String, _ text: String) throws {
    let temporary = path + ".swp"
    try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
    guard rename(temporary, path) == 0 else { throw POSIXError(.EIO) }
  }

  static func append(_ path: String, _ text: String) throws {
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(text.utf8))
    try handle.close()
  }

  /// A cache whose clock is an hour ahead: every stamp counts as settled, so only the stamps
  /// themselves can show a change (no byte comparison helps).
  static func trustingStamps() -> SessionCache {
    SessionCache(
      reads: ReadCache {
        var now = FileStamp.wallClock()
        now.tv_sec += 3600
        return now
      }, settleWindow: 0)
  }

  @Test func anInPlaceRewriteOfTheSameSizeInTheSameSecondIsSeen() throws {
    let home = try Home(todo: "aaa\nbbb\n")
    let path = home.todoFile.path
    let before = try Self.stat(path)
    let run = Self.shell(
      home,
      [
        .line("ls"),
        .outside {
          try Self.rewriteInPlace(path, "ccc\nddd\n")
          let after = try Self.stat(path)
          // The scene: same inode, same size, same modification time.
          #expect(after.st_ino == before.st_ino && after.st_size == before.st_size)
          #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
        },
        .line("ls"),
      ])
    #expect(run.status == .success)
    #expect(
      run.console.combinedText == Self.listing([(1, "aaa"), (2, "bbb")], of: 2) + Self.changed
        + Self.listing([(1, "ccc"), (2, "ddd")], of: 2))
  }

  @Test func aRenameOverTheFileAndAnAppendAreSeen() throws {
    for cache in [SessionCache(), Self.trustingStamps()] {
      let home = try Home(todo: "aaa\nbbb\n")
      let path = home.todoFile.path
      let run = Self.shell(
        home,
        [
          .line("ls"), .outside { try Self.renameOver(path, "eee\nfff\n") }, .line("ls"),
          .outside { try Self.append(path, "ggg\n") }, .line("ls"),
        ], cache: cache)
      #expect(
        run.console.combinedText
          == Self.listing([(1, "aaa"), (2, "bbb")], of: 2) + Self.changed
          + Self.listing([(1, "eee"), (2, "fff")], of: 2) + Self.changed
          + Self.listing([(1, "eee"), (2, "fff"), (3, "ggg")], of: 3))
    }
  }

  /// Which tasks wait is kept with the file's version: a line of the same version asks the
  /// kept answer, and a version in which the task waited for is done shows the waiting one.
  @Test func aWaitingTaskIsListedOnceWhatItWaitsForIsDoneOutside() throws {
    let home = try Home(todo: "deploy id:d\ntest first p:d\n")
    let path = home.todoFile.path
    let run = Self.shell(
      home,
      [
        .line("ls"), .line("ls"),
        .outside { try Self.renameOver(path, "deploy id:d\nx 2009-02-13 test first p:d\n") },
        .line("ls"), .line("ls"),
      ])
    #expect(run.status == .success)
    let waiting = Self.listing([(2, "test first p:d")], of: 2)
    let free = Self.listing([(1, "deploy id:d")], of: 2)
    #expect(run.console.combinedText == waiting + waiting + Self.changed + free + free)
  }

  /// Which of a word's lines the hiding rules show is kept per version, date and rules: a
  /// later line with other rules (`--all`) sees the hidden tasks, and the one after it, back
  /// on the plain rules, hides them again; a change of the file is seen as ever.
  @Test func theHiddenLinesOfAWordFollowTheRulesOfEachLine() throws {
    let home = try Home(todo: "a +x t:2099-01-01\nb +x h:1\nx 2009-01-01 c +x\nd +x\ne\n")
    let path = home.todoFile.path
    let run = Self.shell(
      home,
      [
        .line("ls +x"), .line("ls +x"), .line("ls --all +x"), .line("ls +x"),
        .outside { try Self.renameOver(path, "a +x t:2009-02-13\nb +x h:1\nx 2009-01-01 c +x\nd +x\ne\n") },
        .line("ls +x"), .line("ls +x"),
      ])
    #expect(run.status == .success)
    let plain = Self.listing([(4, "d +x")], of: 5)
    let all = Self.listing([(1, "a +x t:2099-01-01"), (2, "b +x h:1"), (4, "d +x"), (3, "x 2009-01-01 c +x")], of: 5)
    // The threshold has come: `a` is listed from the new version on.
    let after = Self.listing([(1, "a +x t:2009-02-13"), (4, "d +x")], of: 5)
    #expect(run.console.combinedText == plain + plain + all + plain + Self.changed + after + after)
  }

  /// The kept shown lines name the date: a shell of the next day over the same kept version
  /// lists the task whose threshold has come.
  @Test func theHiddenLinesOfAWordFollowTheDate() throws {
    let home = try Home(todo: "a +x t:2009-02-14\nd +x\n")
    let cache = Self.trustingStamps()
    let today = Self.shell(home, [.line("ls +x"), .line("ls +x")], cache: cache)
    let tomorrow = Self.shell(
      home, [.line("ls +x"), .line("ls +x")], cache: cache, environment: ["TODO_TEST_TIME": "1234586400"])
    let waiting = Self.listing([(2, "d +x")], of: 2)
    let come = Self.listing([(1, "a +x t:2009-02-14"), (2, "d +x")], of: 2)
    #expect(today.console.combinedText == waiting + waiting)
    #expect(tomorrow.console.combinedText == come + come)
  }

  @Test func aChangeByAnotherCommandLineIsSeen() throws {
    let home = try Home(todo: "aaa\nbbb\n")
    let run = Self.shell(
      home, [.line("ls +x"), .outside { _ = home.once(["add", "ccc +x"]) }, .line("ls +x"), .line("ls")])
    // The other command line's store is not the shell's: it writes the file under its lock.
    #expect(
      run.console.combinedText
        == Self.listing([], of: 2) + Self.changed + Self.listing([(3, "2009-02-13 ccc +x")], of: 3)
        + Self.listing([(3, "2009-02-13 ccc +x"), (1, "aaa"), (2, "bbb")], of: 3))
    #expect(home.read() == "aaa\nbbb\n2009-02-13 ccc +x\n")
  }

  @Test func aWriteOfTheShellIsSeenByItsNextLineAndUndone() throws {
    let home = try Home(todo: "aaa\nbbb\n")
    let run = Self.shell(home, [.line("ls a"), .line("pri 2 A"), .line("ls b"), .line("undo"), .line("ls b")])
    #expect(run.status == .success)
    // Both streams in order: the console is no terminal, so the summaries are on the other.
    let text = run.console.combinedText
    #expect(text.hasPrefix(Self.listing([(1, "aaa")], of: 2)))
    #expect(text.contains(Self.listing([(2, "(A) bbb")], of: 2)))
    #expect(text.hasSuffix(Self.listing([(2, "bbb")], of: 2)))
    #expect(home.read() == "aaa\nbbb\n")
  }

  @Test func aChangedConfigurationIsReadAgainAndAnUnchangedOneIsNot() throws {
    let home = try Home(todo: "aaa\n")
    let config = home.url.appendingPathComponent("todo.cfg")
    let log = home.url.appendingPathComponent("evaluations").path
    // Only bash reads this file (an `if`); it notes each time it is read.
    try Data("if true; then export TODO_DIR=\"$HOME\"; fi\necho x >> \"$HOME/evaluations\"\n".utf8).write(to: config)
    let other = home.url.appendingPathComponent("other")
    try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
    try Data("zzz\n".utf8).write(to: other.appendingPathComponent("todo.txt"))
    func evaluations() -> Int {
      ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").filter { $0 == "\n" }.count
    }
    var afterThreeLines = 0
    let run = Self.shell(
      home,
      [
        .line("ls"), .line("ls"), .line("ls"),
        .outside {
          afterThreeLines = evaluations()
          let text = "if true; then export TODO_DIR=\"$HOME/other\"; fi\necho x >> \"$HOME/evaluations\"\n"
          try Data(text.utf8).write(to: config)
        },
        .line("ls"),
      ], cache: Self.trustingStamps())
    #expect(run.console.combinedText == String(repeating: Self.listing([(1, "aaa")], of: 1), count: 3)
      + Self.listing([(1, "zzz")], of: 1))
    // Once for `shell` itself, once for its first line, and once after the change.
    #expect(afterThreeLines == 2)
    #expect(evaluations() == 3)
  }

  @Test func withTheCacheOffEveryLineReadsTheConfiguration() throws {
    let home = try Home(todo: "aaa\n")
    let config = home.url.appendingPathComponent("todo.cfg")
    try Data("if true; then export TODO_DIR=\"$HOME\"; fi\necho x >> \"$HOME/evaluations\"\n".utf8).write(to: config)
    _ = Self.shell(home, [.line("ls"), .line("ls"), .line("ls")], environment: ["TODO_SHELL_CACHE": "0"])
    let log = (try? String(contentsOfFile: home.url.appendingPathComponent("evaluations").path, encoding: .utf8)) ?? ""
    #expect(log == "x\nx\nx\nx\n")
  }

  @Test func aSessionPrintsTheSameWithAndWithoutTheCache() throws {
    let todo = "(B) call mom @phone\npay rent +home due:2009-02-01\nbuy milk +home @shop\n"
    let steps: (Home) -> [SteppedLineReader.Step] = { home in
      let path = home.todoFile.path
      return [
        .line("ls"), .line("ls +home"), .line("ls +home -milk"), .line("add \"water plants +home\""),
        .line("ls +home"), .line("do 1"), .line("ls"), .line("lsp"), .line("pri 2 A"), .line("ls @shop"),
        .outside { try Self.rewriteInPlace(path, String(home.read().reversed())) }, .line("ls"),
        .line("undo"), .line("ls +home"), .outside { try Self.append(path, "new one +home\n") }, .line("ls +home"),
        .outside { try Self.renameOver(path, "only +home\n") }, .line("ls +home"), .line("ls"), .line("lsc"),
        .line("archive"), .line("listall"), .line("ls nothing"),
      ]
    }
    let cached = try Home(todo: todo)
    let uncached = try Home(todo: todo)
    let withCache = Self.shell(cached, steps(cached))
    let withoutCache = Self.shell(uncached, steps(uncached), environment: ["TODO_SHELL_CACHE": "0"])
    #expect(withCache.status == withoutCache.status)
    // The messages name each home's own file.
    #expect(
      withCache.console.combinedText.replacingOccurrences(of: cached.url.path, with: "~")
        == withoutCache.console.combinedText.replacingOccurrences(of: uncached.url.path, with: "~"))
    #expect(cached.read() == uncached.read())
    #expect(withCache.console.combinedText.contains("1 only +home\n--\nTODO: 1 of 1 tasks shown\n"))
  }
}
