import CalDAVClient
import Foundation
import TodoTestSupport

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

extension CalendarServer {
  /// A task calendar (VTODO only) and an events calendar (VEVENT only), made by the phone.
  func makeCalendars() throws -> (tasks: String, events: String) {
    try phone([
      ["mkcalendar", "tasks", "Tasks", ["VTODO"]], ["mkcalendar", "events", "Events", ["VEVENT"]],
    ])
    return (calendarURL("tasks"), calendarURL("events"))
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
}
