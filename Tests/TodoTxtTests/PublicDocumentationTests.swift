import Foundation
import Testing

/// Every public symbol of the products an app imports says what it is and why, in a doc
/// comment: an app developer reads the library through them.
@Suite("Public documentation")
struct PublicDocumentationTests {
  /// Members that only fulfil a standard protocol: the protocol's documentation is theirs.
  static let witnesses = ["static func ==", "static func <", "func hash(into", "var description"]

  @Test("every public declaration of TodoTxt, TodoTxtFoundation and TodoStore has a doc comment")
  func everyPublicSymbolIsDocumented() throws {
    let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")
    var undocumented: [String] = []
    var checked = 0
    for module in ["TodoTxt", "TodoTxtFoundation", "TodoStore"] {
      let folder = sources.appendingPathComponent(module)
      let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
      for file in files.sorted() where file.hasSuffix(".swift") {
        let lines = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
          .components(separatedBy: "\n")
        for (index, line) in lines.enumerated() {
          let trimmed = line.trimmingCharacters(in: .whitespaces)
          guard trimmed.hasPrefix("public "), !trimmed.hasPrefix("public extension") else { continue }
          checked += 1
          if Self.witnesses.contains(where: { trimmed.contains($0) }) { continue }
          var above = index - 1
          while above >= 0, lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("@") { above -= 1 }
          if above < 0 || !lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("///") {
            undocumented.append("\(module)/\(file):\(index + 1): \(trimmed)")
          }
        }
      }
    }
    #expect(checked > 300, "the sources were found")
    #expect(undocumented.isEmpty, "\(undocumented.joined(separator: "\n"))")
  }
}
