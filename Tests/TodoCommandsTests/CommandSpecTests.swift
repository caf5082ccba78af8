import Testing

@testable import TodoCommands

/// The arity each declaration states, which completion and the shell's renumbering follow.
@Suite struct CommandSpecTests {
  static var everySpec: [CommandSpec] { CommandRegistry.all.flatMap { [$0] + $0.subcommands } }

  /// A usage line that shows the whole list repeating (`NR PRIORITY [NR PRIORITY ...]`) is a
  /// command declared so, and the other way round: the words and the arity cannot drift apart.
  @Test func aRepeatingUsageIsARepeatingDeclaration() {
    let repeatingKinds: [CommandSpec.ArgumentKind] = [.taskNumbers, .text, .taskText, .term, .query, .action, .dateOrDuration, .tagValue]
    for spec in Self.everySpec {
      guard let last = spec.arguments.last else { continue }
      let lastRepeats = repeatingKinds.contains(last)
      let usageRepeatsAll = spec.usage.hasSuffix("...]") && !lastRepeats
      #expect(usageRepeatsAll == spec.argumentsRepeat, "\(spec.fullName): \(spec.usage)")
    }
  }

  @Test func priTakesPairsAndDoTakesNumbers() throws {
    let pri = try #require(CommandRegistry.command(named: "pri", mode: .native))
    #expect((0..<6).map { pri.kind(ofPositional: $0) } == [.taskNumber, .priority, .taskNumber, .priority, .taskNumber, .priority])
    let add = try #require(CommandRegistry.command(named: "add", mode: .native))
    #expect(add.kind(ofPositional: 4) == add.arguments.last)
    let depri = try #require(CommandRegistry.command(named: "depri", mode: .native))
    #expect(depri.kind(ofPositional: 7) == .taskNumbers)
    let tag = try #require(CommandRegistry.command(named: "tag", mode: .native))
    #expect(tag.kind(ofPositional: 9, among: ["1", "2", "due", "fri"]) == tag.arguments.last)
  }

  /// The usage line is todo.sh's text (its help is compared byte for byte), so it is kept as
  /// written; this holds it to the declaration the parser reads: the same places, and a word
  /// left out only where the usage shows it in brackets.
  @Test func theUsageLineAndTheDeclarationAgree() {
    // todo.sh reads mv's DEST as a file name that may be missing (and says so).
    let allowedOptional: Set<String> = ["move 1"]
    let checked = Self.everySpec.filter { $0.subcommands.isEmpty && $0.extraWords != .ignored }
    #expect(checked.count > 60)
    for spec in checked {
      let places = CommandSpecTests.places(spec.usage)
      #expect(places.count == spec.positionals.count, "\(spec.fullName): '\(spec.usage)' against \(spec.arguments)")
      for (index, (positional, bracketed)) in zip(spec.positionals, places).enumerated() {
        // A text may be left out where a prompt asks for it, and a list is one or more.
        guard positional.value != .words, positional.value != .taskNumbers, positional.value != .taskNumberPerWord else { continue }
        if allowedOptional.contains("\(spec.fullName) \(index)") { continue }
        #expect(positional.isOptional == bracketed, "\(spec.fullName): place \(index + 1) of '\(spec.usage)'")
      }
    }
  }

  @Test func usagePlacesAreReadAsWritten() {
    #expect(CommandSpecTests.places("NR [NR ...] KEY [VALUE]") == [false, false, true])
    #expect(CommandSpecTests.places("NR PRIORITY [NR PRIORITY ...]") == [false, false])
    #expect(CommandSpecTests.places("[NAME [OPTIONS] [QUERY...]]") == [true, true])
    #expect(CommandSpecTests.places("NR \"TEXT TO APPEND\"") == [false, false])
    #expect(CommandSpecTests.places("NR [RULE | K]") == [false, true])
    #expect(CommandSpecTests.places("URL [--user NAME]") == [false])
    #expect(CommandSpecTests.places("[N ...]") == [true])
  }

  /// The places of a usage line, each as whether it is in brackets (may be left out): a
  /// quoted text is one place, `[--option …]` and `[OPTIONS]` are options, `[NR ...]` after
  /// `NR` repeats what comes before it, and of alternatives (`RULE | K`) the first counts.
  static func places(_ usage: String, optional: Bool = false) -> [Bool] {
    var places: [Bool] = []
    var words: [String] = []
    // Alternatives stand inside brackets here (`[RULE | K]`); a parent's are its subcommands.
    var rest = Substring(optional ? usage.components(separatedBy: " | ")[0] : usage)
    while let first = rest.first {
      if first == " " {
        rest.removeFirst()
      } else if first == "\"" {
        let end = rest.dropFirst().firstIndex(of: "\"") ?? rest.endIndex
        places.append(optional)
        rest = end < rest.endIndex ? rest[rest.index(after: end)...] : ""
      } else if first == "[" {
        var depth = 0
        var end = rest.endIndex
        for index in rest.indices {
          if rest[index] == "[" { depth += 1 }
          if rest[index] == "]" { depth -= 1 }
          if depth == 0 {
            end = index
            break
          }
        }
        let inner = String(rest[rest.index(after: rest.startIndex)..<end])
        rest = end < rest.endIndex ? rest[rest.index(after: end)...] : ""
        let repeated = inner.hasSuffix(" ...") && words.suffix(inner.split(separator: " ").count - 1).joined(separator: " ") + " ..." == inner
        if inner.hasPrefix("-") || inner == "OPTIONS" || repeated { continue }
        places += CommandSpecTests.places(inner, optional: true)
      } else {
        let end = rest.firstIndex(of: " ") ?? rest.endIndex
        let word = String(rest[..<end])
        rest = rest[end...]
        words.append(word)
        if word != "..." { places.append(optional) }
      }
    }
    return places
  }
}
