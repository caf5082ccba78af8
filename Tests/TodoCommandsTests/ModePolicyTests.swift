import Foundation
import Testing
import TodoCommands

/// The two names differ only through ``ModePolicy``: each field is a real difference, and no
/// code outside the places that pick or print the name asks which name it runs under.
@Suite struct ModePolicyTests {
  /// A field with the same value under both names would be a difference that is not one.
  @Test func everyFieldIsADifference() {
    let native = Mirror(reflecting: ModePolicy.native).children
    let todoSh = Mirror(reflecting: ModePolicy.todoSh).children
    #expect(native.count == todoSh.count && native.count > 10)
    for (mine, theirs) in zip(native, todoSh) {
      #expect(mine.label == theirs.label)
      #expect("\(mine.value)" != "\(theirs.value)", "\(mine.label ?? "?") is the same under both names")
    }
    #expect(Mode.native.policy == .native && Mode.todoSh.policy == .todoSh)
  }

  /// Comparing the mode is how differences used to hide in 21 files; the only comparisons
  /// left choose the mode from the program's name or print it.
  @Test func noCodeAsksForTheName() throws {
    let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources")
    let allowed: Set<String> = [
      // The name the tool was started under decides the mode.
      "let mode: Mode = Posix.basename(programPath) == \"todo.sh\" ? .todoSh : .native",
      // `info` prints which one it is.
      "(\"mode\", settings.mode == .native ? \"native\" : \"todo.sh\"),",
      // The policies themselves.
      "package var policy: ModePolicy { self == .native ? .native : .todoSh }",
    ]
    let pattern = try NSRegularExpression(pattern: #"mode\s*[!=]=|[!=]=\s*\.(native|todoSh)\b"#)
    var found: [String] = []
    let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
    while let file = files?.nextObject() as? URL {
      guard file.pathExtension == "swift" else { continue }
      let text = try String(contentsOf: file, encoding: .utf8)
      for (number, line) in text.components(separatedBy: "\n").enumerated() {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.hasPrefix("//"), !allowed.contains(trimmed) else { continue }
        let range = NSRange(trimmed.startIndex..., in: trimmed)
        if pattern.firstMatch(in: trimmed, range: range) != nil {
          found.append("\(file.lastPathComponent):\(number + 1): \(trimmed)")
        }
      }
    }
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
  }
}

@Suite struct ShortHelpGroupsTests {
  /// Every action a person can run under the name todo stands under exactly one heading of
  /// the short help, and every name there is an action's.
  @Test func everyListedActionIsInOneGroup() {
    let listed = CommandRegistry.all.filter { $0.isListed(in: .native) }.map(\.name)
    let grouped = CommandRegistry.groups.flatMap(\.names)
    #expect(Set(grouped).count == grouped.count, "an action in two groups")
    #expect(Set(grouped) == Set(listed), "missing: \(Set(listed).subtracting(grouped)); unknown: \(Set(grouped).subtracting(listed))")
  }
}
