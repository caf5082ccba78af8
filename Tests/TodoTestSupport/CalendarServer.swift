import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A real CalDAV server on a free loopback port in a temporary folder, started by a test or a
/// suite and stopped when it ends: Radicale (with no login, or with an htpasswd file) or
/// Xandikos. The phone, a client that is not ours (python3-caldav), edits it between syncs.
public final class CalendarServer: @unchecked Sendable {
  public enum Kind: String, CustomStringConvertible, CaseIterable, Sendable {
    case radicale, xandikos
    public var description: String { rawValue }
  }

  /// A server or a package a test needs is missing or did not start; says what to install.
  public struct MissingServer: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
  }

  public let kind: Kind
  public let port: Int
  public let folder: URL
  private var process: Process
  /// The user the tests log in as, and the path of that user's calendar home.
  public let user: String
  public let password: String

  public static let python = "/usr/bin/python3"

  /// The certificate authority that signed the server's certificate, when it speaks TLS.
  public private(set) var certificateAuthority: String?

  private let lock = NSLock()
  // Guarded by `lock`: calendars made by `makeTaskCalendar`, for their names.
  private var calendarsMade = 0

  /// Starts a server; `password` given makes Radicale check logins against an htpasswd file;
  /// `tls` makes Radicale speak HTTPS with a certificate from a CA made for the test.
  public init(_ kind: Kind, password: String? = nil, tls: Bool = false) throws {
    self.kind = kind
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("caldav-\(kind)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    port = try CalendarServer.freePort()
    process = Process()
    switch kind {
    case .radicale:
      try CalendarServer.require(
        CalendarServer.python, ["-c", "import radicale"], package: "radicale")
      user = "alice"
      self.password = password ?? "anything"
      var arguments = [
        "-m", "radicale", "--server-hosts", "127.0.0.1:\(port)",
        "--storage-filesystem-folder", folder.appendingPathComponent("storage").path,
        "--logging-level", "warning",
      ]
      if let password {
        let file = folder.appendingPathComponent("htpasswd")
        try Data("alice:\(password)\n".utf8).write(to: file)
        arguments += [
          "--auth-type", "htpasswd", "--auth-htpasswd-filename", file.path,
          "--auth-htpasswd-encryption", "plain",
        ]
      } else {
        arguments += ["--auth-type", "none"]
      }
      if tls {
        let (authority, certificate, key) = try CalendarServer.makeCertificates(in: folder)
        certificateAuthority = authority
        arguments += [
          "--server-ssl", "True", "--server-certificate", certificate, "--server-key", key,
        ]
      }
      process.executableURL = URL(fileURLWithPath: CalendarServer.python)
      process.arguments = arguments
    case .xandikos:
      try CalendarServer.require("/usr/bin/xandikos", ["--version"], package: "xandikos")
      user = "user"
      self.password = "unused"
      process.executableURL = URL(fileURLWithPath: "/usr/bin/xandikos")
      process.arguments = [
        "-d", folder.appendingPathComponent("storage").path, "--defaults",
        "-l", "127.0.0.1", "-p", String(port),
      ]
    }
    let log = folder.appendingPathComponent("server.log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let logHandle = try FileHandle(forWritingTo: log)
    process.standardOutput = logHandle
    process.standardError = logHandle
    process.standardInput = FileHandle.nullDevice
    try process.run()
    try waitUntilListening(log: log)
  }

  deinit { stop() }

  public func stop() {
    // SIGKILL: Radicale's SIGTERM waits for open keep-alive connections, and the data is
    // thrown away anyway.
    if process.isRunning {
      Glibc.kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(at: folder)
  }

  /// Kills the server (SIGKILL) and keeps its storage: a server gone in the middle of a
  /// sync. ``restart()`` brings it back.
  public func kill() {
    if process.isRunning {
      Glibc.kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }

  /// Starts the server again, as it was started, on its port and storage.
  public func restart() throws {
    kill()
    let next = Process()
    next.executableURL = process.executableURL
    next.arguments = process.arguments
    let log = folder.appendingPathComponent("server.log")
    let logHandle = try FileHandle(forWritingTo: log)
    logHandle.seekToEndOfFile()
    next.standardOutput = logHandle
    next.standardError = logHandle
    next.standardInput = FileHandle.nullDevice
    try next.run()
    process = next
    try waitUntilListening(log: log)
  }

  public var isRunning: Bool { process.isRunning }

  public var root: String {
    "\(certificateAuthority == nil ? "http" : "https")://127.0.0.1:\(port)/"
  }
  public var rootWithUser: String { "http://\(user)@127.0.0.1:\(port)/" }

  /// Where a calendar named `id` is made by `phone(["mkcalendar", id, …])`.
  public func calendarURL(_ id: String) -> String {
    switch kind {
    case .radicale: return "\(root)\(user)/\(id)/"
    case .xandikos: return "\(root)user/calendars/\(id)/"
    }
  }

  /// A new task calendar (VTODO only) of a name no other test of the server has; its URL as
  /// the phone gives it.
  public func makeTaskCalendar() throws -> String {
    let number = lock.withLock {
      calendarsMade += 1
      return calendarsMade
    }
    return try phone([["mkcalendar", "tasks-\(number)"]])
  }

  /// Runs the phone (python3-caldav) against this server; its standard output, trimmed.
  @discardableResult
  public func phone(_ actions: [[Any]]) throws -> String {
    try CalendarServer.require(
      CalendarServer.python, ["-c", "import caldav"], package: "python3-caldav")
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/phone.py")
    let json = String(decoding: try JSONSerialization.data(withJSONObject: actions), as: UTF8.self)
    let result = try ChildProcess.run(
      CalendarServer.python, [script.path, root, user, password, json])
    guard result.status == 0 else {
      throw MissingServer(description: "phone.py failed (\(result.status)): \(result.errors.suffix(2000))")
    }
    return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// One VTODO as the phone reads it back.
  public struct Item: Decodable, Equatable, Sendable {
    public var uid: String
    public var summary: String
    public var status: String
    public var due: String
    public var occurrence: Bool
  }

  /// The VTODOs of the calendar at `url`, occurrences included, sorted by UID.
  public func dump(_ url: String) throws -> [Item] {
    try JSONDecoder().decode([Item].self, from: Data(try phone([["dump", url]]).utf8))
  }

  /// The iCalendar text of each object of the calendar at `url`, as the server serves it.
  public func stored(_ url: String) throws -> [String] {
    try JSONDecoder().decode([String].self, from: Data(try phone([["raw", url]]).utf8))
  }

  /// Writes an object named `name` straight into the storage of the calendar at `url`, past
  /// the server's checks: both servers refuse a second object with a UID the collection has
  /// (no-uid-conflict), and this is how a test gives them what a server that checks nothing
  /// holds. Radicale reads its folder on each request; Xandikos reads what is committed.
  public func plant(_ name: String, in url: String, _ text: String) throws {
    guard let collection = storage(of: url) else { throw MissingServer(description: "\(url) is not on this server") }
    try Data(text.utf8).write(to: collection.appendingPathComponent(name))
    guard kind == .xandikos else { return }
    for arguments in [
      ["add", "--", name],
      ["-c", "user.name=test", "-c", "user.email=test@localhost", "commit", "-q", "-m", "planted"],
    ] {
      let git = try ChildProcess.run("/usr/bin/git", ["-C", collection.path] + arguments)
      guard git.status == 0 else { throw MissingServer(description: "git \(arguments[0]) failed: \(git.errors)") }
    }
  }

  /// The folder both servers keep the calendar at `url` in, one file per object.
  func storage(of url: String) -> URL? {
    guard url.hasPrefix(root) else { return nil }
    let path = String(url.dropFirst(root.count))
    let storage = folder.appendingPathComponent("storage")
    return kind == .radicale
      ? storage.appendingPathComponent("collection-root").appendingPathComponent(path)
      : storage.appendingPathComponent(path)
  }

  /// How many objects the calendar at `url` holds, counted in the server's folder: cheap
  /// enough to poll while a sync writes (the phone takes half a second a question).
  public func storedCount(_ url: String) -> Int {
    guard let folder = storage(of: url),
      let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
    else { return 0 }
    return names.filter { $0.hasSuffix(".ics") }.count
  }

  /// A CA and a certificate it signed for 127.0.0.1 and localhost (openssl, P-256 keys).
  public static func makeCertificates(in folder: URL) throws -> (String, String, String) {
    try require("/usr/bin/openssl", ["version"], package: "openssl")
    let script = """
      set -e
      cd '\(folder.path)'
      openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout ca.key \\
        -out ca.pem -days 2 -subj /CN=todo-test-ca 2>/dev/null
      openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout server.key \\
        -out server.csr -subj /CN=127.0.0.1 2>/dev/null
      printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\n' > san.ext
      openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem \\
        -days 2 -extfile san.ext 2>/dev/null
      """
    let result = try ChildProcess.run("/bin/sh", ["-c", script])
    guard result.status == 0 else { throw MissingServer(description: "openssl failed: \(result.errors)") }
    return (
      folder.appendingPathComponent("ca.pem").path,
      folder.appendingPathComponent("server.pem").path,
      folder.appendingPathComponent("server.key").path
    )
  }

  private func waitUntilListening(log: URL) throws {
    let deadline = ContinuousClock.now + .seconds(20)
    while ContinuousClock.now < deadline {
      guard process.isRunning else {
        let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        throw MissingServer(description: "\(kind) exited at start: \(said.suffix(2000))")
      }
      if CalendarServer.accepts(port: port) { return }
      usleep(20_000)
    }
    throw MissingServer(description: "\(kind) did not listen on port \(port) within 20 s")
  }

  /// Packages found installed, checked once per test run (a Python import costs most of a
  /// second).
  private static let installed = Installed()

  private final class Installed: @unchecked Sendable {
    private let lock = NSLock()
    private var packages: Set<String> = []
    func contains(_ package: String) -> Bool { lock.withLock { packages.contains(package) } }
    func insert(_ package: String) { _ = lock.withLock { packages.insert(package) } }
  }

  /// Throws, saying what to install, unless `executable ARGUMENTS` runs and exits 0.
  public static func require(_ executable: String, _ arguments: [String], package: String) throws {
    if installed.contains(package) { return }
    let works =
      FileManager.default.isExecutableFile(atPath: executable)
      && ((try? ChildProcess.run(executable, arguments).status) == 0)
    if works { installed.insert(package) }
    guard works else {
      throw MissingServer(
        description:
          "\(package) is needed by this test and is not installed: apt-get install \(package) (.ci/run installs it)"
      )
    }
  }

  /// A port the kernel has just handed out on loopback, free once the probe socket closes.
  public static func freePort() throws -> Int {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw MissingServer(description: "socket() failed") }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
        bind(socket, generic, length) == 0 && getsockname(socket, generic, &length) == 0
      }
    }
    guard bound else { throw MissingServer(description: "bind() failed") }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  public static func accepts(port: Int) -> Bool {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { return false }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }
}
