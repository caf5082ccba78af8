import TodoCalendar
import TodoStore
import TodoTxt

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// A task collection found on a server.
public struct FoundCollection: Equatable, Sendable {
  public var url: String
  public var name: String

  public init(url: String, name: String) {
    self.url = url
    self.name = name
  }
}

/// What the tool needs of the network, given by the executable that links it (the helper
/// `todo-caldav`), so that this library, and its tests, need no network library.
public protocol CalDAVConnector {
  /// The collection at `url`, as the engine uses it.
  func collection(url: String, user: String?) throws(CalendarServerError) -> any TaskCollection
  /// The task collections at `url`: just it when it is one, else those of the account.
  func discover(url: String, user: String?) throws(CalendarServerError) -> [FoundCollection]
}

/// The helper's command line: `setup URL [--user NAME]` and `sync [--dry-run] [--yes]`.
///
/// The list's paths and the collection come from the environment `todo caldav` passes
/// (`TODO_FILE`, `DONE_FILE`, `TODOTXT_CFG_FILE`, `TODO_CALDAV_URL`, `TODO_CALDAV_USER`).
/// Exit status: 0 synced; 1 synced, with conflicts or problems reported; 2 a usage or
/// configuration error; 3 the server failed; 4 the list or the state could not be read or
/// written; 5 refused, the sync would empty a side.
public struct CalDAVTool {
  public enum Status: Int32, Sendable {
    case synced = 0, reported = 1, usage = 2, server = 3, local = 4, refused = 5
  }

  public var environment: [String: String]
  public var connector: any CalDAVConnector
  public var output: (String) -> Void
  public var errors: (String) -> Void
  /// Standard error is a terminal: progress of a long sync is shown there.
  public var showsProgress: Bool

  public init(
    environment: [String: String], connector: any CalDAVConnector, output: @escaping (String) -> Void,
    errors: @escaping (String) -> Void, showsProgress: Bool
  ) {
    self.environment = environment
    self.connector = connector
    self.output = output
    self.errors = errors
    self.showsProgress = showsProgress
  }

  static let usage = "usage: todo caldav setup URL [--user NAME] | sync [--dry-run] [--yes]"

  public func run(_ arguments: [String]) -> Status {
    guard let command = arguments.first else { return fail(.usage, CalDAVTool.usage) }
    var rest = Array(arguments.dropFirst())
    switch command {
    case "setup":
      var user: String?
      if let index = rest.firstIndex(of: "--user") {
        guard index + 1 < rest.count else { return fail(.usage, CalDAVTool.usage) }
        user = rest[index + 1]
        rest.removeSubrange(index...(index + 1))
      }
      guard rest.count == 1 else { return fail(.usage, CalDAVTool.usage) }
      return setup(url: rest[0], user: user)
    case "sync":
      let known: Set<String> = ["--dry-run", "-n", "--yes", "-y"]
      guard rest.allSatisfy(known.contains) else { return fail(.usage, CalDAVTool.usage) }
      return sync(dryRun: rest.contains("--dry-run") || rest.contains("-n"), confirmed: rest.contains("--yes") || rest.contains("-y"))
    case "--help", "-h", "help":
      output(CalDAVTool.usage)
      return .synced
    default:
      return fail(.usage, CalDAVTool.usage)
    }
  }

  func fail(_ status: Status, _ message: String) -> Status {
    errors(message.hasPrefix("usage:") ? message : "todo caldav: " + SyncReportText.shown(message))
    return status
  }

  // MARK: Setup

