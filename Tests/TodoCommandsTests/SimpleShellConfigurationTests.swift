import Foundation
import Testing

@testable import TodoCommands

/// The in-process reader of plain configuration files must give exactly what bash gives, and
/// hand everything else to bash.
@Suite struct SimpleShellConfigurationTests {
  static let environment = ["HOME": "/home/someone", "USER": "someone", "TODO_DIR": "", "EMPTY": ""]

  static let understood: [String] = [
    "export TODO_DIR=\"$HOME/todo\"\n",
    "# comment\n\nexport TODO_DIR=/srv/todo   \nTODOTXT_VERBOSE=0\n",
    ": ${TODO_DIR:=\"${HOME:-$USERPROFILE}\"}\nexport TODO_DIR\n: ${TODO_FILE:=\"${TODO_DIR}/todo.txt\"}\nexport TODO_FILE\nshopt -s extglob extquote\n",
    "export TODO_DIR=~/.todo-txt\nexport TODO_FILE=\"$TODO_DIR/todo.txt\"\n",
    "export PRI_A='\\\\033[1;33m'\nexport TODOTXT_SORT_COMMAND='env LC_COLLATE=C sort -k2'\n",
    "X=${EMPTY:-fallback}\nY=${USER:-none}\nZ=${UNSET}\"-\"$USER\n",
    "export A=\"one two\" \nexport B=a'b c'd\n",
  ]

  static let needBash: [String] = [
    "export TODO_DIR=$(dirname \"$0\")\n",
    "TODO_DIR=`pwd`\n",
    "if true; then X=1; fi\n",
    "export X=a\\ b\n",
    "touch used_config\n",
    "export X=*.txt\n",
    "export X=\"a\" ; Y=2\n",
  ]

  /// What bash leaves after reading `text` with `set -a`.
  static func bash(_ text: String) throws -> [String: String] {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("cfg-\(UUID().uuidString)")
    try text.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", "set -a; . \"$1\"; env -0", "todo", file.path]
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    var result: [String: String] = [:]
    for entry in data.split(separator: 0) {
      let text = String(decoding: entry, as: UTF8.self)
      guard let equals = text.firstIndex(of: "=") else { continue }
      result[String(text[..<equals])] = String(text[text.index(after: equals)...])
    }
    return result
  }

  @Test(arguments: understood)
  func sameAsBash(_ text: String) throws {
    let ours = try #require(SimpleShellConfiguration.evaluate(text, variables: Self.environment))
    let theirs = try Self.bash(text)
    for (name, value) in ours { #expect(theirs[name] == value, "\(name)") }
    for (name, value) in theirs where !["_", "SHLVL", "PWD", "OLDPWD"].contains(name) {
      #expect(ours[name] == value, "\(name) missing or different")
    }
  }

  @Test(arguments: needBash)
  func handedToBash(_ text: String) {
    #expect(SimpleShellConfiguration.evaluate(text, variables: Self.environment) == nil)
  }
}
