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
