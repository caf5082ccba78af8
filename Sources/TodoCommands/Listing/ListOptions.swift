/// Options of the native listing commands (`todo ls --sort due -q 'due:<today'`), read from the
/// front of the arguments. Under the name todo.sh every argument stays a search term, as in
/// todo.sh; under the name todo, options come first and the first argument that is not one
/// (or everything after `--`) starts the terms.
struct ListOptions: Sendable, Equatable {
  /// `--all` / `-a`: also show tasks hidden by a future `t:` or by `h:1`.
  var showAll = false
  /// `--sort KEYS`: comma-separated sort keys, `-key` for descending.
  var sort: String?
  /// `--format json|jsonl|ical|TEMPLATE`.
  var format: String?
  /// `--group project|context|priority|due`.
  var group: String?
  /// `-q EXPR` / `--query EXPR`: the query language.
  var query: String?
  /// `--why`: explain why each task is shown or hidden.
  var why = false
  /// The search terms.
  var terms: [String] = []

  /// Names of the options that take a value.
  static let valued: Set<String> = ["--sort", "--format", "--group", "--query", "-q"]
  /// Names of the flags.
  static let flags: Set<String> = ["--all", "-a", "--why"]

  /// Splits `arguments` into options and terms (native mode only).
  static func parse(_ arguments: [String], mode: Mode) throws(TodoError) -> ListOptions {
    var options = ListOptions()
    guard mode == .native else {
      options.terms = arguments
      return options
    }
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      if argument == "--" {
        index += 1
        break
      }
      var name = argument
      var inline: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inline = String(argument[argument.index(after: equals)...])
      }
      if flags.contains(name) {
        switch name {
        case "--why": options.why = true
        default: options.showAll = true
        }
        index += 1
        continue
      }
      guard valued.contains(name) else { break }
      let value: String
      if let inline {
        value = inline
        index += 1
      } else {
        guard index + 1 < arguments.count else { throw .missingOptionValue(name) }
        value = arguments[index + 1]
        index += 2
      }
      switch name {
      case "--sort": options.sort = value
      case "--format": options.format = value
      case "--group": options.group = value
      default: options.query = value
      }
    }
    options.terms = Array(arguments[index...])
    return options
  }
}
