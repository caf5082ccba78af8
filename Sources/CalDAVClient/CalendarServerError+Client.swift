import TodoCalendar

// Every message the client raises, worded here, once. The server's own words are cut to one
// short line with control characters shown as `?`, so a hostile reply cannot draw on the
// person's terminal.
extension CalendarServerError {
  static func invalidURL(_ text: String) -> CalendarServerError {
    .unreachable("\(oneLine(text)) is not an http or https URL")
  }

  static func replyTooLarge(limit: Int) -> CalendarServerError {
    .invalidResponse("the reply is larger than \(limit / (1024 * 1024)) MiB")
  }

  static func malformedXML(_ why: String) -> CalendarServerError {
    .invalidResponse("malformed XML (\(oneLine(why)))")
  }

  static let documentTypeDeclaration = CalendarServerError.invalidResponse(
    "the XML has a document type declaration (entities are refused)")

  static func tooDeep(limit: Int) -> CalendarServerError {
    .invalidResponse("the XML is nested deeper than \(limit) elements")
  }

  static func notXML(contentType: String) -> CalendarServerError {
    .invalidResponse("expected XML, got \(oneLine(contentType))")
  }

  static let emptyMultistatus = CalendarServerError.invalidResponse(
    "a multistatus reply without a body")

  static func unexpectedStatus(_ code: Int, reason: String) -> CalendarServerError {
    .status(code, oneLine(reason))
  }

  static func refused(_ code: Int) -> CalendarServerError {
    .authentication(code == 403 ? "access forbidden (403)" : "the server asked again (401)")
  }

  static let noCredentials = CalendarServerError.authentication(
    "the server asks for a password and none could be had (set TODO_CALDAV_PASSWORD_COMMAND, add the host to netrc, or run on a terminal)"
  )

  static let noUser = CalendarServerError.authentication(
    "the server asks for a password and no user name is known (give it in the URL as https://name@host/ or as an option)"
  )

  static func passwordCommandFailed(_ why: String) -> CalendarServerError {
    .authentication("TODO_CALDAV_PASSWORD_COMMAND failed: \(oneLine(why))")
  }

  static func unsupportedAuthentication(_ challenge: String) -> CalendarServerError {
    .authentication("the server asks for an unsupported kind of login: \(oneLine(challenge))")
  }

  static func redirectedOffHost(_ target: String) -> CalendarServerError {
    .status(
      301, "redirected to \(oneLine(target)), another host; give that URL to use it")
  }

  static func redirectedToPlainHTTP(_ target: String) -> CalendarServerError {
    .insecure("the server redirects from https to plain http (\(oneLine(target)))")
  }

  static let tooManyRedirects = CalendarServerError.status(310, "too many redirects")

  static func timedOut(_ what: String) -> CalendarServerError {
    .unreachable("no answer in time (\(oneLine(what)))")
  }

  static func missingPart(_ what: String) -> CalendarServerError {
    .invalidResponse("the reply has no \(what)")
  }

  static func foreignHref(_ href: String) -> CalendarServerError {
    .invalidResponse("an href outside the server: \(oneLine(href))")
  }

  /// A listing names as an item of the collection something that is not one: its items
  /// are written to by href, so the reply is not used at all.
  static func hrefOutsideCollection(_ href: String) -> CalendarServerError {
    .invalidResponse("an item outside the collection: \(oneLine(href))")
  }

  static func caFileUnreadable(_ path: String) -> CalendarServerError {
    .tls("the certificate authority file \(oneLine(path)) cannot be read")
  }

  /// The text on one line of at most 160 characters, control characters and invalid bytes
  /// shown as `?`.
  static func oneLine(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      if out.unicodeScalars.count >= 160 {
        out += "…"
        break
      }
      let value = scalar.value
      let isControl = value < 0x20 || (value >= 0x7F && value < 0xA0) || value == 0xFFFD
      out.unicodeScalars.append(isControl ? "?" : scalar)
    }
    return out
  }
}
