import Foundation
import TodoCalendar

/// Where a password comes from once a server has answered 401, in this order: the command in
/// `TODO_CALDAV_PASSWORD_COMMAND` (run by `/bin/sh -c`, its first line of output), a netrc file
/// (`$NETRC`, else `~/.netrc`), the prompt. The password is kept in memory for the session and
/// never written anywhere.
struct CredentialSource: Sendable {
  let environment: CalDAVEnvironment

  static let commandVariable = "TODO_CALDAV_PASSWORD_COMMAND"

  /// The user and password for `host`; `user` from the URL or an option, else from netrc.
  func credentials(user: String?, host: String) throws(CalendarServerError) -> (
    user: String, password: String
  ) {
    if let command = environment.variables[CredentialSource.commandVariable], !command.isEmpty {
      guard let user else { throw .noUser }
      return (user, try run(command, user: user, host: host))
    }
    if let entry = netrc()?.entry(host: host, user: user), let password = entry.password,
      let login = user ?? entry.login
    {
      return (login, password)
    }
    guard let user else { throw .noUser }
    guard let password = environment.prompt?.password(user: user, host: host) else {
      throw .noCredentials
    }
    return (user, password)
  }

  private func netrc() -> Netrc? {
    let path =
      environment.variables["NETRC"].flatMap { $0.isEmpty ? nil : $0 }
      ?? environment.variables["HOME"].map { $0 + "/.netrc" }
    guard let path, let data = FileManager.default.contents(atPath: path) else { return nil }
    return Netrc(parsing: String(decoding: data, as: UTF8.self))
  }

  /// Runs the password command with the user and host in its environment
  /// (`TODO_CALDAV_USER`, `TODO_CALDAV_HOST`); its failure is an authentication error that
  /// says why.
  private func run(_ command: String, user: String, host: String) throws(CalendarServerError)
    -> String
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    var variables = environment.variables
    variables["TODO_CALDAV_USER"] = user
    variables["TODO_CALDAV_HOST"] = host
    process.environment = variables
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      throw .passwordCommandFailed("it could not be started")
    }
    // Read both pipes to their ends before waiting, so a chatty command cannot block.
    let errorData = LockedData()
    let errorReader = Thread {
      errorData.set(errors.fileHandleForReading.readDataToEndOfFile())
    }
    errorReader.start()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !errorData.isSet { usleep(1000) }
    let firstLine =
      String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
      .first.map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) } ?? ""
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      let said =
        String(decoding: errorData.value, as: UTF8.self)
        .split(separator: "\n").first.map(String.init) ?? ""
      let status =
        process.terminationReason == .exit
        ? "exit status \(process.terminationStatus)"
        : "killed by signal \(process.terminationStatus)"
      throw .passwordCommandFailed(said.isEmpty ? status : "\(status): \(said)")
    }
    guard !firstLine.isEmpty else { throw .passwordCommandFailed("it printed no password") }
    return firstLine
  }
}

/// A value handed from the thread that reads a pipe.
private final class LockedData: @unchecked Sendable {
  private let lock = NSLock()
  private var data: Data?

  func set(_ value: Data) { lock.withLock { data = value } }
  var isSet: Bool { lock.withLock { data != nil } }
  var value: Data { lock.withLock { data ?? Data() } }
}
