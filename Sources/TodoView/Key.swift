/// One thing a person did at the terminal: a key (with what it types) or a mouse event.
package enum Key: Hashable, Sendable {
  /// A character typed (space included).
  case character(Character)
  /// Ctrl with a letter: `control("r")` for Ctrl-R.
  case control(Character)
  case enter, tab, backTab, backspace, delete, escape
  case up, down, left, right, home, end, pageUp, pageDown
  /// A mouse event at a cell (1-based, as the terminal reports it).
  case mouse(MouseEvent)
  /// Alt (or Meta) with a character: bound to nothing, so it never runs a command.
  case alt(Character)
  /// Text the terminal marked as pasted (bracketed paste): never keys.
  case paste(String)
}

/// A button press, release or wheel turn at a cell of the screen.
package struct MouseEvent: Hashable, Sendable {
  package enum Kind: Hashable, Sendable {
    case press, release, wheelUp, wheelDown
  }

  package var kind: Kind
  /// 1-based row and column.
  package var row: Int
  package var column: Int

  package init(kind: Kind, row: Int, column: Int) {
    self.kind = kind
    self.row = row
    self.column = column
  }
}

extension Key {
  /// How the key is written in the help and in `TODO_UI_KEYS` (`x`, `ctrl-r`, `enter`).
  package var name: String {
    switch self {
    case .character(" "): "space"
    case .character(let c): String(c)
    case .control(let c): "ctrl-" + String(c)
    case .enter: "enter"
    case .tab: "tab"
    case .backTab: "shift-tab"
    case .backspace: "backspace"
    case .delete: "delete"
    case .escape: "esc"
    case .up: "up"
    case .down: "down"
    case .left: "left"
    case .right: "right"
    case .home: "home"
    case .end: "end"
    case .pageUp: "pgup"
    case .pageDown: "pgdn"
    case .mouse: "mouse"
    case .alt(let c): "alt-" + String(c)
    case .paste: "paste"
    }
  }

  /// The key a name written by a person stands for (the inverse of ``name``); `nil` for a
  /// name that is no key.
  package init?(name: String) {
    let lowered = name.lowercased()
    let named: [String: Key] = [
      "space": .character(" "), "enter": .enter, "return": .enter, "tab": .tab, "shift-tab": .backTab,
      "backspace": .backspace, "delete": .delete, "del": .delete, "esc": .escape, "escape": .escape, "up": .up,
      "down": .down, "left": .left, "right": .right, "home": .home, "end": .end, "pgup": .pageUp, "pageup": .pageUp,
      "pgdn": .pageDown, "pagedown": .pageDown,
    ]
    if let key = named[lowered] {
      self = key
    } else if lowered.hasPrefix("ctrl-"), lowered.count == 6, let letter = lowered.last, letter.isASCII, letter.isLetter {
      self = .control(letter)
    } else if name.count == 1, let character = name.first, !character.isWhitespace,
      character.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) })
    {
      self = .character(character)
    } else {
      return nil
    }
  }
}
