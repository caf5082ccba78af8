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
    #expect(try RowOrder.chosen(sort: "-priority", settings: settings) == .tasks(TaskOrder("-priority")))
    #expect(try RowOrder.chosen(sort: nil, settings: settings) == .tasks(TaskOrder("due")))
    #expect(try RowOrder.chosen(sort: nil, settings: RowOrderTests.settings(["TODO_SORT": ""])) == .lineIgnoringCase)
  }

  /// A `TODO_SORT` that names no key was refused when the settings were read; should one
  /// reach a listing, the listing keeps todo.sh's order rather than failing.
  @Test func anUnreadableConfiguredOrderIsTheSettingsOrder() throws {
    #expect(try RowOrder.chosen(sort: nil, settings: RowOrderTests.settings(["TODO_SORT": "colour"])) == .lineIgnoringCase)
  }

  @Test func aSortNamingNoKeyIsRefusedWithTheKeys() {
    #expect(
      throws: TodoError.optionValueNotAllowed(
        option: "--sort", value: "colour", allowed: TaskOrder.Key.allCases.map(\.rawValue))
    ) {
      try RowOrder.chosen(sort: "due,colour", settings: RowOrderTests.settings([:]))
    }
  }
}
