/// A netrc file (`machine HOST login NAME password SECRET`, and `default`), read for the
/// password of one host. Tokens are separated by any white space; `macdef` bodies, which run
/// to a blank line, are skipped; a quoted token may hold spaces.
struct Netrc: Sendable {
  struct Entry: Sendable, Equatable {
    /// nil for `default`.
    var machine: String?
    var login: String?
    var password: String?
  }

  var entries: [Entry]

  init(parsing text: String) {
    var entries: [Entry] = []
    var tokens = Netrc.tokens(text)[...]
    while let token = tokens.popFirst() {
      switch token {
      case "machine":
        guard let name = tokens.popFirst() else { continue }
        entries.append(Entry(machine: name.lowercased()))
      case "default":
        entries.append(Entry(machine: nil))
      case "login", "password", "account":
        let value = tokens.popFirst()
        guard !entries.isEmpty else { continue }
        if token == "login" { entries[entries.count - 1].login = value }
        if token == "password" { entries[entries.count - 1].password = value }
      default:
        continue
      }
    }
    self.entries = entries
  }

  /// The first entry for `host` whose login matches `user` (any login when `user` is nil),
  /// else the `default` entry on the same terms.
  func entry(host: String, user: String?) -> Entry? {
    func fits(_ entry: Entry) -> Bool {
      entry.password != nil && (user == nil || entry.login == nil || entry.login == user)
    }
    return entries.first { $0.machine == host.lowercased() && fits($0) }
      ?? entries.first { $0.machine == nil && fits($0) }
  }

  private static func tokens(_ text: String) -> [String] {
    var tokens: [String] = []
    // By scalars, not characters: "\r\n" is one Character, and a combining mark would hide
    // a quote inside another.
    let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
    var index = 0
    while index < lines.count {
      let line = lines[index]
      index += 1
      var words = Netrc.words(line)
      if let first = words.first, first == "macdef" {
        // A macro's body runs to the next empty line.
        while index < lines.count,
          lines[index].contains(where: { $0 != " " && $0 != "\t" && $0 != "\r" })
        {
          index += 1
        }
        words = []
      }
      if let hash = words.firstIndex(where: { $0.hasPrefix("#") }) { words = Array(words[..<hash]) }
      tokens += words
    }
    return tokens
  }

  private static func words(_ line: Substring.UnicodeScalarView) -> [String] {
    var words: [String] = []
    var current = String.UnicodeScalarView()
    var inQuotes = false
    var escaped = false
    var started = false
    for character in line {
      if escaped {
        current.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
        started = true
      } else if character == "\"" {
        inQuotes.toggle()
        started = true
      } else if !inQuotes, character == " " || character == "\t" || character == "\r" {
        if started { words.append(String(current)) }
        current = String.UnicodeScalarView()
        started = false
      } else {
        current.append(character)
        started = true
      }
    }
    if started { words.append(String(current)) }
    return words
  }
}
