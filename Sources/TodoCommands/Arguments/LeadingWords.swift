/// The words before the action, read leniently: where the tool's options end (each with its
/// separate value, as ``GlobalOptionSpec`` declares them), whether `--` ended them, whether
/// the last of them still waits for its value, and where the action stands.
///
/// Never an error: completion reads half-typed lines, the shell renumbers the task numbers of
/// any line, and `__complete` applies a line's `-d FILE` when it can. ``GlobalOptions/parse``
/// reads the same words strictly and ends them at the same word (a test holds the two
/// together); everything that needs only the boundary asks here.
package struct LeadingWords: Equatable {
  /// The option words and their values, from the first word; `--` is not among them.
  package var options: Range<Int>
  /// Whether `--` ended the options (it stands at `options.upperBound`).
  package var optionsEnded = false
  /// The last option word, when it takes a separate value and the words end before it.
  package var pendingValue: String?
  /// Where the action stands; `nil` when the words end before one.
  package var action: Int?

  package init(_ words: [String], mode: Mode) {
    var index = 0
    while index < words.count {
      let word = words[index]
      if word == "--" {
        optionsEnded = true
        break
      }
      guard word.hasPrefix("-"), word.count > 1 else { break }
      if GlobalOptionSpec.takesSeparateValue(word, mode: mode) {
        guard index + 1 < words.count else {
          pendingValue = word
          index += 1
          break
        }
        index += 2
      } else {
        index += 1
      }
    }
    options = 0..<index
    let start = optionsEnded ? index + 1 : index
    action = pendingValue == nil && start < words.count ? start : nil
  }
}
