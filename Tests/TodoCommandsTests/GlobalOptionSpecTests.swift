import Foundation
import Testing

@testable import TodoCommands

/// The options before the action are declared once (``GlobalOptionSpec/all``); the parser,
/// help, completion and the scripts must each follow that declaration, option by option.
@Suite struct GlobalOptionSpecTests {
  static let letters = GlobalOptionSpec.all.compactMap(\.letter)
  static let longNames = GlobalOptionSpec.all.flatMap(\.longNames)

  /// A value that the option accepts.
  static func sample(_ option: GlobalOptionSpec) -> String? {
    guard option.takesValue else { return nil }
    return option.value.words.last ?? "some value"
  }

  @Test func theLettersAreTodoShsAndEachIsDeclaredOnce() {
    #expect(String(GlobalOptionSpecTests.letters).sorted() == "@+cdfhpPaAnNtTvVx".sorted())
    #expect(Set(GlobalOptionSpecTests.letters).count == GlobalOptionSpecTests.letters.count)
    #expect(Set(GlobalOptionSpecTests.longNames).count == GlobalOptionSpecTests.longNames.count)
  }

  /// Every letter parses under both names, every long name only under the name todo, and a
  /// value-taking option takes the next word.
  @Test(arguments: GlobalOptionSpec.all.indices)
  func eachOptionParsesInTheModesThatHaveIt(index: Int) throws {
    let option = GlobalOptionSpec.all[index]
    let value = GlobalOptionSpecTests.sample(option)
    for mode in [Mode.native, .todoSh] {
      for name in option.names(in: mode) {
        var words = [name]
        if let value { words += option.valueAfterEquals ? [] : [value] }
        if option.valueAfterEquals, let value { words = [name + "=" + value] }
        let parsed = try GlobalOptions.parse(words + ["ls", "x"], mode: mode)
        if option.effect == .help {
          #expect(parsed.showShortHelp && parsed.remaining.isEmpty)
        } else if option.effect == .version, !name.hasPrefix("--") {
          #expect(parsed.showVersion)
        } else {
          #expect(parsed.remaining == ["ls", "x"], "\(name) in \(mode)")
        }
        #expect(GlobalOptionSpec.takesSeparateValue(name, mode: mode) == option.takesSeparateValue)
      }
    }
    for name in option.longNames {
      #expect(throws: TodoError.self) { try GlobalOptions.parse([name, "ls"], mode: .todoSh) }
      #expect(!GlobalOptionSpec.takesSeparateValue(name, mode: .todoSh))
    }
  }