  func setup(url: String, user: String?) -> Status {
    guard !url.isEmpty, url.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) }) else {
      return fail(.usage, "the URL holds spaces or control characters")
    }
    if let user, user.isEmpty || user.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
      return fail(.usage, "the user name is empty or holds control characters")
    }
    let found: [FoundCollection]
    do throws(CalendarServerError) { found = try connector.discover(url: url, user: user) } catch {
      return fail(.server, error.description)
    }
    guard let chosen = found.first else { return fail(.server, "no task collection at \(url)") }
    if found.count > 1 {
      errors("todo caldav: \(found.count) task collections at \(SyncReportText.shown(url)); run setup with one of them:")
      for collection in found {
        errors("  \(SyncReportText.shown(collection.url))  \(SyncReportText.shown(collection.name))")
      }
      return .usage
    }
    let path = configurationPath
    var values = [("TODO_CALDAV_URL", chosen.url)]
    if let user = user ?? CalDAVTool.user(in: url) { values.append(("TODO_CALDAV_USER", user)) }
    do throws(StoreError) {
      try ConfigurationFile.set(values, in: path)
    } catch {
      return fail(.local, "\(error)")
    }
    output("CalDAV: \(SyncReportText.shown(chosen.name)) (\(SyncReportText.shown(chosen.url))) kept in \(path).")
    return .synced
  }

  /// The user name of `https://name@host/…`, percent escapes read.
  static func user(in url: String) -> String? {
    let parts = url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
    guard parts.count >= 3, parts[0].hasSuffix(":"), parts[1].isEmpty else { return nil }
    let rest = parts[2]
    let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    guard let at = authority.lastIndex(of: "@") else { return nil }
    let name = authority[..<at].prefix { $0 != ":" }
    guard !name.isEmpty, let decoded = LocalUID.uid(fromTagValue: String(name)) else { return nil }
    return decoded
  }

  /// The configuration file the tool read, else the first place it looks in its home.
  var configurationPath: String {
    if let path = environment["TODOTXT_CFG_FILE"], !path.isEmpty, access(path, F_OK) == 0 { return path }
    let home = environment["HOME"] ?? ""
    let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
    return config + "/todo/config"
  }

  // MARK: Sync

  func sync(dryRun: Bool, confirmed: Bool) -> Status {
    guard let url = environment["TODO_CALDAV_URL"], !url.isEmpty else {
      return fail(.usage, "no collection: run 'todo caldav setup URL' first")
    }
    guard let todoFile = environment["TODO_FILE"], let doneFile = environment["DONE_FILE"], !todoFile.isEmpty else {
      return fail(.usage, "TODO_FILE and DONE_FILE are not set: run this helper as 'todo caldav'")
    }
    let user = environment["TODO_CALDAV_USER"].flatMap { $0.isEmpty ? nil : $0 }
    let collection: any TaskCollection
    do throws(CalendarServerError) { collection = try connector.collection(url: url, user: user) } catch {
      return fail(.server, error.description)
    }
    let clock = LocalClock()
    let errors = self.errors
    let progress: ((String) -> Void)? = showsProgress ? { errors($0) } : nil
    let engine = CalDAVSync(
      collection: collection,
      environment: CalDAVSync.Environment(
        todoFile: todoFile, doneFile: doneFile, notesFolder: CalDAVTool.notesFolder(environment, todoFile: todoFile),
        collectionURL: url, store: TodoStore(stateDirectory: stateDirectory), mapping: VTODOMapping(utcOffset: clock.utcOffset),
        today: clock.today, now: clock.now, newUID: CalDAVTool.randomUID, progress: progress))
    var result: CalDAVSync.Result
    do throws(SyncError) {
      result = try engine.run(dryRun: dryRun, confirmed: confirmed)
      // An item a phone changed while this sync wrote: one more round merges it.
      if result.changedMeanwhile > 0, !dryRun {
        let first = result
        result = try engine.run(dryRun: false, confirmed: confirmed)
        result.plan.conflicts = first.plan.conflicts + result.plan.conflicts
        result.plan.reports = first.plan.reports + result.plan.reports
        result.notices = first.notices + result.notices
      }
    } catch {
      switch error {
      case .server: return fail(.server, error.description)
      case .refused: return fail(.refused, error.description)
      case .store, .stateNotSaved: return fail(.local, error.description)
      }
    }
    for line in SyncReportText.lines(result, dryRun: dryRun) { output(line) }
    return needsAttention(result) ? .reported : .synced
  }

  /// Conflicts, problems, duplicates on the server and tasks kept against a deletion need the
  /// person; the rest of the reports only say what happened.
  func needsAttention(_ result: CalDAVSync.Result) -> Bool {
    guard result.plan.conflicts.isEmpty, result.problems.isEmpty else { return true }
    return result.plan.reports.contains {
      switch $0 {
      case .duplicateOnServer, .keptDeletedLocally, .keptDeletedOnServer: return true
      case .duplicateInList, .recurringCompleted, .paired: return false
      }
    }
  }

  /// The store's state directory as the tool's other commands find it, from this
  /// environment: `$XDG_STATE_HOME/todo`, else `$HOME/.local/state/todo`.
  var stateDirectory: String? {
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/todo" }
    if let home = environment["HOME"], !home.isEmpty { return home + "/.local/state/todo" }
    return nil
  }

  /// A random (version 4) UUID, as phones make them.
  static func randomUID() -> String {
    var generator = SystemRandomNumberGenerator()
    var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
    bytes[6] = bytes[6] & 0x0F | 0x40
    bytes[8] = bytes[8] & 0x3F | 0x80
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    for (index, byte) in bytes.enumerated() {
      if [4, 6, 8, 10].contains(index) { text.append(0x2D) }
      text += [digits[Int(byte >> 4)], digits[Int(byte & 15)]]
    }
    return String(decoding: text, as: UTF8.self)
  }
}

/// Today, now and the zone's offset, read once.
struct LocalClock {
  let now: Int
  let today: TaskDate
  let utcOffset: Int

  init() {
    var seconds = time(nil)
    var parts = tm()
    localtime_r(&seconds, &parts)
    now = Int(seconds)
    utcOffset = Int(parts.tm_gmtoff)
    today = TaskDate(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday)) ?? .earliest
  }
}

extension CalDAVTool {
  /// The process's environment, as the tool reads it.
  /// The notes folder the note command keeps: `notes` in the list's folder.
  static func notesFolder(_ environment: [String: String], todoFile: String) -> String {
    if let folder = environment["TODO_DIR"], !folder.isEmpty { return folder + "/notes" }
    guard let slash = todoFile.lastIndex(of: "/") else { return "notes" }
    return String(todoFile[..<slash]) + "/notes"
  }

  public static func processEnvironment() -> [String: String] { Posix.environment() }

  /// One line on standard error, after what standard output holds so far.
  public static func writeError(_ line: String) {
    fflush(stdout)
    let bytes = Array((line + "\n").utf8)
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count) }
      guard count > 0 else { return }
      written += count
    }
  }
}
