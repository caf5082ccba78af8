import CalDAVClient
import CalDAVSync
import TodoCalendar

/// The sync tool's network: the CalDAV client, with the password prompt of the terminal and
/// a private certificate authority when `TODO_CALDAV_CA_FILE` names one.
struct ClientConnector: CalDAVConnector {
  let environment: CalDAVEnvironment

  init(variables: [String: String]) {
    let authority = variables["TODO_CALDAV_CA_FILE"].flatMap { $0.isEmpty ? nil : $0 }
    environment = CalDAVEnvironment(
      variables: variables, prompt: TerminalPasswordPrompt(),
      transport: TransportOptions(certificateAuthorityFile: authority))
  }

  func collection(url: String, user: String?) throws(CalendarServerError) -> any TaskCollection {
    try CalDAVCollection(url: try ServerURL(url), user: user, environment: environment)
  }

  func discover(url: String, user: String?) throws(CalendarServerError) -> [FoundCollection] {
    let result = try CalDAVDiscovery(url: try ServerURL(url), user: user, environment: environment).run()
    let found = result.given.map { [$0] } ?? result.collections
    return found.map { FoundCollection(url: $0.url.description, name: $0.displayName ?? $0.url.path) }
  }
}
