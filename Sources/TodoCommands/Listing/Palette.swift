import TodoTxt

/// Every colour a listing draws with, read once from the settings: todo.sh's variables
/// (`PRI_A`…`PRI_Z`, `PRI_X`, `COLOR_DONE`, `COLOR_PROJECT`, `COLOR_CONTEXT`, `COLOR_DATE`,
/// `COLOR_NUMBER`, `COLOR_META`, `DEFAULT`) as the user set them, and the tool's own
/// (`COLOR_OVERDUE`, `COLOR_DUE_TODAY`, `COLOR_DUE_SOON`, `COLOR_FAINT`) with their defaults.
/// The todo.sh lines (``Colours``), the readable layout (``TerminalLayout``), the calendar
/// and the agenda all take their colours from here, so a colour is spelled in one place.
///
/// Values are taken as todo.sh stores them: a run of backslashes followed by `033` stands
/// for ESC; anything else is printed as it is.
struct Palette {
  var number: [UInt8] = []
  var project: [UInt8] = []
  var context: [UInt8] = []
  var meta: [UInt8] = []
  var date: [UInt8] = []
  var done: [UInt8] = []
  var priorities: [UInt8: [UInt8]] = [:]
  var otherPriority: [UInt8] = []
  /// `DEFAULT` as set: what todo.sh writes after a coloured line (nothing when unset).
  var lineReset: [UInt8] = []
  /// What ends a colour of the tool's own drawing: `DEFAULT`, else ESC `[0m`.
  var reset: [UInt8] = []
  var overdue: [UInt8] = []
  var dueToday: [UInt8] = []
  var dueSoon: [UInt8] = []
  /// Tags and dates shown dimmed in the readable layout.
  var faint: [UInt8] = []

  /// No colour at all.
  init() {}

  /// The colours of `settings`. Under plain output (`-p`, `TODOTXT_PLAIN`) the tool's own
  /// colours are none; todo.sh's variables are whatever the settings hold then.
  init(_ settings: Settings) {
    func variable(_ name: String) -> [UInt8] { Palette.decode(settings.value(name)) }
    func own(_ name: String, default value: String) -> [UInt8] { Palette.own(name, default: value, settings) }
    number = variable("COLOR_NUMBER")
    project = variable("COLOR_PROJECT")
    context = variable("COLOR_CONTEXT")
    meta = variable("COLOR_META")
    date = variable("COLOR_DATE")
    done = variable("COLOR_DONE")
    for letter in UInt8(ascii: "A")...UInt8(ascii: "Z") {
      let value = variable("PRI_" + String(UnicodeScalar(letter)))
      if !value.isEmpty { priorities[letter] = value }
    }
    otherPriority = variable("PRI_X")
    lineReset = variable("DEFAULT")
    reset = settings.isPlain ? [] : (lineReset.isEmpty ? [0x1B] + Array("[0m".utf8) : lineReset)
    (overdue, dueToday) = Palette.dueColours(settings)
    dueSoon = own("COLOR_DUE_SOON", default: "\\033[0;33m")
    faint = own("COLOR_FAINT", default: "\\033[2m")
  }

  /// A colour of the tool's own: set, even empty (no colour), it is the user's; unset, the
  /// default; none under plain output.
  static func own(_ name: String, default value: String, _ settings: Settings) -> [UInt8] {
    settings.isPlain ? [] : decode(settings.variables[name] ?? value)
  }

  /// The overdue and due-today colours alone, for a listing that needs no other (every `ls`
  /// reads these; the whole palette reads all 26 priority variables).
  static func dueColours(_ settings: Settings) -> (overdue: [UInt8], dueToday: [UInt8]) {
    (own("COLOR_OVERDUE", default: "\\033[1;31m", settings), own("COLOR_DUE_TODAY", default: "\\033[1;35m", settings))
  }

  /// The colour of a `due:` date: overdue, due today, or none.
  func dueColour(_ due: TaskDate, today: TaskDate) -> [UInt8] {
    if due < today { return overdue }
    return due == today ? dueToday : []
  }

  /// Turns every run of backslashes followed by `033` into ESC.
  static func decode(_ value: String) -> [UInt8] {
    let bytes = Array(value.utf8)
    var result: [UInt8] = []
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "\\") {
        var end = index
        while end < bytes.count, bytes[end] == UInt8(ascii: "\\") { end += 1 }
        if end + 3 <= bytes.count, bytes[end..<(end + 3)].elementsEqual("033".utf8) {
          result.append(0x1B)
          index = end + 3
          continue
        }
      }
      result.append(bytes[index])
      index += 1
    }
    return result
  }
}
