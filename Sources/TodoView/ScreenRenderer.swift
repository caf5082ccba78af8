import TodoCommands
import TodoTxt

/// One screenful: a line of bytes per terminal row, each exactly as wide as the window
/// (colours included, every control from task text made visible), and where the cursor goes.
package struct Frame: Equatable {
  package var lines: [[UInt8]]
  /// 1-based row and column of the cursor when a prompt is typed; `nil` hides it.
  package var cursor: (row: Int, column: Int)?
  /// Where a picture goes, for terminals that draw pictures (the renderer leaves the cells
  /// blank there).
  package var picture: Picture?

  package struct Picture: Equatable {
    package var path: String
    package var row: Int
    package var column: Int
    package var columns: Int
    package var rows: Int
  }

  /// The text of the frame without colours, a line per row (for tests and captures).
  package var text: [String] {
    lines.map { String(decoding: ScreenRenderer.withoutColours($0), as: UTF8.self) }
  }

  package static func == (lhs: Frame, rhs: Frame) -> Bool {
    lhs.lines == rhs.lines && lhs.cursor?.row == rhs.cursor?.row && lhs.cursor?.column == rhs.cursor?.column
      && lhs.picture == rhs.picture
  }
}

/// Draws a ``ViewSession`` into a ``Frame`` of a given size: a header, the rows of tasks as
/// the readable listing draws them (the same renderer as `todo ls` on a terminal), the
/// details pane beside the list (wide windows) or below it, and the status line.
package struct ScreenRenderer {
  let colour: Bool
  let layout: TerminalLayout
  /// The same layout without colours, for the selected row (drawn in reverse video).
  let plainLayout: TerminalLayout
  /// What the details pane shows for a picture attached to the task.
  package enum PictureOutcome: Equatable {
    /// Lines of characters, each as wide as the box.
    case lines([[UInt8]])
    /// The loop writes the picture itself (kitty, sixel) over this many blank cells.
    case placed(columns: Int, rows: Int)
    /// Why the picture cannot be shown.
    case message(String)
    /// Pictures are not shown.
    case none
  }

  /// Draws the picture at a path in a box of columns × rows cells (``PictureCache``).
  var picture: (_ path: String, _ columns: Int, _ rows: Int) -> PictureOutcome = { _, _, _ in .none }

  package init(settings: Settings, today: TaskDate) {
    colour = !settings.isPlain
    layout = TerminalLayout(settings: settings, today: today)
    var plain = settings
    plain.variables["TODOTXT_PLAIN"] = "1"
    plainLayout = TerminalLayout(settings: plain, today: today)
  }

  static let reverse: [UInt8] = Array("\u{1B}[7m".utf8)
  static let bold: [UInt8] = Array("\u{1B}[1m".utf8)
  static let red: [UInt8] = Array("\u{1B}[31m".utf8)
  static let reset: [UInt8] = Array("\u{1B}[0m".utf8)

  package func render(_ session: ViewSession, width: Int, height: Int) -> Frame {
    let width = max(10, width)
    let height = max(3, height)
    var lines: [[UInt8]] = [header(session, width: width)]
    var cursor: (row: Int, column: Int)?
    var picture: Frame.Picture?
    let body = height - 2
    if session.state == .help {
      lines += help(session, width: width, height: body)
    } else if session.showsDetails, let index = session.selectedIndex {
      let detail = DetailPane(task: session.document.list[index], index: index, document: session.document, today: session.today)
      if width >= 100 {
        let listWidth = width * 11 / 20
        let paneWidth = width - listWidth - 1
        let list = rows(session, width: listWidth, height: body)
        var pane = paneLines(detail, width: paneWidth, height: body, picture: &picture)
        if var placed = picture {
          // Below the header; past the list and its separator.
          placed.row += 2
          placed.column = listWidth + 3
          picture = placed
        }
        pane += Array(repeating: ScreenRenderer.fit([], width: paneWidth, colour: false), count: max(0, body - pane.count))
        for row in 0..<body { lines.append(list[row] + Array("│".utf8) + pane[row]) }
      } else {
        let listHeight = max(1, body / 2)
        lines += rows(session, width: width, height: listHeight)
        lines.append(ScreenRenderer.fit(Array(String(repeating: "─", count: width).utf8), width: width, colour: false))
        let paneHeight = max(0, body - listHeight - 1)
        var pane = paneLines(detail, width: width, height: paneHeight, picture: &picture)
        if var placed = picture {
          // Below the header, the list and the separator.
          placed.row += listHeight + 3
          placed.column = 2
          picture = placed
        }
        pane += Array(repeating: ScreenRenderer.fit([], width: width, colour: false), count: max(0, paneHeight - pane.count))
        lines += pane.prefix(paneHeight)
      }
    } else {
      lines += rows(session, width: width, height: body)
    }
    let (status, column) = statusLine(session, width: width)
    lines.append(status)
    if let column { cursor = (height, column) }
    return Frame(lines: Array(lines.prefix(height)), cursor: cursor, picture: picture)
  }

  /// How many task rows the list shows in a window of this size (the session pages by it).
  package static func listHeight(_ session: ViewSession, width: Int, height: Int) -> Int {
    let body = max(1, max(3, height) - 2)
    return session.showsDetails && width < 100 ? max(1, body / 2) : body
  }

  private func header(_ session: ViewSession, width: Int) -> [UInt8] {
    var parts = ["todo", "\(session.rows.count) of \(session.document.list.count)", "order: \(session.order.rawValue)"]
    if let view = session.viewName { parts.append("view: \(view)") }
    if !session.filterText.isEmpty { parts.append("filter: \(session.filterText)") }
    if session.showsDone { parts.append("done shown") }
    if session.isWorking { parts.append("…") }
    let left = parts.joined(separator: " · ")
    let right = "? keys"
    let gap = max(1, width - TerminalText.columns(Array(left.utf8)) - right.count)
    let text = TerminalSafety.visible(Array((left + String(repeating: " ", count: gap) + right).utf8))
    let line = ScreenRenderer.fit(text, width: width, colour: false)
    return colour ? ScreenRenderer.reverse + line + ScreenRenderer.reset : line
  }

  private func rows(_ session: ViewSession, width: Int, height: Int) -> [[UInt8]] {
    let list = session.document.list
    let numberWidth = TerminalLayout.digits(max(1, list.count))
    var lines: [[UInt8]] = []
    if session.rows.isEmpty {
      let empty = session.filterText.isEmpty && session.viewName == nil ? "No tasks. a adds one." : "No task matches."
      lines.append(ScreenRenderer.fit(Array(("  " + empty).utf8), width: width, colour: false))
    }
    let end = min(session.rows.count, session.top + height)
    if session.top < end {
      for position in session.top..<end {
        let index = session.rows[position]
        let task = Task(bytes: ScreenRenderer.shown(list.lineBytes(at: index)))
        let isSelected = position == session.selected
        var out: [UInt8] = isSelected ? Array("> ".utf8) : Array("  ".utf8)
        (isSelected && colour ? plainLayout : layout).draw(
          number: index + 1, task: task, numberWidth: numberWidth, hasHead: true, into: &out)
        let fitted = ScreenRenderer.fit(TerminalLayout.unglued(out), width: width, colour: colour && !isSelected)
        lines.append(isSelected && colour ? ScreenRenderer.reverse + fitted + ScreenRenderer.reset : fitted)
      }
    }
    while lines.count < height { lines.append(ScreenRenderer.fit([], width: width, colour: false)) }
    return lines
  }

  private func paneLines(_ detail: DetailPane, width: Int, height: Int, picture: inout Frame.Picture?) -> [[UInt8]] {
    let lines = detail.lines.map { " " + $0 }
    var out: [[UInt8]] = []
    for (number, line) in lines.enumerated() {
      var bytes = ScreenRenderer.shown(Array(line.utf8)[...])
      if number == 0, colour { bytes = ScreenRenderer.bold + bytes + ScreenRenderer.reset }
      out.append(ScreenRenderer.fit(bytes, width: width, colour: colour))
    }
    if let path = detail.imagePath, out.count + 4 < height {
      // The picture stays off the screen's last line (a sixel there would scroll it).
      let rows = min(height - out.count - 2, max(4, width / 3))
      let columns = max(1, width - 2)
      switch self.picture(path, columns, rows) {
      case .lines(let drawn):
        out.append(ScreenRenderer.fit([], width: width, colour: false))
        for line in drawn.prefix(rows) { out.append(Array(" ".utf8) + line + Array(" ".utf8)) }
      case .placed(let placedColumns, let placedRows):
        out.append(ScreenRenderer.fit([], width: width, colour: false))
        picture = Frame.Picture(path: path, row: out.count, column: 2, columns: placedColumns, rows: placedRows)
        for _ in 0..<placedRows { out.append(ScreenRenderer.fit([], width: width, colour: false)) }
      case .message(let text):
        out.append(ScreenRenderer.fit(TerminalSafety.visible(Array("  (picture: \(text))".utf8)), width: width, colour: false))
      case .none: break
      }
    }
    return Array(out.prefix(height))
  }

  private func help(_ session: ViewSession, width: Int, height: Int) -> [[UInt8]] {
    var text = ["Keys (any key closes this; TODO_UI_KEYS='action=key ...' changes them)", ""]
    for action in ViewAction.allCases {
      let keys = session.bindings.keys(for: action).map(\.name).joined(separator: " ")
      text.append("  " + keys.padding(16) + action.summary)
    }
    text += ["", "  In a prompt: Enter takes it, Esc leaves it, Tab completes, Ctrl-A/E/U/W edit.",
      "  Mouse: click selects, double-click opens the details, the wheel scrolls."]
    var lines = text.prefix(height).map { ScreenRenderer.fit(Array($0.utf8), width: width, colour: false) }
    while lines.count < height { lines.append(ScreenRenderer.fit([], width: width, colour: false)) }
    return lines
  }

  private func statusLine(_ session: ViewSession, width: Int) -> ([UInt8], Int?) {
    switch session.state {
    case .prompt(let prompt, let editor):
      let label = Array(prompt.label.utf8)
      let before = ScreenRenderer.shown(Array(String(editor.characters[..<editor.cursor]).utf8)[...])
      let after = ScreenRenderer.shown(Array(String(editor.characters[editor.cursor...]).utf8)[...])
      // A long line scrolls so the cursor stays on screen.
      let room = width - label.count - 1
      var shownBefore = before
      while TerminalText.columns(shownBefore) > room, !shownBefore.isEmpty {
        shownBefore.removeFirst()
        while let first = shownBefore.first, first & 0xC0 == 0x80 { shownBefore.removeFirst() }
      }
      let column = label.count + TerminalText.columns(shownBefore) + 1
      return (ScreenRenderer.fit(label + shownBefore + after, width: width, colour: false), column)
    case .confirmDelete(let index, let original):
      let text = "delete task \(index + 1) '" + String(decoding: ScreenRenderer.shown(original[...]), as: UTF8.self) + "'? (y/n)"
      return (emphasised(Array(text.utf8), width: width), nil)
    case .conflict(let index, let yours, let theirs):
      let text =
        theirs.isEmpty
        ? "(y/n) task \(index + 1) changed or went on disk while you edited: add yours as a new task? '\(yours)'"
        : "(y/n) task \(index + 1) changed on disk while you edited (now '"
          + String(decoding: ScreenRenderer.shown(theirs[...]), as: UTF8.self) + "'): write yours? '\(yours)'"
      return (emphasised(TerminalSafety.visible(Array(text.utf8)), width: width), nil)
    default:
      let text = TerminalSafety.visible(Array(session.message.utf8))
      if session.messageIsError, colour {
        return (ScreenRenderer.red + ScreenRenderer.fit(text, width: width, colour: false) + ScreenRenderer.reset, nil)
      }
      return (ScreenRenderer.fit(text, width: width, colour: false), nil)
    }
  }

  private func emphasised(_ text: [UInt8], width: Int) -> [UInt8] {
    let line = ScreenRenderer.fit(text, width: width, colour: false)
    return colour ? ScreenRenderer.bold + line + ScreenRenderer.reset : line
  }

  // MARK: Text

  /// A task's line as the screen may show it: tabs as spaces, every control visible.
  static func shown(_ line: ArraySlice<UInt8>) -> [UInt8] {
    TerminalSafety.visible(line.map { $0 == 0x09 ? 0x20 : $0 })
  }

  /// `bytes` cut or padded to exactly `width` columns: colour sequences take none, a wide
  /// character that would cross the edge is left out, a line that is cut ends in `…`; with
  /// `colour`, the colours are reset at the end.
  package static func fit(_ bytes: [UInt8], width: Int, colour: Bool) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + 8)
    var used = 0
    var index = 0
    var cut = false
    while index < bytes.count {
      let byte = bytes[index]
      if let end = colourEnd(bytes, at: index) {
        out += bytes[index..<end]
        index = end
        continue
      }
      let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
      let end = min(bytes.count, index + length)
      var columns = 1
      var valid = true
      if length > 1 {
        if let scalar = String(validating: bytes[index..<end], as: UTF8.self)?.unicodeScalars.first {
          columns = TerminalText.width(of: scalar)
        } else {
          valid = false
        }
      }
      // Room is kept for the `…` of a cut line.
      let remaining = bytes.count - end
      if used + columns > width || (used + columns == width && remaining > 0 && hasVisible(bytes, from: end)) {
        cut = true
        break
      }
      if valid { out += bytes[index..<end] } else { out += Array("\u{FFFD}".utf8) }
      used += columns
      index = valid ? end : index + 1
    }
    if cut, used < width {
      out += Array("…".utf8)
      used += 1
    }
    if used < width { out += Array(repeating: 0x20, count: width - used) }
    if colour { out += reset }
    return out
  }

  /// Where the colour sequence (`ESC [` … final byte) starting at `index` ends; `nil` when
  /// none starts there. The one reading of colours the renderer's loops share.
  private static func colourEnd(_ bytes: [UInt8], at index: Int) -> Int? {
    guard bytes[index] == 0x1B, index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") else { return nil }
    var end = index + 2
    while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
    return min(end + 1, bytes.count)
  }

  private static func hasVisible(_ bytes: [UInt8], from start: Int) -> Bool {
    var index = start
    while index < bytes.count {
      guard let end = colourEnd(bytes, at: index) else { return true }
      index = end
    }
    return false
  }

  /// `bytes` without colour sequences.
  static func withoutColours(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    var index = 0
    while index < bytes.count {
      if let end = colourEnd(bytes, at: index) {
        index = end
      } else {
        out.append(bytes[index])
        index += 1
      }
    }
    return out
  }
}
