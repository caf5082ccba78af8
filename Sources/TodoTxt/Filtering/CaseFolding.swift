/// Case-insensitive comparison of text, shared by the query language and the listing's
/// search terms so that both find the same tasks for the same word.
package enum CaseFolding {
  /// Text for case-insensitive search: Unicode lower case, with the letters whose folded form
  /// differs from it (ß, ſ, final sigma) folded too, so `STRASSE` finds `Straße` and
  /// `ΣΟΦΊΑ` finds `σοφία`.
  package static func folded(_ text: String) -> String {
    let lower = text.lowercased()
    guard lower.unicodeScalars.contains(where: { $0 == "ß" || $0 == "ſ" || $0 == "ς" || $0 == "ẞ" }) else {
      return lower
    }
    var result = ""
    for scalar in lower.unicodeScalars {
      switch scalar {
      case "ß", "ẞ": result += "ss"
      case "ſ": result += "s"
      case "ς": result += "σ"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
