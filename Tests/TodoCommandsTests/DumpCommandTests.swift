import Foundation
import Testing

/// `__dump`: the declared commands and options as JSON, as each name has them.
@Suite struct DumpCommandTests {
  static func tree(_ name: String) throws -> [String: Any] {
    let list = try CommandFixture(todo: "")
    let run = list.run(name, ["__dump"])
    #expect(run.status == 0)
    let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
    return try #require(object as? [String: Any])
  }

  static func commands(_ tree: [String: Any]) -> [String: [String: Any]] {
    let list = tree["commands"] as? [[String: Any]] ?? []
    return Dictionary(list.map { ($0["name"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
  }

  @Test func nativeTreeHoldsEveryCommandWithItsDeclaration() throws {
    let tree = try DumpCommandTests.tree("todo")
    #expect(tree["program"] as? String == "todo")
    let commands = DumpCommandTests.commands(tree)
    let add = try #require(commands["add"])
    #expect(add["aliases"] as? [String] == ["a"])
    #expect(add["usage"] as? String == "\"TODO ITEM\"")
    let options = (add["options"] as? [[String: Any]] ?? []).compactMap { ($0["names"] as? [String])?.first }
    #expect(options.contains("--priority") && options.contains("--due"))
    #expect(commands["tag"] != nil)
    #expect(commands["__dump"] == nil)
  }

  @Test func todoShTreeLeavesOutTheNativeCommands() throws {
    let tree = try DumpCommandTests.tree("todo.sh")
    #expect(tree["program"] as? String == "todo.sh")
    let commands = DumpCommandTests.commands(tree)
    #expect(commands["add"] != nil && commands["listpri"] != nil)
    #expect(commands["tag"] == nil && commands["undo"] == nil)
  }

  @Test func anUnknownArgumentIsAUsageError() throws {
    let list = try CommandFixture(todo: "")
    let run = list.todo("__dump", "yaml")
    #expect(run.status == 1)
    #expect(run.stdout == "")
  }
}
