import TodoTxt
/// todo.sh's listing colours on its lines: a line colour by done state or priority, and word
/// colours for the item number, +projects, @contexts, dates and key:value tags, from the one
/// ``Palette``.
struct Colours {
  private let palette: Palette
  private let hidePriority: Bool

  init(_ settings: Settings) { self.init(palette: Palette(settings), settings: settings) }

  init(palette: Palette, settings: Settings) {
    self.palette = palette
    hidePriority = !settings.value("HIDE_PRIORITY_SUBSTITUTION").isEmpty
  }

  private var done: [UInt8] { palette.done }
  private var priorities: [UInt8: [UInt8]] { palette.priorities }
  private var otherPriority: [UInt8] { palette.otherPriority }
  private var reset: [UInt8] { palette.lineReset }
  private var project: [UInt8] { palette.project }
  private var context: [UInt8] { palette.context }
  private var date: [UInt8] { palette.date }
  private var number: [UInt8] { palette.number }
  private var meta: [UInt8] { palette.meta }

  var isPlain: Bool {
    done.isEmpty && priorities.isEmpty && otherPriority.isEmpty && reset.isEmpty && project.isEmpty
      && context.isEmpty && date.isEmpty && number.isEmpty && meta.isEmpty && !hidePriority
  }

  /// Colours one numbered line (`NN text`); `due` (when not empty) colours the `due:` tag,
  /// for overdue tasks and those due today.
  ///
  /// `numberEnd` is where the row's number ends as todo.sh's colouring sees it (the digits at
  /// the line's start: ``ListingRows/NumberLayout/digitRun(_:)``), given by the rows that made
  /// the line. Only a line a user's sort command wrote (`nil`) has its digits counted here,
  /// as todo.sh's awk stage counts them in whatever text reaches it.
  func apply(to input: [UInt8], numberEnd known: Int?, due: [UInt8] = []) -> [UInt8] {
    if isPlain { return input }
    var line = input
    var numberEnd = 0
    if let known {
      numberEnd = known
    } else {
      while numberEnd < line.count, (48...57).contains(line[numberEnd]) { numberEnd += 1 }
    }
    var lineColour: [UInt8] = []
    if numberEnd > 0, numberEnd + 2 < line.count, line[numberEnd] == 0x20, line[numberEnd + 1] == UInt8(ascii: "x"),
      line[numberEnd + 2] == 0x20
    {
      lineColour = done
    } else if numberEnd > 0, numberEnd + 4 < line.count, line[numberEnd] == 0x20,
      line[numberEnd + 1] == UInt8(ascii: "("), (65...90).contains(line[numberEnd + 2]),
      line[numberEnd + 3] == UInt8(ascii: ")"), line[numberEnd + 4] == 0x20
    {
      lineColour = priorities[line[numberEnd + 2]] ?? otherPriority
      if hidePriority { line.removeSubrange((numberEnd + 1)..<(numberEnd + 5)) }
    }
    let end = lineColour.isEmpty ? [] : reset

    var output = lineColour
    var index = 0
    while index < line.count {
      let isBlank = line[index] == 0x20 || line[index] == 0x09
      var stop = index
      while stop < line.count, (line[stop] == 0x20 || line[stop] == 0x09) == isBlank { stop += 1 }
      let piece = Array(line[index..<stop])
      if isBlank {
        output += piece
      } else {
        // The line's first word is the number when it is all of the number's digits.
        let isNumber = index == 0 && stop == numberEnd
        output += wrap(piece, isNumber: isNumber, lineColour: lineColour, due: due)
      }
      index = stop
    }
    return output + end
  }

  private func wrap(_ word: [UInt8], isNumber: Bool, lineColour: [UInt8], due: [UInt8] = []) -> [UInt8] {
    func coloured(_ colour: [UInt8]) -> [UInt8] {
      colour.isEmpty ? word : colour + word + reset + lineColour
    }
    let isWordEnd: (UInt8) -> Bool = {
      (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == UInt8(ascii: "_")
    }
    if isNumber { return coloured(number) }
    if word.first == UInt8(ascii: "+"), let last = word.last, isWordEnd(last) { return coloured(project) }
    if word.first == UInt8(ascii: "@"), let last = word.last, isWordEnd(last) { return coloured(context) }
    if !due.isEmpty, word.starts(with: TagMeaning.due.key.utf8 + [0x3A]) { return coloured(due) }
    if Colours.isHighlightedDate(word) { return coloured(date) }
    if Colours.isMetadata(word) { return coloured(meta) }
    return word
  }

  /// `(19|20)YY-MM-DD` with a month 01–12 and a day 01–31.
  static func isHighlightedDate(_ word: [UInt8]) -> Bool {
    guard word.count == 10, word[4] == UInt8(ascii: "-"), word[7] == UInt8(ascii: "-") else { return false }
    let digits = [0, 1, 2, 3, 5, 6, 8, 9].map { word[$0] }
    guard digits.allSatisfy({ (48...57).contains($0) }) else { return false }
    let century = (word[0], word[1])
    guard century == (UInt8(ascii: "1"), UInt8(ascii: "9")) || century == (UInt8(ascii: "2"), UInt8(ascii: "0")) else {
      return false
    }
    let month = Int(word[5] - 48) * 10 + Int(word[6] - 48)
    let day = Int(word[8] - 48) * 10 + Int(word[9] - 48)
    return (1...12).contains(month) && (1...31).contains(day)
  }

  /// `[A-Za-z0-9]+:[^ ]+`.
  static func isMetadata(_ word: [UInt8]) -> Bool {
    guard let colon = word.firstIndex(of: UInt8(ascii: ":")), colon > 0, colon < word.count - 1 else { return false }
    return word[..<colon].allSatisfy { (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) }
  }
}
