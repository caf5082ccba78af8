/// Asks the person for a password; the terminal's in the tool, a script's in tests.
public protocol PasswordPrompt: Sendable {
  /// The password for `user` at `host`, or nil when none can be asked for (no terminal).
  func password(user: String, host: String) -> String?
}

/// What the client takes from outside the process, given once: environment variables (for
/// `TODO_CALDAV_PASSWORD_COMMAND`, `NETRC`, `HOME`), the prompt, and how patient to be.
public struct CalDAVEnvironment: Sendable {
  public var variables: [String: String]
  public var prompt: (any PasswordPrompt)?
  public var transport: TransportOptions

  public init(
    variables: [String: String], prompt: (any PasswordPrompt)?,
    transport: TransportOptions = TransportOptions()
  ) {
    self.variables = variables
    self.prompt = prompt
    self.transport = transport
  }
}
