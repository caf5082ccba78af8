import Testing
import TodoTxt

@testable import TodoCommands

/// The listing's order is chosen in one place: `--sort`, else `TODO_SORT`, else todo.sh's
/// sort unless the user set a command of their own.
@Suite struct RowOrderTests {
  static func settings(_ variables: [String: String]) -> Settings {
    var all = ["TODOTXT_SORT_COMMAND": ConfigurationLoader.defaultSortCommand]
    all.merge(variables) { _, new in new }
    return Settings(mode: .native, variables: all)
  }

  @Test func todoShsSortUnlessTheUserSetAnother() throws {
    #expect(RowOrder(RowOrderTests.settings([:])) == .lineIgnoringCase)
    #expect(RowOrder(RowOrderTests.settings(["TODOTXT_SORT_COMMAND": "sort -r"])) == .command("sort -r"))
  }

  @Test func sortWinsOverTheConfiguredOrderWhichWinsOverTheCommand() throws {
    let settings = RowOrderTests.settings(["TODO_SORT": "due", "TODOTXT_SORT_COMMAND": "sort -r"])
    let byPriority = TaskOrder([TaskOrder.Term(.priority, descending: true)])
    #expect(RowOrder.chosen(sort: byPriority, settings: settings) == .tasks(byPriority))
    #expect(RowOrder.chosen(sort: nil, settings: settings) == .tasks(try TaskOrder("due")))
    #expect(RowOrder.chosen(sort: nil, settings: RowOrderTests.settings(["TODO_SORT": ""])) == .lineIgnoringCase)
  }

  /// A `TODO_SORT` that names no key was refused when the settings were read; should one
  /// reach a listing, the listing keeps todo.sh's order rather than failing.
  @Test func anUnreadableConfiguredOrderIsTheSettingsOrder() throws {
    #expect(RowOrder.chosen(sort: nil, settings: RowOrderTests.settings(["TODO_SORT": "colour"])) == .lineIgnoringCase)
  }

  /// `--sort` is typed by the parser: a word that names no key is refused there, with the
  /// keys, before any listing is made.
  @Test func aSortNamingNoKeyIsRefusedByTheParserWithTheKeys() {
    #expect(
      throws: TodoError.optionValueNotAllowed(
        option: "--sort", value: "colour", allowed: TaskOrder.Key.allCases.map(\.rawValue))
    ) {
      try Invocation.parse(["--sort", "due,colour"], for: ListCommand.spec, as: "ls")
    }
  }

  @Test func theParsedKeysAreTheListingsOrder() throws {
    let invocation = try Invocation.parse(["--sort", "-DUE,+priority text"], for: ListCommand.spec, as: "ls")
    let options = ListOptions(invocation, terms: [])
    #expect(options.sort == TaskOrder([TaskOrder.Term(.due, descending: true), TaskOrder.Term(.priority), TaskOrder.Term(.text)]))
    #expect(options.sort == (try TaskOrder("-due,priority,text")))
  }
}