  /// Under the name todo the tool's long options may follow the action: they are taken out
  /// of the action's words, except where the action's declaration reads the word otherwise.
  @Test func longOptionsAfterTheActionAreTheTools() throws {
    let ls = try GlobalOptions.parse(["ls", "milk", "--color=always", "--conf", "other.cfg", "--plain"], mode: .native)
    #expect(ls.remaining == ["ls", "milk"])
    #expect(ls.color == .always)
    #expect(ls.configFile == "other.cfg")
    #expect(ls.overrides["TODOTXT_PLAIN"] == "1")
    #expect(ls.words == ["--color=always", "--conf", "other.cfg", "--plain"])
    // Before and after the action, in the order typed.
    #expect(try GlobalOptions.parse(["-p", "ls", "--col"], mode: .native).words == ["-p", "--col"])
    // After `--`, a command's value, a date's words, and a name the command declares itself.
    #expect(try GlobalOptions.parse(["add", "--", "fix", "--color"], mode: .native).remaining == ["add", "--", "fix", "--color"])
    #expect(try GlobalOptions.parse(["ls", "-q", "--plain"], mode: .native).remaining == ["ls", "-q", "--plain"])
    let del = try GlobalOptions.parse(["del", "--force", "1"], mode: .native)
    #expect(del.remaining == ["del", "--force", "1"] && del.overrides["TODOTXT_FORCE"] == nil)
    // A subcommand's and a nested action's words are read by their own declarations.
    #expect(try GlobalOptions.parse(["dep", "add", "1", "2", "--plain"], mode: .native).remaining == ["dep", "add", "1", "2"])
    #expect(try GlobalOptions.parse(["command", "ls", "--plain"], mode: .native).remaining == ["command", "ls"])
    // An unknown action (an add-on, perhaps), a hidden command and an ambiguous prefix keep
    // their words.
    #expect(try GlobalOptions.parse(["birdseye", "--plain"], mode: .native).remaining == ["birdseye", "--plain"])
    #expect(try GlobalOptions.parse(["__complete", "ls", "--plain"], mode: .native).remaining == ["__complete", "ls", "--plain"])
    #expect(try GlobalOptions.parse(["ls", "--f"], mode: .native).remaining == ["ls", "--f"])
    // A wrong value is refused as it is before the action.
    #expect(throws: TodoError.badOptionValue("--color", "sometimes")) {
      try GlobalOptions.parse(["ls", "--color=sometimes"], mode: .native)
    }
    #expect(throws: TodoError.missingOptionValue("--config")) { try GlobalOptions.parse(["ls", "--config"], mode: .native) }
    // Under the name todo.sh every word after the action is the action's.
    #expect(try GlobalOptions.parse(["ls", "--plain"], mode: .todoSh).remaining == ["ls", "--plain"])
  }

  @Test func aLongOptionBeforeTheActionMayBeAPrefix() throws {
    #expect(try GlobalOptions.parse(["--col=never", "ls"], mode: .native).color == .never)
    #expect(throws: TodoError.ambiguousOption(option: "--co", candidates: ["--config", "--color"], action: nil)) {
      try GlobalOptions.parse(["--co", "ls"], mode: .native)
    }
    #expect(throws: TodoError.unknownOption("--frob")) { try GlobalOptions.parse(["--frob", "ls"], mode: .native) }
  }

  @Test func aBundleTakesTheNextWordOnlyWhenItEndsInAValueLetter() throws {
    #expect(GlobalOptionSpec.takesSeparateValue("-fd", mode: .todoSh))
    #expect(!GlobalOptionSpec.takesSeparateValue("-dfile", mode: .todoSh))
    #expect(!GlobalOptionSpec.takesSeparateValue("-fp", mode: .native))
    let parsed = try GlobalOptions.parse(["-fd", "cfg", "-dother", "ls"], mode: .todoSh)
    #expect(parsed.configFile == "other")
    #expect(parsed.overrides["TODOTXT_FORCE"] == "1")
    #expect(parsed.remaining == ["ls"])
  }

  @Test func aLetterAndItsLongNameDoTheSame() throws {
    for option in GlobalOptionSpec.all where option.letter != nil && !option.longNames.isEmpty {
      guard let letter = option.letter, option.effect != .help, option.effect != .version else { continue }
      let value = GlobalOptionSpecTests.sample(option).map { [$0] } ?? []
      let short = try GlobalOptions.parse(["-" + String(letter)] + value + ["ls"], mode: .native)
      let long = try GlobalOptions.parse([option.longNames[0]] + value + ["ls"], mode: .native)
      #expect(short.overrides == long.overrides && short.configFile == long.configFile)
      #expect(short.verboseIncrements == long.verboseIncrements)
    }
  }

  @Test func aValueOutsideTheDeclaredSetIsRefused() {
    #expect(throws: TodoError.self) { try GlobalOptions.parse(["--color=sometimes", "ls"], mode: .native) }
    #expect(throws: TodoError.self) { try GlobalOptions.parse(["--config"], mode: .native) }
    #expect(throws: TodoError.self) { try GlobalOptions.parse(["-d"], mode: .todoSh) }
    #expect(throws: TodoError.self) { try GlobalOptions.parse(["-q", "ls"], mode: .todoSh) }
  }

  /// Help lists every letter in both modes and the long names only under the name todo, each
  /// with its declared value name.
  @Test func helpListsEveryNameOfTheMode() {
    let todoSh = GlobalOptionSpec.helpEntries(mode: .todoSh).map(\.label)
    let native = GlobalOptionSpec.helpEntries(mode: .native).map(\.label)
    for option in GlobalOptionSpec.all {
      for name in option.names(in: .native) where name == option.longNames.first || !name.hasPrefix("--") {
        let label = option.takesValue ? name + (option.valueAfterEquals ? "=" : " ") + option.valueName : name
        #expect(native.contains(label))
        #expect(todoSh.contains(label) == !name.hasPrefix("--"))
      }
    }
    #expect(native.count == GlobalOptionSpecTests.letters.count + GlobalOptionSpec.all.filter { !$0.longNames.isEmpty }.count)
  }

  /// The generated scripts skip exactly the declared value-taking options, and offer every
  /// name (and every value of `--color=`).
  @Test func theScriptsAreFedFromTheDeclaration() throws {
    let bash = try #require(CompletionScripts.script(for: "bash"))
    let fish = try #require(CompletionScripts.script(for: "fish"))
    let zsh = try #require(CompletionScripts.script(for: "zsh"))
    for option in GlobalOptionSpec.all {
      for name in option.names(in: .native) where name == option.longNames.first || !name.hasPrefix("--") {
        let words = option.valueAfterEquals ? option.value.words.map { name + "=" + $0 } : [name]
        for word in words {
          #expect(bash.contains(" \(word) ") || bash.contains("'\(word) ") || bash.contains(" \(word)'"), "\(word)")
          #expect(fish.contains("printf '%s\\t%s\\n' '\(word)'"), "\(word)")
          #expect(zsh.contains("'\(word.replacingOccurrences(of: ":", with: "\\:")):"), "\(word)")
        }
      }
      if option.takesSeparateValue {
        for name in option.longNames {
          #expect(bash.contains(name + " ") && zsh.contains(name))
          let fishCase = fish.split(separator: "\n").contains { $0.contains("case ") && $0.split(separator: " ").contains(Substring(name)) }
          #expect(fishCase, "\(name)")
        }
        if let letter = option.letter { #expect(bash.contains("-*\(letter))") && zsh.contains("-*\(letter))")) }
      }
    }
    #expect(!bash.contains("--color ") && !bash.contains("--plain |"))
  }
}
