import Foundation
import Testing

/// `archive`: done tasks moved to done.txt, blank lines removed.
@Suite struct ArchiveCommandTests {
  @Test(arguments: ["todo", "todo.sh"])
  func movesDoneTasksAndClosesUpTheList(name: String) throws {
    let list = try CommandFixture(todo: "Call mom\nx 2009-02-12 Buy milk\n\nPay rent\nx 2009-02-13 Water plants\n", done: "x 2009-01-01 Old\n")
    let run = list.run(name, ["archive"])
    #expect(run.status == 0)
    #expect(run.stdout == "x 2009-02-12 Buy milk\nx 2009-02-13 Water plants\nTODO: \(list.path("todo.txt")) archived.\n")
    #expect(list.read("todo.txt") == "Call mom\nPay rent\n")
    #expect(list.read("done.txt") == "x 2009-01-01 Old\nx 2009-02-12 Buy milk\nx 2009-02-13 Water plants\n")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func nothingDoneIsSaid(name: String) throws {
    let list = try CommandFixture(todo: "Call mom\n", done: "")
    let run = list.run(name, ["archive"])
    #expect(run.status == 0)
    #expect(run.stdout == "TODO: \(list.path("todo.txt")) does not contain any done tasks.\n")
    #expect(list.files == ["Call mom\n", ""])
  }

  @Test func quietArchiveSaysNothing() throws {
    let list = try CommandFixture(todo: "x 2009-02-12 Buy milk\n")
    let run = list.todo("archive", environment: ["TODOTXT_VERBOSE": "0"])
    #expect(run.status == 0)
    #expect(run.stdout == "")
    #expect(list.files == ["", "x 2009-02-12 Buy milk\n"])
  }

  /// Under the name todo, a word after a command that takes none is a mistake, not something
  /// to ignore: `todo archive 3` archives nothing and says how the command is used. The
  /// same holds for every command declared without arguments.
  @Test(arguments: [["archive", "3"], ["deduplicate", "x"], ["report", "now"], ["doctor", "all"]])
  func aWordAfterACommandThatTakesNoneIsRefused(words: [String]) throws {
    let list = try CommandFixture(todo: "Call mom\nx 2009-02-12 Buy milk\nCall mom\n", done: "")
    let run = list.run("todo", words)
    run.expectOneLineError(containing: "usage")
    #expect(list.files == ["Call mom\nx 2009-02-12 Buy milk\nCall mom\n", ""])
  }

  /// todo.sh leaves words after these actions alone, and its name keeps that (the
  /// declaration says so: ``CommandSpec/ExtraWords/ignoredUnderTodoSh``).
  @Test(arguments: [["archive", "3"], ["deduplicate", "x"], ["report", "now"], ["listaddons", "x"], ["shorthelp", "x"]])
  func todoShIgnoresAWordAfterACommandThatTakesNone(words: [String]) throws {
    let withWord = try CommandFixture(todo: "Call mom\nx 2009-02-12 Buy milk\nCall mom\n", done: "")
    let without = try CommandFixture(todo: "Call mom\nx 2009-02-12 Buy milk\nCall mom\n", done: "")
    let run = withWord.run("todo.sh", words, input: "y\n")
    let alone = without.run("todo.sh", [words[0]], input: "y\n")
    #expect(!run.stderr.contains("usage"))
    #expect(run.status == alone.status)
    // The same output but for the scratch folder's name.
    #expect(run.stdout.replacingOccurrences(of: withWord.directory.path, with: "DIR")
      == alone.stdout.replacingOccurrences(of: without.directory.path, with: "DIR"))
    #expect(withWord.files == without.files)
  }
}
