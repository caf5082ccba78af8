import Testing

@testable import TodoCommands

/// `help` and `shorthelp`: generated from the command table, so each test reads what it
/// expects from the declarations, not from what was printed before.
@Suite struct HelpCommandTests {
  /// The first line of an action's help block, from its declaration.
  func usageLine(_ spec: CommandSpec, as name: String) -> String {
    "    \(name)\(spec.usage.isEmpty ? "" : " " + spec.usage)"
  }

  @Test(arguments: [Mode.todoSh, .native])
  func theFullHelpHasABlockForEveryListedAction(mode: Mode) throws {
    let list = try CommandFixture()
    let run = list.run(mode == .todoSh ? "todo.sh" : "todo", ["help"])
    #expect(run.status == 0)
    #expect(run.stderr == "")
    let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let listed = CommandRegistry.all.filter { $0.isListed(in: mode) }
    #expect(!listed.isEmpty)
    for spec in listed {
      #expect(lines.contains(usageLine(spec, as: spec.names.joined(separator: "|"))), "\(spec.name)")
    }
    for spec in CommandRegistry.all where !spec.isListed(in: mode) {
      #expect(!lines.contains(usageLine(spec, as: spec.names.joined(separator: "|"))), "\(spec.name) is not listed")
    }
  }

  @Test func anActionsHelpIsItsUsageAndItsDescriptionWrapped() throws {
    let list = try CommandFixture()
    let add = try #require(CommandRegistry.all.first { $0.name == "add" })
    let run = list.sh("help", "add")
    #expect(run.status == 0)
    let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.first == usageLine(add, as: "add"))
    // The description, word for word, on lines of six blanks and at most 72 characters.
    let body = lines.dropFirst().prefix { !$0.isEmpty }
    #expect(body.allSatisfy { $0.hasPrefix("      ") && $0.count <= 78 })
    let words = body.flatMap { $0.split(separator: " ").map(String.init) }
    #expect(words == add.description(in: .todoSh).split(separator: " ").map(String.init))
    // Asked by an alias, the block is headed by the alias.
    let alias = try #require(add.aliases.first)
    #expect(list.sh("help", alias).stdout.hasPrefix(usageLine(add, as: alias) + "\n"))
  }

  @Test func underTheNameTodoAnActionsHelpEndsWithItsOptions() throws {
    let list = try CommandFixture()
    let ls = try #require(CommandRegistry.all.first { $0.name == "list" && !$0.options.isEmpty })
    let native = list.todo("help", "ls").stdout
    let todoSh = list.sh("help", "ls").stdout
    for option in ls.options {
      #expect(native.contains("      \(option.label)\n"), "\(option.label)")
      #expect(!todoSh.contains("      \(option.label)\n"), "\(option.label) under todo.sh")
    }
  }

  @Test(arguments: ["todo", "todo.sh"])
  func anUnknownActionIsOneErrorAndStopsTheHelp(name: String) throws {
    let list = try CommandFixture()
    let run = list.run(name, ["help", "nosuchaction"])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr.contains("nosuchaction"))
    #expect(run.stderr.filter { $0 == "\n" }.count == 1)
  }

  @Test func theEnvironmentIsDescribedOnlyWhenVerboseTwice() throws {
    let list = try CommandFixture()
    let quiet = list.sh("help").stdout
    let verbose = list.sh("-vv", "help").stdout
    for (name, _) in HelpCommand.environmentHelp {
      #expect(verbose.contains("\n    \(name)\n"), "\(name)")
      #expect(!quiet.contains("\n    \(name)\n"), "\(name) without -vv")
    }
  }

  @Test(arguments: ["todo", "todo.sh"])
  func anAddOnsHelpIsWhatItPrintsForUsage(name: String) throws {
    let list = try CommandFixture()
    try list.writeExecutable(
      ".todo/actions/hello",
      "#!/bin/sh\n[ \"$1\" = usage ] && printf '    hello NAME\\n      Greets NAME.\\n' && exit 0\necho hi\n")
    let one = list.run(name, ["help", "hello"])
    #expect(one.status == 0)
    #expect(one.stdout == "    hello NAME\n      Greets NAME.\n")
    let full = list.run(name, ["help"])
    #expect(full.stdout.hasSuffix("  Add-on Actions:\n    hello NAME\n      Greets NAME.\n"))
    let short = list.run(name, ["shorthelp"])
    #expect(short.stdout.contains("  Add-on Actions:\n    hello NAME\n\n"))
    #expect(!short.stdout.contains("Greets NAME."))
  }

  @Test func theShortHelpOfTodoShIsOneUsageLinePerAction() throws {
    let list = try CommandFixture()
    let run = list.sh("shorthelp")
    #expect(run.status == 0)
    #expect(run.stdout.hasPrefix("  Usage: \(HelpCommand.oneLineUsage("todo.sh"))\n"))
    for spec in CommandRegistry.all where spec.isListed(in: .todoSh) {
      let line = "    \(spec.names.joined(separator: "|"))\(spec.usage.isEmpty ? "" : " " + spec.usage)\n"
      #expect(run.stdout.contains(line), "\(spec.name)")
    }
  }

  @Test func theShortHelpOfTodoGroupsTheActionsWithTheirFirstSentence() throws {
    let list = try CommandFixture()
    let run = list.todo("shorthelp")
    #expect(run.status == 0)
    for group in CommandRegistry.groups {
      let shown = group.names.compactMap { name in CommandRegistry.all.first { $0.name == name && $0.isListed(in: .native) } }
      guard !shown.isEmpty else { continue }
      #expect(run.stdout.contains("\n  \(group.title):\n"), "\(group.title)")
      for spec in shown {
        let summary = HelpCommand.firstSentence(spec.abstract)
        #expect(run.stdout.contains(spec.names.joined(separator: ", ")) && run.stdout.contains(summary), "\(spec.name)")
      }
    }
  }

  @Test func theFirstSentenceEndsAtAFullStopBeforeABlank() {
    #expect(HelpCommand.firstSentence("Show the tasks. Numbers are kept.") == "Show the tasks.")
    #expect(HelpCommand.firstSentence("Version 2.3 of the list") == "Version 2.3 of the list")
    #expect(HelpCommand.firstSentence("") == "")
  }

  @Test func wrappingKeepsEveryWordAndBreaksOnlyBetweenWords() {
    let text = "one two three four five six seven eight nine ten eleven twelve"
    let lines = HelpCommand.wrap(text, width: 14)
    #expect(lines.allSatisfy { $0.count <= 14 })
    #expect(lines.joined(separator: " ") == text)
    #expect(HelpCommand.wrap("averyveryverylongword x", width: 5) == ["averyveryverylongword", "x"])
  }
}
