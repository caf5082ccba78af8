/// Bytes that every line a filter passes holds.
///
/// A test of a line's bytes that needs no ``Task``: a listing of a large file can look for
/// the bytes in the whole file at once and parse only the few lines that hold them. A literal
/// is necessary, not sufficient: a line that holds it is still tested with
/// ``TaskFilter/matches(_:today:)``, so the query's meaning lives in one place.
package struct RequiredLiteral: Sendable, Equatable {
  /// The bytes, with ASCII letters lower-cased when ``ignoresCase``.
  package let bytes: [UInt8]
  /// ASCII letters match in either case; no other byte is folded.
  package let ignoresCase: Bool
  /// A line with a byte outside ASCII may pass without holding the bytes: a word of the text
  /// ignores case by Unicode folding (`strasse` finds `Straße`), which bytes cannot show.
  package let onlyInASCIILines: Bool

  package init(_ bytes: [UInt8], ignoresCase: Bool = false, onlyInASCIILines: Bool = false) {
    self.bytes = ignoresCase ? bytes.map { (65...90).contains($0) ? $0 + 32 : $0 } : bytes
    self.ignoresCase = ignoresCase
    self.onlyInASCIILines = onlyInASCIILines
  }

  /// `+name` or `@name` as a ``TextPattern`` compares a token's name with it: byte for byte
  /// with smart case, ASCII letters folded otherwise; a name outside ASCII that ignores case
  /// is compared by Unicode folding, and needs no particular bytes.
  fileprivate static func name(_ sigil: UInt8, _ pattern: TextPattern) -> [RequiredLiteral] {
    guard pattern.caseSensitive || pattern.ascii else { return [] }
    return [RequiredLiteral([sigil] + pattern.needle, ignoresCase: !pattern.caseSensitive)]
  }

  /// A tag `key:value` is a token that starts with the key and its colon (keys are
  /// case-sensitive).
  fileprivate static func tag(_ key: String) -> [RequiredLiteral] { [RequiredLiteral(Array(key.utf8) + [0x3A])] }
}

extension TaskFilter {
  /// Literals every line this filter passes holds (all of them); empty when the filter needs
  /// no particular bytes (`not`, `or`, a regular expression, the head's dates and priority).
  ///
  /// Each case follows the test ``matches(_:today:)`` makes: a project is a token `+name`,
  /// `due:` and `t:` dates and every tag test read a token `key:value`, a word is looked for
  /// in the text. A disjunction would need one of several literals, which a single pass over
  /// the file cannot look for as cheaply: it requires nothing here.
  package var requiredLiterals: [RequiredLiteral] {
    switch self {
    case .all(let parts): return parts.flatMap(\.requiredLiterals)
    case .project(let pattern): return RequiredLiteral.name(UInt8(ascii: "+"), pattern)
    case .context(let pattern): return RequiredLiteral.name(UInt8(ascii: "@"), pattern)
    case .date(.due, .present), .date(.due, .compare): return RequiredLiteral.tag("due")
    case .date(.threshold, .present), .date(.threshold, .compare): return RequiredLiteral.tag("t")
    case .tag(let key, _, _), .has(.tag(let key)): return RequiredLiteral.tag(key)
    case .text(let pattern):
      guard pattern.ascii, !pattern.needle.isEmpty else { return [] }
      return [
        RequiredLiteral(
          pattern.needle, ignoresCase: !pattern.caseSensitive, onlyInASCIILines: !pattern.caseSensitive)
      ]
    default: return []
    }
  }
}
