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
}
