/// What a key does in the list, by name: the names are what `TODO_UI_KEYS` binds and what
/// `?` lists.
package enum ViewAction: String, CaseIterable, Sendable {
  case down, up, top, bottom, pageDown = "page-down", pageUp = "page-up"
  case complete, add, edit, editInEditor = "edit-in-editor", delete
  case priority, setPriority = "set-priority", due
  case moveDown = "move-down", moveUp = "move-up", sort
  case filter, views, toggleDone = "toggle-done", details, open
  case undo, redo, command, help, suspend, quit

  /// One line for the help screen.
  package var summary: String {
    switch self {
    case .down: "next task"
    case .up: "previous task"
    case .top: "first task"
    case .bottom: "last task"
    case .pageDown: "a screen down"
    case .pageUp: "a screen up"
    case .complete: "complete the task, or reopen a done one"
    case .add: "add a task (Tab completes +projects and @contexts)"
    case .edit: "edit the task's text here"
    case .editInEditor: "edit the task in $VISUAL or $EDITOR"
    case .delete: "delete the task (asks first)"
    case .priority: "cycle the priority: A, B, C, none"
    case .setPriority: "set the priority: a letter, high, medium, low, or - for none"
    case .due: "set the due date (a date or words: tomorrow, fri, in 3 days; empty: none)"
    case .moveDown: "move the task down in the file (the manual order)"
    case .moveUp: "move the task up in the file"
    case .sort: "next order: manual, priority, due, urgency, created, text"
    case .filter: "filter as you type (the query language); Esc clears"
    case .views: "next saved view (TODO_VIEW_NAME in the configuration)"
    case .toggleDone: "show or hide done tasks"
    case .details: "open or close the details: fields, note, dependencies, recurrence, attachments"
    case .open: "open the task's attachment or link"
    case .undo: "undo the latest change"
    case .redo: "redo what was undone"
    case .command: "run a command line, as in the shell (:q quits)"
    case .help: "this help"
    case .suspend: "stop the view and go back to the shell (fg brings it back)"
    case .quit: "quit"
    }
  }
}

/// Which key does which ``ViewAction``: the defaults, changed by the configuration's
/// `TODO_UI_KEYS` (`complete=c delete=D`, space or comma separated).
package struct KeyBindings: Sendable {
  private(set) var actions: [Key: ViewAction]

  /// The keys a person expects from other terminal task tools and pagers.
  package static let defaults: [(Key, ViewAction)] = [
    (.character("j"), .down), (.down, .down), (.character("k"), .up), (.up, .up),
    (.character("g"), .top), (.home, .top), (.character("G"), .bottom), (.end, .bottom),
    (.pageDown, .pageDown), (.control("f"), .pageDown), (.pageUp, .pageUp), (.control("b"), .pageUp),
    (.character("x"), .complete), (.character("a"), .add), (.character("e"), .edit),
    (.character("E"), .editInEditor), (.character("d"), .delete), (.character("p"), .priority),
    (.character("P"), .setPriority), (.character("t"), .due), (.character("J"), .moveDown),
    (.character("K"), .moveUp), (.character("s"), .sort), (.character("/"), .filter), (.character("v"), .views),
    (.tab, .toggleDone), (.enter, .details), (.character("o"), .open), (.character("u"), .undo),
    (.control("r"), .redo), (.character(":"), .command), (.character("?"), .help), (.character("q"), .quit),
    (.control("c"), .quit), (.control("z"), .suspend),
  ]

  /// A binding `TODO_UI_KEYS` could not take.
  package struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
    package var word: String
    package var problem: String
    package var description: String { "TODO_UI_KEYS: '\(word)': \(problem)" }
  }

  /// The defaults with `text`'s bindings on top: each `action=key` makes the key do the
  /// action (the action keeps its other keys). An unknown action or key is refused, naming
  /// it: a typo must not leave a key silently unbound.
  package init(_ text: String = "") throws(ParseError) {
    var actions: [Key: ViewAction] = [:]
    for (key, action) in KeyBindings.defaults { actions[key] = action }
    for word in text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }) {
      let parts = word.split(separator: "=", maxSplits: 1)
      guard parts.count == 2 else { throw ParseError(word: String(word), problem: "write action=key") }
      guard let action = ViewAction(rawValue: String(parts[0]).lowercased()) else {
        throw ParseError(
          word: String(word),
          problem: "no action '\(parts[0])' (actions: \(ViewAction.allCases.map(\.rawValue).joined(separator: ", ")))")
      }
      guard let key = Key(name: String(parts[1])) else {
        throw ParseError(word: String(word), problem: "'\(parts[1])' is no key (a character, ctrl-x, enter, tab, up, ...)")
      }
      actions[key] = action
    }
    self.actions = actions
  }

  /// The action of `key`, if it has one.
  package func action(for key: Key) -> ViewAction? { actions[key] }

  /// The keys of `action`, in the order of the defaults then the person's own.
  package func keys(for action: ViewAction) -> [Key] {
    let defaults = KeyBindings.defaults.map(\.0).filter { actions[$0] == action }
    let own = actions.filter { $0.value == action && !defaults.contains($0.key) }.map(\.key).sorted { $0.name < $1.name }
    return defaults + own
  }
}
