import CalDAVClient
import Foundation
import Testing

/// A real CalDAV server on a free loopback port in a temporary folder, started for one test and
/// stopped when it ends: Radicale (with no login, or with an htpasswd file) or Xandikos.
final class CalendarServer: @unchecked Sendable {
  enum Kind: String, CustomStringConvertible, CaseIterable, Sendable {
    case radicale, xandikos
    var description: String { rawValue }
  }

  struct MissingServer: Error, CustomStringConvertible {
    var description: String
  }

  let kind: Kind
  let port: Int
  let folder: URL
  private let process: Process
  /// The user the tests log in as, and the path of that user's calendar home.
  let user: String
  let password: String

  static let python = "/usr/bin/python3"

  /// The certificate authority that signed the server's certificate, when it speaks TLS.
  private(set) var certificateAuthority: String?

  /// Starts a server; `password` given makes Radicale check logins against an htpasswd file;
  /// `tls` makes Radicale speak HTTPS with a certificate from a CA made for the test.
  init(_ kind: Kind, password: String? = nil, tls: Bool = false) throws {
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

  func stop() {
    // SIGKILL: Radicale's SIGTERM waits for open keep-alive connections, and the data is
    // thrown away anyway.
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(at: folder)
  }

  var root: String { "\(certificateAuthority == nil ? "http" : "https")://127.0.0.1:\(port)/" }
  var rootWithUser: String { "http://\(user)@127.0.0.1:\(port)/" }
  /// Where a calendar named `id` is made by `phone(["mkcalendar", id, …])`.
  func calendarURL(_ id: String) -> String {
    switch kind {
    case .radicale: return "\(root)\(user)/\(id)/"
    case .xandikos: return "\(root)user/calendars/\(id)/"
    }
  }

  /// Runs the phone (python3-caldav) against this server; its standard output, trimmed.
  @discardableResult
  func phone(_ actions: [[Any]]) throws -> String {
    try CalendarServer.require(
      CalendarServer.python, ["-c", "import caldav"], package: "python3-caldav")
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/phone.py")
    let json = String(decoding: try JSONSerialization.data(withJSONObject: actions), as: UTF8.self)
    let (status, output, errors) = try CalendarServer.run(
      CalendarServer.python, [script.path, root, user, password, json])
    guard status == 0 else {
      throw MissingServer(description: "phone.py failed (\(status)): \(errors.suffix(2000))")
    }
    return output.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// A task calendar (VTODO only) and an events calendar (VEVENT only), made by the phone.
  func makeCalendars() throws -> (tasks: String, events: String) {
    try phone([
      ["mkcalendar", "tasks", "Tasks", ["VTODO"]], ["mkcalendar", "events", "Events", ["VEVENT"]],
    ])
    return (calendarURL("tasks"), calendarURL("events"))
  }

  /// A CA and a certificate it signed for 127.0.0.1 and localhost (openssl, P-256 keys).
  static func makeCertificates(in folder: URL) throws -> (String, String, String) {
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
    let (status, _, errors) = try run("/bin/sh", ["-c", script])
    guard status == 0 else { throw MissingServer(description: "openssl failed: \(errors)") }
    return (
      folder.appendingPathComponent("ca.pem").path,
      folder.appendingPathComponent("server.pem").path,
      folder.appendingPathComponent("server.key").path
    )
  }

  /// An HTTPS server on loopback that redirects every request to `location`, signed by a CA
  /// made for the test; the process, its port and the CA file.
  static func redirecting(to location: String, folder: URL) throws -> (Process, Int, String) {
    let (authority, certificate, key) = try makeCertificates(in: folder)
    let port = try freePort()
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/redirecting_https.py")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [script.path, String(port), certificate, key, location]
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let deadline = ContinuousClock.now + .seconds(20)
    while !accepts(port: port) {
      guard process.isRunning, ContinuousClock.now < deadline else {
        throw MissingServer(description: "the redirecting HTTPS server did not start")
      }
      usleep(30_000)
    }
    return (process, port, authority)
  }

  private func waitUntilListening(log: URL) throws {
    let deadline = ContinuousClock.now + .seconds(20)
    while ContinuousClock.now < deadline {
      guard process.isRunning else {
        let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        throw MissingServer(description: "\(kind) exited at start: \(said.suffix(2000))")
      }
      if CalendarServer.accepts(port: port) { return }
      usleep(30_000)
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

  static func require(_ executable: String, _ arguments: [String], package: String) throws {
    if installed.contains(package) { return }
    let works =
      FileManager.default.isExecutableFile(atPath: executable)
      && ((try? run(executable, arguments).status) == 0)
    if works { installed.insert(package) }
    guard works else {
      throw MissingServer(
        description:
          "\(package) is needed by this test and is not installed: apt-get install \(package) (.ci/run installs it)"
      )
    }
  }

  static func run(_ executable: String, _ arguments: [String]) throws -> (
    status: Int32, output: String, errors: String
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let errorData = Box()
    let reader = Thread { errorData.data = errors.fileHandleForReading.readDataToEndOfFile() }
    reader.start()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while errorData.data == nil { usleep(1000) }
    return (
      process.terminationStatus, String(decoding: data, as: UTF8.self),
      String(decoding: errorData.data ?? Data(), as: UTF8.self)
    )
  }

  private final class Box: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Data?
    var data: Data? {
      get { lock.withLock { stored } }
      set { lock.withLock { stored = newValue } }
    }
  }

  /// A port the kernel has just handed out on loopback, free once the probe socket closes.
  static func freePort() throws -> Int {
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

  static func accepts(port: Int) -> Bool {
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

/// A prompt that answers from a script and counts how often it was asked.
final class ScriptedPrompt: PasswordPrompt, @unchecked Sendable {
  private let lock = NSLock()
  private let answer: String?
  private var asked: [String] = []

  init(_ answer: String?) { self.answer = answer }

  func password(user: String, host: String) -> String? {
    lock.withLock { asked.append("\(user)@\(host)") }
    return answer
  }

  var questions: [String] { lock.withLock { asked } }
}

extension CalDAVEnvironment {
  /// No outside variables, no terminal, short patience: what most tests run with.
  static func testing(
    variables: [String: String] = [:], prompt: (any PasswordPrompt)? = nil,
    transport: TransportOptions = TransportOptions(
      connectTimeout: .seconds(5), stallTimeout: .seconds(10), requestTimeout: .seconds(60))
  ) -> CalDAVEnvironment {
    CalDAVEnvironment(variables: variables, prompt: prompt, transport: transport)
  }
}
